import BoundedInput
import Foundation
import Motion

/// The timing of one animation block, as a designer writes it in a plist.
public struct BlockTiming: Equatable, Sendable {
    /// Seconds, ≥ 0.
    public var duration: Double
    /// Seconds before the block starts, ≥ 0. Default 0.
    public var delay: Double
    /// Default `.easeInEaseOut`, UIView's default.
    public var curve: TimingCurve

    /// A timing of `duration` seconds after `delay` seconds (default 0), with `curve` (default ease in and out).
    public init(duration: Double, delay: Double = 0, curve: TimingCurve = .easeInEaseOut) {
        self.duration = duration
        self.delay = delay
        self.curve = curve
    }

    /// When the block ends, from the start of the transition (seconds).
    public var end: Double { delay + duration }
}

/// Block timings read from a property list a designer edits without touching code:
///
/// ```xml
/// <dict>
///   <key>tableView</key>
///   <dict>
///     <key>duration</key> <real>0.35</real>
///     <key>delay</key>    <real>0</real>              <!-- optional, default 0 -->
///     <key>curve</key>    <string>easeOut</string>    <!-- optional: linear, easeIn, easeOut,
///                                                          easeInEaseOut (default), default, or an
///                                                          array of four numbers x1 y1 x2 y2 -->
///   </dict>
///   …
/// </dict>
/// ```
///
/// Every error names the file, the line:column and the key path (`tableView.duration`) and says what is
/// wrong; a key given twice is an error. Keys the transition does not use (a block it does not have, a
/// misspelt key in a block) are warnings, which never change the output.
public enum BlockTimings {
    /// The longest duration or delay accepted (seconds): `Limits/maxSeconds`.
    public static var maximumSeconds: Double { Limits.maxSeconds }

    /// The keys a block may have.
    static let blockKeys = ["duration", "delay", "curve"]

    /// Reads the timings of the blocks named `required` from the plist at `path` (a regular file of at
    /// most `Limits/plistBytes`, checked before it is read).
    /// - Parameter warn: told of keys the transition does not use, one message each. Default: ignored.
    /// - Parameter path: the plist file.
    /// - Parameter required: the block names the transition needs; a missing one is an error.
    /// - Throws: `InputFileError` when the file cannot be read, `DocumentError` when it is not a valid
    ///   durations file.
    /// - Parameter alsoKnown: blocks the file may hold for other transitions (no warning for them).
    public static func load(contentsOf path: String, required: [String], alsoKnown: [String] = [],
                            warn: ((String) -> Void)? = nil) throws -> [String: BlockTiming] {
        let bytes = try InputFile.read(path, limit: Limits.plistBytes, what: "durations file")
        return try parse(bytes, path: path, required: required, alsoKnown: alsoKnown, warn: warn)
    }

    /// Checks the durations plist at `path` on its own, without a transition (`smokescreen check
    /// durations.plist`): every entry of its top-level dictionary must be a block as ``load(contentsOf:required:alsoKnown:warn:)``
    /// reads it (a duration, an optional delay and curve, within ``maximumSeconds``). Which blocks a
    /// transition needs is not checked here; `check NAME --durations FILE` does that.
    /// - Parameter warn: told of unknown keys inside a block, one message each. Default: ignored.
    /// - Returns: the block names, in file order.
    /// - Throws: `InputFileError` when the file cannot be read, `DocumentError` (file:line:column, key
    ///   path, reason) when it is not a valid durations file.
    public static func check(contentsOf path: String, warn: ((String) -> Void)? = nil) throws -> [String] {
        let bytes = try InputFile.read(path, limit: Limits.plistBytes, what: "durations file")
        let root = try PropertyListReader.parse(bytes, source: path)
        guard case .dictionary(let entries) = root.value else {
            throw DocumentError(source: path, position: root.position, keyPath: KeyPath(),
                                reason: "the top level must be a dictionary of blocks, got \(root.value.kindDescription)")
        }
        let names = entries.map(\.key)
        _ = try parse(bytes, path: path, required: names, warn: warn)
        return names
    }

    /// Parses plist `data`; `path` names it in errors.
    public static func parse(_ data: Data, path: String, required: [String], warn: ((String) -> Void)? = nil) throws(DocumentError) -> [String: BlockTiming] {
        try parse(Array(data), path: path, required: required, warn: warn)
    }

