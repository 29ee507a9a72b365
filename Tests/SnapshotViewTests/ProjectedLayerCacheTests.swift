import RasterCore
import XCTest
import SnapshotView

/// `ProjectedLayerCache`: a view turned in 3-D keeps its layer between the frames of a render while its
/// body draws the same, and every frame's pixels are those of a frame drawn without the cache.
final class ProjectedLayerCacheTests: XCTestCase {
    private var perspective: Transform3D { var p = Transform3D.identity; p.m34 = -1 / 200; return p }

    /// A white screen with a card (a coloured background, a label and a square) turned about y by `angle`.
    private func screen(angle: Double, text: String = "Hi", color: Color = Color(red: 1, green: 0, blue: 0),
                        size: Size = Size(width: 40, height: 30), cardSize: Double = 20, alpha: Double = 1,
                        shrink: Double = 1, custom: Bool = false) throws -> RenderNode {
        let root = View(frame: Rect(origin: .zero, size: size), name: "root")
        root.backgroundColor = .white
        let card = View(frame: Rect(x: (size.width - cardSize) / 2, y: (size.height - cardSize) / 2, width: cardSize, height: cardSize), name: "card")
        card.backgroundColor = color
        card.alpha = alpha
        card.transform3D = Transform3D(scaleX: shrink, y: shrink, z: 1)
            .concatenating(Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0)).concatenating(perspective)
        try card.addSubview(Label(text: text, frame: Rect(x: 2, y: 2, width: cardSize - 4, height: 10)))
        if custom { try card.addSubview(DrawingView(frame: Rect(x: 4, y: 4, width: 6, height: 6), drawing: Custom())) }
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

    /// What is kept never exceeds twice the canvas's pixels; a larger layer is drawn, not kept.
    func testWhatIsKeptIsBoundedByTwiceTheCanvas() throws {
        let cache = ProjectedLayerCache()
        // A 40 × 30 canvas at @1x: 2,400 pixels kept at most, six 20-point cards (400 pixels each), not seven.
        let colors = (0..<7).map { Color(red: Double($0) / 7, green: 0.5, blue: 1 - Double($0) / 7) }
        for (k, color) in colors.enumerated() {
            let node = try screen(angle: 0.5, color: color)
            XCTAssertEqual(try drawn(node, scale: 1, layers: cache), try drawn(node, scale: 1, layers: nil))
            XCTAssertLessThanOrEqual(cache.keptPixels, 2400, "after card \(k)")
        }
        XCTAssertEqual(cache.keptPixels, 2400, "the six most recent cards")
        // The first card was given up for the seventh: drawn again; the last is kept.
        _ = try drawn(try screen(angle: 0.2, color: colors[0]), scale: 1, layers: cache)
        XCTAssertEqual(cache.statistics.misses, 8)
        _ = try drawn(try screen(angle: 0.9, color: colors[6]), scale: 1, layers: cache)
        XCTAssertEqual(cache.statistics.hits, 1)
        // A card larger than that (50 points on the 40 × 30 canvas: its layer is 2,500 pixels) is not kept.
        let large = ProjectedLayerCache()
        let node = try screen(angle: 0.5, cardSize: 50)
        XCTAssertEqual(try drawn(node, scale: 1, layers: large), try drawn(node, scale: 1, layers: nil))
        _ = try drawn(node, scale: 1, layers: large)
        XCTAssertEqual(large.keptPixels, 0)
        XCTAssertEqual(large.statistics.misses, 2)
    }

    /// However many layers a frame turns, all are kept while the budget holds them: 70 tiles, each used
    /// again in the next frames.
    func testSeventyTurnedTilesAreAllKept() throws {
        let cache = ProjectedLayerCache()
        for frame in 0..<3 {
            let root = View(frame: Rect(x: 0, y: 0, width: 80, height: 80), name: "root")
            for k in 0..<70 {
                let tile = View(frame: Rect(x: Double(k % 10) * 8, y: Double(k / 10) * 8, width: 6, height: 6), name: "tile \(k)")
                tile.backgroundColor = Color(red: Double(k) / 70, green: 0.5, blue: 1 - Double(k) / 70)
                tile.transform3D = Transform3D(rotationAngle: 0.3 + 0.1 * Double(frame), x: 0, y: 1, z: 0).concatenating(perspective)
                try root.addSubview(tile)
            }
            let node = try XCTUnwrap(root.renderNode())
            XCTAssertEqual(try drawn(node, scale: 1, layers: cache), try drawn(node, scale: 1, layers: nil), "frame \(frame)")
        }
        XCTAssertEqual(cache.statistics.misses, 70)
        XCTAssertEqual(cache.statistics.hits, 140)
    }

    /// A card that fades while it turns keeps its layer (alpha is how the layer is composited).
    func testACardFadingWhileItTurnsKeepsItsLayer() throws {
        let cache = ProjectedLayerCache()
        for (k, alpha) in [1.0, 0.8, 0.5, 0.2].enumerated() {
            let node = try screen(angle: 0.3 + 0.2 * Double(k), alpha: alpha)
            XCTAssertEqual(try drawn(node, layers: cache), try drawn(node, layers: nil), "alpha \(alpha)")
        }
        XCTAssertEqual(cache.statistics.hits, 3)
    }

    struct Custom: ViewContent {
        func draw(in painter: Painter, bounds: Rect) { painter.fill(bounds, color: .black) }
    }

    /// A body with a custom drawing cannot tell whether it draws the same: drawn every frame, never kept.
    func testABodyWithACustomDrawingIsDrawnEveryFrameAndNotKept() throws {
        let cache = ProjectedLayerCache()
        for angle in [0.3, 0.5, 0.7] {
            let node = try screen(angle: angle, custom: true)
            XCTAssertEqual(try drawn(node, layers: cache), try drawn(node, layers: nil))
        }
        XCTAssertEqual(cache.statistics.misses, 3)
        XCTAssertEqual(cache.keptPixels, 0)
    }

    /// A card shown smaller than its points at the screen's scale is drawn at the pixels it covers, which
    /// change as it turns: drawn each frame, the same pixels as without the cache.
    func testACardShrunkOnScreenIsDrawnAtItsSizeEachFrame() throws {
        let cache = ProjectedLayerCache()
        for angle in [0.3, 0.6, 0.9] {
            let node = try screen(angle: angle, shrink: 0.5)
            XCTAssertEqual(try drawn(node, layers: cache), try drawn(node, layers: nil), "at \(angle) rad")
        }
        XCTAssertEqual(cache.statistics.hits, 0)
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
