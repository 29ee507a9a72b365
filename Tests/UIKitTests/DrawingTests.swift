import PNGIO
import RasterCore
import SmokescreenStage
import XCTest

final class DrawingTests: XCTestCase {
    func testDrawRectIsDrawnOnceAndAgainAfterSetNeedsDisplay() throws {
        let stage = try makeStage()
        final class Half: UIView {
            var draws = 0
            var color = UIColor.blue
            override func draw(_ rect: CGRect) {
                draws += 1
                color.setFill()
                UIRectFill(CGRect(x: 0, y: 0, width: rect.width / 2, height: rect.height))
            }
        }
        let view = Half(frame: CGRect(x: 0, y: 0, width: 20, height: 10))
        view.backgroundColor = .white
        stage.window.addSubview(view)
        try stage.wait(0.2)
        XCTAssertEqual(view.draws, 1, "drawn once, kept as UIKit's backing store")
        let first = try stage.bitmap(ofFrame: 0)
        XCTAssertEqual(first.rgba(9, 5), [0, 0, 255, 255])
        XCTAssertEqual(first.rgba(10, 5), [255, 255, 255, 255])
        view.color = .red
        view.setNeedsDisplay()
        try stage.wait(0.1)
        XCTAssertEqual(view.draws, 2)
        XCTAssertEqual(try stage.bitmap(ofFrame: 3).rgba(0, 0), [255, 0, 0, 255])
    }

    func testAnImageRendererDrawsPathsAtItsScale() throws {
        _ = try makeStage()
        let format = UIGraphicsImageRendererFormat()
        format.scale = 2
        let image = UIGraphicsImageRenderer(size: CGSize(width: 10, height: 10), format: format).image { context in
            UIColor.green.setFill()
            context.fill(CGRect(x: 0, y: 0, width: 5, height: 10))
            UIColor.blue.setFill()
            UIBezierPath(ovalIn: CGRect(x: 5, y: 0, width: 5, height: 5)).fill()
        }
        XCTAssertEqual(image.size, CGSize(width: 10, height: 10))
        XCTAssertEqual(image.scale, 2)
        let cg = try XCTUnwrap(image.cgImage)
        XCTAssertEqual([cg.width, cg.height], [20, 20])
        let bitmap = try XCTUnwrap(UIImage(data: try XCTUnwrap(image.pngData()), scale: 2)?.cgImage)
        XCTAssertEqual(bitmap.width, 20)
        // Half the width green (exact edge at 10 px), the circle's centre blue, its corner clear.
        let pixels = try PNGCodec.decode([UInt8](try XCTUnwrap(image.pngData())), scale: 2)
        XCTAssertEqual(pixels.rgba(9, 10), [0, 255, 0, 255])
        XCTAssertEqual(pixels.rgba(10, 19), [0, 0, 0, 0])
        XCTAssertEqual(pixels.rgba(15, 5), [0, 0, 255, 255])
        XCTAssertEqual(pixels.rgba(10, 0)[3], 0)
    }

    func testTheOldImageContextFunctionsDrawToo() throws {
        _ = try makeStage()
        UIGraphicsBeginImageContextWithOptions(CGSize(width: 4, height: 4), false, 1)
        UIColor.red.setFill()
        UIRectFill(CGRect(x: 0, y: 0, width: 2, height: 4))
        let image = UIGraphicsGetImageFromCurrentImageContext()
        UIGraphicsEndImageContext()
        XCTAssertNil(UIGraphicsGetCurrentContext())
        let pixels = try PNGCodec.decode([UInt8](try XCTUnwrap(image?.pngData())))
        XCTAssertEqual(pixels.rgba(1, 1), [255, 0, 0, 255])
        XCTAssertEqual(pixels.rgba(2, 1), [0, 0, 0, 0])
    }

