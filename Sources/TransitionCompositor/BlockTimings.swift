import BoundedInput
import Foundation
import Motion

/// The timing of one animation block, as a designer writes it in a plist.
public struct BlockTiming: Equatable, Sendable {
    /// Seconds, ≥ 0. With a ``BlockSpring/bounce(duration:bounce:initialVelocity:)`` spring, the spring's
    /// settling duration (see ``init(springDuration:bounce:initialVelocity:delay:)``).
    public var duration: Double
    /// Seconds before the block starts, ≥ 0. Default 0.
    public var delay: Double
    /// Default `.easeInEaseOut`, UIView's default. Unused while ``spring`` is set.
    public var curve: TimingCurve
    /// A spring the block moves on instead of ``curve``. Default nil.
    public var spring: BlockSpring?

    /// A timing of `duration` seconds after `delay` seconds (default 0), with `curve` (default ease in and out).
    public init(duration: Double, delay: Double = 0, curve: TimingCurve = .easeInEaseOut) {
        self.duration = duration
        self.delay = delay
        self.curve = curve
    }

    /// UIKit's `animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:…)`: a spring with
    /// `dampingRatio` that lands on the target at exactly `duration` seconds (``Spring/init(dampingRatio:duration:initialVelocity:)``).
    /// `initialVelocity` is relative to the distance (1.0 = the whole distance per second); default 0.
    public init(duration: Double, delay: Double = 0, dampingRatio: Double, initialVelocity: Double = 0) {
        self.init(duration: duration, delay: delay)
        spring = .damping(ratio: dampingRatio, initialVelocity: initialVelocity)
    }

    /// iOS 17's `animate(springDuration:bounce:initialSpringVelocity:delay:…)`: a spring of perceptual
    /// duration `springDuration` seconds and `bounce` (``Spring/init(perceptualDuration:bounce:initialVelocity:)``);
    /// the block lasts the spring's settling duration, which ``duration`` then holds.
    public init(springDuration: Double, bounce: Double = 0, initialVelocity: Double = 0, delay: Double = 0) {
        let spring = BlockSpring.bounce(duration: springDuration, bounce: bounce, initialVelocity: initialVelocity)
        self.init(duration: spring.settlingDuration ?? 0, delay: delay)
        self.spring = spring
    }

    /// When the block ends, from the start of the transition (seconds).
    public var end: Double { delay + duration }

    /// What the animation engine runs: ``curve``, or the spring fitted to ``duration``, or the iOS 17
    /// spring (which runs for its own settling duration).
    public var animationTiming: AnimationTiming {
        switch spring {
        case nil: .curve(curve)
        case .damping(let ratio, let velocity): .spring(dampingRatio: ratio, initialVelocity: velocity)
        case .bounce(let duration, let bounce, let velocity):
            .physicalSpring(Spring(perceptualDuration: duration, bounce: bounce, initialVelocity: velocity))
        }
    }
}

/// A spring an animation block moves on, in either of UIKit's spellings. Velocities are relative to the
/// distance moved (1.0 = the whole distance per second), as UIKit's `initialSpringVelocity`.
public enum BlockSpring: Hashable, Sendable, CustomStringConvertible {
    /// `usingSpringWithDamping:initialSpringVelocity:`: settles by the block's own duration.
    case damping(ratio: Double, initialVelocity: Double)
    /// iOS 17's `springDuration:bounce:initialSpringVelocity:`: `duration` is the perceptual duration
    /// (seconds); the block runs until the spring settles.
    case bounce(duration: Double, bounce: Double, initialVelocity: Double)

    /// The seconds an iOS 17 spring runs for (its settling duration); nil for a damping-ratio spring,
    /// which runs for the block's duration.
    public var settlingDuration: Double? {
        guard case .bounce(let duration, let bounce, let velocity) = self else { return nil }
        return Spring(perceptualDuration: duration, bounce: bounce, initialVelocity: velocity).duration
    }

    public var description: String {
        switch self {
        case .damping(let ratio, let velocity): "spring(dampingRatio \(ratio), initialVelocity \(velocity))"
        case .bounce(let duration, let bounce, let velocity): "spring(duration \(duration), bounce \(bounce), initialVelocity \(velocity))"
        }
    }
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
///                                                          easeInEaseOut (default), default, an
///                                                          array of four numbers x1 y1 x2 y2, or a
///                                                          dictionary with a spring (below) -->
///   </dict>
///   …
/// </dict>
/// ```
///
/// A spring is `<dict><key>spring</key><dict>…</dict></dict>` holding either `dampingRatio` (UIKit's
/// `usingSpringWithDamping:`, settling by the block's duration) or `duration` and `bounce` (iOS 17's
/// `springDuration:bounce:`; the block then has no duration of its own and lasts until the spring
/// settles), and optionally `initialVelocity` (distances per second).
///
/// Every error names the file, the line:column and the key path (`tableView.duration`) and says what is
/// wrong; a key given twice is an error. Keys the transition does not use (a block it does not have, a
/// misspelt key in a block) are warnings, which never change the output.
public enum BlockTimings {
    /// The longest duration or delay accepted (seconds): `Limits/maxSeconds`.
    public static var maximumSeconds: Double { Limits.maxSeconds }

