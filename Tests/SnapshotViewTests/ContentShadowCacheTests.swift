import RasterCore
import XCTest
import SnapshotView
import Typesetting

/// `ContentShadowCache`: a layer whose shadow comes from its content (no `shadowPath`) keeps the blurred
/// alpha between the frames of a render while its body draws the same, still or moving, and every frame's
/// pixels are those of a frame drawn without the cache.
final class ContentShadowCacheTests: XCTestCase {
    /// A white screen (transparent without `background`) with a card (a rounded coloured background and an
    /// 8-pt label) at (`x`, `y`) points, casting the shadow of its content (radius 2 pt, offset 1 pt down).
    private func screen(x: Double = 8, y: Double = 6, text: String = "Hi", radius: Double = 2, size: Size = Size(width: 40, height: 30),
                        cardSize: Double = 16, custom: Bool = false, shadowed: Bool = true,
                        shadowColor: Color = Color(red: 0, green: 0, blue: 0, alpha: 0.5), background: Bool = true,
                        badge: Bool = false) throws -> RenderNode {
        let root = View(frame: Rect(origin: .zero, size: size), name: "root")
        if background { root.backgroundColor = .white }
        let card = View(frame: Rect(x: x, y: y, width: cardSize, height: cardSize), name: "card")
        card.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.9)
        card.cornerRadius = 4
        if shadowed { card.shadow = Shadow(color: shadowColor, offset: Size(width: 0, height: 1), radius: radius) }
        try card.addSubview(Label(text: text, style: TextStyle(font: .system(size: 8)), frame: Rect(x: 2, y: 2, width: cardSize - 4, height: 10)))
        if custom { try card.addSubview(DrawingView(frame: Rect(x: 4, y: 4, width: 6, height: 6), drawing: Custom())) }
        if badge {
            // (Past the card's top-left corner: the shadow is of it too.)
            let dot = View(frame: Rect(x: -3, y: -2, width: 6, height: 6), name: "badge")
            dot.backgroundColor = Color(red: 0.9, green: 0.2, blue: 0.1)
            dot.cornerRadius = 3
            try card.addSubview(dot)
        }
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

    /// A moving card keeps its shadow: blurred once on the card's own pixel grid (σ = 4 px: from
    /// `Painter.minShiftedBlurSigma`, 3 px, up) and moved to where the card lands, whole pixels and a fraction. Every
    /// frame is as without the cache.
    func testAMovingCardKeepsItsShadow() throws {
        let cache = ContentShadowCache()
        for (k, x) in [8.0, 9, 9.25, 9.6, 13.37].enumerated() {
            let node = try screen(x: x)
            XCTAssertEqual(try drawn(node, shadows: cache), try drawn(node, shadows: nil), "at \(x) pt")
            XCTAssertEqual(cache.statistics.misses, 1, "at \(x) pt")
            XCTAssertEqual(cache.statistics.hits, k, "at \(x) pt")
        }
    }

    /// A card whose body or shadow changes casts a new shadow: the same pixels as without the cache.
    func testAChangedCardCastsItsShadowAnew() throws {
        let cache = ContentShadowCache()
        let first = try drawn(try screen(), shadows: cache)
        for (name, node) in [("other text", try screen(text: "Ok")), ("a wider blur", try screen(text: "Ok", radius: 3))] {
            let frame = try drawn(node, shadows: cache)
            XCTAssertEqual(frame, try drawn(node, shadows: nil), name)
            XCTAssertNotEqual(frame, first, name)
        }
        XCTAssertEqual(cache.statistics.hits, 0)
        XCTAssertEqual(cache.statistics.misses, 3)
    }

    /// The card alone, without a shadow, on a transparent screen, `dy` points lower.
    private func cardAlone(x: Double, dy: Double = 0, badge: Bool = false) throws -> RenderNode {
        try screen(x: x, y: 6 + dy, shadowed: false, background: false, badge: badge)
    }

