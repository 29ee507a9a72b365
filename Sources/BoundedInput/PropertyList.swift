/// A value read from an XML property list, with where it was in the file.
public indirect enum PropertyListValue: Equatable, Sendable {
    /// Entries in file order (keys are unique: a duplicate key is an error when reading).
    case dictionary([(key: String, value: PropertyListNode)])
    /// `<array>`.
    case array([PropertyListNode])
    /// `<string>`.
    case string(String)
    /// `<real>` or `<integer>`, as a number.
    case number(Double)
    /// `<true/>` or `<false/>`.
    case bool(Bool)
    /// `<date>` or `<data>`, kept as its text.
    case other(kind: String, text: String)

    public static func == (a: PropertyListValue, b: PropertyListValue) -> Bool {
        switch (a, b) {
        case let (.dictionary(x), .dictionary(y)): x.map(\.key) == y.map(\.key) && x.map(\.value) == y.map(\.value)
        case let (.array(x), .array(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.number(x), .number(y)): x == y
        case let (.bool(x), .bool(y)): x == y
        case let (.other(k1, t1), .other(k2, t2)): k1 == k2 && t1 == t2
        default: false
        }
    }

    /// What kind of value this is, for messages: "a string", "a dictionary", …
    public var kindDescription: String {
        switch self {
        case .dictionary: "a dictionary"
        case .array: "an array"
        case .string(let s): "the string '\(s.prefix(40))'"
        case .number: "a number"
        case .bool: "a boolean"
        case .other(let kind, _): "a \(kind)"
        }
    }
}

/// A property-list value and the line:column of its element.
public struct PropertyListNode: Equatable, Sendable {
    /// The value.
    public var value: PropertyListValue
    /// Where its element starts.
    public var position: SourcePosition

    /// A node of `value` at `position`.
    public init(value: PropertyListValue, position: SourcePosition) {
        self.value = value
        self.position = position
    }

    /// The entry for `key` when this is a dictionary.
    public subscript(key: String) -> PropertyListNode? {
        guard case .dictionary(let entries) = value else { return nil }
        return entries.first { $0.key == key }?.value
    }
}

/// Reads Apple's XML property-list format (`<plist><dict><key>…`) without Foundation, so that every
/// error has a line and column, a duplicate key is an error instead of silently winning, and input is
/// bounded: at most ``Limits/plistBytes`` bytes (checked by the caller's read), nesting at most
/// ``Limits/plistDepth``, strings at most ``Limits/stringBytes``. Comments, the XML declaration, a
/// DOCTYPE, CDATA and the five predefined entities plus numeric character references are understood;
/// other entities (and so any entity expansion) are errors. Binary property lists are not read.
public enum PropertyListReader {
    /// The root value of the XML property list in `bytes`; `source` names it in errors.
    public static func parse(_ bytes: [UInt8], source: String) throws(DocumentError) -> PropertyListNode {
        var scanner = XMLScanner(bytes: bytes, source: source)
        try scanner.skipProlog()
        let root = try scanner.expectStartTag()
        guard root.name == "plist" else { throw scanner.error("the top element must be <plist>, got <\(root.name)>", at: root.position) }
        guard !root.selfClosing else { throw scanner.error("an empty <plist/>", at: root.position) }
        let node = try scanner.readValue(depth: 0, keyPath: KeyPath())
        try scanner.expectEndTag("plist")
        try scanner.skipMisc()
        guard scanner.atEnd else { throw scanner.error("unexpected content after </plist>") }
        return node
    }
}

/// The small XML subset property lists use.
struct XMLScanner {
    let bytes: [UInt8]
    let source: String
    var index = 0

    init(bytes: [UInt8], source: String) {
        self.bytes = bytes
        self.source = source
    }

    var atEnd: Bool { index >= bytes.count }

    struct Tag {
        var name: String
        var selfClosing: Bool
        var position: SourcePosition
    }

    func error(_ reason: String, at position: SourcePosition? = nil, keyPath: KeyPath = KeyPath()) -> DocumentError {
        DocumentError(source: source, position: position ?? SourcePosition(of: index, in: bytes), keyPath: keyPath, reason: reason)
    }

    mutating func skipProlog() throws(DocumentError) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        if bytes.starts(with: Array("bplist".utf8)) {
            throw error("a binary property list; save it as XML (plutil -convert xml1)")
        }
        try skipMisc()
        if starts("<?xml") { try skipPast("?>", what: "the XML declaration"); try skipMisc() }
        if starts("<!DOCTYPE") { try skipPast(">", what: "the DOCTYPE"); try skipMisc() }
    }

    /// Whitespace and comments.
    mutating func skipMisc() throws(DocumentError) {
        while true {
            skipWhitespace()
            if starts("<!--") { try skipPast("-->", what: "a comment") } else { return }
        }
    }

    mutating func expectStartTag() throws(DocumentError) -> Tag {
        try skipMisc()
        let position = SourcePosition(of: index, in: bytes)
        guard starts("<"), !starts("</") else {
            throw error(atEnd ? "the file ends where an element was expected" : "expected an element")
        }
        index += 1
        let name = readName()
        guard !name.isEmpty else { throw error("expected an element name") }
        // Attributes (only <plist version="1.0"> has one) are skipped, quoted values included.
        while index < bytes.count, bytes[index] != UInt8(ascii: ">") {
            if bytes[index] == UInt8(ascii: "/") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: ">") {
                index += 2
                return Tag(name: name, selfClosing: true, position: position)
            }
            if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                let quote = bytes[index]
                index += 1
                while index < bytes.count, bytes[index] != quote { index += 1 }
            }
            index += 1
        }
        guard index < bytes.count else { throw error("the file ends inside the tag <\(name)", at: position) }
        index += 1
        return Tag(name: name, selfClosing: false, position: position)
    }

    mutating func expectEndTag(_ name: String) throws(DocumentError) {
        try skipMisc()
        guard starts("</") else { throw error("expected </\(name)>") }
        let start = SourcePosition(of: index, in: bytes)
        index += 2
        let found = readName()
        skipWhitespace()
        guard found == name, index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
            throw error("expected </\(name)>, got </\(found)>", at: start)
        }
        index += 1
    }

    /// Text content up to the next `<` that is not CDATA; entities decoded.
    mutating func readText(keyPath: KeyPath) throws(DocumentError) -> String {
        var out: [UInt8] = []
        while index < bytes.count {
            if starts("<![CDATA[") {
                index += 9
                let start = index
                try skipPast("]]>", what: "a CDATA section")
                out += bytes[start..<index - 3]
            } else if starts("<!--") {
                try skipPast("-->", what: "a comment")
            } else if bytes[index] == UInt8(ascii: "<") {
                break
            } else if bytes[index] == UInt8(ascii: "&") {
                out += try readEntity(keyPath: keyPath)
            } else {
                out.append(bytes[index])
                index += 1
            }
            guard out.count <= Limits.stringBytes else {
                throw error("text longer than \(Limits.stringBytes) bytes", keyPath: keyPath)
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else { throw error("text that is not valid UTF-8", keyPath: keyPath) }
        return text
    }

    mutating func readValue(depth: Int, keyPath: KeyPath) throws(DocumentError) -> PropertyListNode {
        guard depth < Limits.plistDepth else { throw error("nested more than \(Limits.plistDepth) levels deep", keyPath: keyPath) }
        let tag = try expectStartTag()
        func node(_ value: PropertyListValue) -> PropertyListNode { PropertyListNode(value: value, position: tag.position) }
        func leaf() throws(DocumentError) -> String {
            if tag.selfClosing { return "" }
            let text = try readText(keyPath: keyPath)
            try expectEndTag(tag.name)
            return text
        }
        switch tag.name {
        case "dict":
            var entries: [(key: String, value: PropertyListNode)] = []
            if tag.selfClosing { return node(.dictionary([])) }
            while true {
                try skipMisc()
                if starts("</") { try expectEndTag("dict"); return node(.dictionary(entries)) }
                let keyTag = try expectStartTag()
                guard keyTag.name == "key" else {
                    throw error("expected <key> in a dictionary, got <\(keyTag.name)>", at: keyTag.position, keyPath: keyPath)
                }
                let key = keyTag.selfClosing ? "" : try readText(keyPath: keyPath)
                if !keyTag.selfClosing { try expectEndTag("key") }
                let entryPath = keyPath.appending(.key(key))
                if entries.contains(where: { $0.key == key }) {
                    throw error("the key '\(key)' appears twice in this dictionary", at: keyTag.position, keyPath: entryPath)
                }
                try skipMisc()
                if starts("</") { throw error("the key '\(key)' has no value", at: keyTag.position, keyPath: entryPath) }
                entries.append((key, try readValue(depth: depth + 1, keyPath: entryPath)))
            }
        case "array":
            var items: [PropertyListNode] = []
            if tag.selfClosing { return node(.array([])) }
            while true {
                try skipMisc()
                if starts("</") { try expectEndTag("array"); return node(.array(items)) }
                items.append(try readValue(depth: depth + 1, keyPath: keyPath.appending(.index(items.count))))
            }
        case "string": return node(.string(try leaf()))
        case "real", "integer":
            let text = try leaf().trimmingSpaces
            guard text.utf8.count <= 64, let number = Double(text), number.isFinite,
                  tag.name == "real" || number == number.rounded() else {
                throw error("<\(tag.name)> holds '\(text.prefix(40))', not a finite number", at: tag.position, keyPath: keyPath)
            }
            return node(.number(number))
        case "true", "false":
            if !tag.selfClosing { try expectEndTag(tag.name) }
            return node(.bool(tag.name == "true"))
        case "date", "data": return node(.other(kind: tag.name, text: try leaf()))
        default:
            throw error("unknown property-list element <\(tag.name)>", at: tag.position, keyPath: keyPath)
        }
    }

    private mutating func readEntity(keyPath: KeyPath) throws(DocumentError) -> [UInt8] {
        let start = index
        guard let end = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw error("an '&' that does not start an entity", keyPath: keyPath)
        }
        let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        index = end + 1
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            if name.hasPrefix("#") {
                let digits = name.dropFirst()
                let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                if let value, let scalar = Unicode.Scalar(value), value != 0 { return Array(String(Character(scalar)).utf8) }
            }
            index = start
            throw error("unknown entity '&\(name);'", keyPath: keyPath)
        }
    }

    private mutating func readName() -> String {
        let start = index
        while index < bytes.count {
            let b = bytes[index]
            guard b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ":") || b == UInt8(ascii: ".")
                    || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                    || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) else { break }
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private func starts(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return text.withUTF8Buffer { buffer in
            for i in 0..<count where buffer[i] != bytes[index + i] { return false }
            return true
        }
    }

    private mutating func skipPast(_ terminator: StaticString, what: String) throws(DocumentError) {
        let start = index
        while index < bytes.count {
            if starts(terminator) { index += terminator.utf8CodeUnitCount; return }
            index += 1
        }
        throw error("the file ends inside \(what)", at: SourcePosition(of: start, in: bytes))
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
