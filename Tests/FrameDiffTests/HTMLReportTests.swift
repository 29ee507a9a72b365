import FrameStore
import Foundation
import PNGIO
import RasterCore
import SmokescreenCLI
import XCTest
import FrameDiff

/// The comparison report, opened in a real headless browser (Chromium from Debian, which `.ci/run`
/// installs): it loads, shows every image, and logs no console error.
final class HTMLReportTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    /// Two renders of `count` 8x6 frames with manifests (times i/10); `changed` frames of the actual differ.
    func renders(count: Int, changed: Set<Int>) throws -> (String, String) {
        for (side, differs) in [("expected", Set<Int>()), ("actual", changed)] {
            let folder = "\(directory)/\(side)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var frames: [Manifest.Frame] = []
            for i in 0..<count {
                var bitmap = try Bitmap(width: 8, height: 6, fill: PremultipliedRGBA8(r: 40, g: 40, b: UInt8(100 + i), a: 255))
                if differs.contains(i) { bitmap[3, 2] = PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255) }
                let file = String(format: "frame_%04d.png", i)
                try PNGCodec.write(bitmap, to: "\(folder)/\(file)")
                frames.append(Manifest.Frame(file: file, time: Double(i) / 10, sha256: nil))
            }
            let manifest = Manifest(name: "t", pointSize: [8, 6], scale: 1, fps: 10, compression: "fast", frames: frames, durations: [:], fingerprint: nil)
            try Data(try manifest.encoded()).write(to: URL(fileURLWithPath: "\(folder)/manifest.json"))
        }
        return ("\(directory)/expected", "\(directory)/actual")
    }

    func testEveryFailingFrameIsOnASheetPageAndInTheReportWithItsTime() throws {
        let (expected, actual) = try renders(count: 12, changed: Set(0..<10))
        let out = "\(directory)/diff"
        let outcome = DiffInvocation(expected: expected, actual: actual, diffOut: out).run()
        XCTAssertEqual(outcome.exitCode, 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: out)
        XCTAssertTrue(files.contains("sheet.png") && files.contains("sheet-2.png"), "\(files.sorted())")
        XCTAssertFalse(files.contains("sheet-3.png"))
        XCTAssertTrue(outcome.standardOutput.contains("10 failing frames on 2 sheets"), outcome.standardOutput)
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        XCTAssertTrue(html.contains("<h2>frame_0009.png at 0.9000 s — differs</h2>"), html)
        XCTAssertTrue(html.contains("<tr><th>changed pixels</th><td>1 of 48 (2.083 %)</td></tr>"))
        XCTAssertTrue(html.contains("<td>frame_0011.png</td><td>1.1000 s</td><td>match</td>"))
        XCTAssertTrue(html.contains("10 differ, 2 match"))
    }

    func testTheReportOpensInHeadlessChromiumWithEveryImageAndNoConsoleError() throws {
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("Chromium is not installed (Debian: apt-get install chromium); .ci/run installs it")
        }
        let (expected, actual) = try renders(count: 3, changed: [1, 2])
        let out = "\(directory)/diff"
        XCTAssertEqual(DiffInvocation(expected: expected, actual: actual, diffOut: out).run().exitCode, 1)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(directory)/profile",
                             "--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000", "--dump-dom", "file://\(out)/report.html"]
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        nonisolated(unsafe) var errorData = Data()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errorData = stderr.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        let dom = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        drained.wait()
        process.waitUntilExit()
        let log = String(decoding: errorData, as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, log)
        // Two failing frames: three images each, and the two layers of the expected/actual slider.
        XCTAssertTrue(dom.contains("data-images=\"10\""), dom)
        XCTAssertTrue(dom.contains("data-loaded=\"10\""), "every image loaded: \(dom.prefix(400))")
        let consoleErrors = log.split(separator: "\n").filter { $0.contains("CONSOLE") && ($0.contains("Error") || $0.contains("Uncaught")) }
        XCTAssertEqual(consoleErrors, [], log)
    }
}
