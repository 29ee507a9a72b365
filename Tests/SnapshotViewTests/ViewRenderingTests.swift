import RasterCore
import XCTest
import SnapshotView

/// Pixel tests on small canvases. Expected values are exact: coverage is exact area, blending rounds
/// a divide by 255.
final class ViewRenderingTests: XCTestCase {
    let red = Color(red: 1, green: 0, blue: 0)
    let blue = Color(red: 0, green: 0, blue: 1)

    func pixel(_ b: Bitmap, _ x: Int, _ y: Int) -> PremultipliedRGBA8 { b[x, y] }

    /// Pixels of `bitmap` that are not fully transparent, as a bounding PixelRect.
    func inkBounds(_ bitmap: Bitmap) -> PixelRect? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<bitmap.height { for x in 0..<bitmap.width where bitmap[x, y].a != 0 {
            minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x); maxY = max(maxY, y)
        } }
        return maxX < 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    func testBackgroundRoundedByCornerRadiusAtBothScales() throws {
        let v = View(frame: Rect(x: 0, y: 0, width: 8, height: 8))
        v.backgroundColor = red
        v.cornerRadius = 4  // a circle
        for scale in [1.0, 2.0] {
            let image = try v.snapshot(scale: scale)
            XCTAssertEqual(image.width, Int(8 * scale))
            let mid = Int(4 * scale)
            XCTAssertEqual(pixel(image, mid, mid), red.premultiplied, "centre @\(scale)x")
            XCTAssertEqual(pixel(image, 0, 0).a, 0, "corner outside the circle @\(scale)x")
            // Edge pixel at the middle of the left side is almost fully covered by the circle.
            XCTAssertGreaterThan(pixel(image, 0, mid).a, 200)
            XCTAssertLessThan(pixel(image, 0, mid).a, 255)
        }
    }

    func testBorderIsInsideTheBoundsAndOnTopOfSubviews() throws {
        let v = View(frame: Rect(x: 0, y: 0, width: 6, height: 6))
        v.backgroundColor = .white
        v.borderWidth = 1
        v.borderColor = blue
        let child = View(frame: Rect(x: 0, y: 0, width: 6, height: 3))
        child.backgroundColor = red
        try v.addSubview(child)
        for scale in [1.0, 2.0] {
            let image = try v.snapshot(scale: scale)
            let s = Int(scale)
            XCTAssertEqual(inkBounds(image), PixelRect(x: 0, y: 0, width: 6 * s, height: 6 * s), "nothing outside the bounds")
            XCTAssertEqual(pixel(image, 0, 0), blue.premultiplied, "border over the subview")
            XCTAssertEqual(pixel(image, s - 1, 5 * s), blue.premultiplied, "border is \(s) px wide")
            XCTAssertEqual(pixel(image, s, s), red.premultiplied, "subview inside the border")
            XCTAssertEqual(pixel(image, s, 4 * s), PremultipliedRGBA8.white, "background below the subview")
        }
    }

    func testClipsToBoundsClipsSubviewsToTheRoundedBounds() throws {
        let container = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        container.cornerRadius = 5
        let child = View(frame: Rect(x: -5, y: -5, width: 20, height: 20))
        child.backgroundColor = red
        try container.addSubview(child)

        let unclipped = try container.snapshot(scale: 1)
        XCTAssertEqual(pixel(unclipped, 0, 0), red.premultiplied, "without clipping the child fills the corner")

        container.clipsToBounds = true
        for scale in [1.0, 2.0] {
            let clipped = try container.snapshot(scale: scale)
            XCTAssertEqual(pixel(clipped, 0, 0).a, 0, "corner outside the rounded clip @\(scale)x")
            let mid = Int(5 * scale)
            XCTAssertEqual(pixel(clipped, mid, mid), red.premultiplied)
            // The clipped child is the same circle a rounded background would be.
            let circle = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
            circle.backgroundColor = red
            circle.cornerRadius = 5
            XCTAssertEqual(clipped, try circle.snapshot(scale: scale), "@\(scale)x")
        }
    }

    func testContentModesPlaceTheImageAsUIKitDoes() throws {
        let bounds = Rect(x: 0, y: 0, width: 8, height: 6)
        let image = Size(width: 4, height: 2)
        let expected: [ContentMode: Rect] = [
            .scaleToFill: Rect(x: 0, y: 0, width: 8, height: 6),
            .redraw: Rect(x: 0, y: 0, width: 8, height: 6),
            .scaleAspectFit: Rect(x: 0, y: 1, width: 8, height: 4),
            .scaleAspectFill: Rect(x: -2, y: 0, width: 12, height: 6),
            .center: Rect(x: 2, y: 2, width: 4, height: 2),
            .top: Rect(x: 2, y: 0, width: 4, height: 2),
            .bottom: Rect(x: 2, y: 4, width: 4, height: 2),
            .left: Rect(x: 0, y: 2, width: 4, height: 2),
            .right: Rect(x: 4, y: 2, width: 4, height: 2),
            .topLeft: Rect(x: 0, y: 0, width: 4, height: 2),
            .topRight: Rect(x: 4, y: 0, width: 4, height: 2),
            .bottomLeft: Rect(x: 0, y: 4, width: 4, height: 2),
            .bottomRight: Rect(x: 4, y: 4, width: 4, height: 2),
        ]
        XCTAssertEqual(Set(expected.keys), Set(ContentMode.allCases), "all thirteen modes")
        for (mode, rect) in expected {
            XCTAssertEqual(mode.placement(of: image, in: bounds), rect, "\(mode)")
            // A scrolled bounds origin moves the placement with it.
            XCTAssertEqual(mode.placement(of: image, in: bounds.offsetBy(dx: 3, dy: -1)), rect.offsetBy(dx: 3, dy: -1), "\(mode)")
        }
    }

    func testContentModesRenderTheImageWhereTheyPlaceIt() throws {
        // A 4x2 pt image at @2x (8x4 px) of solid red, in an 8x6 pt image view at (2, 2) of a 12x10 pt
        // canvas, so aspect fill can spill out of the view.
        let solid = try Bitmap(width: 8, height: 4, scale: 2, fill: red.premultiplied)
        for scale in [1.0, 2.0] {
            for mode in ContentMode.allCases {
                let canvas = View(frame: Rect(x: 0, y: 0, width: 12, height: 10))
                let imageView = ImageView(image: solid, frame: Rect(x: 2, y: 2, width: 8, height: 6), contentMode: mode)
                try canvas.addSubview(imageView)
                let placed = mode.placement(of: Size(width: 4, height: 2), in: imageView.bounds).offsetBy(dx: 2, dy: 2)
                let s = Int(scale)
                let expected = PixelRect(x: Int(placed.minX) * s, y: Int(placed.minY) * s,
                                         width: Int(placed.width) * s, height: Int(placed.height) * s)
                let out = try canvas.snapshot(scale: scale)
                XCTAssertEqual(inkBounds(out), expected, "\(mode) @\(scale)x")
                XCTAssertEqual(pixel(out, expected.x, expected.y), red.premultiplied, "\(mode) @\(scale)x")
                XCTAssertEqual(pixel(out, expected.maxX - 1, expected.maxY - 1), red.premultiplied, "\(mode) @\(scale)x")

                // Clipping keeps aspect fill inside the view.
                imageView.clipsToBounds = true
                let clipped = try canvas.snapshot(scale: scale)
                let view = PixelRect(x: 2 * s, y: 2 * s, width: 8 * s, height: 6 * s)
                XCTAssertEqual(inkBounds(clipped), expected.intersection(view), "\(mode) clipped @\(scale)x")
            }
        }
    }

    func testGroupOpacityDiffersFromPerChildAlpha() throws {
        // Two overlapping opaque children in a parent with alpha 0.5: as a group the overlap shows only
        // the top child at half alpha; per-child alpha would show the bottom one through.
        func tree(groupAlpha: Double, childAlpha: Double) throws -> View {
            let canvas = View(frame: Rect(x: 0, y: 0, width: 6, height: 2))
            let group = View(frame: canvas.bounds)
            group.alpha = groupAlpha
            let a = View(frame: Rect(x: 0, y: 0, width: 4, height: 2)); a.backgroundColor = red; a.alpha = childAlpha
            let b = View(frame: Rect(x: 2, y: 0, width: 4, height: 2)); b.backgroundColor = blue; b.alpha = childAlpha
            try group.addSubview(a); try group.addSubview(b); try canvas.addSubview(group)
            return canvas
        }
        let grouped = try tree(groupAlpha: 0.5, childAlpha: 1).snapshot(scale: 1)
        let perChild = try tree(groupAlpha: 1, childAlpha: 0.5).snapshot(scale: 1)
        // Left: red alone, the same either way: 0.5 of 255 rounds to 128.
        XCTAssertEqual(grouped[0, 0], PremultipliedRGBA8(r: 128, g: 0, b: 0, a: 128))
        XCTAssertEqual(perChild[0, 0], grouped[0, 0])
        // Overlap: the group shows blue at half alpha.
        XCTAssertEqual(grouped[3, 0], PremultipliedRGBA8(r: 0, g: 0, b: 128, a: 128))
        // Per child: blue at 128 over red at 128: red keeps 128·(255−128)/255 = 64 (rounded); alpha 192.
        XCTAssertEqual(perChild[3, 0], PremultipliedRGBA8(r: 64, g: 0, b: 128, a: 192))
        // A single thing drawn with alpha needs no group and gives the same pixels as one would.
        let single = View(frame: Rect(x: 0, y: 0, width: 2, height: 2))
        let only = View(frame: single.bounds); only.backgroundColor = red; only.alpha = 0.5
        try single.addSubview(only)
        XCTAssertEqual(try single.snapshot(scale: 1)[1, 1], PremultipliedRGBA8(r: 128, g: 0, b: 0, a: 128))
    }

    func testGroupLayerIsBoundedAndPlacedUnderTransforms() throws {
        // A translucent group that is rotated a quarter turn and far from the origin composites in the
        // right place (the layer's bounds come from the subtree's visual bounds).
        let canvas = View(frame: Rect(x: 0, y: 0, width: 20, height: 20))
        let group = View(frame: Rect(x: 10, y: 2, width: 8, height: 4))
        group.alpha = 0.5
        group.backgroundColor = red
        group.transform = Transform2D(rotationAngle: .pi / 2)
        let inner = View(frame: Rect(x: 0, y: 0, width: 2, height: 4)); inner.backgroundColor = blue
        try group.addSubview(inner); try canvas.addSubview(group)
        let out = try canvas.snapshot(scale: 1)
        // The 8x4 group turned about its centre (14, 4) covers x 12..<16, y 0..<8.
        XCTAssertEqual(inkBounds(out), PixelRect(x: 12, y: 0, width: 4, height: 8))
        // Its left 2 points (the blue child) end up at the top after a quarter turn.
        XCTAssertEqual(out[13, 0], PremultipliedRGBA8(r: 0, g: 0, b: 128, a: 128))
        XCTAssertEqual(out[13, 7], PremultipliedRGBA8(r: 128, g: 0, b: 0, a: 128))
    }

    func testHiddenAndTransparentViewsAreSkippedWithTheirSubviews() throws {
        let canvas = View(frame: Rect(x: 0, y: 0, width: 4, height: 4))
        let hidden = View(frame: canvas.bounds); hidden.backgroundColor = red; hidden.isHidden = true
        let clear = View(frame: canvas.bounds); clear.backgroundColor = red; clear.alpha = 0
        let childOfClear = View(frame: canvas.bounds); childOfClear.backgroundColor = blue
        try clear.addSubview(childOfClear)
        try canvas.addSubview(hidden); try canvas.addSubview(clear)
        XCTAssertNil(inkBounds(try canvas.snapshot(scale: 2)))
        XCTAssertEqual(canvas.renderNode()?.children.count, 0)
        XCTAssertEqual(canvas.renderNode()?.drawCount, 0)
        clear.alpha = 1
        XCTAssertEqual(try canvas.snapshot(scale: 1)[0, 0], blue.premultiplied)
    }

    func testScrolledContentMovesByTheContentOffset() throws {
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 4, height: 4))
        scroll.contentSize = Size(width: 4, height: 12)
        let band = View(frame: Rect(x: 0, y: 6, width: 4, height: 2)); band.backgroundColor = red
        try scroll.addSubview(band)
        XCTAssertNil(inkBounds(try scroll.snapshot(scale: 1)), "band below the visible area")
        scroll.contentOffset = Point(x: 0, y: 5)
        XCTAssertEqual(inkBounds(try scroll.snapshot(scale: 2)), PixelRect(x: 0, y: 2, width: 8, height: 4))
    }

    func testRenderingGoesThroughThePresentationSource() throws {
        struct Shifted: PresentationSource {
            func presentationValue(of property: ViewProperty, of view: View, model: AnimatableValue) -> AnimatableValue {
                guard view.name == "box", property == .center, let p = model.pointValue else { return model }
                return .point(Point(x: p.x + 2, y: p.y))
            }
        }
        let canvas = View(frame: Rect(x: 0, y: 0, width: 6, height: 2))
        let box = View(frame: Rect(x: 0, y: 0, width: 2, height: 2), name: "box"); box.backgroundColor = red
        try canvas.addSubview(box)
        XCTAssertEqual(inkBounds(try canvas.snapshot(scale: 1)), PixelRect(x: 0, y: 0, width: 2, height: 2))
        XCTAssertEqual(inkBounds(try canvas.snapshot(scale: 1, presentation: Shifted())), PixelRect(x: 2, y: 0, width: 2, height: 2))
        XCTAssertEqual(box.center, Point(x: 1, y: 1), "the model is untouched")
    }
}