    func testBezierArcsAreClockwiseOnTheScreen() {
        // A quarter from 0 (right) clockwise on the screen passes through the bottom-right quadrant.
        let arc = UIBezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        XCTAssertEqual(arc.currentPoint.x, 0, accuracy: 1e-9)
        XCTAssertEqual(arc.currentPoint.y, 10, accuracy: 1e-9)
        XCTAssertGreaterThan(arc.bounds.maxX, 9)
        XCTAssertGreaterThan(arc.bounds.maxY, 9)
        XCTAssertGreaterThanOrEqual(arc.bounds.minY, -1e-9)
        let other = UIBezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        XCTAssertLessThan(other.bounds.minY, -9, "the long way round, through the top")
        let rounded = UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 20, height: 20), byRoundingCorners: [.topLeft], cornerRadii: CGSize(width: 10, height: 10))
        XCTAssertFalse(rounded.contains(CGPoint(x: 1, y: 1)))
        XCTAssertTrue(rounded.contains(CGPoint(x: 19, y: 1)))
        XCTAssertTrue(rounded.contains(CGPoint(x: 1, y: 19)))
        let reversed = rounded.reversing()
        XCTAssertEqual(reversed.bounds, rounded.bounds)
    }

    func testARoundedRectPathHasUIKitsContinuousCorners() throws {
        // UIKit's: from the top edge just past the top-left corner, clockwise, three cubics a corner, each
        // corner reaching 1.528665 radii along the sides.
        let path = UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 60), cornerRadius: 10).cgPath
        guard case .moveTo(let start)? = path.elements.first else { return XCTFail("starts with a move") }
        XCTAssertEqual(start.x, 15.28665, accuracy: 1e-9)
        XCTAssertEqual(start.y, 0, accuracy: 1e-12)
        XCTAssertEqual(path.elements.filter { if case .curveTo = $0 { true } else { false } }.count, 12)
        XCTAssertEqual(path.elements.last, .closeSubpath)
        if case .lineTo(let p) = path.elements[1] { XCTAssertEqual(p.x, 100 - 15.28665, accuracy: 1e-9) } else { XCTFail("then the top edge") }
        // A point a circular corner of 10 covers, but not the continuous one (it cuts deeper near the vertex).
        let corner = UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 60), cornerRadius: 10)
        XCTAssertTrue(corner.contains(CGPoint(x: 50, y: 30)))
        XCTAssertFalse(corner.contains(CGPoint(x: 0.6, y: 0.6)))
        // A radius of half the height is a capsule: its ends are half circles.
        let capsule = UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 40), cornerRadius: 20)
        XCTAssertTrue(capsule.contains(CGPoint(x: 20 - 19.9 * cos(0.7), y: 20 - 19.9 * sin(0.7))))
        XCTAssertFalse(capsule.contains(CGPoint(x: 20 - 20.3 * cos(0.7), y: 20 - 20.3 * sin(0.7))))
    }

    func testShapeAndGradientLayersDrawTheirContent() throws {
        let stage = try makeStage(width: 20, height: 20)
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 0, y: 0, width: 20, height: 10)
        shape.path = UIBezierPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)).cgPath
        shape.fillColor = UIColor.red.cgColor
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 0, y: 10, width: 20, height: 10)
        gradient.colors = [UIColor.black.cgColor, UIColor.white.cgColor]
        gradient.startPoint = CGPoint(x: 0, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        stage.window.layer.addSublayer(shape)
        stage.window.layer.addSublayer(gradient)
        try stage.wait(0)
        let frame = try stage.bitmap(ofFrame: 0)
        XCTAssertEqual(frame.rgba(5, 5), [255, 0, 0, 255])
        XCTAssertEqual(frame.rgba(15, 5), [0, 0, 0, 255], "the screen's black where nothing draws")
        // Left to right, dark to light, grey in the middle (within 2 levels: the gradient is drawn at 2 px a point and stretched).
        let left = frame.rgba(0, 15)[0], middle = frame.rgba(10, 15)[0], right = frame.rgba(19, 15)[0]
        XCTAssertLessThan(left, 10)
        XCTAssertEqual(Double(middle), 255 * 10.5 / 20, accuracy: 3)
        XCTAssertGreaterThan(right, 245)
        XCTAssertTrue(stage.notDrawn.isEmpty, "\(stage.notDrawn)")
        // A stroke is drawn over the fill, centred on the path: 2 pt wide, x 9…11 along the square's right edge.
        shape.strokeColor = UIColor.blue.cgColor
        shape.lineWidth = 2
        try stage.wait(0.1)
        let stroked = try stage.bitmap(ofFrame: 1)
        XCTAssertEqual(stroked.rgba(9, 5), [0, 0, 255, 255])
        XCTAssertEqual(stroked.rgba(10, 5), [0, 0, 255, 255])
        XCTAssertEqual(stroked.rgba(8, 5), [255, 0, 0, 255])
        XCTAssertTrue(stage.notDrawn.isEmpty, "\(stage.notDrawn)")
    }

    func testImageViewsShowNamedImagesAtTheScreensScale() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uikit-images-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try PNGCodec.write(try Bitmap(width: 2, height: 2, fill: Color(red: 1, green: 0, blue: 0).premultiplied), to: folder + "/dot.png")
        try PNGCodec.write(try Bitmap(width: 4, height: 4, scale: 2, fill: Color(red: 0, green: 0, blue: 1).premultiplied), to: folder + "/dot@2x.png")
        let stage = try makeStage(width: 10, height: 10, imageFolders: [folder])
        let image = try XCTUnwrap(UIImage(named: "dot"))
        XCTAssertEqual(image.scale, 1, "a @1x screen takes dot.png first")
        XCTAssertEqual(image.size, CGSize(width: 2, height: 2))
        XCTAssertNil(UIImage(named: "missing"))
        XCTAssertNil(UIImage(named: "../dot"))
        let view = UIImageView(image: image)
        XCTAssertEqual(view.frame, CGRect(x: 0, y: 0, width: 2, height: 2))
        view.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        view.contentMode = .center
        stage.window.addSubview(view)
        try stage.wait(0)
        let frame = try stage.bitmap(ofFrame: 0)
        XCTAssertEqual(frame.rgba(4, 4), [255, 0, 0, 255])
        XCTAssertEqual(frame.rgba(3, 3), [0, 0, 0, 255])
        XCTAssertEqual(UIImage(systemName: "star")?.isSymbolImage, true, "symbols are drawn (SymbolImageTests)")
        XCTAssertEqual(stage.notDrawn, [])
    }

    func testLabelsDrawTheirTextAndMeasureIt() throws {
        let stage = try makeStage(width: 120, height: 40)
        let label = UILabel(frame: CGRect(x: 0, y: 0, width: 120, height: 40))
        label.text = "Hello"
        label.font = .systemFont(ofSize: 20, weight: .bold)
        label.textColor = .white
        label.textAlignment = .center
        stage.window.addSubview(label)
        let fitted = label.sizeThatFits(CGSize(width: 120, height: 40))
        XCTAssertGreaterThan(fitted.width, 30)
        XCTAssertLessThan(fitted.width, 80)
        XCTAssertEqual(fitted.height, fitted.height.rounded(.up))
        XCTAssertEqual(label.intrinsicContentSize, label.sizeThatFits(.zero))
        try stage.wait(0)
        let frame = try stage.bitmap(ofFrame: 0)
        var lit = 0
        for y in 0..<40 { for x in 0..<120 where frame.rgba(x, y)[0] > 128 { lit += 1 } }
        XCTAssertGreaterThan(lit, 50, "white text on the black screen")
        // Centred: nothing lit in the first and last 30 points.
        for y in 0..<40 { for x in Array(0..<30) + Array(90..<120) { XCTAssertLessThan(frame.rgba(x, y)[0], 10) } }
        XCTAssertNil(UILabel().text)
    }

    /// `boundingBoxOfPath` leaves control points out and counts curves by their extremes; `boundingBox`
    /// holds the control points; both are null for an empty path.
    func testAPathsBoundingBoxesWithAndWithoutControlPoints() {
        let cubic = CGMutablePath()
        cubic.move(to: CGPoint(x: 0, y: 0))
        cubic.addCurve(to: CGPoint(x: 100, y: 0), control1: CGPoint(x: 0, y: 100), control2: CGPoint(x: 100, y: 100))
        // The top of the arch at t = ½: 3 · ¼ · ½ · 100 · 2 = 75.
        XCTAssertEqual(cubic.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 100, height: 75))
        XCTAssertEqual(cubic.boundingBox, CGRect(x: 0, y: 0, width: 100, height: 100))
        let quad = CGMutablePath()
        quad.move(to: CGPoint(x: 10, y: 0))
        quad.addQuadCurve(to: CGPoint(x: 110, y: 0), control: CGPoint(x: 60, y: -100))
        XCTAssertEqual(quad.boundingBoxOfPath, CGRect(x: 10, y: -50, width: 100, height: 50))
        // An S curve's two extremes, inside its control points.
        let s = CGMutablePath()
        s.move(to: CGPoint(x: 0, y: 0))
        s.addCurve(to: CGPoint(x: 30, y: 0), control1: CGPoint(x: 10, y: 30), control2: CGPoint(x: 20, y: -30))
        let box = s.boundingBoxOfPath
        XCTAssertEqual(box.minX, 0)
        XCTAssertEqual(box.maxX, 30)
        // y(t) = 90t(1−t)(1−2t): extremes ±90 · (√3/18) at t = ½ ∓ √3/6.
        XCTAssertEqual(box.maxY, 90 * 3.0.squareRoot() / 18, accuracy: 1e-9)
        XCTAssertEqual(box.minY, -90 * 3.0.squareRoot() / 18, accuracy: 1e-9)
        // A cubic that is nearly a quadratic (its cubic coefficient a rounding error): its extreme still
        // counts. x(t) peaks where 3(c1 − p0)(1 − t)² + … = 0, at x ≈ 1463.39.
        let flat = CGMutablePath()
        flat.move(to: CGPoint(x: 417, y: 0))
        flat.addCurve(to: CGPoint(x: 87.9, y: 0), control1: CGPoint(x: 1914.4, y: 0), control2: CGPoint(x: 1804.7, y: 0))
        let reach = (0...10_000).map { Double($0) / 10_000 }.map { t -> Double in
            let u = 1 - t
            return u * u * u * 417 + 3 * u * u * t * 1914.4 + 3 * u * t * t * 1804.7 + t * t * t * 87.9
        }.max()!
        XCTAssertEqual(flat.boundingBoxOfPath.maxX, reach, accuracy: 0.01)
        XCTAssertEqual(flat.boundingBoxOfPath.minX, 87.9, accuracy: 1e-9)
        XCTAssertEqual(CGMutablePath().boundingBoxOfPath, .null)
        let point = CGMutablePath()
        point.move(to: CGPoint(x: 5, y: 7))
        XCTAssertEqual(point.boundingBoxOfPath, CGRect(x: 5, y: 7, width: 0, height: 0))
    }
}
