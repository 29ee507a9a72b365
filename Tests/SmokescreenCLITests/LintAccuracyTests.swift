import Choreography
import Foundation
import FrameStore
import Lint
import Previews
import RasterCore
import SmokescreenCLI
import SnapshotView
import TransitionCompositor
import XCTest

/// `lint` measured on a labelled set: 32 small transitions, 18 clean and 14 with a defect planted (each
/// labelled with the kinds a person would name), as scene files in `LintLabelled/` (their labels in
/// `labels.json`) and as scripted view trees here. Each is rendered at @1x and 30 fps and linted as
/// `smokescreen lint` does; the precision and recall of every check are printed (docs/previews-and-lint.md
/// quotes them) and held. A render folder of each scene file is linted too: the same findings as by name.
final class LintAccuracyTests: XCTestCase {
    static let folder = SafetyTests.root + "/Tests/SmokescreenCLITests/LintLabelled"

    struct Case {
        var name: String
        var labels: Set<String>
        var transition: any Transition
        var sceneFile: String?
    }

    /// The scene-file cases, by `labels.json`.
    static func sceneCases() throws -> [Case] {
        let labels = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/labels.json"))) as? [String: [String]] ?? [:]
        return try labels.keys.sorted().map { name in
            let file = folder + "/\(name).json"
            return Case(name: name, labels: Set(labels[name] ?? []), transition: try SceneTransition.load(path: file, transition: nil), sceneFile: file)
        }
    }

    /// A transition written frame by frame: `build` makes a 160x240 window and a function that sets the
    /// views for frame `i`; the frozen trees are the frames (at 30 fps). `complete`: whether everything
    /// had ended by the last frame.
    struct Scripted: Transition {
        var name: String
        var summary: String { "a labelled case" }
        var pointSize: Size { Size(width: 160, height: 240) }
        var frames: Int
        var complete = true
        var build: @Sendable () -> (View, (Int) -> Void)

        func render(_ settings: RenderSettings) throws -> RenderedTransition {
            let (window, step) = build()
            let fps = settings.fps ?? 30
            var nodes: [RenderNode] = [], descriptions: [ViewDescription] = []
            for i in 0..<frames {
                step(i)
                nodes.append(window.renderNode()!)
                if settings.describesFrames { descriptions.append(window.presentationDescription()) }
            }
            let times = (0..<frames).map { Double($0) / fps }
            var rendered = RenderedTransition(sequence: FrameSequence(name: name, pointSize: pointSize, scale: settings.scale, fps: fps,
                                                                      times: times, nodes: nodes, durations: [:]),
                                              bitmaps: [], initialTree: "", timeline: [])
            rendered.frameDescriptions = descriptions
            rendered.endsComplete = complete
            return rendered
        }
    }

    /// 1-pt bands of paper drawn straight at the view's place: where the view lands between device pixels,
    /// every band edge lets the background through.
    struct Bands: ViewContent {
        func draw(in painter: Painter, bounds: Rect) {
            for i in 0..<Int(bounds.height) {
                painter.fill(Rect(x: 0, y: Double(i), width: bounds.width, height: 1), color: Color(red: 0.93, green: 0.89, blue: 0.80))
            }
        }
    }

    final class BandsView: View {
        override func makeContent() -> (any ViewContent)? { Bands() }
    }

    /// A window (white) with a grey page and a blue 40x40 box; `change` sets them for frame `i`.
    static func boxCase(_ name: String, frames: Int = 16, complete: Bool = true, labels: Set<String>,
                        _ change: @escaping @Sendable (Int, View, View) -> Void) -> Case {
        Case(name: name, labels: labels, transition: Scripted(name: name, frames: frames, complete: complete) {
            let window = View(frame: Rect(x: 0, y: 0, width: 160, height: 240), name: "window")
            window.backgroundColor = .white
            let page = View(frame: window.bounds, name: "page")
            page.backgroundColor = Color(white: 0.95)
            let box = View(frame: Rect(x: 20, y: 40, width: 40, height: 40), name: "box")
            box.backgroundColor = Color(red8: 40, green8: 90, blue8: 200)
            try? window.addSubview(page)
            try? page.addSubview(box)
            return (window, { i in change(i, page, box) })
        })
    }

