import Foundation
import Smokescreen
import SmokescreenSnapshotTesting
import SnapshotTesting
import XCTest

/// The strategies as a test uses them, against references checked in under `__Snapshots__/StrategyTests/`
/// (@1x, a few kilobytes each), and swift-snapshot-testing's record modes writing into temporary folders.
final class StrategyTests: XCTestCase {
    /// Failure artifacts (swift-snapshot-testing's and Smokescreen's) of every test go to a folder removed after it.
    override func setUpWithError() throws {
        setenv("SNAPSHOT_ARTIFACTS", try temporaryFolder(), 1)
    }

    override func tearDown() {
        unsetenv("SNAPSHOT_ARTIFACTS")
    }

    /// A 40x30 pt card: a white window, a rounded blue panel with a translucent red badge over its corner.
    static func card() throws -> View {
        let window = View(frame: Rect(x: 0, y: 0, width: 40, height: 30), name: "window")
        window.backgroundColor = .white
        let panel = View(frame: Rect(x: 4, y: 5, width: 28, height: 20), name: "panel")
        panel.backgroundColor = Color(hex: 0x007AFF)
        panel.cornerRadius = 5
        let badge = View(frame: Rect(x: 26, y: 2, width: 10, height: 10), name: "badge")
        badge.backgroundColor = Color(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.8)
        badge.cornerRadius = 5
        try window.addSubview(panel)
        try window.addSubview(badge)
        return window
    }

    /// A scene file's transition on a 48x32 pt canvas: a red square moves and grows into a blue one in
    /// 0.3 s, so 4 frames at 10 fps (0, 0.1, 0.2 and 0.3 s).
    static let sceneJSON = """
        {
          "size": [48, 32],
          "states": {
            "small": { "backgroundColor": "#FFFFFF",
                       "subviews": [ { "name": "square", "frame": [4, 4, 12, 12], "backgroundColor": "#E74C3C", "cornerRadius": 3 } ] },
            "large": { "backgroundColor": "#FFFFFF",
                       "subviews": [ { "name": "square", "frame": [22, 6, 22, 22], "backgroundColor": "#3498DB", "cornerRadius": 6 } ] }
          },
          "transitions": [
            { "name": "grow", "from": "small", "to": "large",
              "phases": [ { "name": "move", "duration": 0.3, "curve": "easeInEaseOut" } ],
              "matched": [ { "id": "square", "phase": "move", "style": "opaqueCrossFade" } ] }
          ]
        }
        """

    /// ``sceneJSON`` loaded from a file in a temporary folder (removed when the test ends).
    func sceneTransition() throws -> SceneTransition {
        let folder = try temporaryFolder()
        let path = folder + "/grow.json"
        try Self.sceneJSON.write(toFile: path, atomically: true, encoding: .utf8)
        return try SceneTransition.load(path: path, transition: "grow")
    }

    func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-strategy-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// The folder of this file's references.
    static let references = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__/StrategyTests").path

    // MARK: - assertSnapshot against the checked-in references

    func testAViewTreeMatchesItsReference() throws {
        assertSnapshot(of: try Self.card(), as: .image(scale: 1))
    }

    func testATransitionMatchesItsFrameReferences() throws {
        assertSnapshot(of: try sceneTransition(), as: .frames(fps: 10, scale: 1))
    }

