import RasterCore
import XCTest
import SnapshotView

/// `RenderNode.drawsTheSame(as:)`: what the live preview keeps a frame by. Two trees built alike draw the
/// same; any change a drawing reads (a property, text, an image's pixel, a child) makes them differ; content
/// that cannot tell (a custom drawing) always counts as changed.
final class RenderNodeSamenessTests: XCTestCase {
    struct Custom: ViewContent {
        func draw(in painter: Painter, bounds: Rect) { painter.fill(bounds, color: .black) }
    }

    /// A root with an image (its pixel at (1, 0) set to `pixel`), a label and a coloured view.
    func tree(text: String = "Hi", pixel: Color = .black, alpha: Double = 1, custom: Bool = false, extra: Bool = false) throws -> RenderNode {
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 30))
        root.backgroundColor = .white
        var pixels = try Bitmap(width: 4, height: 2, scale: 2)
        pixels.draw { $0.fill(Rect(x: 0.5, y: 0, width: 0.5, height: 0.5), color: pixel) }
        let image = ImageView(image: pixels, frame: Rect(x: 2, y: 1, width: 8, height: 4))
        image.alpha = alpha
        try root.addSubview(image)
        try root.addSubview(Label(text: text, frame: Rect(x: 0, y: 20, width: 20, height: 10)))
        let shape = View(frame: Rect(x: 20, y: 0, width: 10, height: 10))
        shape.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.6)
        try root.addSubview(shape)
        if custom { try root.addSubview(DrawingView(frame: Rect(x: 30, y: 20, width: 5, height: 5), drawing: Custom())) }
        if extra { try root.addSubview(View(frame: Rect(x: 0, y: 0, width: 1, height: 1))) }
        return try XCTUnwrap(root.renderNode())
    }

    func testTreesBuiltAlikeDrawTheSameAndAnyChangeDiffers() throws {
        let base = try tree()
        XCTAssertTrue(base.drawsTheSame(as: try tree()), "built again, from new bitmaps and layouts")
        XCTAssertFalse(base.drawsTheSame(as: try tree(text: "Ho")), "other text")
        XCTAssertFalse(base.drawsTheSame(as: try tree(pixel: Color(white: 0.5))), "one pixel of the image")
        XCTAssertFalse(base.drawsTheSame(as: try tree(alpha: 0.5)), "a child's alpha")
        XCTAssertFalse(base.drawsTheSame(as: try tree(extra: true)), "one more child")
        XCTAssertFalse(try tree(custom: true).drawsTheSame(as: try tree(custom: true)), "custom drawing cannot tell: changed")
        var vibrant = base
        vibrant.vibrancy = .black
        XCTAssertFalse(base.drawsTheSame(as: vibrant), "vibrancy")
    }

    /// Gradients by their definition (each view's cache aside), shapes by path, fill, rule, stroke and what
    /// is under them.
    func testGradientsAndShapesByTheirDefinitions() throws {
        func gradient(_ end: Color) -> GradientContent {
            GradientContent(shape: Gradient(kind: .axial, stops: [.init(location: 0, color: .white), .init(location: 1, color: end)],
                                            start: Point(x: 0, y: 0), end: Point(x: 0, y: 1)), cache: GradientCache())
        }
        XCTAssertTrue(gradient(.black).drawsTheSame(as: gradient(.black)), "two caches, one gradient")
        XCTAssertFalse(gradient(.black).drawsTheSame(as: gradient(Color(white: 0.5))))
        let circle = Path(ellipseIn: Rect(x: 0, y: 0, width: 10, height: 10))
        let line = StrokeStyle(width: 2)
        func shape(_ path: Path = circle, fill: Color? = .black, rule: FillRule = .nonZero, stroke: Color? = nil,
                   below: (any ViewContent)? = nil) -> ShapeContent {
            ShapeContent(path: path, fill: fill, rule: rule, stroke: stroke.map { ($0, line) }, below: below)
        }
        XCTAssertTrue(shape().drawsTheSame(as: shape()))
        XCTAssertTrue(shape(stroke: .white, below: gradient(.black)).drawsTheSame(as: shape(stroke: .white, below: gradient(.black))))
        XCTAssertFalse(shape().drawsTheSame(as: shape(Path(rect: Rect(x: 0, y: 0, width: 10, height: 10)))), "the path")
        XCTAssertFalse(shape().drawsTheSame(as: shape(fill: nil)), "the fill")
        XCTAssertFalse(shape().drawsTheSame(as: shape(rule: .evenOdd)), "the rule")
        XCTAssertFalse(shape().drawsTheSame(as: shape(stroke: .white)), "a stroke")
        XCTAssertFalse(shape(below: gradient(.black)).drawsTheSame(as: shape(below: gradient(.white))), "what is under it")
        XCTAssertFalse(shape(below: Custom()).drawsTheSame(as: shape(below: Custom())), "under it, content that cannot tell")
        XCTAssertFalse(shape().drawsTheSame(as: gradient(.black)), "another kind")
    }
}