    /// The scripted cases.
    static func scriptedCases() -> [Case] {
        [
            boxCase("script-flicker-one-frame", labels: ["flicker"]) { i, _, box in box.isHidden = i == 8 },
            boxCase("script-flicker-wobble", labels: ["flicker"]) { i, _, box in box.alpha = [1, 1, 0.4, 1, 0.4, 1][min(i, 5)] },
            boxCase("script-teleport", labels: ["jump"]) { i, _, box in box.frame.origin.y = 40 + 2 * Double(i) + (i >= 8 ? 100 : 0) },
            boxCase("script-ends-late", complete: false, labels: ["ends-late"]) { i, _, box in box.frame.origin.y = 40 + 5 * Double(i) },
            boxCase("script-snap-at-end", labels: ["snaps-at-end"]) { i, _, box in box.frame.origin.y = i == 15 ? 140 : 40 },
            boxCase("script-uncovered", frames: 24, labels: ["uncovered"]) { i, page, _ in page.isHidden = (4...11).contains(i) },
            boxCase("script-pop-in", labels: ["hidden-until-end"]) { i, _, box in box.isHidden = i < 12 },
            boxCase("script-steady-move", labels: []) { i, _, box in box.frame.origin.y = 40 + 6 * Double(i) },
            boxCase("script-slow-fade", frames: 90, labels: []) { i, _, box in box.alpha = i < 45 ? 1 - Double(i) / 45 : Double(i - 45) / 44 },
            boxCase("script-fade-in", labels: []) { i, _, box in box.alpha = min(1, Double(i) / 10) },
            Case(name: "script-shimmer", labels: ["shimmer"], transition: Scripted(name: "script-shimmer", frames: 16) {
                bands(BandsView())
            }),
            Case(name: "script-bands-backing-store", labels: [], transition: Scripted(name: "script-bands-backing-store", frames: 16) {
                bands(DrawingView(drawing: Bands()))
            }),
        ]
    }

    /// A dark window with a 60x40 row (dark, opaque) holding `content` (1-pt bands), moving down 10 pt
    /// over 16 frames: a third of a point a frame.
    static func bands(_ content: View) -> (View, (Int) -> Void) {
        let window = View(frame: Rect(x: 0, y: 0, width: 160, height: 240), name: "window")
        window.backgroundColor = Color(red: 0.2, green: 0.15, blue: 0.1)
        let row = View(frame: Rect(x: 20, y: 20, width: 100, height: 60), name: "row")
        row.backgroundColor = Color(red: 0.23, green: 0.15, blue: 0.11)
        content.frame = Rect(x: 0, y: 6, width: 100, height: 40)
        content.name = "bands"
        try? window.addSubview(row)
        try? row.addSubview(content)
        return (window, { i in row.frame.origin.y = 20 + 10 * Double(i) / 15 })
    }

    static let settings: RenderSettings = {
        var s = RenderSettings(scale: 1, fps: 30, assetsDirectory: SafetyTests.root + "/assets")
        s.describesFrames = true
        return s
    }()

    static func lint(_ transition: any Transition) throws -> [Finding] {
        let rendered = try transition.render(settings)
        return LintRun.check(rendered: rendered, frames: try PreviewFrames(rendered: rendered), thresholds: Thresholds())
    }

