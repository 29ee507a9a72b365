import Foundation
import XCTest

/// `script/curl-ab`, the page-curl kernel of two revisions alternated in one process (docs/performance.md),
/// run once with the work tree on both sides: it builds both libraries and its harness with clang, draws
/// the straight and the tilted curl with each and finds the same bytes. No timing is checked.
final class CurlABScriptTests: XCTestCase {
    func testTheScriptComparesTheWorkTreeWithItself() throws {
        let root = SafetyTests.root
        guard Self.isOnPath("clang") else {
            throw XCTSkip("no clang on PATH (it comes with Swift's toolchain)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: root + "/script/curl-ab")
        process.arguments = [".", ".", "1"]
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, complaints)
        let lines = printed.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, printed)
        XCTAssertTrue(lines.first?.hasPrefix("straight: before ") ?? false, printed)
        XCTAssertTrue(lines.last?.hasPrefix("tilted 0.3 rad: before ") ?? false, printed)
        for line in lines { XCTAssertTrue(line.hasSuffix("; the same bytes"), String(line)) }
    }

    /// Whether `command` is an executable in a folder of PATH.
    private static func isOnPath(_ command: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(command)")
        }
    }
}
