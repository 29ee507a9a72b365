import Foundation
import Lint
import Motion
import RasterCore
import SmokescreenScenes
import SnapshotView
import Typesetting
import TransitionCompositor
import XCTest

/// The shimmer check: content that only moves must keep its look.
final class ShimmerTests: XCTestCase {
    override func tearDown() { RenderNode.drawsBackingStores = true }

    /// 1-pt bands of paper, drawn straight at the view's place (no backing store): where the view lands
    /// between device pixels, every band edge lets the background through.
    struct StraightBands: ViewContent {
        func draw(in painter: Painter, bounds: Rect) {
            for i in 0..<Int(bounds.height) {
                painter.fill(Rect(x: 0, y: Double(i), width: bounds.width, height: 1), color: Color(red: 0.93, green: 0.89, blue: 0.80))
            }
        }
    }

    final class StraightView: View {
        override func makeContent() -> (any ViewContent)? { StraightBands() }
    }

    /// A dark 60x80 window with a 40x30 view (opaque dark background, banded content) moving down
    /// 10 pt over 12 frames at `scale`, and a label-free static bar drawn above part of its path.
    func run(_ make: () -> View, scale: Double, count: Int = 12) throws -> [Finding] {
        let window = View(frame: Rect(x: 0, y: 0, width: 60, height: 80), name: "window")
        window.backgroundColor = Color(red: 0.2, green: 0.15, blue: 0.1)
        let row = View(frame: Rect(x: 10, y: 10, width: 40, height: 30), name: "row")
        row.backgroundColor = Color(red: 0.23, green: 0.15, blue: 0.11)
        let content = make()
        content.frame = Rect(x: 0, y: 4, width: 40, height: 22)
        content.name = "bands"
        try window.addSubview(row)
        try row.addSubview(content)
        var trees: [ViewDescription] = [], frames: [Bitmap] = []
        for i in 0..<count {
            row.frame.origin.y = 10 + 10 * Double(i) / Double(count - 1)
            trees.append(window.presentationDescription())
            frames.append(try window.snapshot(scale: scale))
        }
        return Lint.shimmer(trees, times: (0..<count).map { Double($0) / 60 }, frame: { frames[$0] })
    }

    func testStraightBandsMovingBetweenPixelsShimmerAndABackingStoreKeepsTheLook() throws {
        for scale in [1.0, 2.0] {
            let straight = try run({ StraightView() }, scale: scale)
            XCTAssertFalse(straight.isEmpty, "@\(Int(scale))x")
            XCTAssertTrue(straight.allSatisfy { $0.kind == .shimmer && $0.subject == "window/row" }, "\(straight)")
            XCTAssertEqual(try run({ DrawingView(drawing: StraightBands()) }, scale: scale), [], "@\(Int(scale))x")
        }
        // At @2x the seams are every other device row: combing, named as such.
        let combed = try run({ StraightView() }, scale: 2)
        XCTAssertTrue(combed.contains { $0.detail.contains("combing") }, "\(combed)")
    }

    func testTextAndFlatContentMovingIsClean() throws {
        // A label and flat fills moving by fractions of a pixel: resampling them differs from redrawing
        // them, but neither in tone nor row by row.
        for scale in [1.0, 2.0] {
            let findings = try run({
                let label = Label(text: "Jōmon period 縄文", style: TextStyle(font: .system(size: 11), color: .black))
                label.backgroundColor = .white
                return label
            }, scale: scale)
            XCTAssertEqual(findings, [], "@\(Int(scale))x")
        }
    }

    func testTheHistoryScrollsShimmeredWithoutBackingStoresAndNoLongerDo() throws {
        func findings(_ scene: INipponTransition.Scene) throws -> [Finding] {
            var settings = RenderSettings(scale: 1, fps: 60, assetsDirectory: "/nonexistent")
            settings.describesFrames = true
            let rendered = try INipponTransition(scene).render(settings)
            let frames = try PreviewFramesForTests(rendered)
            return try Lint.shimmer(rendered.frameDescriptions, times: Array(rendered.sequence.times.prefix(rendered.frameDescriptions.count)),
                                    frame: frames.frame)
        }
        RenderNode.drawsBackingStores = false
        let before = try findings(.open)
        XCTAssertFalse(before.isEmpty, "the recorded bug: moving scrolls change tone")
        XCTAssertTrue(before.allSatisfy { $0.subject.contains("/scroll-") || $0.subject.contains("/bottomRoll-") }, before.map(\.subject).joined(separator: ", "))
        RenderNode.drawsBackingStores = true
        XCTAssertEqual(try findings(.open), [])
        XCTAssertEqual(try findings(.switchScroll), [])
    }
}

/// Frames of a rendered transition, drawn on demand (what `smokescreen lint` uses, without Previews).
struct PreviewFramesForTests {
    let rendered: RenderedTransition
    init(_ rendered: RenderedTransition) throws { self.rendered = rendered }
    func frame(_ index: Int) throws -> Bitmap {
        var canvas = try rendered.sequence.makeCanvas()
        rendered.sequence.draw(frame: index, into: &canvas)
        return canvas
    }
}