    /// The reference files: the image's pixels are the view's, and the frames' file is a grid holding
    /// every frame, its layout in the `tEXt` chunk.
    func testTheReferencesHoldWhatTheStrategiesRender() throws {
        let image = try PNGCodec.read(contentsOf: Self.references + "/testAViewTreeMatchesItsReference.1.png")
        XCTAssertTrue(image == (try Self.card().snapshot(scale: 1)))
        XCTAssertEqual(image.width, 40)

        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.references + "/testATransitionMatchesItsFrameReferences.1.png")))
        XCTAssertEqual(PNGTextProbe.text(in: bytes), "frames=4 columns=2 width=48 height=32 scale=1")
        let stored = SnapshotFrames(png: bytes)
        XCTAssertNil(stored.problem)
        let rendered = try SnapshotFrames.rendering(try sceneTransition(), settings: RenderSettings(scale: 1, fps: 10, assetsDirectory: "/unused"))
        XCTAssertEqual(stored.frames.count, 4)
        XCTAssertEqual(rendered.frames.count, 4)
        for (a, b) in zip(stored.frames, rendered.frames) { XCTAssertTrue(a == b) }
        // The frames differ from each other: a grid of one frame repeated would not test the layout.
        XCTAssertFalse(rendered.frames[0] == rendered.frames[3])
    }

    /// A built-in transition held as `any Transition`, as `TransitionCatalog` gives them, through the
    /// same strategy (compared with the frames `SnapshotFrames.rendering` draws, not a checked-in file:
    /// the built-ins' pixels are checked by their own goldens).
    func testABuiltInTransitionFromTheCatalogue() throws {
        let transition = try XCTUnwrap(TransitionCatalog.transition(named: "reference") ?? TransitionCatalog.all.first)
        let folder = try temporaryFolder()
        let strategy = Snapshotting<any Transition, SnapshotFrames>.frames(fps: 10, scale: 1)
        let first = verifySnapshot(of: transition, as: strategy, named: "frames", record: .all, snapshotDirectory: folder, testName: "builtIn")
        XCTAssertTrue(first?.hasPrefix("Record mode is on.") == true, first ?? "")
        XCTAssertNil(verifySnapshot(of: transition, as: strategy, named: "frames", record: .never, snapshotDirectory: folder, testName: "builtIn"))
        // The defaults (@2x, the transition's own 60 fps) under swift-snapshot-testing's bare spellings.
        let scene = try sceneTransition()
        XCTAssertNotNil(verifySnapshot(of: scene, as: .frames, named: "defaults", record: .all, snapshotDirectory: folder, testName: "builtIn"))
        let defaults = SnapshotFrames(png: [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/builtIn.defaults.png"))))
        XCTAssertEqual(defaults.frames.count, 19)  // 0.3 s at 60 fps: 18 steps and the end
        XCTAssertEqual(defaults.frames.first?.width, 96)
        XCTAssertNotNil(verifySnapshot(of: try Self.card(), as: .image, named: "defaults", record: .all, snapshotDirectory: folder,
                                       testName: "builtIn"))
        XCTAssertEqual(try PNGCodec.read(contentsOf: folder + "/builtIn.defaults.png").width, 80)
        let stored = SnapshotFrames(png: [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/builtIn.frames.png"))))
        XCTAssertEqual(stored.frames.first?.width, Int(transition.pointSize.width))
    }

    // MARK: - A mismatch: message and artifacts

    /// The card with its badge moved by 1 pt, checked against the card's reference through
    /// swift-snapshot-testing (`verifySnapshot` returns the message that `assertSnapshot` fails with).
    func testAMismatchNamesTheFrameAndWritesTheArtifacts() throws {
        let moved = try Self.card()
        moved.subviews[1].frame.origin.x += 1
        let artifacts = try XCTUnwrap(ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"])
        // named "1": the file assertSnapshot's first unnamed snapshot in testAViewTreeMatchesItsReference uses.
        let message = try XCTUnwrap(verifySnapshot(of: moved, as: .image(scale: 1), named: "1", record: .never,
                                                   snapshotDirectory: Self.references, testName: "testAViewTreeMatchesItsReference"))
        XCTAssertTrue(message.hasPrefix("Snapshot \"1\" does not match reference."), message)
        XCTAssertTrue(message.contains("1 of 1 frames differ (exact)"), message)
        XCTAssertTrue(message.contains("frame_0000.png: "), message)
        XCTAssertTrue(message.contains("of 1200 pixels differ"), message)
        // Smokescreen's artifacts, in a folder of their own under $SNAPSHOT_ARTIFACTS, named in the message.
        let folder = try XCTUnwrap(message.components(separatedBy: "Artifacts: ").last?.components(separatedBy: "/ (").first)
        XCTAssertTrue(folder.hasPrefix(artifacts + "/smokescreen-"), message)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        XCTAssertEqual(files, ["frame_0000.actual.png", "frame_0000.diff.png", "frame_0000.expected.png", "report.html", "sheet.png"])
        XCTAssertTrue(try PNGCodec.read(contentsOf: folder + "/frame_0000.actual.png") == moved.snapshot(scale: 1))
        // The reference was not touched (record: .never).
        XCTAssertTrue(try PNGCodec.read(contentsOf: Self.references + "/testAViewTreeMatchesItsReference.1.png") == Self.card().snapshot(scale: 1))
    }

    /// The Diffing itself: the same files come back as attachments, and the differing pixels are exactly
    /// those changed.
    func testTheDiffingReturnsTheArtifactsAsAttachments() throws {
        let expected = try Bitmap(width: 6, height: 4, fill: .white)
        var actual = expected
        actual[2, 1] = .black
        actual[3, 2] = .black
        let diffing = Diffing<SnapshotFrames>.frames()
        let outcome = try XCTUnwrap(diffing.diffV2(SnapshotFrames(frames: [expected]), SnapshotFrames(frames: [actual])))
        XCTAssertTrue(outcome.0.contains("frame_0000.png: 2 of 24 pixels differ (8.33%), max channel delta 255, in x 2 y 1 w 2 h 2"), outcome.0)
        let names = outcome.1.compactMap { attachment -> String? in
            if case .data(_, let name) = attachment { return name }
            return nil
        }
        XCTAssertEqual(names.sorted(), ["frame_0000.actual.png", "frame_0000.diff.png", "frame_0000.expected.png", "report.html", "sheet.png"])
        for attachment in outcome.1 {
            if case .data(let data, let name) = attachment, name == "frame_0000.actual.png" {
                XCTAssertTrue(try PNGCodec.decode([UInt8](data)) == actual)
            }
        }
        XCTAssertNil(diffing.diffV2(SnapshotFrames(frames: [expected]), SnapshotFrames(frames: [expected])))
    }

    /// Exact by default; a per-channel tolerance lets a small difference pass, and only that small.
    func testToleranceIsAnOption() throws {
        let expected = try Bitmap(width: 5, height: 5, fill: PremultipliedRGBA8(r: 100, g: 100, b: 100, a: 255))
        let near = try Bitmap(width: 5, height: 5, fill: PremultipliedRGBA8(r: 103, g: 100, b: 100, a: 255))
        let reference = SnapshotFrames(frames: [expected]), snapshot = SnapshotFrames(frames: [near])
        XCTAssertNotNil(SnapshotFramesComparison(artifactsRoot: try temporaryFolder()).compare(reference: reference, actual: snapshot))
        XCTAssertNil(SnapshotFramesComparison(comparison: .tolerance(3)).compare(reference: reference, actual: snapshot))
        XCTAssertNotNil(SnapshotFramesComparison(comparison: .tolerance(2), artifactsRoot: try temporaryFolder())
            .compare(reference: reference, actual: snapshot))
        // 1 pixel of 25 (4%) may differ by any amount with maxDifferentFraction 0.04, not 2 of them.
        var one = expected
        one[0, 0] = .black
        var two = one
        two[1, 0] = .black
        let fraction = FrameComparison(maxDifferentFraction: 0.04)
        XCTAssertNil(SnapshotFramesComparison(comparison: fraction).compare(reference: reference, actual: SnapshotFrames(frames: [one])))
        XCTAssertNotNil(SnapshotFramesComparison(comparison: fraction, artifactsRoot: try temporaryFolder())
            .compare(reference: reference, actual: SnapshotFrames(frames: [two])))
    }

    /// A transition that got longer or shorter: the frames on one side only are named.
    func testMissingAndExtraFramesAreNamed() throws {
        let a = try Bitmap(width: 3, height: 2, fill: .white), b = try Bitmap(width: 3, height: 2, fill: .black)
        let root = try temporaryFolder()
        let longer = try XCTUnwrap(SnapshotFramesComparison(artifactsRoot: root)
            .compare(reference: SnapshotFrames(frames: [a, b]), actual: SnapshotFrames(frames: [a, b, b])))
        XCTAssertTrue(longer.message.contains("0 of 2 frames differ (exact); the reference has 2 frames, the snapshot 3"), longer.message)
        XCTAssertTrue(longer.message.contains("extra (in the snapshot, not in the reference): frame_0002.png"), longer.message)
        let shorter = try XCTUnwrap(SnapshotFramesComparison(artifactsRoot: root)
            .compare(reference: SnapshotFrames(frames: [a, b]), actual: SnapshotFrames(frames: [b])))
        XCTAssertTrue(shorter.message.contains("1 of 1 frames differ"), shorter.message)
        XCTAssertTrue(shorter.message.contains("missing (in the reference, not in the snapshot): frame_0001.png"), shorter.message)
        XCTAssertNotEqual(longer.artifactsDirectory, shorter.artifactsDirectory)
    }

    // MARK: - Record modes (swift-snapshot-testing's, into a temporary folder)

    func testRecordModesWriteAsSwiftSnapshotTestingSays() throws {
        let folder = try temporaryFolder()
        let file = folder + "/recorded.card.png"
        let card = try Self.card()
        let strategy = Snapshotting<View, SnapshotFrames>.image(scale: 1)

        // .never: nothing written, a failure.
        let never = verifySnapshot(of: card, as: strategy, named: "card", record: .never, snapshotDirectory: folder, testName: "recorded")
        XCTAssertTrue(never?.contains("New snapshot was not recorded because recording is disabled") == true, never ?? "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file))

        // .missing (withSnapshotTesting, as a test suite sets it): the file written, a failure saying so.
        let missing = withSnapshotTesting(record: .missing) {
            verifySnapshot(of: card, as: strategy, named: "card", snapshotDirectory: folder, testName: "recorded")
        }
        XCTAssertTrue(missing?.contains("No reference was found on disk. Automatically recorded snapshot") == true, missing ?? "")
        XCTAssertTrue(try PNGCodec.read(contentsOf: file) == card.snapshot(scale: 1))
        // Then it matches.
        XCTAssertNil(verifySnapshot(of: card, as: strategy, named: "card", record: .never, snapshotDirectory: folder, testName: "recorded"))

        // .failed: a mismatch re-records, and still fails.
        card.subviews[0].backgroundColor = Color(hex: 0x34C759)
        let failed = verifySnapshot(of: card, as: strategy, named: "card", record: .failed, snapshotDirectory: folder, testName: "recorded")
        XCTAssertTrue(failed?.contains("A new snapshot was automatically recorded.") == true, failed ?? "")
        XCTAssertTrue(try PNGCodec.read(contentsOf: file) == card.snapshot(scale: 1))

        // .all: always records, and fails saying so.
        card.subviews[1].isHidden = true
        let all = withSnapshotTesting(record: .all) {
            verifySnapshot(of: card, as: strategy, named: "card", snapshotDirectory: folder, testName: "recorded")
        }
        XCTAssertTrue(all?.hasPrefix("Record mode is on.") == true, all ?? "")
        XCTAssertTrue(try PNGCodec.read(contentsOf: file) == card.snapshot(scale: 1))
    }

    // MARK: - The file layout

    func testFramesRoundTripThroughOnePNG() throws {
        let frames = try (0..<5).map { i in try Bitmap(width: 4, height: 3, scale: 2, fill: PremultipliedRGBA8(r: UInt8(40 * i), g: 0, b: 0, a: 255)) }
        let bytes = try SnapshotFrames(frames: frames).pngData()
        // 5 frames of 4x3: ceil(sqrt(5 * 3 / 4)) = 2 columns, 3 rows; the empty cell is transparent.
        XCTAssertEqual(PNGTextProbe.text(in: bytes), "frames=5 columns=2 width=4 height=3 scale=2")
        let grid = try PNGCodec.decode(bytes)
        XCTAssertEqual([grid.width, grid.height], [8, 9])
        XCTAssertEqual(grid[5, 7], .clear)
        XCTAssertEqual(grid[4, 0], PremultipliedRGBA8(r: 40, g: 0, b: 0, a: 255))
        let back = SnapshotFrames(png: bytes)
        XCTAssertNil(back.problem)
        XCTAssertEqual(back.frames.count, 5)
        for (a, b) in zip(back.frames, frames) { XCTAssertTrue(a == b) }
        XCTAssertEqual(back.frames[0].scale, 2)
    }

    /// A PNG drawn elsewhere (no layout chunk) is one frame, read at the scale of what it is compared with.
    func testAPlainPNGIsOneFrame() throws {
        let bitmap = try Bitmap(width: 4, height: 2, scale: 2, fill: .black)
        let plain = SnapshotFrames(png: try PNGCodec.encode(bitmap))
        XCTAssertEqual(plain.frames.count, 1)
        XCTAssertNil(SnapshotFramesComparison().compare(reference: plain, actual: SnapshotFrames(frames: [bitmap])))
    }

    func testUnreadableReferencesSayWhy() throws {
        let empty = SnapshotFramesComparison().compare(reference: Diffing<SnapshotFrames>.frames().fromData(Data()),
                                                       actual: SnapshotFrames(frames: [try Bitmap(width: 1, height: 1)]))
        XCTAssertEqual(empty?.message, "Cannot read the reference: the reference file is empty. Delete it and record it again.")

        let garbage = SnapshotFrames(png: Array("not a png".utf8), name: "x.png")
        XCTAssertTrue(garbage.problem?.hasPrefix("x.png") == true, garbage.problem ?? "")

        let bitmap = try Bitmap(width: 4, height: 2)
        let lying = try Self.withLayout("frames=3 columns=3 width=4 height=2 scale=1", bitmap)
        XCTAssertEqual(SnapshotFrames(png: lying, name: "x.png").problem,
                       "x.png: its layout 'frames=3 columns=3 width=4 height=2 scale=1' does not fit the 4x2 px image")
        let malformed = try Self.withLayout("frames=two", bitmap)
        XCTAssertEqual(SnapshotFrames(png: malformed, name: "x.png").problem,
                       "x.png: its 'Smokescreen frames' chunk 'frames=two' is not 'frames=N columns=N width=N height=N scale=N'")
    }

    func testFramesOfDifferentSizesAreRefused() throws {
        let frames = [try Bitmap(width: 4, height: 2), try Bitmap(width: 4, height: 3)]
        XCTAssertThrowsError(try SnapshotFrames(frames: frames).pngData()) { error in
            XCTAssertEqual("\(error)", "frame 1 is 4x3 px @1.0x, frame 0 is 4x2 px @1.0x: every frame must have the same size")
        }
        XCTAssertThrowsError(try SnapshotFrames(frames: []).pngData()) { XCTAssertEqual("\($0)", "no frames to store") }
    }

    /// A transition that cannot be rendered is an error naming it (the strategy reports it as the failure).
    func testARenderErrorNamesTheTransition() throws {
        let folder = try temporaryFolder()
        let missingPlist = RenderSettings(scale: 1, fps: 10, assetsDirectory: "/unused", durationsFile: folder + "/none.plist")
        XCTAssertThrowsError(try SnapshotFrames.rendering(try sceneTransition(), settings: missingPlist)) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot render the transition 'grow': "), "\(error)")
            XCTAssertTrue("\(error)".contains("none.plist"), "\(error)")
        }
    }

    /// The default assets folder: `$SMOKESCREEN_ASSETS` first, then this checkout's `assets/`.
    func testTheDefaultAssetsFolder() {
        XCTAssertEqual(SnapshotAssets.defaultDirectory(environment: ["SMOKESCREEN_ASSETS": "/some/assets"]), "/some/assets")
        let found = SnapshotAssets.defaultDirectory(environment: [:])
        XCTAssertTrue(found.hasSuffix("/assets"), found)
        XCTAssertTrue(FileManager.default.fileExists(atPath: found + "/scenes/tile-expand.json"), found)
    }

    /// A PNG of `bitmap` with a layout chunk saying `text`, as a reference edited by hand would have it.
    static func withLayout(_ text: String, _ bitmap: Bitmap) throws -> [UInt8] {
        PNGTextChunk.inserting(keyword: SnapshotFrames.Layout.keyword, text: text, into: try PNGCodec.encode(bitmap))
    }
}

/// Reads the layout chunk the way a person would check it: any `tEXt` chunk before the image data.
enum PNGTextProbe {
    static func text(in png: [UInt8]) -> String? {
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "IDAT" { return nil }
            if type == "tEXt" {
                let data = Array(png[(offset + 8)..<(offset + 8 + length)])
                if let nul = data.firstIndex(of: 0) { return String(decoding: data[(nul + 1)...], as: UTF8.self) }
            }
            offset += 12 + length
        }
        return nil
    }
}