    /// The largest initial spring velocity accepted, either way (distances per second).
    public static let maximumSpringVelocity = 1000.0

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
            let spring = try parseSpring(entry["curve"], keyPath: "\(name).curve", fail: fail)
            let delay = try seconds(entry["delay"], "\(name).delay", default: 0, parent: entry)
            var timing: BlockTiming
            if case .bounce(let pace, let bounce, let velocity)? = spring {
                // iOS 17's spring has its own duration: the block lasts until it settles.
                if let node = entry["duration"] {
                    throw fail(node, "\(name).duration", "the block moves on a spring with its own duration (curve.spring.duration, iOS 17's "
                               + "springDuration): it lasts until that spring settles, so it takes no duration")
                }
                timing = BlockTiming(springDuration: pace, bounce: bounce, initialVelocity: velocity, delay: delay)
            } else {
                let duration = try seconds(entry["duration"], "\(name).duration", default: nil, parent: entry)
                if case .damping(let ratio, let velocity)? = spring {
                    timing = BlockTiming(duration: duration, delay: delay, dampingRatio: ratio, initialVelocity: velocity)
                } else {
                    timing = BlockTiming(duration: duration, delay: delay, curve: try parseCurve(entry["curve"], keyPath: "\(name).curve", fail: fail))
                }
            }
            guard timing.end <= maximumSeconds else {
                throw fail(entry["delay"] ?? entry, "\(name).delay", "delay \(delay) s + duration \(timing.duration) s ends after the limit of \(maximumSeconds) s")
            }
            result[name] = timing
        }
        return result
    }

    /// The curve a plist or scene file names: `linear`, `easeIn`, `easeOut`, `easeInEaseOut`, `default`.
    public static func namedCurve(_ name: String) -> TimingCurve? { namedCurves[name] }

    static let namedCurves: [String: TimingCurve] = [
        "linear": .linear, "easeIn": .easeIn, "easeOut": .easeOut, "easeInEaseOut": .easeInEaseOut, "default": .default,
    ]

    /// A `curve` that is a dictionary: `{spring: {dampingRatio, initialVelocity}}` (UIKit's
    /// `usingSpringWithDamping:initialSpringVelocity:`, settling by the block's duration) or `{spring:
    /// {duration, bounce, initialVelocity}}` (iOS 17's `springDuration:bounce:`). Nil for other curves.
    private static func parseSpring(_ node: PropertyListNode?, keyPath: String,
                                    fail: (PropertyListNode?, String, String) -> DocumentError) throws(DocumentError) -> BlockSpring? {
        guard let node, case .dictionary(let keys) = node.value else { return nil }
        for (key, value) in keys where key != "spring" {
            throw fail(value, "\(keyPath).\(key)", "unknown key '\(key)'; a curve dictionary holds one key, spring")
        }
        guard let spring = node["spring"] else { throw fail(node, keyPath, "a curve dictionary needs a spring") }
        guard case .dictionary(let springKeys) = spring.value else {
            throw fail(spring, "\(keyPath).spring", "must be a dictionary, got \(spring.value.kindDescription)")
        }
        let known = ["dampingRatio", "initialVelocity", "duration", "bounce"]
        for (key, value) in springKeys where !known.contains(key) {
            var reason = "unknown key '\(key)' (a spring has dampingRatio, initialVelocity, duration and bounce)"
            if let suggestion = closestName(to: key, among: known) { reason += "; did you mean '\(suggestion)'?" }
            throw fail(value, "\(keyPath).spring.\(key)", reason)
        }
        func number(_ key: String, _ range: ClosedRange<Double>, open: Bool = false) throws(DocumentError) -> Double? {
            guard let value = spring[key] else { return nil }
            let path = "\(keyPath).spring.\(key)"
            guard case .number(let n) = value.value else { throw fail(value, path, "must be a number, got \(value.value.kindDescription)") }
            let inside = open ? (n > range.lowerBound && n < range.upperBound) : range.contains(n)
            guard inside else {
                throw fail(value, path, "must be \(open ? "over" : "in") \(range.lowerBound)\(open ? " and under " : "…")\(range.upperBound), got \(n)")
            }
            return n
        }
        let velocity = try number("initialVelocity", -maximumSpringVelocity...maximumSpringVelocity) ?? 0
        if let ratio = try number("dampingRatio", Spring.dampingRatioRange) {
            if let other = spring["duration"] ?? spring["bounce"] {
                throw fail(other, "\(keyPath).spring", "a spring has either dampingRatio (UIKit's usingSpringWithDamping, with the block's duration) "
                           + "or duration and bounce (iOS 17's springDuration:bounce:), not both")
            }
            return .damping(ratio: ratio, initialVelocity: velocity)
        }
        let bounce = try number("bounce", -1...1, open: true)
        guard let duration = try number("duration", 0...maximumSeconds) else {
            throw fail(spring, "\(keyPath).spring", "a spring needs dampingRatio (UIKit's, settling by the block's duration) or duration and bounce (iOS 17's)")
        }
        guard duration > 0 else { throw fail(spring["duration"], "\(keyPath).spring.duration", "a spring's duration must be over 0 s") }
        let result = BlockSpring.bounce(duration: duration, bounce: bounce ?? 0, initialVelocity: velocity)
        guard let settling = result.settlingDuration, settling <= maximumSeconds else {
            throw fail(spring, "\(keyPath).spring", "this spring settles after the limit of \(maximumSeconds) s")
        }
        return result
    }

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
            throw fail(node, keyPath, "must be a curve name, four numbers or a spring dictionary, got \(node.value.kindDescription)")
        }
    }
}