    /// Parses plist bytes; `path` names them in errors. `blocks` are the transition's own blocks, named in
    /// the warning about a key that is none of them (default: `required`; a scene file requires only the
    /// phases its plist names, but has others).
    public static func parse(_ bytes: [UInt8], path: String, required: [String], alsoKnown: [String] = [], blocks ownBlocks: [String]? = nil,
                             warn: ((String) -> Void)? = nil) throws(DocumentError) -> [String: BlockTiming] {
        guard bytes.count <= Limits.plistBytes else {
            throw DocumentError(source: path, position: nil, keyPath: KeyPath(), reason: "over \(Limits.plistBytes) bytes: not a durations file")
        }
        let root = try PropertyListReader.parse(bytes, source: path)
        func fail(_ node: PropertyListNode?, _ keyPath: String, _ reason: String) -> DocumentError {
            DocumentError(source: path, position: node?.position, keyPath: KeyPath(keyPath.split(separator: ".").map { .key(String($0)) }), reason: reason)
        }
        guard case .dictionary(let blocks) = root.value else {
            throw fail(root, "", "the top level must be a dictionary of blocks, got \(root.value.kindDescription)")
        }
        let own = ownBlocks ?? required
        for (name, node) in blocks where !required.contains(name) && !alsoKnown.contains(name) {
            var message = "\(path):\(node.position): '\(name)' is not a block of this transition (its blocks: \(own.joined(separator: ", "))); ignored"
            if let suggestion = closestName(to: name, among: own) { message += "; did you mean '\(suggestion)'?" }
            warn?(message)
        }
        func seconds(_ node: PropertyListNode?, _ keyPath: String, default fallback: Double?, parent: PropertyListNode) throws(DocumentError) -> Double {
            guard let node else {
                if let fallback { return fallback }
                throw fail(parent, keyPath, "missing (a number of seconds)")
            }
            guard case .number(let n) = node.value else { throw fail(node, keyPath, "must be a number of seconds, got \(node.value.kindDescription)") }
            guard n >= 0 else { throw fail(node, keyPath, "must be a finite number ≥ 0, got \(n)") }
            guard n <= maximumSeconds else { throw fail(node, keyPath, "\(n) s is over the limit of \(maximumSeconds) s") }
            return n
        }
        var result: [String: BlockTiming] = [:]
        for name in required {
            guard let entry = root[name] else { throw fail(root, name, "missing (a dictionary with a duration)") }
            guard case .dictionary(let keys) = entry.value else { throw fail(entry, name, "must be a dictionary, got \(entry.value.kindDescription)") }
            for (key, node) in keys where !blockKeys.contains(key) {
                var message = "\(path):\(node.position): \(name).\(key): unknown key (a block has duration, delay and curve); ignored"
                if let suggestion = closestName(to: key, among: blockKeys) { message += "; did you mean '\(suggestion)'?" }
                warn?(message)
            }
            let duration = try seconds(entry["duration"], "\(name).duration", default: nil, parent: entry)
            let delay = try seconds(entry["delay"], "\(name).delay", default: 0, parent: entry)
            guard duration + delay <= maximumSeconds else {
                throw fail(entry["delay"] ?? entry, "\(name).delay", "delay \(delay) s + duration \(duration) s ends after the limit of \(maximumSeconds) s")
            }
            let curve = try parseCurve(entry["curve"], keyPath: "\(name).curve", fail: fail)
            result[name] = BlockTiming(duration: duration, delay: delay, curve: curve)
        }
        return result
    }

    /// The curve a plist or scene file names: `linear`, `easeIn`, `easeOut`, `easeInEaseOut`, `default`.
    public static func namedCurve(_ name: String) -> TimingCurve? { namedCurves[name] }

    static let namedCurves: [String: TimingCurve] = [
        "linear": .linear, "easeIn": .easeIn, "easeOut": .easeOut, "easeInEaseOut": .easeInEaseOut, "default": .default,
    ]

    private static func parseCurve(_ node: PropertyListNode?, keyPath: String,
                                   fail: (PropertyListNode?, String, String) -> DocumentError) throws(DocumentError) -> TimingCurve {
        guard let node else { return .easeInEaseOut }
        switch node.value {
        case .string(let name):
            guard let curve = namedCurves[name] else {
                var reason = "unknown curve '\(name)'; expected one of \(namedCurves.keys.sorted().joined(separator: ", ")) or four numbers"
                if let suggestion = closestName(to: name, among: Array(namedCurves.keys)) { reason += "; did you mean '\(suggestion)'?" }
                throw fail(node, keyPath, reason)
            }
            return curve
        case .array(let items):
            let numbers = items.compactMap { item -> Double? in if case .number(let n) = item.value { n } else { nil } }
            guard items.count == 4, numbers.count == 4 else {
                throw fail(node, keyPath, "a custom curve is an array of four finite numbers x1 y1 x2 y2")
            }
            guard (0...1).contains(numbers[0]), (0...1).contains(numbers[2]) else {
                throw fail(node, keyPath, "control point x values must be in 0…1, got \(numbers[0]) and \(numbers[2])")
            }
            return TimingCurve(numbers[0], numbers[1], numbers[2], numbers[3])
        default:
            throw fail(node, keyPath, "must be a curve name or four numbers, got \(node.value.kindDescription)")
        }
    }
}
