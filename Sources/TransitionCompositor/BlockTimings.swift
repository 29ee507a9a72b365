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
/// Every error names the file and the key path (`tableView.duration`) and says what is wrong.
public enum BlockTimings {
    /// The longest duration or delay accepted (seconds), so a typo cannot ask for a day of frames.
    public static let maximumSeconds = 600.0

    /// Reads the timings of the blocks named `required` from the plist at `path`. Other top-level keys
    /// are ignored (a designer may keep notes there).
    public static func load(contentsOf path: String, required: [String]) throws -> [String: BlockTiming] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw RenderError.io(path: path, reason: "cannot read the durations file: \((error as NSError).localizedDescription)")
        }
        return try parse(data, path: path, required: required)
    }

    /// Parses plist `data`; `path` names it in errors.
    public static func parse(_ data: Data, path: String, required: [String]) throws -> [String: BlockTiming] {
        guard data.count <= 1 << 20 else { throw RenderError.badInput(path: path, reason: "over 1 MiB: not a durations file") }
        let root: Any
        do { root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) } catch {
            throw RenderError.badInput(path: path, reason: "not a property list (\((error as NSError).localizedDescription))")
        }
        guard let blocks = root as? [String: Any] else {
            throw RenderError.badInput(path: path, reason: "the top level must be a dictionary of blocks")
        }
        func fail(_ keyPath: String, _ reason: String) -> RenderError {
            .badInput(path: path, reason: "\(keyPath): \(reason)")
        }
        func seconds(_ value: Any?, _ keyPath: String, default fallback: Double?) throws -> Double {
            guard let value else {
                if let fallback { return fallback }
                throw fail(keyPath, "missing (a number of seconds)")
            }
            guard let n = number(value) else { throw fail(keyPath, "must be a number of seconds, got \(describe(value))") }
            guard n.isFinite, n >= 0 else { throw fail(keyPath, "must be a finite number ≥ 0, got \(n)") }
            guard n <= maximumSeconds else { throw fail(keyPath, "\(n) s is over the limit of \(maximumSeconds) s") }
            return n
        }
        var result: [String: BlockTiming] = [:]
        for name in required {
            guard let entry = blocks[name] else { throw fail(name, "missing (a dictionary with a duration)") }
            guard let block = entry as? [String: Any] else { throw fail(name, "must be a dictionary, got \(describe(entry))") }
            let duration = try seconds(block["duration"], "\(name).duration", default: nil)
            let delay = try seconds(block["delay"], "\(name).delay", default: 0)
            guard duration + delay <= maximumSeconds else {
                throw fail("\(name).delay", "delay \(delay) s + duration \(duration) s ends after the limit of \(maximumSeconds) s")
            }
            let curve = try parseCurve(block["curve"], keyPath: "\(name).curve", fail: fail)
            result[name] = BlockTiming(duration: duration, delay: delay, curve: curve)
        }
        return result
    }

    static let namedCurves: [String: TimingCurve] = [
        "linear": .linear, "easeIn": .easeIn, "easeOut": .easeOut, "easeInEaseOut": .easeInEaseOut, "default": .default,
    ]

    private static func parseCurve(_ value: Any?, keyPath: String, fail: (String, String) -> RenderError) throws -> TimingCurve {
        guard let value else { return .easeInEaseOut }
        if let name = value as? String {
            guard let curve = namedCurves[name] else {
                throw fail(keyPath, "unknown curve '\(name)'; expected one of \(namedCurves.keys.sorted().joined(separator: ", ")) or four numbers")
            }
            return curve
        }
        if let array = value as? [Any] {
            let numbers = array.compactMap(number)
            guard array.count == 4, numbers.count == 4, numbers.allSatisfy(\.isFinite) else {
                throw fail(keyPath, "a custom curve is an array of four finite numbers x1 y1 x2 y2")
            }
            guard (0...1).contains(numbers[0]), (0...1).contains(numbers[2]) else {
                throw fail(keyPath, "control point x values must be in 0…1, got \(numbers[0]) and \(numbers[2])")
            }
            return TimingCurve(numbers[0], numbers[1], numbers[2], numbers[3])
        }
        throw fail(keyPath, "must be a curve name or four numbers, got \(describe(value))")
    }

    private static func number(_ value: Any) -> Double? {
        // Plist numbers arrive as NSNumber, and so do booleans, which are not durations: tell them
        // apart by the stored C type ("c" is a boolean).
        if let n = value as? NSNumber { return isBoolean(n) ? nil : n.doubleValue }
        return nil
    }

    private static func isBoolean(_ n: NSNumber) -> Bool { String(cString: n.objCType) == "c" }

    private static func describe(_ value: Any) -> String {
        switch value {
        case let s as String: "the string '\(s.prefix(40))'"
        case let n as NSNumber where isBoolean(n): "a boolean"
        case is [Any]: "an array"
        case is [String: Any]: "a dictionary"
        case is Date: "a date"
        case is Data: "data"
        default: "\(type(of: value))"
        }
    }
}
