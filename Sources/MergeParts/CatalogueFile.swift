import BoundedInput

/// `catalogue.json` as merge reads it: parsed strictly with a pull parser (no tree of the whole
/// document), every number checked before it is used, every name checked by ``TransitionName`` before
/// it can reach a path.
///
/// Checked: `parts` in 1…``Limits/maxShards``, `part` in 1…`parts`, each entry's `part` in 1…`parts`,
/// `frames` in 0…``Limits/framesPerRender``, `cost` finite and ≥ 0, `scale` 1, 2 or 3, `fps` in
/// (0, ``Limits/maxFPS``], at most ``maxEntries`` entries, each name once. Unknown keys are errors with
/// line:column and the key path (exit 65).
public struct CatalogueFile: Equatable, Sendable {
    /// One transition of the catalogue.
    public struct Entry: Equatable, Sendable {
        public var name: String
        public var source: String
        public var frames: Int
        public var cost: Double
        public var part: Int
        public var error: String?
    }

    public var generator: String
    public var scale: Int
    public var fps: Double?
    public var compression: String
    public var match: String?
    public var part: Int
    public var parts: Int
    public var catalogue: [Entry]
    /// The render's `--appearance` when not light, and `--text-size` when not large; nil otherwise.
    public var appearance: String?
    public var textSize: String?

    /// `catalogue.json`.
    public static let fileName = "catalogue.json"
    /// The most transitions in one catalogue: 10,000.
    public static let maxEntries = 10_000

    static let keys = ["generator", "scale", "fps", "compression", "match", "part", "parts", "catalogue", "appearance", "textSize"]
    static let entryKeys = ["name", "source", "frames", "cost", "part", "error"]

    /// Parses `bytes` (the file at `path`, for messages).
    public static func parse(_ bytes: [UInt8], path: String) throws(DocumentError) -> CatalogueFile {
        var reader = JSONReader(bytes, source: path)
        var generator: String?, scale: Int?, fps: Double?, compression: String?, match: String?
        var part: Int?, parts: Int?, entries: [Entry]?, appearance: String?, textSize: String?
        try reader.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "generator": generator = try r.readString()
            case "scale": scale = try r.readInteger(in: 1...3)
            case "fps":
                if try !r.readNull() {
                    let value = try r.readNumber()
                    guard value > 0, value <= Limits.maxFPS else { throw r.error("must be in (0, \(Int(Limits.maxFPS))], got \(value)") }
                    fps = value
                }
            case "compression": compression = try r.readString(maxBytes: 64)
            case "match": match = try r.readNull() ? nil : try r.readString()
            case "part": part = try r.readInteger(in: 1...Limits.maxShards)
            case "parts": parts = try r.readInteger(in: 1...Limits.maxShards)
            case "appearance": appearance = try r.readString(maxBytes: 16)
            case "textSize": textSize = try r.readString(maxBytes: 16)
            case "catalogue":
                var list: [Entry] = []
                var seen = Set<String>()
                try r.readArray(maxCount: maxEntries) { (r: inout JSONReader, index: Int) throws(DocumentError) in
                    let entry = try readEntry(&r, index: index)
                    guard seen.insert(entry.name).inserted else { throw r.error("the name '\(entry.name)' is listed twice") }
                    list.append(entry)
                }
                entries = list
            default: throw r.unknownKey(key, known: keys)
            }
        }
        try reader.finish()
        func missing(_ key: String) -> DocumentError {
            DocumentError(source: path, position: nil, keyPath: KeyPath([.key(key)]), reason: "missing")
        }
        guard let generator else { throw missing("generator") }
        guard let scale else { throw missing("scale") }
        guard let compression else { throw missing("compression") }
        guard let part else { throw missing("part") }
        guard let parts else { throw missing("parts") }
        guard let entries else { throw missing("catalogue") }
        guard part <= parts else {
            throw DocumentError(source: path, position: nil, keyPath: KeyPath([.key("part")]), reason: "is \(part) but parts is \(parts)")
        }
        if let k = entries.firstIndex(where: { $0.part > parts }) {
            throw DocumentError(source: path, position: nil, keyPath: KeyPath([.key("catalogue"), .index(k), .key("part")]),
                                reason: "is \(entries[k].part) but parts is \(parts)")
        }
        return CatalogueFile(generator: generator, scale: scale, fps: fps, compression: compression, match: match,
                             part: part, parts: parts, catalogue: entries, appearance: appearance, textSize: textSize)
    }

    private static func readEntry(_ r: inout JSONReader, index: Int) throws(DocumentError) -> Entry {
        var name: String?, source: String?, frames: Int?, cost: Double?, part: Int?, error: String?
        try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "name":
                let value = try r.readString(maxBytes: 4 * TransitionName.maxBytes)
                if let problem = TransitionName.problem(with: value) { throw r.error("the name \(problem)") }
                name = value
            case "source": source = try r.readString()
            case "frames": frames = try r.readInteger(in: 0...Limits.framesPerRender)
            case "cost":
                let value = try r.readNumber()
                guard value >= 0 else { throw r.error("must be ≥ 0, got \(value)") }
                cost = value
            case "part": part = try r.readInteger(in: 1...Limits.maxShards)
            case "error": error = try r.readNull() ? nil : try r.readString()
            default: throw r.unknownKey(key, known: entryKeys)
            }
        }
        guard let name, let source, let frames, let cost, let part else {
            throw r.error("catalogue[\(index)] needs name, source, frames, cost and part")
        }
        return Entry(name: name, source: source, frames: frames, cost: cost, part: part, error: error)
    }
}
