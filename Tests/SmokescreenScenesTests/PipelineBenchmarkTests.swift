import XCTest
import SmokescreenScenes

/// `bench --summary`'s pieces that do not need a release build: the child-process measurement and the
/// performance table. (The figures themselves are measured by hand in release builds; see docs/performance.md.)
final class PipelineBenchmarkTests: XCTestCase {
    func testAChildProcessRunReportsItsStatusTimeAndPeakMemory() throws {
        let ok = try ProcessRun.run("/bin/sh", ["-c", "exit 0"])
        XCTAssertEqual(ok.status, 0)
        XCTAssertGreaterThan(ok.seconds, 0)
        XCTAssertGreaterThan(ok.peakResidentBytes, 0)
        XCTAssertEqual(try ProcessRun.run("/bin/sh", ["-c", "exit 3"]).status, 3)
        // A child that touches 64 MiB peaks above that.
        let big = try ProcessRun.run("/usr/bin/python3", ["-c", "b = bytearray(64 << 20)"])
        XCTAssertEqual(big.status, 0)
        XCTAssertGreaterThan(big.peakResidentBytes, 64 << 20)
    }

    func testAMissingExecutableIsAnErrorNamingIt() {
        XCTAssertThrowsError(try ProcessRun.run("/nonexistent/smokescreen", ["list"])) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/smokescreen"), "\(error)")
        }
    }

    func testTheReadmeTableHasARowPerWorkloadWithItsFigures() {
        let w = PipelineBenchmark.Workload(
            name: "reference", frames: 30, width: 750, height: 1334, prepareMilliseconds: 4.3, drawMilliseconds: 0.81,
            encodeMilliseconds: 1.5, writeMilliseconds: 0.2, totalMilliseconds: 60, totalOneJobMilliseconds: 110, jobsSpeedup: 110.0 / 60,
            totalAt3xMilliseconds: 120, ratio3xOverScale: 2, peakResidentBytes: 40 << 20, peakAboveEmptyBytes: 12 << 20, peakBitmapBytes: 4 << 20)
        let summary = PipelineBenchmark.Summary(machine: "Test CPU", cores: 2, scale: 2, runs: 7, jobs: 2, emptyPeakResidentBytes: 22 << 20,
                                                emptyMilliseconds: 15, workloads: [w])
        let table = summary.markdownTable.split(separator: "\n").map(String.init)
        XCTAssertEqual(table[2], "| `reference` | 30 (750x1334) | 4.3 ms | 0.81 ms | 1.50 ms | 0.20 ms | 60 ms | 110 ms | 1.83x | 2.00x | 12.0 MiB |")
        XCTAssertTrue(table.last!.contains("Test CPU, 2 cores"), table.last!)
        XCTAssertTrue(summary.text.contains("whole process: 60.0 ms on 2 jobs, 110.0 ms on 1 (1.83x)"), summary.text)
    }
}
