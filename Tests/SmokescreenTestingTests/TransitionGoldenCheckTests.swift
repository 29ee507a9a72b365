import FrameStore
import FrameDiff
import Foundation
import PNGIO
import RasterCore
import TransitionCompositor
import XCTest
import SmokescreenTesting

/// Golden checks of whole transitions and frame sequences through the XCTest-free functions
/// (``GoldenFrames/check(_:settings:name:testFile:comparison:environment:)`` and the sequence form of
/// ``GoldenFrames/verify(_:)``), with a test file, goldens and failure artifacts in a temporary folder.
final class TransitionGoldenCheckTests: XCTestCase {
    var root = ""
    var testFile: String { root + "/Tests/SlideTests.swift" }
    var goldens: String { root + "/Tests/__Snapshots__/SlideTests/slide" }
    var failures: String { root + "/failures/SlideTests/slide" }
    let settings = RenderSettings(scale: 2, fps: 10, assetsDirectory: "/nonexistent")

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("transition-goldens-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    func environment(_ mode: RecordMode) -> [String: String] {
        ["SMOKESCREEN_RECORD": mode.rawValue, "SMOKESCREEN_FAILURES_DIR": root + "/failures"]
    }

    func check(_ transition: SlideTransition, _ mode: RecordMode = .never, settings: RenderSettings? = nil,
               comparison: FrameComparison = .exact) -> String? {
        GoldenFrames.check(transition, settings: settings ?? self.settings, name: "slide", testFile: testFile,
                           comparison: comparison, environment: environment(mode))
    }

