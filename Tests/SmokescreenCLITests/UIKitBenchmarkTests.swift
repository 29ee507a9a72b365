import Foundation
import XCTest

/// `uikit-bench` (Sources/UIKitBenchmark), run once as docs/performance.md runs it: the two sides of the
/// pair draw the same pixels (else the ratio compares two different pictures), and it prints its table.
/// The figures themselves are measured by hand (a benchmark, never a timed test).
///
/// Runs the release build `script/test` makes (`.build/release/uikit-bench`); without it the test is
/// skipped, saying so (with `SMOKESCREEN_DOCS_REQUIRED=1`, as `.ci/run` sets, it fails instead).
final class UIKitBenchmarkTests: XCTestCase {
    func testTheTwoSidesDrawTheSamePixelsAndTheTableIsPrinted() throws {
        let tool = SafetyTests.root + "/.build/release/uikit-bench"
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            if ProcessInfo.processInfo.environment["SMOKESCREEN_DOCS_REQUIRED"] == "1" {
                XCTFail("no release build of uikit-bench: script/test builds it (swift build -c release --product uikit-bench)")
                return
            }
            throw XCTSkip("no release build of uikit-bench (swift build -c release --product uikit-bench)")
        }
        func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, output)
        }
        let (status, output) = try run(["--runs", "1", "--scale", "1", "--assets", SafetyTests.root + "/assets"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("pair: 31 frames @1x, 60 fps; the sides' frames differ in 0.000 % of the pixels"), output)
        XCTAssertTrue(output.contains("UIKit / native: build "), output)
        XCTAssertNotNil(output.range(of: #"native +[0-9.]+ KB, UIKit +[0-9.]+ KB: [0-9.]+x"#, options: .regularExpression), output)

        let (badStatus, message) = try run(["--runs", "0"])
        XCTAssertEqual(badStatus, 1)
        XCTAssertTrue(message.contains("uikit-bench: --runs must be 1…1000"), message)
    }
}
