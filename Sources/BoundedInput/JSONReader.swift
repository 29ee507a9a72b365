/// A pull parser for JSON documents whose shape the caller knows (a manifest, a scene file).
///
/// The caller walks the document (`readObject`, `readArray`, `readString`, …) and builds its own
/// values as it goes, so memory is what the caller keeps, never a tree of the whole input: a document
/// of millions of small values costs nothing until something keeps them. Every error names the source,
/// the line:column and the key path (`frames[3].sha256`). Strings are capped (``Limits/stringBytes``
/// by default), arrays take a maximum count, nesting is capped at ``maxDepth``, and duplicate keys in an
/// object are errors. Grammar: RFC 8259.
public struct JSONReader {
    /// The deepest nesting ``skipValue()`` follows: 64.
    public static let maxDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    /// The file's path, or a name for data from memory, for messages.
    public let source: String
    /// Where the reader is in the document's structure.
    public private(set) var keyPath = KeyPath()
    /// Where the key of the value being read starts, for messages about the key itself.
    private var keyOffset = 0

    /// A reader at the start of `bytes`; `source` names them in errors. A UTF-8 byte-order mark at the
    /// start is skipped (RFC 8259 lets a parser ignore it; some Windows editors write one), and lines and
    /// columns count from after it, as editors show them.
    public init(_ bytes: [UInt8], source: String) {
        self.bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        self.source = source
    }

    /// An error at the current position and key path.
    public func error(_ reason: String) -> DocumentError {
        DocumentError(source: source, position: SourcePosition(of: index, in: bytes), keyPath: keyPath, reason: reason)
    }

    /// A place the reader has been (the key of the value being read, and its key path), to be turned into a
    /// position by ``errors(at:reason:)`` once the document is read: for errors found only after the whole
    /// document is known (a scene's limits), which still name the line and column.
    public struct Mark: Sendable {
        let offset: Int
        /// The key path at the mark.
        public let keyPath: KeyPath
    }

    /// The start of the value about to be read (inside ``readObject(_:)``'s body), with its key path.
    public mutating func mark() -> Mark {
        skipWhitespace()
        return Mark(offset: index, keyPath: keyPath)
    }

    /// Errors at each of `marks` (in their order), all with `reason`; one pass over the document however
    /// many marks there are. Use the errors as templates: set `reason` when one is thrown.
    public func errors(at marks: [Mark], reason: String = "") -> [DocumentError] {
        let order = marks.indices.sorted { marks[$0].offset < marks[$1].offset }
        var result = [DocumentError?](repeating: nil, count: marks.count)
        var line = 1, lineStart = 0, scanned = 0
        for i in order {
            let target = min(marks[i].offset, bytes.count)
            while scanned < target {
                if bytes[scanned] == 0x0A { line += 1; lineStart = scanned + 1 }
                scanned += 1
            }
            result[i] = DocumentError(source: source, position: SourcePosition(line: line, column: target - lineStart + 1),
                                      keyPath: marks[i].keyPath, reason: reason)
        }
        return result.map { $0! }
    }

    // MARK: Values

    /// The kind of the next value, without consuming it.
    public enum Kind: Equatable, Sendable {
        /// `{…}`
        case object
        /// `[…]`
        case array
        /// `"…"`
        case string
        /// A number.
        case number
        /// `true` or `false`.
        case bool
        /// `null`.
        case null
    }