    /// A frame made by hand with the shadow blurred where it lands, at @2x: white, the alpha of `source`
    /// (what casts the shadow, moved by its offset) drawn alone, blurred by `sigmaPixels` and filled in
    /// `color` whole, then `top` drawn over it.
    private func blurredWhereItLands(_ source: RenderNode, sigmaPixels: Double, color: Color, under top: RenderNode) throws -> Bitmap {
        let width = Int(source.bounds.width * 2), height = Int(source.bounds.height * 2)
        var alone = try Bitmap(width: width, height: height, scale: 2), expected = try Bitmap(width: width, height: height, scale: 2)
        ViewRenderer.draw(source, into: &alone)
        let blurred = try XCTUnwrap(Painter.blurredAlpha(of: alone, atDevicePixel: (0, 0), sigmaPixels: sigmaPixels))
        expected.draw { p in
            p.fill(source.bounds, color: .white)
            p.fill(blurred, color: color)
        }
        ViewRenderer.draw(top, into: &expected, clear: false)
        return expected
    }

    /// The largest difference of any colour channel between two frames of the same size, in levels.
    private func worstDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        var worst = 0
        for y in 0..<a.height { for x in 0..<a.width {
            let p = a[x, y], q = b[x, y]
            worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
        } }
        return worst
    }

    /// At whole pixels a frame is the shadow blurred where the card lands, filled whole (none of it left out
    /// under the card), with the card drawn over it, byte for byte.
    func testAtWholePixelsTheFrameIsTheShadowBlurredWhereTheCardLandsUnderTheCard() throws {
        // (With a badge past the card's corner: the shadow is made over what the card and its subviews draw.)
        for (x, radius, badge) in [(8.0, 2.0, false), (11.5, 2.0, false), (8.0, 1.0, false), (9.0, 2.0, true)] {
            let frame = try drawn(try screen(x: x, radius: radius, badge: badge), shadows: nil)
            let expected = try blurredWhereItLands(try cardAlone(x: x, dy: 1, badge: badge), sigmaPixels: 2 * radius,
                                                   color: Color(red: 0, green: 0, blue: 0, alpha: 0.5), under: try cardAlone(x: x, badge: badge))
            XCTAssertEqual(frame, expected, "at \(x) pt, radius \(radius)\(badge ? ", with a badge" : "")")
        }
    }

    /// The shadow's colour, opacity and offset are applied when it is filled: a card whose shadow fades in
    /// and drops keeps its blurred alpha.
    func testAnAnimatedShadowColourAndOffsetKeepTheBlurredAlpha() throws {
        let cache = ContentShadowCache()
        for k in 0..<4 {
            let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 30), name: "root")
            root.backgroundColor = .white
            let card = View(frame: Rect(x: 8, y: 6, width: 16, height: 16), name: "card")
            card.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.9)
            card.shadow = Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: 0.2 + 0.1 * Double(k)), offset: Size(width: 0, height: 0.3 * Double(k)), radius: 2)
            try root.addSubview(card)
            let node = try XCTUnwrap(root.renderNode())
            XCTAssertEqual(try drawn(node, shadows: cache), try drawn(node, shadows: nil), "frame \(k)")
        }
        XCTAssertEqual(cache.statistics.misses, 1)
        XCTAssertEqual(cache.statistics.hits, 3)
    }

    /// At most 1,024 shadows are kept, however small: the least recently used go first.
    func testAtMost1024ShadowsAreKept() throws {
        let cache = ContentShadowCache()
        // Dots of 1,030 widths on a 400 × 300 canvas at @1x (240,000 bytes: the budget holds them all).
        func dot(_ k: Int) throws -> RenderNode {
            let root = View(frame: Rect(x: 0, y: 0, width: 400, height: 300), name: "root")
            let card = View(frame: Rect(x: 8, y: 6, width: 1 + Double(k) / 1000, height: 1), name: "dot")
            card.backgroundColor = .black
            card.shadow = Shadow(color: .black, offset: .zero, radius: 2)
            try root.addSubview(card)
            return try XCTUnwrap(root.renderNode())
        }
        for k in 0..<1030 { _ = try drawn(try dot(k), scale: 1, shadows: cache) }
        XCTAssertEqual(cache.statistics.misses, 1030)
        XCTAssertLessThanOrEqual(cache.keptBytes, 240_000)
        _ = try drawn(try dot(1029), scale: 1, shadows: cache)
        XCTAssertEqual(cache.statistics.hits, 1, "the last is kept")
        // The six oldest (0…5) were given up for the last six; the seventh is kept.
        _ = try drawn(try dot(6), scale: 1, shadows: cache)
        XCTAssertEqual(cache.statistics.hits, 2)
        _ = try drawn(try dot(5), scale: 1, shadows: cache)
        XCTAssertEqual(cache.statistics.misses, 1031)
    }

    /// A large card mostly off screen is made where it lands, over what can reach the clip: moving it by a
    /// fraction of a pixel makes its shadow again (the same pixels as without the cache).
    func testALayerMostlyOffScreenIsMadeWhereItLands() throws {
        let cache = ContentShadowCache()
        for x in [-60.0, -59.6] {
            let node = try screen(x: x, cardSize: 80)
            XCTAssertEqual(try drawn(node, shadows: cache), try drawn(node, shadows: nil), "at \(x) pt")
        }
        XCTAssertEqual(cache.statistics.misses, 2)
        // Most of it on screen, a card moved by a fraction keeps its shadow.
        for x in [4.0, 4.4] { _ = try drawn(try screen(x: x, cardSize: 30), shadows: cache) }
        XCTAssertEqual(cache.statistics.misses, 3)
        XCTAssertEqual(cache.statistics.hits, 1)
    }

    /// A label's shadow between pixels is within 4 levels of the shadow blurred where it lands (drawn there,
    /// its glyphs are placed at quarter pixels, which the move does not follow), over every sixteenth of a
    /// point at @2x.
    func testATextShadowBetweenPixelsIsWithinFourLevels() throws {
        func label(x: Double, y: Double, shadowed: Bool, background: Bool) throws -> RenderNode {
            let root = View(frame: Rect(x: 0, y: 0, width: 60, height: 30), name: "root")
            if background { root.backgroundColor = .white }
            let text = Label(text: "iiii llll", style: TextStyle(font: .system(size: 12)), frame: Rect(x: x, y: y, width: 44, height: 16))
            if shadowed { text.shadow = Shadow(color: .black, offset: Size(width: 0, height: 1), radius: 1.5) }
            try root.addSubview(text)
            return try XCTUnwrap(root.renderNode())
        }
        var worst = 0
        for k in 0..<16 {
            let x = 6 + Double(k) / 16
            let frame = try drawn(try label(x: x, y: 7, shadowed: true, background: true), shadows: nil)
            let expected = try blurredWhereItLands(try label(x: x, y: 8, shadowed: false, background: false), sigmaPixels: 3, color: .black,
                                                   under: try label(x: x, y: 7, shadowed: false, background: false))
            worst = max(worst, worstDifference(frame, expected))
        }
        XCTAssertLessThanOrEqual(worst, 4)
        XCTAssertGreaterThan(worst, 0, "moved by interpolation, not blurred where it lands")
    }

    /// Between pixels the moved shadow is within 2 levels of the shadow blurred where the card lands: the
    /// card drawn alone there (moved by the offset), its alpha blurred and filled, the card drawn over it.
    func testBetweenPixelsTheShadowIsWithinTwoLevelsOfTheOneBlurredWhereItLands() throws {
        var worst = 0
        for x in [8.3, 8.55, 9.9] {
            // (An opaque shadow: a level of its alpha is a level of the pixel.)
            let frame = try drawn(try screen(x: x, shadowColor: .black), shadows: nil)
            let expected = try blurredWhereItLands(try cardAlone(x: x, dy: 1), sigmaPixels: 4, color: .black, under: try cardAlone(x: x))
            worst = max(worst, worstDifference(frame, expected))
        }
        XCTAssertLessThanOrEqual(worst, 2)
        XCTAssertGreaterThan(worst, 0, "moved by interpolation, not blurred where it lands")
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
        // A 40 × 30 canvas at @1x: 2,400 bytes at most. A 16-point card's blurred alpha (σ 2 px), trimmed,
        // is 26 × 26 px (676 bytes: the card's 16 px and 5 each side where the blur leaves anything): three are
        // kept at a time.
        let cache = ContentShadowCache()
        for (k, text) in ["A", "B", "C", "D", "E"].enumerated() {
            let node = try screen(text: text)
            XCTAssertEqual(try drawn(node, scale: 1, shadows: cache), try drawn(node, scale: 1, shadows: nil))
            XCTAssertEqual(cache.keptBytes, min(k + 1, 3) * 26 * 26, "after card \(text)")
        }
        // The first two were given up for the later ones: made again; the last is kept.
        _ = try drawn(try screen(text: "A"), scale: 1, shadows: cache)
        _ = try drawn(try screen(text: "E"), scale: 1, shadows: cache)
        XCTAssertEqual(cache.statistics.misses, 6)
        XCTAssertEqual(cache.statistics.hits, 1)
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
