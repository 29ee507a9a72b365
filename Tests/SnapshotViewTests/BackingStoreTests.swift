import RasterCore
import XCTest
import SnapshotView

/// A custom drawing made of abutting anti-aliased shapes, moving by fractions of a device pixel: the
/// History scrolls' case (1-pt shading bands over a dark row) reduced to two views. Drawn straight at a
/// fractional offset, every band boundary let the dark background through the two half-covered edges,
/// so every other device row was dark while the view moved and smooth at rest.
final class BackingStoreTests: XCTestCase {
    static let dark = Color(red: 0.23, green: 0.15, blue: 0.11)
    static let paper = Color(red: 0.93, green: 0.89, blue: 0.80)

    /// Ten 1-pt bands of opaque paper, each shaded a little more: abutting shapes that must meet without
    /// a seam.
    struct Bands: ViewContent {
        func draw(in painter: Painter, bounds: Rect) {
            for i in 0..<10 {
                let band = Rect(x: 0, y: Double(i), width: bounds.width, height: 1)
                painter.fill(band, color: BackingStoreTests.paper)
                painter.fill(band, color: Color(red: 0.4, green: 0.3, blue: 0.2).withAlpha(0.02 * Double(i)))
            }
        }
    }

    /// A dark window with the banded view at `y` points.
    func window(viewAt y: Double) throws -> View {
        let window = View(frame: Rect(x: 0, y: 0, width: 8, height: 16))
        window.backgroundColor = Self.dark
        try window.addSubview(DrawingView(frame: Rect(x: 0, y: y, width: 8, height: 10), drawing: Bands(), name: "bands"))
        return window
    }

    /// The reference for the view at `2 + offset` points: the view drawn at rest (whole pixels), taken
    /// as an image and drawn at the moved place by the painter's image path, over the dark background.
    func reference(offset: Double, scale: Double) throws -> Bitmap {
        let rest = try DrawingView(frame: Rect(x: 0, y: 0, width: 8, height: 10), drawing: Bands()).snapshot(scale: scale)
        var out = try Bitmap(width: Int(8 * scale), height: Int(16 * scale), scale: scale)
        out.draw { painter in
            painter.fill(Rect(x: 0, y: 0, width: 8, height: 16), color: Self.dark)
            painter.draw(rest, transform: Transform2D(translationX: 0, y: 2 + offset))
        }
        return out
    }

    func testContentMovingByFractionsOfAPixelKeepsItsLook() throws {
        for scale in [1.0, 2.0, 3.0] {
            for step in 1..<8 {
                let offset = Double(step) / 8 / scale
                let frame = try window(viewAt: 2 + offset).snapshot(scale: scale)
                let expected = try reference(offset: offset, scale: scale)
                for y in 0..<frame.height {
                    for x in 0..<frame.width {
                        XCTAssertEqual(frame[x, y], expected[x, y], "@\(Int(scale))x, offset \(offset) pt, pixel (\(x), \(y))")
                    }
                }
                // No combing: inside the view, neighbouring rows differ by the shading step, not by the
                // background showing through (today's bug made them ~35 levels apart).
                let top = Int(((2 + offset) * scale).rounded(.up)) + 1
                let bottom = Int(((12 + offset) * scale).rounded(.down)) - 1
                for y in top..<(bottom - 1) {
                    let step = abs(Int(frame[4, y + 1].r) - Int(frame[4, y].r))
                    XCTAssertLessThanOrEqual(step, 3, "@\(Int(scale))x, offset \(offset) pt, rows \(y)–\(y + 1)")
                }
            }
        }
    }

    func testContentOnWholePixelsIsDrawnDirectlyAsBefore() throws {
        // On whole device pixels the store would be an exact copy: the content is drawn straight, and
        // the result is the one of drawing it into the frame.
        for scale in [1.0, 2.0] {
            let frame = try window(viewAt: 3).snapshot(scale: scale)
            var direct = try Bitmap(width: Int(8 * scale), height: Int(16 * scale), scale: scale)
            direct.draw { painter in
                painter.fill(Rect(x: 0, y: 0, width: 8, height: 16), color: Self.dark)
                painter.translate(x: 0, y: 3)
                Bands().draw(in: painter, bounds: Rect(x: 0, y: 0, width: 8, height: 10))
            }
            XCTAssertEqual(frame, direct, "@\(Int(scale))x")
        }
    }

    func testOnlyWhatReachesTheClipIsRasterized() throws {
        // A drawing far larger than the window, moving by a fraction: only the visible part is drawn,
        // and it is the same as the visible part of a full store.
        let window = View(frame: Rect(x: 0, y: 0, width: 8, height: 8))
        window.clipsToBounds = true
        window.backgroundColor = Self.dark
        try window.addSubview(DrawingView(frame: Rect(x: 0, y: 0.5, width: 8, height: 20_000), drawing: Bands(), name: "tall"))
        let frame = try window.snapshot(scale: 2)
        let expected = try reference(offset: -1.5, scale: 2)
        for y in 0..<frame.height { for x in 0..<frame.width { XCTAssertEqual(frame[x, y], expected[x, y], "(\(x), \(y))") } }
    }
}
