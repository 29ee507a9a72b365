import FrameDiff
import Foundation
import PNGIO
import RasterCore
import XCTest
import SmokescreenTesting

/// The golden-frame check through ``GoldenFrames/verify(_:)``, which returns the failure message the
/// assertions would report (corelibs-xctest has no `XCTExpectFailure`), with goldens in a temporary folder.
final class GoldenFramesTests: XCTestCase {
    var root = ""

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("goldens-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    func goldens(_ mode: RecordMode, comparison: FrameComparison = .exact) -> GoldenFrames {
        GoldenFrames(name: "slide", directory: root + "/__Snapshots__/SlideTests/slide", failureDirectory: root + "/failures/SlideTests/slide",
                     recordMode: mode, comparison: comparison)
    }

    static func frames(count: Int = 3) throws -> [Bitmap] {
        try (0..<count).map { i in
            var bitmap = try Bitmap(width: 8, height: 5, scale: 2, fill: .white)
            bitmap.fill(PixelRect(x: i, y: 1, width: 3, height: 3), with: .black)
            return bitmap
        }
    }

    func files(_ path: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    func testMissingModeRecordsThenCompares() throws {
        let check = goldens(.missing)
        let frames = try Self.frames()
        let recorded = try XCTUnwrap(check.verify(NamedFrame.numbered(frames)))
        XCTAssertEqual(recorded, "'slide': recorded 3 golden frames in \(check.directory) (none existed; SMOKESCREEN_RECORD=missing is the default). "
                       + "A test that records fails: look at them, check them in, and run the test again to compare.")
        XCTAssertEqual(files(check.directory), ["frame_0000.png", "frame_0001.png", "frame_0002.png"])
        XCTAssertNil(check.verify(NamedFrame.numbered(frames)), "the next run compares, and matches")
        XCTAssertEqual(try PNGCodec.read(contentsOf: check.directory + "/frame_0001.png", scale: 2), frames[1])
    }

    func testNeverModeFailsWithoutRecording() throws {
        let check = goldens(.never)
        let message = try XCTUnwrap(check.verify(NamedFrame.numbered(try Self.frames())))
        XCTAssertEqual(message, "'slide': no golden frames in \(check.directory), and SMOKESCREEN_RECORD=never does not record them; "
                       + "record them with SMOKESCREEN_RECORD=missing (the default) or all, and check them in")
        XCTAssertFalse(FileManager.default.fileExists(atPath: check.directory))
    }

    func testAllModeReRecordsAndRemovesStaleGoldens() throws {
        XCTAssertNotNil(goldens(.missing).verify(NamedFrame.numbered(try Self.frames(count: 3))))
        let fewer = try Self.frames(count: 2).map { frame -> Bitmap in
            var inverted = frame
            inverted.fill(PixelRect(x: 0, y: 0, width: 1, height: 1), with: .black)
            return inverted
        }
        let check = goldens(.all)
        let message = try XCTUnwrap(check.verify(NamedFrame.numbered(fewer)))
        XCTAssertTrue(message.hasPrefix("'slide': recorded 2 golden frames in \(check.directory) (SMOKESCREEN_RECORD=all)."), message)
        XCTAssertEqual(files(check.directory), ["frame_0000.png", "frame_0001.png"])
        XCTAssertNil(goldens(.never).verify(NamedFrame.numbered(fewer)))
    }

    func testChangedFrameNamesFolderFrameCountAndBox() throws {
        let check = goldens(.missing)
        var frames = try Self.frames()
        XCTAssertNotNil(check.verify(NamedFrame.numbered(frames)))
        frames[1][6, 4] = PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255)
        frames[1][7, 4] = PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255)
        let message = try XCTUnwrap(goldens(.never).verify(NamedFrame.numbered(frames)))
        XCTAssertEqual(message, """
            'slide' does not match its golden frames in \(check.directory) (exact):
              differs  frame_0001.png: 2 of 40 pixels differ (5.00%), max channel delta 255, in x 6 y 4 w 2 h 1
            expected, actual and diff images, sheet.png and report.html: \(check.failureDirectory)
            to accept the new frames, run the test with SMOKESCREEN_RECORD=all and check in \(check.directory)
            """)
        XCTAssertEqual(files(check.failureDirectory),
                       ["frame_0001.actual.png", "frame_0001.diff.png", "frame_0001.expected.png", "report.html", "sheet.png"])
        let diff = try PNGCodec.read(contentsOf: check.failureDirectory + "/frame_0001.diff.png")
        XCTAssertEqual(diff[6, 4], PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
        XCTAssertEqual(try PNGCodec.read(contentsOf: check.failureDirectory + "/frame_0001.actual.png", scale: 2), frames[1])

        // Fixed again: the check passes and the old failure images are gone.
        XCTAssertNil(check.verify(NamedFrame.numbered(try Self.frames())))
        XCTAssertFalse(FileManager.default.fileExists(atPath: check.failureDirectory))
    }

