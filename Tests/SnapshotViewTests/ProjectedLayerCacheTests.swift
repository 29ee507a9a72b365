import RasterCore
import XCTest
import SnapshotView

/// `ProjectedLayerCache`: a view turned in 3-D keeps its layer between the frames of a render while its
/// body draws the same, and every frame's pixels are those of a frame drawn without the cache.
final class ProjectedLayerCacheTests: XCTestCase {
    private var perspective: Transform3D { var p = Transform3D.identity; p.m34 = -1 / 200; return p }

    /// A white screen with a card (a coloured background, a label and a square) turned about y by `angle`.
    private func screen(angle: Double, text: String = "Hi", color: Color = Color(red: 1, green: 0, blue: 0),
                        size: Size = Size(width: 40, height: 30), cardSize: Double = 20, alpha: Double = 1) throws -> RenderNode {
        let root = View(frame: Rect(origin: .zero, size: size), name: "root")
        root.backgroundColor = .white
        let card = View(frame: Rect(x: (size.width - cardSize) / 2, y: (size.height - cardSize) / 2, width: cardSize, height: cardSize), name: "card")
        card.backgroundColor = color
        card.alpha = alpha
        card.transform3D = Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0).concatenating(perspective)
        try card.addSubview(Label(text: text, frame: Rect(x: 2, y: 2, width: cardSize - 4, height: 10)))
        let square = View(frame: Rect(x: 4, y: cardSize - 8, width: 4, height: 4))
        square.backgroundColor = .black
        try card.addSubview(square)
        try root.addSubview(card)
        return try XCTUnwrap(root.renderNode())
    }

    private func drawn(_ node: RenderNode, scale: Double = 2, layers: ProjectedLayerCache?) throws -> Bitmap {
        var frame = try Bitmap(width: Int(node.bounds.width * scale), height: Int(node.bounds.height * scale), scale: scale)
        ViewRenderer.draw(node, into: &frame, layers: layers)
        return frame
    }

    func testATurningCardIsDrawnIntoItsLayerOnceAndEveryFrameIsAsWithoutTheCache() throws {
        let cache = ProjectedLayerCache()
        for (k, angle) in [0.3, 0.5, 0.7, 0.9, 1.1].enumerated() {
            let node = try screen(angle: angle)
            let kept = try drawn(node, layers: cache)
            XCTAssertEqual(kept, try drawn(node, layers: nil), "frame \(k) at \(angle) rad")
            XCTAssertEqual(cache.statistics.misses, 1, "the layer is drawn once")
            XCTAssertEqual(cache.statistics.hits, k)
        }
        // 20 × 20 points at @2x (the layer is drawn at the canvas's scale).
        XCTAssertEqual(cache.keptPixels, 40 * 40)
    }

    func testABodyThatChangesIsDrawnAgain() throws {
        let cache = ProjectedLayerCache()
        let first = try drawn(try screen(angle: 0.6), layers: cache)
        for (name, node) in [("other text", try screen(angle: 0.6, text: "Ho")),
                             ("another background", try screen(angle: 0.6, color: Color(red: 0, green: 0, blue: 1)))] {
            let frame = try drawn(node, layers: cache)
            XCTAssertEqual(frame, try drawn(node, layers: nil), name)
            XCTAssertNotEqual(frame, first, name)
        }
        XCTAssertEqual(cache.statistics.hits, 0)
        XCTAssertEqual(cache.statistics.misses, 3)
    }

    /// The body's sameness ignores the node's placement (transform, projection, alpha) and nothing else.
    func testTheBodyIsComparedWithoutWhereTheNodeIsPlaced() throws {
        let a = try XCTUnwrap(try screen(angle: 0.4).children.first), b = try XCTUnwrap(try screen(angle: 1.0).children.first)
        XCTAssertFalse(a.drawsTheSame(as: b))
        XCTAssertTrue(a.drawsTheSameBody(as: b))
        XCTAssertFalse(a.drawsTheSameBody(as: try XCTUnwrap(try screen(angle: 0.4, text: "Ho").children.first)))
        let faded = try XCTUnwrap(try screen(angle: 1.0, alpha: 0.5).children.first)
        XCTAssertTrue(a.drawsTheSameBody(as: faded), "alpha is how the layer is composited, not what it holds")
    }

    /// What is kept never exceeds the canvas's pixels; a layer larger than the canvas is drawn, not kept.
    func testWhatIsKeptIsBoundedByTheCanvas() throws {
        let cache = ProjectedLayerCache()
        // A 40 × 30 canvas at @1x holds 1,200 pixels: one 20-point card (400 pixels) fits, three do not.
        for (k, color) in [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 1, blue: 0), Color(red: 0, green: 0, blue: 1),
                           Color(white: 0.5)].enumerated() {
            let node = try screen(angle: 0.5, color: color)
            XCTAssertEqual(try drawn(node, scale: 1, layers: cache), try drawn(node, scale: 1, layers: nil))
            XCTAssertLessThanOrEqual(cache.keptPixels, 1200, "after card \(k)")
        }
        XCTAssertEqual(cache.keptPixels, 1200, "the three most recent cards")
        // The first card was given up for the fourth: drawn again.
        _ = try drawn(try screen(angle: 0.2, color: Color(red: 1, green: 0, blue: 0)), scale: 1, layers: cache)
        XCTAssertEqual(cache.statistics.misses, 5)
        XCTAssertEqual(cache.statistics.hits, 0)
        // A card larger than its canvas (50 points on a 40 × 30 canvas: its layer is 50 × 50) is not kept.
        let large = ProjectedLayerCache()
        let node = try screen(angle: 0.5, cardSize: 50)
        XCTAssertEqual(try drawn(node, scale: 1, layers: large), try drawn(node, scale: 1, layers: nil))
        _ = try drawn(node, scale: 1, layers: large)
        XCTAssertEqual(large.keptPixels, 0)
        XCTAssertEqual(large.statistics.misses, 2)
    }

    /// The layers go with the cache: the render's ledger is back where it was once its frames are drawn.
    func testTheLayersGoWithTheCache() throws {
        let node = try screen(angle: 0.5)
        let (hits, usage) = try MemoryLedger.measure("render") { () throws -> Int in
            let cache = ProjectedLayerCache()
            for _ in 0..<3 { _ = try drawn(node, layers: cache) }
            return cache.statistics.hits
        }
        XCTAssertEqual(hits, 2)
        XCTAssertGreaterThan(usage.peakBytes, 0)
        XCTAssertEqual(usage.liveBytes, 0)
    }
}
