import RasterCore
import XCTest
import SnapshotView

/// Cases a review found: content that spills out of its view under group opacity, custom drawing that
/// overlaps itself, and snapshot views taken through a presentation.
final class ReviewRegressionTests: XCTestCase {
    let red = Color(red: 1, green: 0, blue: 0)

    func inkWidth(_ b: Bitmap, row y: Int) -> Int { (0..<b.width).filter { b[$0, y].a != 0 }.count }

    func testSpillingImageContentSurvivesGroupOpacity() throws {
        let canvas = View(frame: Rect(x: 0, y: 0, width: 20, height: 10))
        let image = try Bitmap(width: 20, height: 10, scale: 1, fill: red.premultiplied)
        let view = ImageView(image: image, frame: Rect(x: 5, y: 0, width: 10, height: 10), contentMode: .scaleAspectFill)
        view.backgroundColor = .white  // two things drawn: a group
        try canvas.addSubview(view)
        XCTAssertEqual(inkWidth(try canvas.snapshot(scale: 1), row: 5), 20)
        view.alpha = 0.5
        XCTAssertEqual(inkWidth(try canvas.snapshot(scale: 1), row: 5), 20, "the spill is not cut off by the layer")
    }

    struct TwoRects: ViewContent {
        func draw(in painter: Painter, bounds: Rect) {
            painter.fill(Rect(x: 0, y: 0, width: 6, height: 4), color: Color(red: 1, green: 0, blue: 0))
            painter.fill(Rect(x: 2, y: 0, width: 6, height: 4), color: Color(red: 1, green: 0, blue: 0))
        }
    }

    func testCustomDrawingIsCompositedAsOneGroup() throws {
        let canvas = View(frame: Rect(x: 0, y: 0, width: 8, height: 4))
        let drawing = DrawingView(frame: canvas.bounds, drawing: TwoRects())
        drawing.alpha = 0.5
        try canvas.addSubview(drawing)
        let out = try canvas.snapshot(scale: 1)
        XCTAssertEqual(out[4, 1], out[0, 1], "the overlap is not darker than the rest")
        XCTAssertEqual(out[4, 1], PremultipliedRGBA8(r: 128, g: 0, b: 0, a: 128))
    }

    struct Halved: PresentationSource {
        func presentationValue(of property: ViewProperty, of view: View, model: AnimatableValue) -> AnimatableValue {
            guard view.name == "card", property == .bounds, let r = model.rectValue else { return model }
            return .rect(Rect(origin: r.origin, size: r.size * 0.5))
        }
    }

    func testASnapshotViewThroughAPresentationHasThatPresentationsGeometry() throws {
        let card = View(frame: Rect(x: 0, y: 0, width: 100, height: 100), name: "card")
        card.backgroundColor = red
        let snap = try card.snapshotView(scale: 1, presentation: Halved())
        XCTAssertEqual(snap.image?.width, 50)
        XCTAssertEqual(snap.bounds.size, Size(width: 50, height: 50), "not stretched to the model size")
        XCTAssertEqual(snap.center, card.center)
    }
}
