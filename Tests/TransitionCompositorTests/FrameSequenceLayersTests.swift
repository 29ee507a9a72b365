import Foundation
import RasterCore
import SnapshotView
import Synchronization
import TransitionCompositor
import XCTest

/// A render's frames keep the layers of nodes turned in 3-D between them (`FrameSequence.projectedLayers`),
/// and the shadows of layers' content while those layers stay as they are (`FrameSequence.contentShadows`).
final class FrameSequenceLayersTests: XCTestCase {
    /// A white 40 × 30 screen with a labelled card turning about y, one tree a frame (none turned when
    /// `turned` is false).
    private func sequence(turned: Bool = true, frames: Int = 6, shadowed: Bool = false) throws -> FrameSequence {
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 30), name: "root")
        root.backgroundColor = .white
        let card = View(frame: Rect(x: 10, y: 5, width: 20, height: 20), name: "card")
        card.backgroundColor = Color(red: 0.9, green: 0.3, blue: 0.1)
        try card.addSubview(Label(text: "Hi", frame: Rect(x: 2, y: 2, width: 16, height: 10)))
        try root.addSubview(card)
        // A still badge casting the shadow of its content.
        let badge = View(frame: Rect(x: 2, y: 2, width: 8, height: 8), name: "badge")
        badge.backgroundColor = Color(red: 0.1, green: 0.6, blue: 0.2)
        badge.cornerRadius = 4
        if shadowed { badge.shadow = Shadow(color: .black, offset: Size(width: 0, height: 1), radius: 1.5) }
        try root.addSubview(badge)
        var perspective = Transform3D.identity
        perspective.m34 = -1 / 200
        var nodes: [RenderNode] = []
        for k in 0..<frames {
            if turned { card.transform3D = Transform3D(rotationAngle: 0.2 * Double(k + 1), x: 0, y: 1, z: 0).concatenating(perspective) }
            else { card.frame.origin.x = 10 + Double(k) }
            nodes.append(try XCTUnwrap(root.renderNode()))
        }
        return FrameSequence(name: "turn", pointSize: root.bounds.size, scale: 2, fps: 10,
                             times: (0..<frames).map { Double($0) / 10 }, nodes: nodes, durations: ["turn": 0.6])
    }

    /// Each of `s`'s frames, drawn in order through the sequence (with what it keeps), is the frame drawn
    /// alone without anything kept.
    private func assertEveryFrameIsAsDrawnAlone(_ s: FrameSequence, line: UInt = #line) throws {
        var canvas = try s.makeCanvas()
        for index in 0..<s.count {
            s.draw(frame: index, into: &canvas)
            var alone = try s.makeCanvas()
            ViewRenderer.draw(s.nodes[index], into: &alone)
            XCTAssertEqual(canvas, alone, "frame \(index)", line: line)
        }
    }

    func testEveryFrameIsAsWithoutKeptLayersAndTheCardIsDrawnIntoItsLayerOnce() throws {
        let s = try sequence()
        try assertEveryFrameIsAsDrawnAlone(s)
        XCTAssertEqual(s.projectedLayers.statistics.misses, 1)
        XCTAssertEqual(s.projectedLayers.statistics.hits, s.count - 1)
    }

    /// Render threads share the sequence's layers: frames drawn on several threads at once are the frames
    /// drawn one after another without kept layers.
    func testFramesDrawnOnSeveralThreadsAtOnceAreTheFramesDrawnAlone() throws {
        let s = try sequence(frames: 16)
        let expected = try (0..<s.count).map { index -> Bitmap in
            var alone = try s.makeCanvas()
            ViewRenderer.draw(s.nodes[index], into: &alone)
            return alone
        }
        let drawn = Mutex([Bitmap?](repeating: nil, count: s.count))
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            guard var canvas = try? s.makeCanvas() else { return }
            for index in stride(from: worker, to: s.count, by: 4) {
                s.draw(frame: index, into: &canvas)
                let frame = canvas
                drawn.withLock { $0[index] = frame }
            }
        }
        for (index, frame) in drawn.withLock({ $0 }).enumerated() { XCTAssertEqual(frame, expected[index], "frame \(index)") }
        let (hits, misses) = s.projectedLayers.statistics
        XCTAssertEqual(hits + misses, s.count)
        XCTAssertLessThanOrEqual(misses, 4, "at most one drawing a thread")
    }

    /// What a kept render is charged for its layers (the live preview's budget): two canvases when it turns
    /// something, else nothing.
    func testTheLayersBoundIsTwoCanvasesWhenAFrameTurnsSomething() throws {
        XCTAssertEqual(try sequence().projectedLayerBytes, 2 * 80 * 60 * 4)
        XCTAssertEqual(try sequence(turned: false).projectedLayerBytes, 0)
    }

    /// A still badge's content shadow is made once and drawn from the kept bytes in every later frame, while
    /// the card beside it moves: every frame as without the cache.
    func testAStillLayersContentShadowIsMadeOnce() throws {
        let s = try sequence(turned: false, shadowed: true)
        try assertEveryFrameIsAsDrawnAlone(s)
        XCTAssertEqual(s.contentShadows.statistics.misses, 1)
        XCTAssertEqual(s.contentShadows.statistics.hits, s.count - 1)
        XCTAssertGreaterThan(s.contentShadows.keptBytes, 0)
    }

    /// What a kept render is charged for its content shadows: two bytes per canvas pixel when a frame casts
    /// one, else nothing.
    func testTheShadowsBoundIsTwoBytesPerCanvasPixelWhenAFrameCastsAContentShadow() throws {
        XCTAssertEqual(try sequence(shadowed: true).contentShadowBytes, 2 * 80 * 60)
        XCTAssertEqual(try sequence().contentShadowBytes, 0)
    }
}
