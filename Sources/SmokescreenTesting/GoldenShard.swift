import FrameStore
import Foundation

/// One part of a golden-test suite, for running it on several machines of a batch job: with
/// `SMOKESCREEN_GOLDEN_SHARD` set to `K/N`, or to `auto` (the part from Kubernetes, Slurm or GitLab CI,
/// as `smokescreen render --shard auto` takes it; under Kubernetes the count is
/// `SMOKESCREEN_GOLDEN_SHARD_COUNT`), the golden assertions check only the golden sets of part K and
/// pass the others unchecked. Unset: every set is checked.
///
/// A set's part is a pure function of its name and N (FNV-1a of the name, modulo N), so every machine
/// agrees, whatever order the tests run in, and a set keeps its part when others are added.
public enum GoldenShard {
    /// The environment variable: `K/N` or `auto`.
    public static let variable = "SMOKESCREEN_GOLDEN_SHARD"
    /// The number of parts under a Kubernetes Indexed Job (whose environment does not say it).
    public static let countVariable = "SMOKESCREEN_GOLDEN_SHARD_COUNT"

    /// The part this run checks, or nil for all.
    /// - Throws: ``GoldenSetupError`` when the variable is set to something else, or `auto` finds no batch
    ///   system.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) throws(GoldenSetupError) -> (index: Int, count: Int)? {
        guard let value = environment[variable], !value.isEmpty else { return nil }
        if value == "auto" {
            let count: Int?
            if let text = environment[countVariable] {
                guard let n = Int(text) else { throw GoldenSetupError("\(countVariable)=\(text) is not a whole number") }
                count = n
            } else {
                count = nil
            }
            do { return try ShardEnvironment.resolve(environment, count: count) } catch {
                throw GoldenSetupError("\(variable)=auto: \(error.description)")
            }
        }
        guard let shard = FrameSelection.parseShard(value) else {
            throw GoldenSetupError("\(variable) must be K/N with 1 ≤ K ≤ N, or auto, got '\(value)'")
        }
        return shard
    }

    /// The part (1…`count`) golden set `name` belongs to.
    public static func part(of name: String, count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int(hash % UInt64(max(1, count))) + 1
    }

    /// Whether this run checks golden set `name` (true when not sharded).
    public static func includes(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(GoldenSetupError) -> Bool {
        guard let shard = try current(environment: environment) else { return true }
        return part(of: name, count: shard.count) == shard.index
    }
}
