import BoundedInput
import FrameStore
import Foundation
import Motion
import PNGIO
import RasterCore
import SnapshotView
import Typesetting
import XCTest
import SmokescreenScenes
import TransitionCompositor

final class VesperTransitionTests: XCTestCase {
    var folders: [String] = []
    override func tearDown() { for f in folders { try? FileManager.default.removeItem(atPath: f) } }

    var assets: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("assets").path
    }

    func temporaryPath(_ name: String) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vesper-\(getpid())-\(UUID().uuidString)-\(name)").path
        folders.append(path)
        return path
    }

    /// A durations plist with the three blocks' (duration, delay).
    func durationsFile(_ blocks: [String: (Double, Double)], omit: String? = nil, raw: String? = nil) throws -> String {
        var body = ""
        for (name, (duration, delay)) in blocks.sorted(by: { $0.key < $1.key }) where name != omit {
            body += "<key>\(name)</key><dict><key>duration</key><real>\(duration)</real><key>delay</key><real>\(delay)</real></dict>"
        }
        if let raw { body += raw }
        let path = temporaryPath("durations.plist")
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>\(body)</dict></plist>
            """.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func hasSmokescreen(_ node: RenderNode) -> Bool { node.children.contains { $0.name == "smokescreen" } }

    func testTheSmokescreenStaysUntilTheLongestBlockEndsWhicheverThatIs() throws {
        let lengths = [0.2, 0.3, 0.45]
        // Each block in turn is the longest; the third case also delays the longest one.
        let cases: [[String: (Double, Double)]] = [
            ["navigationBar": (lengths[2], 0), "tableView": (lengths[0], 0), "selectedNote": (lengths[1], 0)],
            ["navigationBar": (lengths[1], 0), "tableView": (lengths[2], 0), "selectedNote": (lengths[0], 0)],
            ["navigationBar": (lengths[0], 0), "tableView": (lengths[1], 0), "selectedNote": (lengths[2], 0.05)],
        ]
        for (n, blocks) in cases.enumerated() {
            let longest = blocks.values.map { $0.0 + $0.1 }.max()!
            for direction in [VesperTransition.Direction.timelineToDetail, .detailToTimeline] {
                let settings = RenderSettings(scale: 1, fps: 20, assetsDirectory: assets, durationsFile: try durationsFile(blocks))
                let sequence = try VesperTransition(direction).render(settings).sequence
                XCTAssertEqual(sequence.times.last!, longest, accuracy: 1e-12, "case \(n): the last frame is at the end")
                for (t, node) in zip(sequence.times, sequence.nodes) {
                    XCTAssertEqual(hasSmokescreen(node), t < longest - 1e-9, "case \(n) \(direction) at t = \(t)")
                }
                XCTAssertEqual(sequence.count, Int((longest * 20 - 1e-9).rounded(.up)) + 1, "case \(n)")
            }
        }
    }

    func testFrameTimesAreIOverFPSAndTheLastIsTheEnd() throws {
        let settings = RenderSettings(scale: 1, fps: 60, assetsDirectory: assets, holdFrames: 2)
        let sequence = try VesperTransition(.timelineToDetail).render(settings).sequence
        // The shipped plist's timings, read as the render reads them.
        let end = VesperTransition.endTime(of: try VesperTransition.timings(assetsDirectory: assets))
        let frames = try FrameTimes(endTime: end, fps: 60).count
        XCTAssertEqual(sequence.count, frames + 2)
        for i in 0..<frames - 1 { XCTAssertEqual(sequence.times[i], Double(i) / 60) }
        XCTAssertEqual(sequence.times[frames - 1], end)
        XCTAssertEqual(sequence.times[frames], (end * 60 + 1) / 60, "held frames at end + k/fps, from the frame index")
        XCTAssertFalse(hasSmokescreen(sequence.nodes[frames - 1]))
        XCTAssertTrue(hasSmokescreen(sequence.nodes[frames - 2]))
    }

    /// The texts shaped ahead (``VesperScene/prepareTexts(of:)``) are those the screens' labels set, in
    /// their fonts: a label missing from the list would only cost time, so this is what keeps it honest.
    func testTheTextsPreparedAreTheLabelsOfTheScreens() throws {
        func labels(_ view: View) -> [(String, Font)] {
            (view as? Label).map { [($0.text, $0.style.font)] } ?? view.subviews.flatMap(labels)
        }
        let scene = try VesperScene(assetsDirectory: assets, scale: 1, preparing: [.timeline, .detail])
        for (screen, root) in [(VesperScene.Screen.timeline, try scene.makeTimeline()), (.detail, try scene.makeDetail()), (.picture, try scene.makePicture())] {
            let expected = labels(root).map { "\($0.0) | \($0.1)" }.sorted()
            XCTAssertEqual(VesperScene.texts(of: screen).map { "\($0.0) | \($0.1)" }.sorted(), expected, "\(screen)")
        }
        // Prepared or not, the screens are the same.
        let plain = try VesperScene(assetsDirectory: assets, scale: 1)
        XCTAssertEqual(try plain.makeTimeline().treeDescription(), try scene.makeTimeline().treeDescription())
        XCTAssertEqual(try plain.makeDetail().treeDescription(), try scene.makeDetail().treeDescription())
    }

    func testTheLastFrameIsTheRealDetailView() throws {
        // Without the status bar, which lies over every frame and is no part of either screen.
        var settings = RenderSettings(scale: 1, fps: 10, assetsDirectory: assets)
        settings.drawsStatusBar = false
        let sequence = try VesperTransition(.timelineToDetail).render(settings).sequence
        var last = try sequence.makeCanvas()
        sequence.draw(frame: sequence.count - 1, into: &last)
        let detail = try VesperScene(assetsDirectory: assets, scale: 1).makeDetail()
        XCTAssertEqual(last, try ViewRenderer.render(detail, scale: 1))
        var first = try sequence.makeCanvas()
        sequence.draw(frame: 0, into: &first)
        let timeline = try VesperScene(assetsDirectory: assets, scale: 1).makeTimeline()
        // The first frame is the timeline as the smokescreen shows it: snapshots composited at whole
        // pixels, so equal but for rounding where translucent pixels were composited twice.
        let reference = try ViewRenderer.render(timeline, scale: 1)
        var worst = 0
        for y in 0..<first.height { for x in 0..<first.width {
            let a = first[x, y], b = reference[x, y]
            let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
            worst = max(worst, d)
        } }
        XCTAssertLessThanOrEqual(worst, 1, "the smokescreen's first frame matches the timeline to within 1/255")
    }

    func testOneAndTwoJobsWriteTheSameFiles() throws {
        let settings = RenderSettings(scale: 1, fps: 10, assetsDirectory: assets)
        let sequence = try VesperTransition(.detailToTimeline).render(settings).sequence
        let a = temporaryPath("one"), b = temporaryPath("two")
        _ = try FrameWriter(directory: a, jobs: 1).write(sequence)
        _ = try FrameWriter(directory: b, jobs: 2).write(sequence)
        let names = try FileManager.default.contentsOfDirectory(atPath: a).sorted()
        XCTAssertEqual(names, try FileManager.default.contentsOfDirectory(atPath: b).sorted())
        for name in names {
            XCTAssertEqual(FileManager.default.contents(atPath: a + "/" + name), FileManager.default.contents(atPath: b + "/" + name), name)
        }
    }

    func assertRenderError(_ settings: RenderSettings, exitCode: Int32, contains texts: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try VesperTransition(.timelineToDetail).render(settings), file: file, line: line) { error in
            guard let e = error as? any ExitStatusError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(e.exitStatus, exitCode, e.description, file: file, line: line)
            for text in texts { XCTAssertTrue(e.description.contains(text), e.description, file: file, line: line) }
        }
    }

    func testBadDurationsFilesNameTheFileAndKeyPath() throws {
        let good: [String: (Double, Double)] = ["navigationBar": (0.2, 0), "tableView": (0.2, 0), "selectedNote": (0.2, 0)]
        let missing = try durationsFile(good, omit: "tableView")
        assertRenderError(RenderSettings(scale: 1, fps: 10, assetsDirectory: assets, durationsFile: missing),
                          exitCode: 65, contains: [missing, "tableView: missing"])
        var negative = good
        negative["selectedNote"] = (-0.5, 0)
        let negativeFile = try durationsFile(negative)
        assertRenderError(RenderSettings(scale: 1, fps: 10, assetsDirectory: assets, durationsFile: negativeFile),
                          exitCode: 65, contains: [negativeFile, "selectedNote.duration", "-0.5"])
        let text = try durationsFile(good, omit: "navigationBar",
                                     raw: "<key>navigationBar</key><dict><key>duration</key><string>quick</string></dict>")
        assertRenderError(RenderSettings(scale: 1, fps: 10, assetsDirectory: assets, durationsFile: text),
                          exitCode: 65, contains: [text, "navigationBar.duration", "'quick'"])
        let folder = temporaryPath("a-folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        assertRenderError(RenderSettings(scale: 1, fps: 10, assetsDirectory: assets, durationsFile: folder),
                          exitCode: 66, contains: [folder, "the durations file is a directory, not a regular file"])
    }

    func testTheTimelineNamesTheThreePhases() throws {
        let rendered = try VesperTransition(.timelineToDetail).render(RenderSettings(scale: 1, fps: 10, assetsDirectory: assets))
        let timings = try VesperTransition.timings(assetsDirectory: assets)
        let ends = Dictionary(rendered.timeline.map { ($0.label, $0.end) }, uniquingKeysWith: max)
        for name in VesperTransition.blockNames { XCTAssertEqual(try XCTUnwrap(ends[name]), try XCTUnwrap(timings[name]).end, accuracy: 1e-12, name) }
        // The body's line count changes (2 → 4): it fades out over the first half of the phase and the
        // detail's fades in over the second.
        let note = try XCTUnwrap(timings["selectedNote"])
        let half = note.delay + note.duration / 2
        let out = try XCTUnwrap(rendered.timeline.first { $0.label == "selectedNote (text out)" })
        let into = try XCTUnwrap(rendered.timeline.first { $0.label == "selectedNote (text in)" })
        XCTAssertEqual(out.start, note.delay, accuracy: 1e-12)
        XCTAssertEqual(out.end, half, accuracy: 1e-12)
        XCTAssertEqual(into.start, half, accuracy: 1e-12)
        XCTAssertEqual(into.end, note.end, accuracy: 1e-12)
        let block = try XCTUnwrap(rendered.timeline.first { $0.label == "selectedNote" })
        XCTAssertTrue(block.properties.contains("note 1 thumbnail → detail image.bounds"), "\(block.properties)")
        XCTAssertEqual(rendered.sequence.durations["selectedNote.delay"], note.delay)
        XCTAssertTrue(rendered.bitmaps.contains { $0.kind == .asset && $0.name == "vesper/coffee.png" && $0.width == 240 })
        XCTAssertTrue(rendered.bitmaps.contains { $0.kind == .snapshot && $0.name == "note 1 title (from)" })
    }
}

/// Vesper's stacking as on a device (issue 44, replacing issue 28's order): the picture, the image view
/// added last, covers the title and body while it grows or shrinks; the bar stays above everything, with
/// the title travelling into the back button above it. Detail ↔ picture has the black screen opaque
/// underneath and the detail fading over it (no mid-grey).
final class VesperStackingTests: XCTestCase {
    var assets: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("assets").path
    }

    private func all(_ node: ViewDescription) -> [ViewDescription] { [node] + node.subviews.flatMap(all) }

    /// The smokescreen's pieces back to front at `time`.
    private func pieces(_ transition: VesperTransition, at time: Double) throws -> [String] {
        var settings = RenderSettings(scale: 1, fps: 20, assetsDirectory: assets)
        settings.inspectionTime = time
        let tree = try XCTUnwrap(transition.render(settings).inspection?.tree)
        let smokescreen = try XCTUnwrap(all(tree).first { $0.name == "smokescreen" })
        return smokescreen.subviews.map { $0.name ?? "" }
    }

    func testThePictureCoversTheTitleAndBody() throws {
        for direction in [VesperTransition.Direction.timelineToDetail, .detailToTimeline] {
            let order = try pieces(VesperTransition(direction), at: 0.3)
            let image = try XCTUnwrap(order.firstIndex(of: "note 1 thumbnail → detail image"), "\(order)")
            for text in ["note 1 title (from)", "detail title (to)", "note 1 body (from)", "detail body (to)"] {
                XCTAssertLessThan(try XCTUnwrap(order.firstIndex(of: text), text), image, "\(direction): \(text) under the picture")
            }
            let bar = try XCTUnwrap(order.firstIndex(of: "detail navigationBar (to)"), "\(order)")
            XCTAssertGreaterThan(bar, image, "\(direction): the bar above the picture")
            // The bar's title and the back button's text it becomes, above both bars.
            XCTAssertEqual(Set(order.suffix(2)), ["navigationBar title (from)", "detail navigationBar back (to)"], "\(order)")
        }
        for direction in [VesperTransition.Direction.detailToPicture, .pictureToDetail] {
            let order = try pieces(VesperTransition(direction), at: 0.15)
            let image = try XCTUnwrap(order.firstIndex(of: "detail image → picture image"), "\(order)")
            XCTAssertEqual(image, order.count - 1, "\(direction): the picture in front of everything")
            for text in ["detail title snapshot", "detail body snapshot"] {
                XCTAssertLessThan(try XCTUnwrap(order.firstIndex(of: text), text), image, "\(direction): \(text) under the picture")
            }
            // The black picture screen underneath, the detail's stage over it.
            XCTAssertLessThan(try XCTUnwrap(order.firstIndex(of: "to stage")), try XCTUnwrap(order.firstIndex(of: "from stage")))
        }
    }

    /// The push's title travels into the back button: at the end of the bar's phase the timeline's title
    /// stands on the back button's text, at the start the back text on the title.
    func testTheBarTitleTravelsIntoTheBackButton() throws {
        let timings = try VesperTransition.timings(assetsDirectory: assets)
        let bar = try XCTUnwrap(timings["navigationBar"])
        /// The two texts' snapshots' frames ([x, y, width, height] in the window, points).
        func frames(at time: Double) throws -> (title: [Double], back: [Double]) {
            var settings = RenderSettings(scale: 1, fps: 20, assetsDirectory: assets)
            settings.inspectionTime = time
            let tree = try XCTUnwrap(VesperTransition(.timelineToDetail).render(settings).inspection?.tree)
            let nodes = all(tree)
            return (try XCTUnwrap(nodes.first { $0.name == "navigationBar title (from)" }).frame,
                    try XCTUnwrap(nodes.first { $0.name == "detail navigationBar back (to)" }).frame)
        }
        let scene = try VesperScene(assetsDirectory: assets, scale: 1)
        let title = try XCTUnwrap(try scene.makeTimeline().view(named: "navigationBar title") as? Label)
        let back = try XCTUnwrap(try scene.makeDetail().view(named: "detail navigationBar back") as? Label)
        // Where each text starts in its label, and in the bar (the bars are at the window's origin).
        let titleInset = try XCTUnwrap(title.layout().lines.first).x, backInset = try XCTUnwrap(back.layout().lines.first).x
        let titleStart = title.frame.minX + titleInset, backStart = back.frame.minX + backInset
        XCTAssertGreaterThan(titleStart - backStart, 50, "a centred title far from the back button's text")
        let start = try frames(at: bar.delay), end = try frames(at: bar.end - 1e-6)
        // At the start the back text, scaled as it travels, begins where the title's text begins; at the
        // end the title's text begins where the back text does (to within the last microsecond's motion).
        XCTAssertEqual(start.back[0] + backInset * start.back[2] / back.frame.width, titleStart, accuracy: 1e-6)
        XCTAssertEqual(end.title[0] + titleInset * end.title[2] / title.frame.width, backStart, accuracy: 0.01)
    }

    func testTheDetailFadesOverTheBlackInTheChromePhase() throws {
        let timings = try BlockTimings.load(contentsOf: "\(assets)/\(VesperTransition.durationsAsset)",
                                            required: VesperTransition.pictureBlockNames, alsoKnown: VesperTransition.blockNames)
        let chrome = try XCTUnwrap(timings["chrome"])
        var settings = RenderSettings(scale: 1, fps: 20, assetsDirectory: assets)
        let t = chrome.delay + chrome.duration / 2
        settings.inspectionTime = t
        let tree = try XCTUnwrap(VesperTransition(.detailToPicture).render(settings).inspection?.tree)
        let nodes = all(tree)
        let from = try XCTUnwrap(nodes.first { $0.name == "from stage" }), to = try XCTUnwrap(nodes.first { $0.name == "to stage" })
        XCTAssertEqual(to.alpha, 1, "the black lies opaque underneath")
        XCTAssertEqual(from.alpha, 1 - chrome.curve.progress(at: 0.5), accuracy: 1e-6)
        let title = try XCTUnwrap(nodes.first { $0.name == "detail title snapshot" })
        XCTAssertEqual(title.alpha, from.alpha, accuracy: 1e-6, "the text fades with its background")
    }
}
