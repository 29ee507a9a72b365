import Foundation
import XCTest

/// `script/curl-ab` and `script/turn-ab`, a kernel of two revisions alternated in one process
/// (docs/performance.md), each run once with the work tree on both sides: it builds both libraries and its
/// harness with clang, draws its frames with each and finds the same bytes. No timing is checked.
final class KernelABScriptTests: XCTestCase {
    func testTheCurlScriptComparesTheWorkTreeWithItself() throws {
        try assertSameBytes(script: "curl-ab", lines: ["straight: before ", "tilted 0.3 rad: before "])
    }

    func testTheTurnScriptComparesTheWorkTreeWithItself() throws {
        try assertSameBytes(script: "turn-ab", lines: ["about y: before ", "about x: before "])
    }

    func testAnUnknownKernelIsAUsageError() throws {
        let (status, _, complaints) = try run("kernel-ab", ["spin", ".", "."])
        XCTAssertEqual(status, 2)
        XCTAssertTrue(complaints.contains("usage: script/kernel-ab curl|turn"), complaints)
    }

    /// Runs `script` with the work tree as both revisions, once, and checks that it prints a line starting
    /// with each of `lines`, in order, each ending in "the same bytes".
    private func assertSameBytes(script: String, lines expected: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        guard Self.isOnPath("clang") else {
            throw XCTSkip("no clang on PATH (it comes with Swift's toolchain)")
        }
        let (status, printed, complaints) = try run(script, [".", ".", "1"])
        XCTAssertEqual(status, 0, complaints, file: file, line: line)
        let lines = printed.split(separator: "\n")
        XCTAssertEqual(lines.count, expected.count, printed, file: file, line: line)
        for (printedLine, start) in zip(lines, expected) {
            XCTAssertTrue(printedLine.hasPrefix(start), printed, file: file, line: line)
            XCTAssertTrue(printedLine.hasSuffix("; the same bytes"), String(printedLine), file: file, line: line)
        }
    }

    private func run(_ script: String, _ arguments: [String]) throws -> (Int32, String, String) {
        let root = SafetyTests.root
        let process = Process()
        process.executableURL = URL(fileURLWithPath: root + "/script/" + script)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, printed, complaints)
    }

    /// Whether `command` is an executable in a folder of PATH.
    private static func isOnPath(_ command: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(command)")
        }
    }
}
