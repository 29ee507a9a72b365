import RasterCore
import SmokescreenStage
import XCTest

/// Strokes as UIKit code makes them: `CAShapeLayer`'s stroke properties (and their animations),
/// `UIBezierPath.stroke()` with dashes, a context's `strokePath()` in its user space, and even-odd fills.
/// Pixels are exact where the stroke's edges fall on whole pixels.
final class StrokeDrawingTests: XCTestCase {
    /// A shape layer with a horizontal line 40 pt long at y = 5, stroked 4 pt wide in blue.
    func lineLayer(on stage: Stage) -> CAShapeLayer {
        let line = UIBezierPath()
        line.move(to: CGPoint(x: 0, y: 5))
        line.addLine(to: CGPoint(x: 40, y: 5))
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 0, y: 0, width: 40, height: 10)
        shape.path = line.cgPath
        shape.fillColor = nil
        shape.strokeColor = UIColor.blue.cgColor
        shape.lineWidth = 4
        stage.window.layer.addSublayer(shape)
        return shape
    }

    func isBlue(_ frame: Bitmap, _ x: Int, _ y: Int) -> Bool { frame.rgba(x, y) == [0, 0, 255, 255] }

    func testStrokeEndAnimatesAlongThePath() throws {
        let stage = try makeStage()
        let shape = lineLayer(on: stage)
        try stage.wait(0.1)
        let grow = CABasicAnimation(keyPath: "strokeEnd")
        grow.fromValue = 0
        grow.toValue = 1
        grow.duration = 1
        grow.timingFunction = CAMediaTimingFunction(name: .linear)
        shape.add(grow, forKey: "grow")
        try stage.wait(1.1)
        // Frame 6 is 0.5 s in: the first 20 pt of the line.
        let half = try stage.bitmap(ofFrame: 6)
        XCTAssertTrue(isBlue(half, 19, 5))
        XCTAssertFalse(isBlue(half, 20, 5))
        XCTAssertEqual(half.rgba(20, 5)[3], 255, "the window's black, not the stroke")
        let done = try stage.bitmap(ofFrame: 11)
        XCTAssertTrue(isBlue(done, 39, 5))
        XCTAssertTrue(isBlue(done, 0, 3) && isBlue(done, 0, 6) && !isBlue(done, 0, 7), "4 pt wide, centred on y = 5")
        XCTAssertTrue(stage.notDrawn.isEmpty, "\(stage.notDrawn)")
    }

    func testSettingStrokeStartOnAStandaloneLayerAnimatesImplicitly() throws {
        // Core Animation's implicit action: 0.25 s, for a layer no view owns.
        let stage = try makeStage()
        let shape = lineLayer(on: stage)
        try stage.wait(0.1)
        shape.strokeStart = 0.5
        try stage.wait(0.5)
        let before = try stage.bitmap(ofFrame: 1), during = try stage.bitmap(ofFrame: 2), after = try stage.bitmap(ofFrame: 5)
        XCTAssertTrue(isBlue(before, 2, 5), "the animation starts from the old value")
        XCTAssertTrue(!isBlue(during, 2, 5) && isBlue(during, 19, 5), "0.1 s into 0.25 s the start is on its way")
        XCTAssertFalse(isBlue(after, 19, 5))
        XCTAssertTrue(isBlue(after, 20, 5))
    }

    func testDashPatternAndPhaseOnAShapeLayer() throws {
        let stage = try makeStage()
        let shape = lineLayer(on: stage)
        shape.lineDashPattern = [5, 5]
        shape.lineDashPhase = 2
        try stage.wait(0.1)
        let frame = try stage.bitmap(ofFrame: 0)
        // Phase 2: dashes over 0…3, 8…13, 18…23, …
        for x in [0, 2, 8, 12, 18] { XCTAssertTrue(isBlue(frame, x, 5), "x = \(x) is in a dash") }
        for x in [3, 7, 13, 17] { XCTAssertFalse(isBlue(frame, x, 5), "x = \(x) is in a gap") }
    }

    func testRoundCapsReachPastTheEnds() throws {
        let stage = try makeStage()
        let shape = lineLayer(on: stage)
        shape.strokeStart = 0.25
        shape.strokeEnd = 0.75
        shape.lineCap = .round
        try stage.wait(0.1)
        let frame = try stage.bitmap(ofFrame: 0)
        XCTAssertTrue(isBlue(frame, 9, 5), "the start cap reaches 2 pt before 10 pt")
        XCTAssertFalse(isBlue(frame, 7, 5))
        XCTAssertTrue(isBlue(frame, 30, 5))
        XCTAssertFalse(isBlue(frame, 32, 5))
    }

    func testBezierPathStrokesWithDashesInDrawRect() throws {
        final class Dashed: UIView {
            override func draw(_ rect: CGRect) {
                let path = UIBezierPath()
                path.move(to: CGPoint(x: 0, y: 5))
                path.addLine(to: CGPoint(x: 40, y: 5))
                path.lineWidth = 2
                let pattern: [CGFloat] = [4, 6]
                path.setLineDash(pattern, count: pattern.count, phase: 0)
                UIColor.blue.setStroke()
                path.stroke()
            }
        }
        let stage = try makeStage()
        let view = Dashed(frame: CGRect(x: 0, y: 0, width: 40, height: 10))
        view.backgroundColor = .white
        stage.window.addSubview(view)
        try stage.wait(0.1)
        let frame = try stage.bitmap(ofFrame: 0)
        XCTAssertTrue(isBlue(frame, 0, 4) && isBlue(frame, 3, 5) && isBlue(frame, 10, 4))
        XCTAssertEqual(frame.rgba(5, 4), [255, 255, 255, 255])
        XCTAssertEqual(frame.rgba(0, 6), [255, 255, 255, 255], "2 pt wide: y 4…6")
        var count = 0, phase: CGFloat = 0
        var lengths = [CGFloat](repeating: 0, count: 2)
        let probe = UIBezierPath()
        let pattern: [CGFloat] = [4, 6]
        probe.setLineDash(pattern, count: 2, phase: 3)
        probe.getLineDash(&lengths, count: &count, phase: &phase)
        XCTAssertEqual(lengths, [4, 6])
        XCTAssertEqual(count, 2)
        XCTAssertEqual(phase, 3)
    }

    func testAContextStrokesInItsUserSpace() throws {
        // Scaled by 2 horizontally, a vertical line 2 pt wide covers 4 pt; the miter limit and joins are kept.
        _ = try makeStage()
        let image = UIGraphicsImageRenderer(size: CGSize(width: 20, height: 10)).image { context in
            let cg = context.cgContext
            cg.scaleBy(x: 2, y: 1)
            cg.setStrokeColor(UIColor.blue.cgColor)
            cg.setLineWidth(2)
            cg.move(to: CGPoint(x: 5, y: 0))
            cg.addLine(to: CGPoint(x: 5, y: 10))
            cg.strokePath()
        }
        let bitmap = try XCTUnwrap(image.bitmap)
        XCTAssertEqual(bitmap.rgba(7, 5)[3], 0)
        XCTAssertTrue(isBlue(bitmap, 8, 5) && isBlue(bitmap, 11, 5))
        XCTAssertEqual(bitmap.rgba(12, 5)[3], 0)
    }

    func testEvenOddFills() throws {
        let stage = try makeStage()
        let rings = UIBezierPath(rect: CGRect(x: 0, y: 0, width: 30, height: 30))
        rings.append(UIBezierPath(rect: CGRect(x: 10, y: 10, width: 10, height: 10)))
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 0, y: 0, width: 30, height: 30)
        shape.path = rings.cgPath
        shape.fillColor = UIColor.blue.cgColor
        shape.fillRule = .evenOdd
        stage.window.layer.addSublayer(shape)
        try stage.wait(0.1)
        let frame = try stage.bitmap(ofFrame: 0)
        XCTAssertTrue(isBlue(frame, 5, 5))
        XCTAssertFalse(isBlue(frame, 15, 15), "the inner square is a hole")
        XCTAssertTrue(stage.notDrawn.isEmpty, "\(stage.notDrawn)")
    }
}
