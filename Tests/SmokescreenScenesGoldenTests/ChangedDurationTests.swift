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

    /// Vesper's durations with the `selectedNote` block lasting `selectedNote` seconds (0.5 in the asset),
    /// written to a temporary plist.
    func durations(selectedNote: Double) throws -> String {
        let source = TransitionGoldenTests.assets + "/" + VesperTransition.durationsAsset
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        var plist = try XCTUnwrap(PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        var block = try XCTUnwrap(plist["selectedNote"] as? [String: Any])
        XCTAssertEqual(block["duration"] as? Double, 0.5, "the asset's value, which the goldens were recorded with")
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
        XCTAssertNil(check(durationsFile: try durations(selectedNote: 0.5)))
        XCTAssertEqual(artifacts(), [])
    }

    /// selectedNote 0.5 s → 0.8 s: the transition ends at 0.85 s instead of 0.55 s, so it has 10 frames
    /// instead of 7. Frame 0 (t = 0, nothing has moved) still matches; frames 1…6 differ where the note
    /// moves; frames 7…9 are extra.
    func testLongerSelectedNoteNamesChangedAndExtraFrames() throws {
        let message = try XCTUnwrap(check(durationsFile: try durations(selectedNote: 0.8)))
        let lines = frameLines(message)
        XCTAssertEqual(lines.map(\.kind), Array(repeating: "differs", count: 6) + Array(repeating: "extra", count: 3), message)
        XCTAssertEqual(lines.map(\.file), (1...9).map(FrameFileName.name), message)
        XCTAssertFalse(message.contains("frame_0000.png"), message)
        XCTAssertFalse(message.contains("missing "), message)
        XCTAssertTrue(message.contains("\n  extra    frame_0009.png: produced, but there is no golden for it\n"), message)

        // Each changed frame is named with its pixel count and a bounding box that lies below the
        // navigation bars (0…64 pt), which keep their own unchanged block.
        for line in message.split(separator: "\n") where line.hasPrefix("  differs ") {
            let box = try XCTUnwrap(boundingBox(String(line)), String(line))
            XCTAssertGreaterThanOrEqual(box.y, 64, String(line))
            XCTAssertLessThanOrEqual(box.x + box.width, 375, String(line))
            XCTAssertTrue(line.contains(" of 250125 pixels differ ("), String(line))
        }

        XCTAssertTrue(message.contains("expected, actual and diff images and sheet.png: \(folder)/failures/TransitionGoldenTests/vesper-timeline-to-detail"),
                      message)
        XCTAssertEqual(artifacts(), (1...6).flatMap { i in ["actual", "diff", "expected"].map { "frame_000\(i).\($0).png" } }
                       + (7...9).map { "frame_000\($0).actual.png" } + ["sheet.png"])
    }

    /// selectedNote 0.5 s → 0.2 s: the transition now ends with the table view's block at 0.35 s, in 5
    /// frames instead of 7: frames 1…4 differ and frames 5 and 6 are missing.
    func testShorterSelectedNoteNamesChangedAndMissingFrames() throws {
        let message = try XCTUnwrap(check(durationsFile: try durations(selectedNote: 0.2)))
        let lines = frameLines(message)
        XCTAssertEqual(lines.map(\.kind), Array(repeating: "differs", count: 4) + ["missing", "missing"], message)
        XCTAssertEqual(lines.map(\.file), (1...6).map(FrameFileName.name), message)
        XCTAssertTrue(message.contains("\n  missing  frame_0006.png: in the goldens, but not produced\n"), message)
        XCTAssertFalse(message.contains("extra "), message)
        XCTAssertEqual(artifacts().filter { $0.hasPrefix("frame_0005") || $0.hasPrefix("frame_0006") },
                       ["frame_0005.expected.png", "frame_0006.expected.png"])
    }

    /// `x 16 y 80 w 343 h 400` at the end of a `differs` line, as numbers.
    func boundingBox(_ line: String) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let range = line.range(of: ", in x ") else { return nil }
        let words = ("x " + line[range.upperBound...]).split(separator: " ")
        guard words.count >= 8, let x = Int(words[1]), let y = Int(words[3]), let w = Int(words[5]), let h = Int(words[7]) else { return nil }
        return (x, y, w, h)
    }
}