    func testFrameCountMismatchNamesMissingAndExtraFrames() throws {
        XCTAssertNotNil(goldens(.missing).verify(NamedFrame.numbered(try Self.frames(count: 3))))
        let check = goldens(.missing)
        let fewer = try XCTUnwrap(check.verify(NamedFrame.numbered(try Self.frames(count: 2))))
        XCTAssertTrue(fewer.contains("  missing  frame_0002.png: in the goldens, but not produced"), fewer)
        XCTAssertEqual(files(check.failureDirectory), ["frame_0002.expected.png", "report.html", "sheet.png"])
        let more = try XCTUnwrap(check.verify(NamedFrame.numbered(try Self.frames(count: 4))))
        XCTAssertTrue(more.contains("  extra    frame_0003.png: produced, but there is no golden for it"), more)
        XCTAssertFalse(more.contains("differs"), more)
        XCTAssertEqual(files(check.directory).count, 3, "missing mode does not add frames to an existing golden set")
    }

    func testToleranceAndSizeMismatch() throws {
        XCTAssertNotNil(goldens(.missing).verify(NamedFrame.numbered(try Self.frames(count: 1))))
        var near = try Self.frames(count: 1)
        near[0][0, 0] = PremultipliedRGBA8(r: 250, g: 250, b: 250, a: 255)
        XCTAssertNotNil(goldens(.never).verify(NamedFrame.numbered(near)))
        XCTAssertNil(goldens(.never, comparison: .tolerance(5)).verify(NamedFrame.numbered(near)))

        let wider = try Bitmap(width: 9, height: 5, scale: 2, fill: .white)
        let message = try XCTUnwrap(goldens(.never).verify([NamedFrame("frame_0000", wider)]))
        XCTAssertTrue(message.contains("frame_0000.png: size differs: expected 8x5 px, actual 9x5 px"), message)
    }

    func testUnreadableGoldenIsReported() throws {
        let check = goldens(.never)
        try FileManager.default.createDirectory(atPath: check.directory, withIntermediateDirectories: true)
        try Data("nope".utf8).write(to: URL(fileURLWithPath: check.directory + "/frame_0000.png"))
        let message = try XCTUnwrap(check.verify(NamedFrame.numbered(try Self.frames(count: 1))))
        XCTAssertTrue(message.contains("  unreadable golden \(check.directory)/frame_0000.png: not a PNG file (bad signature)"), message)
    }

