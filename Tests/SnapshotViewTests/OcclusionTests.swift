import RasterCore
import Synchronization
import XCTest
import SnapshotView

/// A frame skips what an opaque cover hides (issue 29: the reference draw and Vesper's frames drew whole
/// screens that the smokescreen's stage snapshot then covered): the same pixels, less drawing.
final class OcclusionTests: XCTestCase {
    /// Content that counts its draws and fills its bounds with a translucent colour.
    final class Counting: ViewContent, @unchecked Sendable {
        let draws = Mutex(0)
        func draw(in painter: Painter, bounds: Rect) {
            draws.withLock { $0 += 1 }
            painter.fill(bounds, color: Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        }
    }

    static let blue = Color(red: 0.1, green: 0.2, blue: 0.9)

    /// A 10x8 pt window: a counted drawing under an image view showing `cover` at `frame`, then a small
    /// translucent green square on top.
    func frame(cover: Bitmap, at frame: Rect, alpha: Double = 1, counting: Counting) throws -> (Bitmap, Int) {
        let window = View(frame: Rect(x: 0, y: 0, width: 10, height: 8))
        window.backgroundColor = .white
        try window.addSubview(DrawingView(frame: Rect(x: 0, y: 0, width: 10, height: 8), drawing: counting, name: "under"))
        let image = ImageView(image: cover, frame: frame, name: "cover")
        image.alpha = alpha
        try window.addSubview(image)
        let top = View(frame: Rect(x: 2, y: 2, width: 3, height: 3))
        top.backgroundColor = Color(red: 0, green: 1, blue: 0, alpha: 0.5)
        try window.addSubview(top)
        let node = try XCTUnwrap(window.renderNode())
        // Garbage first: a skipped clear must not show.
        var bitmap = try Bitmap(width: 20, height: 16, scale: 2, fill: PremultipliedRGBA8(r: 9, g: 8, b: 7, a: 255))
        ViewRenderer.draw(node, into: &bitmap)
        return (bitmap, counting.draws.withLock { $0 })
    }

    /// What the frame must be: everything drawn in order onto a cleared bitmap, by hand.
    func expected(cover: Bitmap, at frame: Rect, alpha: Double = 1) throws -> Bitmap {
        var bitmap = try Bitmap(width: 20, height: 16, scale: 2)
        bitmap.draw { painter in
            painter.fill(Rect(x: 0, y: 0, width: 10, height: 8), color: .white)
            painter.fill(Rect(x: 0, y: 0, width: 10, height: 8), color: Color(red: 1, green: 0, blue: 0, alpha: 0.5))
            painter.draw(cover, in: frame, opacity: alpha)
            painter.fill(Rect(x: 2, y: 2, width: 3, height: 3), color: Color(red: 0, green: 1, blue: 0, alpha: 0.5))
        }
        return bitmap
    }

    func testAnOpaqueImageCoveringTheFrameHidesWhatIsUnderItWithTheSamePixels() throws {
        let cover = try Bitmap(width: 20, height: 16, scale: 2, fill: Self.blue.premultiplied)
        let whole = Rect(x: 0, y: 0, width: 10, height: 8)
        let (bitmap, draws) = try frame(cover: cover, at: whole, counting: Counting())
        XCTAssertEqual(draws, 0, "the drawing under the cover is skipped")
        XCTAssertEqual(bitmap, try expected(cover: cover, at: whole))
        // Larger than the frame and at a fraction of a pixel: still every pixel covered.
        let larger = Rect(x: -0.3, y: -0.2, width: 10.6, height: 8.5)
        let (moved, skipped) = try frame(cover: cover, at: larger, counting: Counting())
        XCTAssertEqual(skipped, 0)
        XCTAssertEqual(moved, try expected(cover: cover, at: larger))
    }

    func testWhatDoesNotCoverEveryPixelOpaquelyHidesNothing() throws {
        let opaque = try Bitmap(width: 20, height: 16, scale: 2, fill: Self.blue.premultiplied)
        var holed = opaque
        holed[7, 5] = PremultipliedRGBA8(r: 0, g: 0, b: 100, a: 128)
        let whole = Rect(x: 0, y: 0, width: 10, height: 8)
        // One translucent pixel; the cover at alpha 0.9; a cover a quarter pixel short of the right edge.
        for (cover, rect, alpha) in [(holed, whole, 1.0), (opaque, whole, 0.9), (opaque, Rect(x: 0, y: 0, width: 9.875, height: 8), 1.0)] {
            let (bitmap, draws) = try frame(cover: cover, at: rect, alpha: alpha, counting: Counting())
            XCTAssertEqual(draws, 1, "\(rect) at alpha \(alpha)")
            XCTAssertEqual(bitmap, try expected(cover: cover, at: rect, alpha: alpha), "\(rect) at alpha \(alpha)")
        }
    }