    func testPrecisionAndRecallOfEveryCheckOnTheLabelledSet() throws {
        let cases = try Self.sceneCases() + Self.scriptedCases()
        XCTAssertGreaterThanOrEqual(cases.count, 30)
        XCTAssertGreaterThanOrEqual(cases.filter { $0.labels.isEmpty }.count, 15, "clean ones")
        var found: [String: Set<String>] = [:]
        for c in cases { found[c.name] = Set(try Self.lint(c.transition).map(\.kind.rawValue)) }
        var table = "| check | labelled | found | true positives | precision | recall |\n| --- | --- | --- | --- | --- | --- |\n"
        var problems: [String] = []
        for kind in Finding.Kind.allCases.map(\.rawValue) {
            let labelled = cases.filter { $0.labels.contains(kind) }.map(\.name)
            let reported = cases.filter { found[$0.name]!.contains(kind) }.map(\.name)
            let hits = Set(labelled).intersection(reported)
            let precision = reported.isEmpty ? "–" : String(format: "%.2f", Double(hits.count) / Double(reported.count))
            let recall = labelled.isEmpty ? "–" : String(format: "%.2f", Double(hits.count) / Double(labelled.count))
            table += "| `\(kind)` | \(labelled.count) | \(reported.count) | \(hits.count) | \(precision) | \(recall) |\n"
            for name in Set(labelled).subtracting(reported).sorted() { problems.append("missed \(kind) in \(name)") }
            for name in Set(reported).subtracting(labelled).sorted() { problems.append("\(kind) reported in \(name), not labelled") }
        }
        let clean = cases.filter { $0.labels.isEmpty }
        table += "\nclean transitions with no finding: \(clean.filter { found[$0.name]!.isEmpty }.count) of \(clean.count); "
            + "transitions with a defect found by its kind: \(cases.filter { !$0.labels.isEmpty && $0.labels.isSubset(of: found[$0.name]!) }.count) "
            + "of \(cases.filter { !$0.labels.isEmpty }.count)"
        print("lint on the labelled set (\(cases.count) transitions, @1x, 30 fps):\n" + table)
        // Every labelled defect found, nothing reported on a clean transition, no kind reported that
        // was not planted: the figures docs/previews-and-lint.md gives.
        XCTAssertEqual(problems, [])
    }

    /// The pixel checks alone, as a render folder whose transition is unknown gets them: a flash is a
    /// region that changes and changes back, unless the change is the same content moved (text sliding by).
    func testPixelChecksAloneOnTheLabelledSet() throws {
        let cases = try Self.sceneCases() + Self.scriptedCases()
        var reported: [String] = [], clean = 0
        for c in cases {
            let rendered = try c.transition.render(Self.settings)
            let frames = try PreviewFrames(rendered: rendered)
            let findings = try Lint.pixels(count: frames.times.count, times: frames.times, frame: frames.frame)
            if findings.contains(where: { $0.kind == .flicker }) { reported.append(c.name) }
            if c.labels.isEmpty, findings.isEmpty { clean += 1 }
        }
        let labelled = cases.filter { $0.labels.contains("flicker") }.map(\.name)
        let hits = Set(labelled).intersection(reported)
        print("lint's pixel checks alone on the labelled set: flicker reported in \(reported.count) (\(reported.joined(separator: ", "))), "
              + "\(hits.count) of \(labelled.count) labelled found; clean transitions with no finding: \(clean) of \(cases.filter { $0.labels.isEmpty }.count)")
        // Both flickers are seen in the pixels too, and nothing else is taken for one.
        XCTAssertEqual(reported, ["script-flicker-one-frame", "script-flicker-wobble"])
        XCTAssertEqual(clean, cases.filter { $0.labels.isEmpty }.count)
    }

    /// Each scene case rendered into a folder and linted there gives what linting it by name gives.
    func testARenderFolderGetsTheSameFindingsAsItsTransition() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("lint-folders-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        for c in try Self.sceneCases() {
            let folder = out + "/" + c.name
            var render = try SmokescreenCommand.parseAsRoot(["render", c.sceneFile!, "--scale", "1", "--fps", "30", "--out", folder, "--quiet",
                                                             "--assets", SafetyTests.root + "/assets"])
            try render.run()
            let frames = try PreviewFrames(folder: folder)
            guard case .found(let rendered, _) = try FolderMotion.find(folder: folder, frames: frames, scene: c.sceneFile, durations: nil,
                                                                      assets: SafetyTests.root + "/assets") else {
                XCTFail("\(c.name): the folder's views were not found")
                continue
            }
            XCTAssertEqual(LintRun.check(rendered: rendered, frames: frames, thresholds: Thresholds()), try Self.lint(c.transition), c.name)
        }
    }
}