    func files(_ path: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    func testRecordsEveryFrameNamedAsTheRendererNamesThem() throws {
        let transition = SlideTransition(frameCount: 4)
        let message = try XCTUnwrap(check(transition, .missing, settings: RenderSettings(scale: 2, fps: 10, assetsDirectory: "/x", holdFrames: 1)))
        XCTAssertTrue(message.hasPrefix("'slide': recorded 5 golden frames in \(goldens) (none existed;"), message)
        XCTAssertEqual(files(goldens), (0..<5).map(FrameFileName.name))
        XCTAssertEqual(files(goldens).first, "frame_0000.png")
        // At the settings' scale: 12x4 pt at @2x is 24x8 pixels, and each golden is the frame drawn.
        let drawn = try transition.bitmaps(RenderSettings(scale: 2, fps: 10, assetsDirectory: "/x", holdFrames: 1))
        for (i, bitmap) in drawn.enumerated() {
            let golden = try PNGCodec.read(contentsOf: goldens + "/" + FrameFileName.name(i), scale: 2)
            XCTAssertEqual(golden.width, 24)
            XCTAssertEqual(golden, bitmap, "frame \(i)")
        }
        XCTAssertNil(check(transition, settings: RenderSettings(scale: 2, fps: 10, assetsDirectory: "/x", holdFrames: 1)),
                     "the next run compares, and matches")
        XCTAssertFalse(FileManager.default.fileExists(atPath: failures))
    }

    func testSequenceAndTransitionChecksAgree() throws {
        let transition = SlideTransition()
        let sequence = try transition.render(settings).sequence
        XCTAssertNotNil(GoldenFrames.check(sequence, name: "slide", testFile: testFile, comparison: .exact, environment: environment(.missing)))
        XCTAssertEqual(files(goldens).count, 5)
        XCTAssertNil(check(transition))
        XCTAssertNil(GoldenFrames.check(sequence, name: "slide", testFile: testFile, comparison: .exact, environment: environment(.never)))
        // Frames made from bitmaps under the same names match the same goldens.
        XCTAssertNil(GoldenFrames.check(NamedFrame.numbered(try transition.bitmaps(settings)), name: "slide", testFile: testFile,
                                        comparison: .exact, environment: environment(.never)))
    }

    func testAnotherScaleDoesNotMatch() throws {
        XCTAssertNotNil(check(SlideTransition(), .missing))
        let message = try XCTUnwrap(check(SlideTransition(), settings: RenderSettings(scale: 1, fps: 10, assetsDirectory: "/x")))
        XCTAssertTrue(message.contains("  differs  frame_0000.png: size differs: expected 24x8 px, actual 12x4 px"), message)
    }

    /// A longer transition: every frame still matches up to the old end, and the new ones are extra.
    func testLongerTransitionNamesExtraFrames() throws {
        XCTAssertNotNil(check(SlideTransition(frameCount: 3), .missing))
        let message = try XCTUnwrap(check(SlideTransition(frameCount: 5)))
        XCTAssertEqual(message, """
            'slide' does not match its golden frames in \(goldens) (exact):
              extra    frame_0003.png: produced, but there is no golden for it
              extra    frame_0004.png: produced, but there is no golden for it
            expected, actual and diff images, sheet.png and report.html: \(failures)
            to accept the new frames, run the test with SMOKESCREEN_RECORD=all and check in \(goldens)
            """)
        XCTAssertEqual(files(failures), ["frame_0003.actual.png", "frame_0004.actual.png", "report.html", "sheet.png"])
        XCTAssertEqual(files(goldens).count, 3, "never mode records nothing")
    }

    func testShorterTransitionNamesMissingFrames() throws {
        XCTAssertNotNil(check(SlideTransition(frameCount: 5), .missing))
        let message = try XCTUnwrap(check(SlideTransition(frameCount: 4)))
        XCTAssertTrue(message.contains("\n  missing  frame_0004.png: in the goldens, but not produced\n"), message)
        XCTAssertFalse(message.contains("differs"), message)
        XCTAssertEqual(files(failures), ["frame_0004.expected.png", "report.html", "sheet.png"])
    }

    /// The box held still for two frames instead of moving on: the frames after it differ, each named
    /// with its count and box; the earlier ones are not mentioned.
    func testChangedFramesAreNamedWithCountAndBox() throws {
        XCTAssertNotNil(check(SlideTransition(frameCount: 5), .missing))
        let held = SlideTransition(frameCount: 3)
        let message = try XCTUnwrap(check(held, settings: RenderSettings(scale: 2, fps: 10, assetsDirectory: "/x", holdFrames: 2)))
        let lines = message.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("  ") }.map { String($0.prefix(25)) },
                       ["  differs  frame_0003.png", "  differs  frame_0004.png"], message)
        // Frame 3: the box should be at x 2.25 pt but stays at 1.5 pt; at @2x its edges differ in columns 3…10.
        XCTAssertTrue(lines.contains { $0.hasPrefix("  differs  frame_0003.png: ") && $0.hasSuffix(", in x 3 y 0 w 8 h 8") }, message)
        XCTAssertEqual(files(failures), ["frame_0003.actual.png", "frame_0003.diff.png", "frame_0003.expected.png",
                                         "frame_0004.actual.png", "frame_0004.diff.png", "frame_0004.expected.png", "report.html", "sheet.png"])
        // A tolerance does not hide a box in the wrong place.
        XCTAssertNotNil(check(held, settings: RenderSettings(scale: 2, fps: 10, assetsDirectory: "/x", holdFrames: 2),
                              comparison: .tolerance(8)))
        // Fixed again: it passes and the failure images are gone.
        XCTAssertNil(check(SlideTransition(frameCount: 5)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: failures))
    }

    func testRenderErrorIsAFailure() throws {
        let broken = SlideTransition(failure: .badInput(path: "/x/durations.plist", reason: "tableView.duration: missing (a number of seconds)"))
        XCTAssertEqual(check(broken, .missing),
                       "'slide': cannot render the transition 'slide': /x/durations.plist: tableView.duration: missing (a number of seconds)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: goldens), "nothing recorded")
    }

    func testSetupErrorsComeBeforeRendering() throws {
        let broken = SlideTransition(failure: .failed(what: "slide", reason: "should not be rendered"))
        XCTAssertEqual(GoldenFrames.check(broken, settings: settings, name: "slide", testFile: testFile, comparison: .exact,
                                          environment: ["SMOKESCREEN_RECORD": "yes"]),
                       "'slide': SMOKESCREEN_RECORD=yes is not one of missing, all, never")
        XCTAssertEqual(GoldenFrames.check(SlideTransition(), settings: settings, name: "../up", testFile: testFile, comparison: .exact,
                                          environment: environment(.missing)),
                       "'../up': golden name \"../up\" must be a plain file name: not empty, no \"/\", not starting with \".\"")
    }

    /// Frames made on demand are asked for once each, in order, so a long sequence is never all in memory.
    func testFramesAreDrawnOnceEachInOrder() throws {
        let bitmaps = try SlideTransition().bitmaps(settings)
        let names = NamedFrame.numbered(bitmaps).map(\.name)
        for mode in [RecordMode.missing, .never] {
            var asked: [Int] = []
            let goldens = GoldenFrames(name: "slide", directory: goldens, failureDirectory: failures, recordMode: mode, comparison: .exact)
            _ = goldens.verify(names: names) { asked.append($0); return bitmaps[$0] }
            XCTAssertEqual(asked, Array(0..<5), "\(mode)")
        }
    }

    func testGoldensAreRecordedSmall() throws {
        XCTAssertEqual(GoldenFrames.goldenCompression, .small)
        let check = try GoldenFrames.forTestFile(testFile, name: "slide", comparison: .exact, environment: [:])
        XCTAssertEqual(check.compression, .small)
    }
}
