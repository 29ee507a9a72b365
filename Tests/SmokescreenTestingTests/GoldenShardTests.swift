import XCTest
import SmokescreenTesting

/// One shard of a golden-test suite per machine, by SMOKESCREEN_GOLDEN_SHARD.
final class GoldenShardTests: XCTestCase {
    func testEverySetIsInExactlyOnePartAndTheEnginesAgreeWithKOverN() throws {
        let names = (0..<200).map { "transition-\($0)" } + ["vesper-timeline-to-detail", "reference"]
        for n in [1, 2, 3, 8] {
            var counts = [Int](repeating: 0, count: n + 1)
            for name in names {
                let part = GoldenShard.part(of: name, count: n)
                XCTAssert((1...n).contains(part))
                counts[part] += 1
                // In part `part` and in no other.
                for k in 1...n {
                    XCTAssertEqual(try GoldenShard.includes(name, environment: [GoldenShard.variable: "\(k)/\(n)"]), k == part)
                }
            }
            if n == 8 { XCTAssertGreaterThan(counts.dropFirst().min() ?? 0, 10, "the hash spreads the sets") }
        }
        XCTAssertEqual(GoldenShard.part(of: "reference", count: 4), GoldenShard.part(of: "reference", count: 4), "a pure function")
        let auto: [[String: String]] = [
            [GoldenShard.variable: "auto", "JOB_COMPLETION_INDEX": "1", GoldenShard.countVariable: "3"],
            [GoldenShard.variable: "auto", "SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3"],
            [GoldenShard.variable: "auto", "CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"],
        ]
        for environment in auto { XCTAssertTrue(try GoldenShard.current(environment: environment)! == (2, 3), "\(environment)") }
        XCTAssertNil(try GoldenShard.current(environment: [:]), "unset: every set")
    }

    func testABadValueFailsTheAssertionInsteadOfSkippingEverything() {
        XCTAssertThrowsError(try GoldenShard.current(environment: [GoldenShard.variable: "3/2"]))
        XCTAssertThrowsError(try GoldenShard.current(environment: [GoldenShard.variable: "auto"]))
        let message = GoldenFrames.check([NamedFrame](), name: "x", testFile: #filePath, comparison: .exact,
                                         environment: [GoldenShard.variable: "two"])
        XCTAssert(message?.contains("SMOKESCREEN_GOLDEN_SHARD must be K/N") ?? false, message ?? "passed")
        // Another machine's set: not checked (a missing golden would otherwise fail or be recorded).
        let other = (1...2).first { GoldenShard.part(of: "not-here", count: 2) != $0 }!
        XCTAssertNil(GoldenFrames.check([NamedFrame](), name: "not-here", testFile: #filePath, comparison: .exact,
                                        environment: [GoldenShard.variable: "\(other)/2", "SMOKESCREEN_RECORD": "never"]))
    }
}