    func testBadNames() throws {
        let frames = try Self.frames(count: 1)
        var check = goldens(.missing)
        check.name = "../escape"
        XCTAssertEqual(check.verify(NamedFrame.numbered(frames)),
                       "'../escape': golden name \"../escape\" must be a plain file name: not empty, no \"/\", not starting with \".\"")
        XCTAssertEqual(goldens(.missing).verify([NamedFrame("a/b", frames[0])]),
                       "'slide': frame name \"a/b\" must be a plain file name: not empty, no \"/\", not starting with \".\"")
        XCTAssertEqual(goldens(.missing).verify([NamedFrame("a", frames[0]), NamedFrame("a.png", frames[0])]),
                       "'slide': frame name \"a.png\" is used twice")
        XCTAssertEqual(goldens(.missing).verify([]), "'slide': no frames to check")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/__Snapshots__"), "nothing recorded for bad input")
    }

    func testRecordModeFromEnvironment() throws {
        XCTAssertEqual(try RecordMode(environmentValue: nil), .missing)
        XCTAssertEqual(try RecordMode(environmentValue: ""), .missing)
        XCTAssertEqual(try RecordMode(environmentValue: " ALL "), .all)
        XCTAssertEqual(try RecordMode(environmentValue: "never"), .never)
        XCTAssertThrowsError(try RecordMode(environmentValue: "yes")) {
            XCTAssertEqual(($0 as? GoldenSetupError)?.message, "SMOKESCREEN_RECORD=yes is not one of missing, all, never")
        }
        XCTAssertEqual(GoldenFrames.check([], name: "x", testFile: "/t/XTests.swift", comparison: .exact,
                                          environment: ["SMOKESCREEN_RECORD": "sometimes"]),
                       "'x': SMOKESCREEN_RECORD=sometimes is not one of missing, all, never")
    }

    func testLocationsFromTheTestFile() throws {
        let check = try GoldenFrames.forTestFile("/src/Tests/AppTests/ScrollTests.swift", name: "accordion", comparison: .exact,
                                                 environment: ["TMPDIR": "/var/tmp/", "SMOKESCREEN_RECORD": "never"])
        XCTAssertEqual(check.directory, "/src/Tests/AppTests/__Snapshots__/ScrollTests/accordion")
        XCTAssertEqual(check.failureDirectory, "/var/tmp/smokescreen-failures/ScrollTests/accordion")
        XCTAssertEqual(check.recordMode, .never)
        let overridden = try GoldenFrames.forTestFile("/src/ScrollTests.swift", name: "accordion", comparison: .exact,
                                                      environment: ["SMOKESCREEN_FAILURES_DIR": "/ci/artifacts"])
        XCTAssertEqual(overridden.failureDirectory, "/ci/artifacts/ScrollTests/accordion")
        XCTAssertEqual(overridden.recordMode, .missing)
        XCTAssertEqual(try GoldenFrames.forTestFile("/src/ScrollTests.swift", name: "a", comparison: .exact, environment: [:]).failureDirectory,
                       "/tmp/smokescreen-failures/ScrollTests/a")
    }

    /// The whole path a test takes, with a test file in the temporary folder: record, match, then fail.
    func testCheckForATestFile() throws {
        let testFile = root + "/Tests/ZoomTests.swift"
        let environment = ["SMOKESCREEN_FAILURES_DIR": root + "/failures"]
        let frames = NamedFrame.numbered(try Self.frames(count: 2))
        XCTAssertNotNil(GoldenFrames.check(frames, name: "zoom", testFile: testFile, comparison: .exact, environment: environment))
        XCTAssertEqual(files(root + "/Tests/__Snapshots__/ZoomTests/zoom"), ["frame_0000.png", "frame_0001.png"])
        XCTAssertNil(GoldenFrames.check(frames, name: "zoom", testFile: testFile, comparison: .exact, environment: environment))
        var changed = frames
        changed[0].bitmap[0, 0] = .black
        let message = try XCTUnwrap(GoldenFrames.check(changed, name: "zoom", testFile: testFile, comparison: .perceptual(), environment: environment))
        XCTAssertTrue(message.contains("frame_0000.png: 1 of 40 pixels differ"), message)
        XCTAssertTrue(message.contains(root + "/failures/ZoomTests/zoom"), message)
    }
}
