import BoundedInput
import Foundation

/// How a catalogue of renders is split into parts that finish together: by cost, not by name.
///
/// The split is a pure function of the items (their names and costs) and the number of parts, so every
/// machine of a batch job computes the same parts without talking to the others.
public enum ShardPlan {
    /// Splits `items` (name, cost) into `parts` parts, largest cost first, each to the part with the
    /// least cost so far (the lowest-numbered on a tie): the longest-processing-time rule, whose largest
    /// part is at most 4/3 of the best possible. Ties in cost are broken by name, so the order the items
    /// come in does not matter. Parts are returned in order 1…`parts`, their items in the catalogue's
    /// order (as given).
    public static func partition(_ items: [(name: String, cost: Double)], parts: Int) -> [[String]] {
        let n = max(1, parts)
        let order = items.indices.sorted {
            let a = items[$0], b = items[$1]
            return a.cost != b.cost ? a.cost > b.cost : a.name < b.name
        }
        var totals = [Double](repeating: 0, count: n)
        var assigned = [Int](repeating: 0, count: items.count)
        for i in order {
            let part = totals.indices.min { totals[$0] != totals[$1] ? totals[$0] < totals[$1] : $0 < $1 } ?? 0
            totals[part] += max(0, items[i].cost.isFinite ? items[i].cost : 0)
            assigned[i] = part
        }
        return (0..<n).map { p in items.indices.filter { assigned[$0] == p }.map { items[$0].name } }
    }

    /// The total cost of each part of ``partition(_:parts:)``.
    public static func totals(_ items: [(name: String, cost: Double)], parts: [[String]]) -> [Double] {
        let cost = Dictionary(items.map { ($0.name, $0.cost) }, uniquingKeysWith: { a, _ in a })
        return parts.map { $0.reduce(0) { $0 + (cost[$1] ?? 0) } }
    }
}

/// `--shard auto`: which part this machine renders, from the environment of the batch system it runs
/// under.
///
/// | engine | variables | part (1-based) | count |
/// |---|---|---|---|
/// | Kubernetes Indexed Job | `JOB_COMPLETION_INDEX` (0-based) | index + 1 | `--shard-count` (the job's `completions`) |
/// | Slurm job array | `SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_MIN`, `SLURM_ARRAY_TASK_COUNT` | id − min + 1 | count |
/// | GitLab CI `parallel:` | `CI_NODE_INDEX` (1-based), `CI_NODE_TOTAL` | index | total |
///
/// GitHub Actions has no such variables: its matrix passes `--shard ${{ matrix.part }}/N` itself.
public enum ShardEnvironment {
    /// What went wrong reading the environment.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// One sentence naming the variables and what is wrong.
        public var description: String
    }

    /// The part (K, N) for `--shard auto` under `environment`; `count` is `--shard-count`, needed under
    /// Kubernetes (and, when given elsewhere, checked against the engine's own).
    public static func resolve(_ environment: [String: String], count: Int? = nil) throws(Failure) -> (index: Int, count: Int) {
        func int(_ key: String) throws(Failure) -> Int? {
            guard let text = environment[key] else { return nil }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw Failure(description: "\(key)=\(text) is not a whole number")
            }
            return value
        }
        func checked(_ k: Int, _ n: Int, from what: String, countVariable: String) throws(Failure) -> (index: Int, count: Int) {
            if let count, count != n { throw Failure(description: "--shard-count \(count) disagrees with \(what)'s count \(n)") }
            guard n >= 1, n <= Limits.maxShards else { throw Failure(description: "\(what): \(countVariable) \(n) parts is outside 1…\(Limits.maxShards)") }
            guard (1...n).contains(k) else { throw Failure(description: "\(what): part \(k) is outside 1…\(n)") }
            return (k, n)
        }
        if let id = try int("SLURM_ARRAY_TASK_ID") {
            guard let n = try int("SLURM_ARRAY_TASK_COUNT") else {
                throw Failure(description: "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not (a job array sets both)")
            }
            let min = try int("SLURM_ARRAY_TASK_MIN") ?? 0
            let what = "the Slurm job array (SLURM_ARRAY_TASK_ID \(id), MIN \(min), COUNT \(n))"
            // Checked arithmetic: any Int the environment holds gives an error, never an overflow.
            let (offset, overflow) = id.subtractingReportingOverflow(min)
            guard !overflow, offset >= 0, offset < Limits.maxShards else {
                throw Failure(description: "\(what): SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN must be 0…\(Limits.maxShards - 1)")
            }
            return try checked(offset + 1, n, from: what, countVariable: "SLURM_ARRAY_TASK_COUNT")
        }
        if let index = try int("CI_NODE_INDEX") {
            guard let n = try int("CI_NODE_TOTAL") else { throw Failure(description: "CI_NODE_INDEX is set but CI_NODE_TOTAL is not") }
            return try checked(index, n, from: "GitLab CI (CI_NODE_INDEX \(index), CI_NODE_TOTAL \(n))", countVariable: "CI_NODE_TOTAL")
        }
        if let index = try int("JOB_COMPLETION_INDEX") {
            guard let count else {
                throw Failure(description: "JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but the number of parts is not: pass --shard-count, the job's completions")
            }
            guard index >= 0, index < Limits.maxShards else {
                throw Failure(description: "JOB_COMPLETION_INDEX=\(index) is outside 0…\(Limits.maxShards - 1) (a part index, 0-based)")
            }
            return try checked(index + 1, count, from: "the Kubernetes Indexed Job (JOB_COMPLETION_INDEX \(index))", countVariable: "--shard-count")
        }
        throw Failure(description: "--shard auto found no batch system: set JOB_COMPLETION_INDEX (Kubernetes, with --shard-count), SLURM_ARRAY_TASK_ID (Slurm) or CI_NODE_INDEX (GitLab), or pass --shard K/N")
    }
}
