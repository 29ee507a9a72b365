import RasterCore
import XCTest
import SnapshotView

/// `ContentShadowCache`: a layer whose shadow comes from its content (no `shadowPath`) keeps the blurred
/// alpha between the frames of a render while it stays as it is, and every frame's pixels are those of a
/// frame drawn without the cache.
final class ContentShadowCacheTests: XCTestCase {
    /// A white screen with a card (a rounded coloured background and a label) at `x` points, casting the
    /// shadow of its content (radius 2 pt, offset 1 pt down).
    private func screen(x: Double = 8, text: String = "Hi", radius: Double = 2, size: Size = Size(width: 40, height: 30),
                        cardSize: Double = 16, custom: Bool = false, shadowed: Bool = true) throws -> RenderNode {
        let root = View(frame: Rect(origin: .zero, size: size), name: "root")
        root.backgroundColor = .white
        let card = View(frame: Rect(x: x, y: 6, width: cardSize, height: cardSize), name: "card")
        card.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.9)
        card.cornerRadius = 4
        if shadowed { card.shadow = Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: 0.5), offset: Size(width: 0, height: 1), radius: radius) }
        try card.addSubview(Label(text: text, frame: Rect(x: 2, y: 2, width: cardSize - 4, height: 10)))
        if custom { try card.addSubview(DrawingView(frame: Rect(x: 4, y: 4, width: 6, height: 6), drawing: Custom())) }
        try root.addSubview(card)
        return try XCTUnwrap(root.renderNode())
    }

    private func drawn(_ node: RenderNode, scale: Double = 2, shadows: ContentShadowCache?) throws -> Bitmap {
        var frame = try Bitmap(width: Int(node.bounds.width * scale), height: Int(node.bounds.height * scale), scale: scale)
        ViewRenderer.draw(node, into: &frame, shadows: shadows)
        return frame
    }

    struct Custom: ViewContent {
        func draw(in painter: Painter, bounds: Rect) { painter.fill(bounds, color: .black) }
    }

    func testAStillCardsShadowIsMadeOnceAndEveryFrameIsAsWithoutTheCache() throws {
        let cache = ContentShadowCache()
        for k in 0..<4 {
            // (A new tree each frame, as a render freezes one per frame.)
            let node = try screen()
            XCTAssertEqual(try drawn(node, shadows: cache), try drawn(node, shadows: nil), "frame \(k)")
            XCTAssertEqual(cache.statistics.misses, 1, "the shadow is made once")
            XCTAssertEqual(cache.statistics.hits, k)
        }
        // One byte a pixel of the blurred alpha, trimmed to where it is not 0: the card's 32 × 32 px at @2x
        // grown by what the blur spreads (σ = 4 px: boxes of 8, 8 and 9 px reach 11 px each side, and the
        // outermost rounds to 0), not the 86 × 84 px it was made over (the card's reach and the shadow's,
        // grown by the blur's margin).
        XCTAssertEqual(cache.keptBytes, (32 + 2 * 10) * (32 + 2 * 10))
    }

    /// The kept shadow is drawn: below the card, where a frame without the shadow is white, the frame drawn
    /// from the kept bytes is darker.
    func testTheKeptShadowIsDrawn() throws {
        let cache = ContentShadowCache()
        _ = try drawn(try screen(), shadows: cache)
        let kept = try drawn(try screen(), shadows: cache)
        XCTAssertEqual(cache.statistics.hits, 1)
        let unshadowed = try drawn(try screen(shadowed: false), shadows: nil)
        // Just below the card's bottom edge (22 pt: row 44 at @2x), in the middle of its width (column 32).
        XCTAssertEqual(unshadowed[32, 45], PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
        XCTAssertLessThan(kept[32, 45].r, 235, "the shadow darkens the white below the card")
    }

    /// A card that moves, or whose body or shadow changes, casts a new shadow each frame: the same pixels as
    /// without the cache.
    func testAChangedCardCastsItsShadowAnew() throws {
        let cache = ContentShadowCache()
        let first = try drawn(try screen(), shadows: cache)
        for (name, node) in [("moved a whole point", try screen(x: 9)), ("moved a quarter point", try screen(x: 9.25)),
                             ("other text", try screen(x: 9.25, text: "Ho")), ("a wider blur", try screen(x: 9.25, text: "Ho", radius: 3))] {
            let frame = try drawn(node, shadows: cache)
            XCTAssertEqual(frame, try drawn(node, shadows: nil), name)
            XCTAssertNotEqual(frame, first, name)
        }
        XCTAssertEqual(cache.statistics.hits, 0)
        XCTAssertEqual(cache.statistics.misses, 5)
    }

    /// A body with a custom drawing cannot tell whether it draws the same: its shadow is made every frame,
    /// never kept.
    func testACustomDrawingsShadowIsMadeEveryFrameAndNotKept() throws {
        let cache = ContentShadowCache()
        for k in 0..<3 {
            let node = try screen(custom: true)
            XCTAssertEqual(try drawn(node, shadows: cache), try drawn(node, shadows: nil), "frame \(k)")
        }
        XCTAssertEqual(cache.statistics.misses, 3)
        XCTAssertEqual(cache.keptBytes, 0)
    }

    /// What is kept never exceeds two bytes per canvas pixel; a larger shadow is made, not kept.
    func testWhatIsKeptIsBoundedByTwoBytesPerCanvasPixel() throws {
        // A 40 × 30 canvas at @1x: 2,400 bytes at most. A 16-point card's shadow (radius 2) reaches 16 + 2·(6 +
        // 7) points one way and a little more the other: about 1,500 bytes, so one is kept at a time.
        let cache = ContentShadowCache()
        for (k, x) in [8.0, 9, 10].enumerated() {
            let node = try screen(x: x)
            XCTAssertEqual(try drawn(node, scale: 1, shadows: cache), try drawn(node, scale: 1, shadows: nil))
            XCTAssertLessThanOrEqual(cache.keptBytes, 2400, "after card \(k)")
            XCTAssertGreaterThan(cache.keptBytes, 0, "after card \(k)")
        }
        // The first was given up for the later ones: made again.
        _ = try drawn(try screen(x: 8), scale: 1, shadows: cache)
        XCTAssertEqual(cache.statistics.misses, 4)
        XCTAssertEqual(cache.statistics.hits, 0)
        // A shadow larger than the budget (a 30-point card with a wide blur) is made and not kept.
        let large = ContentShadowCache()
        let node = try screen(x: 4, radius: 4, cardSize: 30)
        XCTAssertEqual(try drawn(node, scale: 1, shadows: large), try drawn(node, scale: 1, shadows: nil))
        _ = try drawn(node, scale: 1, shadows: large)
        XCTAssertEqual(large.keptBytes, 0)
        XCTAssertEqual(large.statistics.misses, 2)
    }

    func testANodeCastsContentShadowsWhenItOrADescendantHasAShadowWithoutAPath() throws {
        XCTAssertTrue(try screen().castsContentShadows)
        let root = View(frame: Rect(x: 0, y: 0, width: 20, height: 20))
        let card = View(frame: Rect(x: 2, y: 2, width: 10, height: 10))
        card.shadow = Shadow(color: .black, offset: .zero, radius: 2, path: Path(rect: card.bounds))
        try root.addSubview(card)
        XCTAssertFalse(try XCTUnwrap(root.renderNode()).castsContentShadows, "a shadow path is kept by the blur cache instead")
    }
}