    func testACoverInsideASubviewHidesTheSiblingsBeforeIt() throws {
        // window → [under (counted), stage → [cover image]]: the smokescreen's arrangement.
        let counting = Counting()
        let window = View(frame: Rect(x: 0, y: 0, width: 10, height: 8))
        try window.addSubview(DrawingView(frame: window.bounds, drawing: counting, name: "under"))
        let stage = View(frame: window.bounds, name: "stage")
        try stage.addSubview(ImageView(image: try Bitmap(width: 10, height: 8, scale: 1, fill: Self.blue.premultiplied), frame: window.bounds))
        try window.addSubview(stage)
        var bitmap = try Bitmap(width: 10, height: 8, scale: 1)
        ViewRenderer.draw(try XCTUnwrap(window.renderNode()), into: &bitmap)
        XCTAssertEqual(counting.draws.withLock { $0 }, 0)
        XCTAssertEqual(bitmap, try Bitmap(width: 10, height: 8, scale: 1, fill: Self.blue.premultiplied))
    }

    /// A cover drawn through its own rounded clip leaves its corners: nothing under it is skipped.
    func testARoundedCoverHidesNothing() throws {
        let counting = Counting()
        let window = View(frame: Rect(x: 0, y: 0, width: 4, height: 4))
        window.backgroundColor = Color(red: 1, green: 0, blue: 0)
        try window.addSubview(DrawingView(frame: window.bounds, drawing: counting))
        let image = ImageView(image: try Bitmap(width: 4, height: 4, scale: 1, fill: Self.blue.premultiplied), frame: window.bounds)
        image.cornerRadius = 2
        image.clipsToBounds = true
        try window.addSubview(image)
        var bitmap = try Bitmap(width: 4, height: 4, scale: 1, fill: PremultipliedRGBA8(r: 9, g: 8, b: 7, a: 255))
        ViewRenderer.draw(try XCTUnwrap(window.renderNode()), into: &bitmap)
        XCTAssertEqual(counting.draws.withLock { $0 }, 1)
        XCTAssertEqual(bitmap[0, 0].a, 255, "the window's red shows in the corner, not what was there")
        XCTAssertGreaterThan(bitmap[0, 0].r, 100)
    }

    /// A square clip at a fraction of a pixel covers its edge pixels in part: what is under them shows.
    func testACoverInsideAClipAtAFractionOfAPixelHidesNothing() throws {
        let window = View(frame: Rect(x: 0, y: 0, width: 4, height: 4))
        window.backgroundColor = .white
        let clipping = View(frame: Rect(x: 0.5, y: 0, width: 2, height: 4))
        clipping.backgroundColor = Color(red: 1, green: 0, blue: 0)
        clipping.clipsToBounds = true
        let cover = View(frame: Rect(x: -1, y: -1, width: 10, height: 10))
        cover.backgroundColor = Color(red: 0, green: 0, blue: 1)
        try clipping.addSubview(cover)
        try window.addSubview(clipping)
        var bitmap = try Bitmap(width: 4, height: 4, scale: 1)
        ViewRenderer.draw(try XCTUnwrap(window.renderNode()), into: &bitmap)
        var expected = try Bitmap(width: 4, height: 4, scale: 1)
        expected.draw { painter in
            painter.fill(Rect(x: 0, y: 0, width: 4, height: 4), color: .white)
            painter.fill(Rect(x: 0.5, y: 0, width: 2, height: 4), color: Color(red: 1, green: 0, blue: 0))
            painter.clip(to: Rect(x: 0.5, y: 0, width: 2, height: 4))
            painter.fill(Rect(x: -0.5, y: -1, width: 10, height: 10), color: Color(red: 0, green: 0, blue: 1))
        }
        XCTAssertEqual(bitmap, expected)
        XCTAssertNotEqual(bitmap[0, 0], PremultipliedRGBA8(r: 128, g: 128, b: 255, a: 255), "the red under the clip's edge shows")
    }

    func testASnapshotOfATreeThatPaintsEveryPixelIsKnownOpaqueWithoutReadingIt() throws {
        let screen = View(frame: Rect(x: 0, y: 0, width: 10, height: 8))
        screen.backgroundColor = .white
        let card = View(frame: Rect(x: 1.25, y: 1, width: 4, height: 3))
        card.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
        try screen.addSubview(card)
        for scale in [1.0, 2, 3] {
            let opaque = try screen.snapshotView(scale: scale)
            XCTAssertEqual(opaque.imageIsOpaque, true, "@\(scale)x")
            XCTAssertTrue(try XCTUnwrap(opaque.image).isOpaque, "and it is: every alpha 255")
        }
        // Without its background (or with a translucent one) nothing is claimed: the pixels decide.
        XCTAssertNil(try screen.snapshotView(scale: 2, clearBackground: true).imageIsOpaque)
        screen.backgroundColor = Color(white: 1, alpha: 0.99)
        let translucent = try screen.snapshotView(scale: 2)
        XCTAssertNil(translucent.imageIsOpaque)
        XCTAssertNotNil(translucent.makeContent())
        XCTAssertEqual(translucent.imageIsOpaque, false)
    }
}
