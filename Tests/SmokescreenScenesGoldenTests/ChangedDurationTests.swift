import FrameStore
import Foundation
import SmokescreenScenes
import SmokescreenTesting
import TransitionCompositor
import XCTest

/// What a designer's edit of the durations plist does to the golden check of a built-in transition: the
/// check of the Vesper goldens (those of ``TransitionGoldenTests``) fails, naming the frames that changed
/// and the frames gained or lost.
///
/// The checks go through the XCTest-free ``GoldenFrames/check(_:settings:name:testFile:comparison:environment:)``
/// with their own environment: never recording (so `SMOKESCREEN_RECORD=all` cannot overwrite the goldens
/// with the edited transition) and failure images in a temporary folder that is removed afterwards.
final class ChangedDurationTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("changed-durations-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The shipped timings, which the goldens were recorded with: every expectation below is derived from
    /// them, so a designer's edit of the plist (and re-recorded goldens) leaves these tests passing.
    var shipped: [String: BlockTiming] { get throws { try VesperTransition.timings(assetsDirectory: TransitionGoldenTests.assets) } }

    /// The number of frames at the goldens' 10 fps of a transition ending at `end` seconds.
    func frames(endingAt end: Double) throws -> Int { try FrameTimes(endTime: end, fps: 10).count }

    /// The shipped timings with `selectedNote` lasting `seconds`.
    func timings(selectedNote seconds: Double) throws -> [String: BlockTiming] {
        var timings = try shipped
        timings["selectedNote"]?.duration = seconds
        return timings
    }

    /// Vesper's durations with the `selectedNote` block lasting `selectedNote` seconds, written to a
    /// temporary plist.
    func durations(selectedNote: Double) throws -> String {
        let source = TransitionGoldenTests.assets + "/" + VesperTransition.durationsAsset
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        var plist = try XCTUnwrap(PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        var block = try XCTUnwrap(plist["selectedNote"] as? [String: Any])
        block["duration"] = selectedNote
        plist["selectedNote"] = block
        let path = folder + "/durations.plist"
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The golden check of the timeline→detail transition rendered with `durationsFile`.
    func check(durationsFile: String?) -> String? {
        GoldenFrames.check(VesperTransition(.timelineToDetail), settings: TransitionGoldenTests.settings(durationsFile: durationsFile),
                           name: "vesper-timeline-to-detail", testFile: TransitionGoldenTests.testFile, comparison: .exact,
                           environment: ["SMOKESCREEN_RECORD": "never", "SMOKESCREEN_FAILURES_DIR": folder + "/failures"])
    }

    /// The frame lines of a failure message: `(kind, file)` in order, e.g. `("differs", "frame_0001.png")`.
    func frameLines(_ message: String) -> [(kind: String, file: String)] {
        message.split(separator: "\n").filter { $0.hasPrefix("  ") }.map { line in
            let words = line.split(separator: " ")
            return (String(words[0]), String(words[1].hasSuffix(":") ? words[1].dropLast() : words[1]))
        }
    }

    func artifacts() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/failures/TransitionGoldenTests/vesper-timeline-to-detail")) ?? []).sorted()
    }

    /// The plist copied unchanged matches the goldens: the durations file is what the test varies.
    func testUnchangedCopyMatches() throws {
        XCTAssertNil(check(durationsFile: try durations(selectedNote: try XCTUnwrap(try shipped["selectedNote"]).duration)))
        XCTAssertEqual(artifacts(), [])
    }

    /// selectedNote 0.3 s longer: the transition ends later, with more frames. Frame 0 (t = 0, nothing
    /// has moved) still matches; every other golden frame differs where the note moves; the rest are extra.
    func testLongerSelectedNoteNamesChangedAndExtraFrames() throws {
        let note = try XCTUnwrap(try shipped["selectedNote"])
        let old = try frames(endingAt: VesperTransition.endTime(of: try shipped))
        let new = try frames(endingAt: VesperTransition.endTime(of: try timings(selectedNote: note.duration + 0.3)))
        XCTAssertGreaterThan(new, old)
        let message = try XCTUnwrap(check(durationsFile: try durations(selectedNote: note.duration + 0.3)))
        let lines = frameLines(message)
        XCTAssertEqual(lines.map(\.kind), Array(repeating: "differs", count: old - 1) + Array(repeating: "extra", count: new - old), message)
        XCTAssertEqual(lines.map(\.file), (1..<new).map(FrameFileName.name), message)
        XCTAssertFalse(message.contains("frame_0000.png"), message)
        XCTAssertFalse(message.contains("missing "), message)
        XCTAssertTrue(message.contains("\n  extra    \(FrameFileName.name(new - 1)): produced, but there is no golden for it\n"), message)

        // Each changed frame is named with its pixel count and a bounding box that lies below the
        // navigation bars (0…64 pt), which keep their own unchanged phase.
        for line in message.split(separator: "\n") where line.hasPrefix("  differs ") {
            let box = try XCTUnwrap(boundingBox(String(line)), String(line))
            XCTAssertGreaterThanOrEqual(box.y, 64, String(line))
            XCTAssertLessThanOrEqual(box.x + box.width, 375, String(line))
            XCTAssertTrue(line.contains(" of 250125 pixels differ ("), String(line))
        }

        XCTAssertTrue(message.contains("expected, actual and diff images, sheet.png and report.html: \(folder)/failures/TransitionGoldenTests/vesper-timeline-to-detail"),
                      message)
        let name = { (i: Int) in FrameFileName.name(i).replacingOccurrences(of: ".png", with: "") }
        XCTAssertEqual(artifacts(), (1..<old).flatMap { i in ["actual", "diff", "expected"].map { "\(name(i)).\($0).png" } }
                       + (old..<new).map { "\(name($0)).actual.png" } + ["report.html", "sheet-2.png", "sheet.png"],
                       "nine failing frames: two sheet pages")
    }

    /// selectedNote a third as long: the transition ends sooner, with fewer frames: every frame it still
    /// has but the first differs, and the rest are missing.
    func testShorterSelectedNoteNamesChangedAndMissingFrames() throws {
        let note = try XCTUnwrap(try shipped["selectedNote"])
        let old = try frames(endingAt: VesperTransition.endTime(of: try shipped))
        let new = try frames(endingAt: VesperTransition.endTime(of: try timings(selectedNote: note.duration / 3)))
        XCTAssertLessThan(new, old)
        let message = try XCTUnwrap(check(durationsFile: try durations(selectedNote: note.duration / 3)))
        let lines = frameLines(message)
        XCTAssertEqual(lines.map(\.kind), Array(repeating: "differs", count: new - 1) + Array(repeating: "missing", count: old - new), message)
        XCTAssertEqual(lines.map(\.file), (1..<old).map(FrameFileName.name), message)
        XCTAssertTrue(message.contains("\n  missing  \(FrameFileName.name(old - 1)): in the goldens, but not produced\n"), message)
        XCTAssertFalse(message.contains("extra "), message)
        let missing = (new..<old).map { FrameFileName.name($0).replacingOccurrences(of: ".png", with: "") }
        XCTAssertEqual(artifacts().filter { a in missing.contains { a.hasPrefix($0) } }, missing.map { "\($0).expected.png" })
    }

    /// `x 16 y 80 w 343 h 400` at the end of a `differs` line, as numbers.
    func boundingBox(_ line: String) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let range = line.range(of: ", in x ") else { return nil }
        let words = ("x " + line[range.upperBound...]).split(separator: " ")
        guard words.count >= 8, let x = Int(words[1]), let y = Int(words[3]), let w = Int(words[5]), let h = Int(words[7]) else { return nil }
        return (x, y, w, h)
    }
}