    /// The kind of the next value.
    public mutating func peek() throws(DocumentError) -> Kind {
        skipWhitespace()
        guard index < bytes.count else { throw error("the document ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: throw error("unexpected character '\(printable(bytes[index]))' where a value was expected")
        }
    }

    /// Reads an object, calling `body` for each key with the reader at its value (which `body` must
    /// read or skip). The key path inside `body` ends with the key. Duplicate keys are errors.
    public mutating func readObject(_ body: (inout JSONReader, String) throws(DocumentError) -> Void) throws(DocumentError) {
        try expectValue(.object, "an object")
        index += 1
        var seen = Set<String>()
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
            let keyStart = index
            let key = try readString()
            keyOffset = keyStart
            guard seen.insert(key).inserted else {
                index = keyStart
                throw error("the key '\(key)' appears twice in this object")
            }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw error("expected ':' after the key '\(key)'") }
            let saved = keyPath
            keyPath = keyPath.appending(.key(key))
            try body(&self, key)
            keyPath = saved
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "}")) { return }
            throw error("expected ',' or '}' in an object")
        }
    }

    /// Reads an array of at most `maxCount` elements, calling `body` with each element's index and the
    /// reader at the element.
    public mutating func readArray(maxCount: Int, _ body: (inout JSONReader, Int) throws(DocumentError) -> Void) throws(DocumentError) {
        try expectValue(.array, "an array")
        index += 1
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return }
        var count = 0
        while true {
            skipWhitespace()
            guard count < maxCount else { throw error("more than \(maxCount) elements") }
            let saved = keyPath
            keyPath = keyPath.appending(.index(count))
            try body(&self, count)
            keyPath = saved
            count += 1
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "]")) { return }
            throw error("expected ',' or ']' in an array")
        }
    }

    /// Reads a string of at most `maxBytes` bytes of UTF-8.
    public mutating func readString(maxBytes: Int = Limits.stringBytes) throws(DocumentError) -> String {
        try expectValue(.string, "a string")
        index += 1
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("the document ends inside a string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { index += 1; break }
            guard byte >= 0x20 else { throw error("a control character (0x\(String(byte, radix: 16))) inside a string") }
            if byte == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { throw error("the document ends inside a string") }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try readHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("a lone UTF-16 surrogate in a \\u escape")
                        }
                        index += 2
                        let low = try readHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("a lone UTF-16 surrogate in a \\u escape")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default: throw error("an invalid escape '\\\(printable(escaped))' in a string")
                }
            } else {
                out.append(byte)
                index += 1
            }
            guard out.count <= maxBytes else { throw error("a string longer than \(maxBytes) bytes") }
        }
        guard let string = String(validating: out, as: UTF8.self) else { throw error("a string that is not valid UTF-8") }
        return string
    }

    /// Reads a number.
    public mutating func readNumber() throws(DocumentError) -> Double {
        try expectValue(.number, "a number")
        let start = index
        _ = consume(UInt8(ascii: "-"))
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("a malformed number") }
        if bytes[index] == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
        if consume(UInt8(ascii: ".")) {
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("a malformed number") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("a malformed number") }
            skipDigits()
        }
        guard index - start <= 64, let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
            let long = index - start > 64
            index = start
            throw error(long ? "a number of more than 64 characters" : "a number out of range (beyond ±1.8e308, a double's range)")
        }
        return value
    }

    /// Reads a number that must be a whole number in `range`.
    public mutating func readInteger(in range: ClosedRange<Int>) throws(DocumentError) -> Int {
        let start = index
        let value = try readNumber()
        guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            index = start
            throw error("expected a whole number in \(range.lowerBound)…\(range.upperBound), got \(value)")
        }
        return Int(value)
    }

    /// Reads `true` or `false`.
    public mutating func readBool() throws(DocumentError) -> Bool {
        try expectValue(.bool, "true or false")
        if consumeWord("true") { return true }
        if consumeWord("false") { return false }
        throw error("expected true or false")
    }

    /// Reads `null` and returns true, or returns false (consuming nothing) when the next value is not null.
    public mutating func readNull() throws(DocumentError) -> Bool {
        guard try peek() == .null else { return false }
        guard consumeWord("null") else { throw error("expected null") }
        return true
    }

    /// Skips one value of any kind, checking its syntax, nested at most ``maxDepth`` deep.
    public mutating func skipValue() throws(DocumentError) {
        try skipValue(depth: 0)
    }

    private mutating func skipValue(depth: Int) throws(DocumentError) {
        guard depth < Self.maxDepth else { throw error("nested more than \(Self.maxDepth) levels deep") }
        switch try peek() {
        case .object: try readObject { (reader: inout JSONReader, _: String) throws(DocumentError) in try reader.skipValue(depth: depth + 1) }
        case .array: try readArray(maxCount: .max) { (reader: inout JSONReader, _: Int) throws(DocumentError) in try reader.skipValue(depth: depth + 1) }
        case .string: _ = try readString(maxBytes: .max)
        case .number: _ = try readNumber()
        case .bool: _ = try readBool()
        case .null: _ = try readNull()
        }
    }

    /// Checks that nothing but whitespace follows the document.
    public mutating func finish() throws(DocumentError) {
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the end of the document") }
    }

    /// An error at the current key saying it is unknown, suggesting the closest of `known`.
    public func unknownKey(_ key: String, known: [String]) -> DocumentError {
        var message = "unknown key '\(key)'"
        if let suggestion = closestName(to: key, among: known) { message += "; did you mean '\(suggestion)'?" }
        return DocumentError(source: source, position: SourcePosition(of: keyOffset, in: bytes), keyPath: keyPath, reason: message)
    }

    // MARK: Scanning

    private mutating func expectValue(_ kind: Kind, _ what: String) throws(DocumentError) {
        let found = try peek()
        guard found == kind else { throw error("expected \(what), got \(describe(found))") }
    }

    private func describe(_ kind: Kind) -> String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    private mutating func readHex4() throws(DocumentError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("the document ends inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw error("an invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func consumeWord(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = word.withUTF8Buffer { Array($0) == Array(bytes[index..<index + count]) }
        if matches { index += count }
        return matches
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private mutating func skipDigits() { while index < bytes.count, isDigit(bytes[index]) { index += 1 } }

    private func printable(_ b: UInt8) -> String {
        b >= 0x20 && b < 0x7F ? String(UnicodeScalar(b)) : "0x" + String(b, radix: 16)
    }
}
