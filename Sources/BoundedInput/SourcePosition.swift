/// A place in a text file: 1-based line and column (columns count bytes of UTF-8).
public struct SourcePosition: Equatable, Sendable, CustomStringConvertible {
    /// 1-based line.
    public var line: Int
    /// 1-based column, in bytes of UTF-8.
    public var column: Int

    /// The position at `line`, `column` (both 1-based).
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }

    /// The position of byte `offset` in `bytes`.
    public init(of offset: Int, in bytes: [UInt8]) {
        var line = 1, lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        self.init(line: line, column: offset - lineStart + 1)
    }
}

/// A place in a nested document as a key path: `frames[3].sha256`, `selectedNote.duration`.
public struct KeyPath: Equatable, Sendable, CustomStringConvertible {
    /// One step into a document.
    public enum Component: Equatable, Sendable {
        /// A dictionary's or object's key.
        case key(String)
        /// An array's index, 0-based.
        case index(Int)
    }

    /// From the top of the document down.
    public var components: [Component] = []

    /// A key path of `components`; default the top level.
    public init(_ components: [Component] = []) { self.components = components }

    /// This path one step further down.
    public func appending(_ component: Component) -> KeyPath { KeyPath(components + [component]) }

    /// Keys joined by dots, indices in brackets; `(top level)` when empty.
    public var description: String {
        guard !components.isEmpty else { return "(top level)" }
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += (text.isEmpty ? "" : ".") + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

/// Bad data in a structured file: the file, where (line:column and key path) and why. Exit 65.
public struct DocumentError: ExitStatusError, Equatable, Sendable {
    /// The file's path, or a name for data from memory.
    public var source: String
    /// Where in the text, when the format has lines.
    public var position: SourcePosition?
    /// Where in the document's structure; empty at the top level or for syntax errors before any key.
    public var keyPath: KeyPath
    /// What is wrong, e.g. `must be a number of seconds, got the string 'fast'`.
    public var reason: String

    /// An error in `source` at `position` (nil when the format has no lines) and `keyPath`.
    public init(source: String, position: SourcePosition?, keyPath: KeyPath, reason: String) {
        self.source = source
        self.position = position
        self.keyPath = keyPath
        self.reason = reason
    }

    /// `file:line:column: key.path: reason`.
    public var description: String {
        var text = source
        if let position { text += ":\(position)" }
        if !keyPath.components.isEmpty { text += ": \(keyPath)" }
        return text + ": " + reason
    }

    /// 65: bad input data.
    public var exitStatus: Int32 { ExitStatus.dataError }
}

/// Suggests the known name closest to `name` (edit distance, with a swap of two neighbouring letters
/// counting as one edit, at most a third of its length and at least 1), for "did you mean" messages;
/// nil for names shorter than three characters.
public func closestName(to name: String, among known: [String]) -> String? {
    func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard a.count <= 64, b.count <= 64 else { return .max }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
    // Names of one or two letters are too short for a guess to mean anything.
    guard name.count >= 3 else { return nil }
    let lowered = Array(name.lowercased())
    // Sorted, so that a tie always suggests the same name.
    let scored = known.sorted().map { ($0, distance(lowered, Array($0.lowercased()))) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, name.count / 3) else { return nil }
    return best.0
}
