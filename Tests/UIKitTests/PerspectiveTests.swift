import RasterCore
import SmokescreenStage
import SmokescreenTesting
import XCTest

/// Core Animation's 3-D: perspective, anchor points, sublayer transforms, double-sidedness and depth,
/// as a stage draws them and as animations mix them.
final class PerspectiveTests: XCTestCase {
    private var perspective: CATransform3D { var p = CATransform3DIdentity; p.m34 = -1 / 200; return p }

    private func assertEqual(_ a: CATransform3D, _ b: CATransform3D, file: StaticString = #filePath, line: UInt = #line) {
        let x = [a.m11, a.m12, a.m13, a.m14, a.m21, a.m22, a.m23, a.m24, a.m31, a.m32, a.m33, a.m34, a.m41, a.m42, a.m43, a.m44]
        let y = [b.m11, b.m12, b.m13, b.m14, b.m21, b.m22, b.m23, b.m24, b.m31, b.m32, b.m33, b.m34, b.m41, b.m42, b.m43, b.m44]
        for (u, v) in zip(x, y) where abs(u - v) > 1e-9 { XCTFail("\(a) is not \(b)", file: file, line: line); return }
    }

    /// The rows of frame `index` where column `x` is red (the turned square's height there).
    private func redHeight(in frame: Bitmap, column x: Int) -> Int {
        (0..<frame.height).filter { let p = frame.rgba(x, $0); return p[0] > 200 && p[1] < 60 && p[3] == 255 }.count
    }

    func testATurnAboutYInPerspectiveDrawsTheFarEdgeShorter() throws {
        let stage = try makeStage(width: 100, height: 100)
        let square = UIView(frame: CGRect(x: 20, y: 20, width: 60, height: 60))
        square.backgroundColor = .red
        stage.window.addSubview(square)
        square.layer.transform = CATransform3DRotate(perspective, 0.6, 0, 1, 0)
        try stage.wait(0.1)
        XCTAssertEqual(stage.notDrawn, [])
        let frame = try stage.bitmap(ofFrame: 1)
        // +x turns away: the right edge is shorter than the left, both shorter or longer than 60.
        let left = redHeight(in: frame, column: 30), right = redHeight(in: frame, column: 70)
        XCTAssertGreaterThan(left, 60)
        XCTAssertLessThan(right, 60)
        XCTAssertEqual(square.layer.transform, CATransform3DRotate(perspective, 0.6, 0, 1, 0), "the model keeps its matrix")
    }

    /// A tap lands on a turned card where the card is seen, not where its frame is: hit testing and
    /// `convert` go through the perspective, as Core Animation's do.
    func testHitTestingAndConvertGoThroughThePerspective() throws {
        let stage = try makeStage(width: 300, height: 200)
        let card = UIView(frame: CGRect(x: 50, y: 50, width: 200, height: 100))
        card.backgroundColor = .red
        stage.window.addSubview(card)
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 500
        card.layer.transform = CATransform3DRotate(p, 1.3, 0, 1, 0)
        // About its centre x turns to x·cos θ, and w = 1 + x·sin θ / 500 (x from the centre).
        func seen(_ x: CGFloat, _ y: CGFloat) -> CGPoint {
            let px = x - 100, py = y - 50, w = 1 + px * sin(1.3) / 500
            return CGPoint(x: px * cos(1.3) / w + 150, y: py / w + 100)
        }
        for corner in [CGPoint(x: 0, y: 0), CGPoint(x: 200, y: 100)] {
            let converted = card.convert(corner, to: stage.window)
            XCTAssertEqual(converted.x, seen(corner.x, corner.y).x, accuracy: 1e-9)
            XCTAssertEqual(converted.y, seen(corner.x, corner.y).y, accuracy: 1e-9)
            let back = stage.window.convert(converted, to: card)
            XCTAssertEqual(back.x, corner.x, accuracy: 1e-9)
            XCTAssertEqual(back.y, corner.y, accuracy: 1e-9)
        }
        // Seen nearly edge on, the card spans x ≈ 120…193 (its near edge is the left one, magnified).
        XCTAssertTrue(stage.window.hitTest(CGPoint(x: 150, y: 100), with: nil) === card)
        XCTAssertTrue(stage.window.hitTest(CGPoint(x: 60, y: 100), with: nil) === stage.window, "inside the frame, outside the card as seen")
        XCTAssertTrue(stage.window.hitTest(CGPoint(x: 240, y: 100), with: nil) === stage.window)
        // Exactly edge on, the card is a line: nothing in it is hit, not even where its frame is.
        card.layer.transform = CATransform3DRotate(p, .pi / 2, 0, 1, 0)
        XCTAssertTrue(stage.window.hitTest(CGPoint(x: 150, y: 80), with: nil) === stage.window)
        card.layer.transform = CATransform3DRotate(p, 1.3, 0, 1, 0)
        let log = GestureLog()
        card.addGestureRecognizer(UITapGestureRecognizer(target: log, action: Selector(GestureLog.handleTap(_:))))
        try stage.tap(at: CGPoint(x: 60, y: 100))
        XCTAssertEqual(log.entries.count, 0)
        try stage.tap(at: CGPoint(x: 150, y: 100))
        XCTAssertEqual(log.entries.count, 1, "\(log.entries)")
    }

    func testAnAnchorPointOnTheLeftEdgeKeepsThatEdgeInPlace() throws {
        let stage = try makeStage(width: 100, height: 100)
        let door = UIView(frame: CGRect(x: 20, y: 20, width: 60, height: 60))
        door.backgroundColor = .red
        stage.window.addSubview(door)
        door.layer.anchorPoint = CGPoint(x: 0, y: 0.5)
        door.layer.position = CGPoint(x: 20, y: 50)
        door.layer.transform = CATransform3DRotate(perspective, 0.9, 0, 1, 0)
        try stage.wait(0.1)
        let frame = try stage.bitmap(ofFrame: 1)
        // The hinge (x = 20) stays 60 points tall (its top and bottom pixels partly covered, as the edges
        // slope away from it); the door's free edge is nearer the hinge and shorter.
        XCTAssertTrue((59...60).contains(redHeight(in: frame, column: 20)), "\(redHeight(in: frame, column: 20))")
        XCTAssertLessThan(redHeight(in: frame, column: 50), 60)
        XCTAssertEqual(redHeight(in: frame, column: 70), 0, "cos 0.9 · 60 < 50: the door ends before x = 70")
    }

    func testASublayerTransformGivesEverySublayerItsPerspective() throws {
        let stage = try makeStage(width: 100, height: 100)
        let container = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        container.layer.sublayerTransform = perspective
        stage.window.addSubview(container)
        let square = UIView(frame: CGRect(x: 20, y: 20, width: 60, height: 60))
        square.backgroundColor = .red
        container.addSubview(square)
        square.layer.transform = CATransform3DMakeRotation(0.6, 0, 1, 0)
        try stage.wait(0.1)
        let frame = try stage.bitmap(ofFrame: 1)
        XCTAssertGreaterThan(redHeight(in: frame, column: 30), 60)
        XCTAssertLessThan(redHeight(in: frame, column: 70), 60)
    }

    func testALayerThatIsNotDoubleSidedHidesItsBack() throws {
        let stage = try makeStage(width: 100, height: 100)
        let card = UIView(frame: CGRect(x: 20, y: 20, width: 60, height: 60))
        card.backgroundColor = .red
        stage.window.addSubview(card)
        card.layer.transform = CATransform3DRotate(perspective, 2.5, 0, 1, 0)
        try stage.wait(0.1)
        XCTAssertGreaterThan(redHeight(in: try stage.bitmap(ofFrame: 1), column: 50), 0, "double-sided: the back shows")
        card.layer.isDoubleSided = false
        try stage.wait(0.1)
        XCTAssertEqual(redHeight(in: try stage.bitmap(ofFrame: 2), column: 50), 0, "not double-sided: nothing")
        card.layer.transform = CATransform3DRotate(perspective, 0.5, 0, 1, 0)
        try stage.wait(0.1)
        XCTAssertGreaterThan(redHeight(in: try stage.bitmap(ofFrame: 3), column: 50), 0, "its front faces the viewer again")
    }

    func testZPositionOrdersSiblings() throws {
        let stage = try makeStage(width: 40, height: 30)
        let red = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20)), blue = UIView(frame: CGRect(x: 10, y: 5, width: 20, height: 20))
        red.backgroundColor = .red
        blue.backgroundColor = .blue
        stage.window.addSubview(red)
        stage.window.addSubview(blue)
        red.layer.zPosition = 1
        try stage.wait(0.1)
        XCTAssertEqual(try stage.bitmap(ofFrame: 1).rgba(15, 10), [255, 0, 0, 255], "the higher zPosition draws on top")
        red.layer.zPosition = 0
        try stage.wait(0.1)
        XCTAssertEqual(try stage.bitmap(ofFrame: 2).rgba(15, 10), [0, 0, 255, 255], "equal: their order")
    }

    func testARotationKeyPathAboutYTurnsInTheModelsPerspective() throws {
        let stage = try makeStage(width: 100, height: 100)
        let card = UIView(frame: CGRect(x: 20, y: 20, width: 60, height: 60))
        card.backgroundColor = .red
        stage.window.addSubview(card)
        card.layer.transform = perspective
        let turn = CABasicAnimation(keyPath: "transform.rotation.y")
        turn.fromValue = 0
        turn.toValue = CGFloat.pi
        turn.duration = 1
        card.layer.add(turn, forKey: "turn")
        try stage.wait(0.25)
        let shown = try XCTUnwrap(card.layer.presentation()).transform
        let expected = CATransform3DRotate(perspective, .pi / 4, 0, 1, 0)
        assertEqual(shown, expected)
        XCTAssertEqual(stage.notDrawn, [])
    }

    func testLayerTransformsInsideAnAnimationBlockTurnInDepth() throws {
        let stage = try makeStage(width: 100, height: 100)
        let card = UIView(frame: CGRect(x: 20, y: 20, width: 60, height: 60))
        card.backgroundColor = .red
        stage.window.addSubview(card)
        // The perspective is there before: an animation from the identity would mix it in too, as Core
        // Animation's does (half the perspective half way).
        card.layer.transform = perspective
        try stage.wait(0.1)
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear) {
            card.layer.transform = CATransform3DRotate(self.perspective, 1.2, 0, 1, 0)
        }
        try stage.wait(0.5)
        let shown = try XCTUnwrap(card.layer.presentation()).transform
        let expected = CATransform3DRotate(perspective, 0.6, 0, 1, 0)
        assertEqual(shown, expected)
        try stage.waitUntilIdle()
        XCTAssertEqual(try XCTUnwrap(card.layer.presentation()).transform, CATransform3DRotate(perspective, 1.2, 0, 1, 0))
    }
}

/// `CALayer.mask` and `UIView.mask`: a layer's drawing through another layer's alpha.
final class LayerMaskTests: XCTestCase {
    func testAShapeLayerMaskShowsTheLayerOnlyInsideItsPath() throws {
        let stage = try makeStage(width: 100, height: 100)
        let card = UIView(frame: CGRect(x: 10, y: 10, width: 80, height: 80))
        card.backgroundColor = .red
        stage.window.addSubview(card)
        let circle = CAShapeLayer()
        circle.frame = card.bounds
        circle.path = UIBezierPath(ovalIn: CGRect(x: 20, y: 20, width: 40, height: 40)).cgPath
        card.layer.mask = circle
        try stage.wait(0.1)
        let frame = try stage.bitmap(ofFrame: 1)
        XCTAssertEqual(frame.rgba(50, 50), [255, 0, 0, 255], "the circle's centre")
        XCTAssertEqual(frame.rgba(15, 15), [0, 0, 0, 255], "the card's corner, outside the circle: the screen shows")
        XCTAssertEqual(frame.rgba(50, 25), [0, 0, 0, 255], "above the circle")
        XCTAssertEqual(stage.notDrawn, [])
    }

    func testAGrowingMaskPathRevealsTheLayer() throws {
        let stage = try makeStage(width: 100, height: 100)
        let card = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        card.backgroundColor = .blue
        stage.window.addSubview(card)
        let circle = CAShapeLayer()
        circle.frame = card.bounds
        let small = UIBezierPath(ovalIn: CGRect(x: 45, y: 45, width: 10, height: 10)).cgPath
        let large = UIBezierPath(ovalIn: CGRect(x: -20, y: -20, width: 140, height: 140)).cgPath
        circle.path = large
        card.layer.mask = circle
        let grow = CABasicAnimation(keyPath: "path")
        grow.fromValue = small
        grow.toValue = large
        grow.duration = 1
        circle.add(grow, forKey: "reveal")
        try stage.wait(0.5)
        let half = try stage.bitmap(ofFrame: 5)
        // Half way the circle is 75 points wide about the centre: x = 20 is outside, 60 inside.
        XCTAssertEqual(half.rgba(50, 50), [0, 0, 255, 255])
        XCTAssertEqual(half.rgba(10, 50), [0, 0, 0, 255])
        XCTAssertEqual(half.rgba(80, 50), [0, 0, 255, 255])
        try stage.waitUntilIdle()
        XCTAssertEqual(try stage.bitmap(ofFrame: stage.frameCount - 1).rgba(2, 50), [0, 0, 255, 255], "fully revealed")
    }

    func testAGradientMaskFadesTheLayerOut() throws {
        let stage = try makeStage(width: 100, height: 20)
        stage.window.backgroundColor = .black
        let card = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 20))
        card.backgroundColor = .white
        stage.window.addSubview(card)
        let fade = CAGradientLayer()
        fade.frame = card.bounds
        fade.colors = [UIColor.black.cgColor, UIColor.clear.cgColor]
        fade.startPoint = CGPoint(x: 0, y: 0.5)
        fade.endPoint = CGPoint(x: 1, y: 0.5)
        card.layer.mask = fade
        try stage.wait(0.1)
        let frame = try stage.bitmap(ofFrame: 1)
        let levels = [5, 50, 95].map { Int(frame.rgba($0, 10)[0]) }
        XCTAssertGreaterThan(levels[0], 230, "opaque end: the card")
        XCTAssertEqual(Double(levels[1]), 128, accuracy: 4, "half way: half the card")
        XCTAssertLessThan(levels[2], 25, "clear end: the black window")
    }

    func testAViewMaskMultipliesByItsAlpha() throws {
        let stage = try makeStage(width: 40, height: 30)
        stage.window.backgroundColor = .black
        let card = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 30))
        card.backgroundColor = .white
        stage.window.addSubview(card)
        let veil = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 30))
        veil.backgroundColor = UIColor.black.withAlphaComponent(0.5)
        card.mask = veil
        try stage.wait(0.1)
        let frame = try stage.bitmap(ofFrame: 1)
        XCTAssertEqual(frame.rgba(10, 10), [128, 128, 128, 255], "half the white over the black window")
        XCTAssertEqual(frame.rgba(30, 10), [0, 0, 0, 255], "outside the mask nothing of the card")
        XCTAssertTrue(card.layer.mask === veil.layer)
    }
}

/// Layer shadows: `shadowPath` and the shadow of a layer's content.
final class LayerShadowTests: XCTestCase {
    /// A white card with a black shadow 10 points down, blurred by 4, at half opacity, on a light grey screen.
    private func card(path: Bool, clips: Bool = false, scale: CGFloat = 1) throws -> (Stage, UIView) {
        let stage = try Stage(device: testDevice(width: 100, height: 100), fps: 10, scale: scale)
        stage.window.backgroundColor = UIColor(white: 0.9, alpha: 1)
        let card = UIView(frame: CGRect(x: 20, y: 20, width: 60, height: 50))
        card.backgroundColor = .white
        card.layer.cornerRadius = 10
        card.layer.shadowColor = UIColor.black.cgColor
        card.layer.shadowOpacity = 0.5
        card.layer.shadowOffset = CGSize(width: 0, height: 10)
        card.layer.shadowRadius = 4
        if path { card.layer.shadowPath = UIBezierPath(roundedRect: card.bounds, cornerRadius: 10).cgPath }
        card.layer.masksToBounds = clips
        stage.window.addSubview(card)
        try stage.wait(0.1)
        return (stage, card)
    }

    func testAShadowFallsBelowTheCardByItsOffset() throws {
        let (stage, _) = try card(path: true)
        let frame = try stage.bitmap(ofFrame: 1)
        let grey = frame.rgba(50, 5)[0]
        XCTAssertEqual(grey, 230, "the screen, far from the shadow")
        XCTAssertLessThan(frame.rgba(50, 75)[0], 200, "under the card's bottom edge: the shadow, 10 pt down")
        XCTAssertEqual(frame.rgba(50, 17)[0], 230, "above the card: nothing (the offset is downwards)")
        XCTAssertEqual(frame.rgba(50, 40), [255, 255, 255, 255], "the card covers its shadow")
        XCTAssertEqual(stage.notDrawn, [])
    }

    func testTheShadowOfTheContentIsTheShadowOfItsShape() throws {
        let (withPath, _) = try card(path: true)
        let (fromContent, _) = try card(path: false)
        let a = try withPath.bitmap(ofFrame: 1), b = try fromContent.bitmap(ofFrame: 1)
        // The same rounded card either way: the same shadow within a level (the content's alpha is the
        // rounded rectangle's coverage, drawn on its own).
        var worst = 0
        for y in 0..<100 { for x in 0..<100 { worst = max(worst, abs(Int(a.rgba(x, y)[0]) - Int(b.rgba(x, y)[0]))) } }
        XCTAssertLessThanOrEqual(worst, 1)
    }

    func testMasksToBoundsClipsTheShadowAway() throws {
        let (stage, _) = try card(path: true, clips: true)
        let frame = try stage.bitmap(ofFrame: 1)
        XCTAssertEqual(frame.rgba(50, 75)[0], 230, "clipped by the bounds, as Core Animation clips it")
    }

    func testTheCardWithItsShadowMatchesItsGoldenFrame() throws {
        let (stage, _) = try card(path: true)
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            let (big, _) = try card(path: true, scale: 2)
            try big.write(to: look + "/shadow-card")
        }
        assertFrames(stage.frames(name: "shadow-card"), matchGoldenNamed: "shadow-card")
    }
}

/// A layer's shadow properties animate: explicitly on a view's layer, implicitly on a layer of its own.
final class ShadowAnimationTests: XCTestCase {
    /// A white card 40 × 30 at (30, 20) on a light grey screen, its shadow 10 pt down, blurred by 3.
    private func card() throws -> (Stage, UIView) {
        let stage = try Stage(device: testDevice(width: 100, height: 80), fps: 10, scale: 1)
        stage.window.backgroundColor = UIColor(white: 0.9, alpha: 1)
        let card = UIView(frame: CGRect(x: 30, y: 20, width: 40, height: 30))
        card.backgroundColor = .white
        card.layer.shadowColor = UIColor.black.cgColor
        card.layer.shadowOffset = CGSize(width: 0, height: 10)
        card.layer.shadowRadius = 3
        card.layer.shadowPath = UIBezierPath(rect: card.bounds).cgPath
        stage.window.addSubview(card)
        try stage.wait(0.1)
        return (stage, card)
    }

    /// The grey level just under the card's bottom edge, in the middle.
    private func under(_ stage: Stage, frame: Int) throws -> Int { Int(try stage.bitmap(ofFrame: frame).rgba(50, 55)[0]) }

    func testShadowOpacityAnimatesExplicitly() throws {
        let (stage, card) = try card()
        let fade = CABasicAnimation(keyPath: "shadowOpacity")
        fade.fromValue = 0
        fade.toValue = 0.8
        fade.duration = 1
        fade.timingFunction = CAMediaTimingFunction(name: .linear)
        card.layer.shadowOpacity = 0.8
        card.layer.add(fade, forKey: "fade")
        try stage.wait(1.1)
        let levels = try [1, 6, 12].map { try under(stage, frame: $0) }
        XCTAssertEqual(levels[0], 230, "no shadow when it starts")
        XCTAssertLessThan(levels[2], levels[1], "darker at the end than half way")
        XCTAssertLessThan(levels[1], 230, "half way: some shadow")
        // Half the opacity darkens half as much (within a level).
        XCTAssertEqual(Double(230 - levels[1]), Double(230 - levels[2]) / 2, accuracy: 1.5)
        XCTAssertEqual(stage.notDrawn, [])
    }

    func testShadowOffsetAndRadiusAnimateAndEndAtTheModel() throws {
        let (stage, card) = try card()
        card.layer.shadowOpacity = 0.6
        let lift = CAAnimationGroup()
        let offset = CABasicAnimation(keyPath: "shadowOffset")
        offset.fromValue = CGSize(width: 0, height: 0)
        offset.toValue = CGSize(width: 0, height: 10)
        let radius = CABasicAnimation(keyPath: "shadowRadius")
        radius.fromValue = 0
        radius.toValue = 3
        lift.animations = [offset, radius]
        lift.duration = 0.5
        card.layer.add(lift, forKey: "lift")
        try stage.wait(0.7)
        XCTAssertEqual(try under(stage, frame: 1), 230, "the shadow starts under the card, hidden by it")
        XCTAssertLessThan(try under(stage, frame: 3), 230, "and comes out from under it")
        let end = try under(stage, frame: 8)
        XCTAssertLessThan(end, 215, "at the end the model's shadow, 10 pt down")
        XCTAssertEqual(try under(stage, frame: 7), end)
    }

    func testAStandaloneLayersShadowAnimatesImplicitly() throws {
        let stage = try Stage(device: testDevice(width: 100, height: 80), fps: 10, scale: 1)
        stage.window.backgroundColor = UIColor(white: 0.9, alpha: 1)
        let layer = CALayer()
        layer.frame = CGRect(x: 30, y: 20, width: 40, height: 30)
        layer.backgroundColor = UIColor.white.cgColor
        layer.shadowOffset = CGSize(width: 0, height: 10)
        layer.shadowPath = UIBezierPath(rect: layer.bounds).cgPath
        stage.window.layer.addSublayer(layer)
        try stage.wait(0.1)
        layer.shadowOpacity = 1
        try stage.wait(0.5)
        let levels = try [1, 2, 5].map { Int(try stage.bitmap(ofFrame: $0).rgba(50, 55)[0]) }
        XCTAssertEqual(levels[0], 230)
        XCTAssertTrue(levels[1] < 230 && levels[1] > levels[2], "0.1 s into 0.25 s: on its way, \(levels)")
    }
}

/// `cornerCurve = .continuous`: iOS's corner for the background, border, clip and the shadow of the content.
final class ContinuousCornerTests: XCTestCase {
    /// A red square 40 pt wide with corners of 8 pt, bordered in blue, at (10, 10).
    private func square(_ curve: CALayerCornerCurve) throws -> Bitmap {
        let stage = try makeStage(width: 60, height: 60)
        let square = UIView(frame: CGRect(x: 10, y: 10, width: 40, height: 40))
        square.backgroundColor = .red
        square.layer.cornerRadius = 8
        square.layer.cornerCurve = curve
        square.layer.borderWidth = 1
        square.layer.borderColor = UIColor.blue.cgColor
        stage.window.addSubview(square)
        try stage.wait(0.1)
        XCTAssertEqual(stage.notDrawn, [])
        return try stage.bitmap(ofFrame: 1)
    }

    func testTheContinuousCornerStartsFurtherAlongTheSide() throws {
        // The circular corner meets the top 8 pt from the vertex, the continuous one 12.2 pt: the border's
        // pixel 9 pt along is whole with the circle only. The sides' middles are the same.
        let circular = try square(.circular), continuous = try square(.continuous)
        XCTAssertEqual(circular.rgba(19, 10), [0, 0, 255, 255])
        XCTAssertNotEqual(continuous.rgba(19, 10), [0, 0, 255, 255])
        XCTAssertEqual(continuous.rgba(30, 10), [0, 0, 255, 255])
        XCTAssertEqual(continuous.rgba(30, 30), [255, 0, 0, 255])
        XCTAssertEqual(continuous.rgba(10, 10), [0, 0, 0, 255], "the window's black beyond the corner")
    }

    func testAContinuousCardAndItsShadowMatchTheirGoldenFrame() throws {
        // A white card with continuous corners of 16 pt and the shadow of its content (no shadowPath),
        // 8 pt down, blurred by 6, at 40 %.
        func stage(scale: CGFloat) throws -> Stage {
            let stage = try Stage(device: testDevice(width: 100, height: 100), fps: 10, scale: scale)
            stage.window.backgroundColor = UIColor(white: 0.92, alpha: 1)
            let card = UIView(frame: CGRect(x: 15, y: 15, width: 70, height: 60))
            card.backgroundColor = .white
            card.layer.cornerRadius = 16
            card.layer.cornerCurve = .continuous
            card.layer.shadowColor = UIColor.black.cgColor
            card.layer.shadowOpacity = 0.4
            card.layer.shadowOffset = CGSize(width: 0, height: 8)
            card.layer.shadowRadius = 6
            stage.window.addSubview(card)
            try stage.wait(0.1)
            return stage
        }
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] { try stage(scale: 2).write(to: look + "/continuous-card") }
        let small = try stage(scale: 1)
        XCTAssertEqual(small.notDrawn, [])
        assertFrames(small.frames(name: "continuous-card"), matchGoldenNamed: "continuous-card")
    }
}

/// `maskedCorners`: only the corners named are rounded.
final class MaskedCornerTests: XCTestCase {
    func testOnlyTheTopCornersAreRounded() throws {
        let stage = try makeStage(width: 60, height: 60)
        let sheet = UIView(frame: CGRect(x: 10, y: 10, width: 40, height: 40))
        sheet.backgroundColor = .red
        sheet.layer.cornerRadius = 12
        sheet.layer.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMinYCorner]
        stage.window.addSubview(sheet)
        try stage.wait(0.1)
        let frame = try stage.bitmap(ofFrame: 1)
        XCTAssertEqual(frame.rgba(10, 10), [0, 0, 0, 255], "top left: rounded away")
        XCTAssertEqual(frame.rgba(49, 10), [0, 0, 0, 255], "top right: rounded away")
        XCTAssertEqual(frame.rgba(10, 49), [255, 0, 0, 255], "bottom left: square")
        XCTAssertEqual(frame.rgba(49, 49), [255, 0, 0, 255], "bottom right: square")
        XCTAssertEqual(stage.notDrawn, [])
    }
}

/// What a review of the 3-D, mask and shadow work found, kept fixed.
final class LayerEdgeCaseTests: XCTestCase {
    func testAViewsTransformSurvivesADepthAndAnAnchorChange() throws {
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        view.transform = CGAffineTransform(scaleX: 2, y: 2)
        view.layer.zPosition = 1
        view.layer.anchorPoint = CGPoint(x: 0, y: 0)
        XCTAssertEqual(view.transform, CGAffineTransform(scaleX: 2, y: 2))
        XCTAssertEqual(view.layer.affineTransform(), CGAffineTransform(scaleX: 2, y: 2))
    }

    func testAFlipTransitionKeepsTheViewsOwnTransform() throws {
        let stage = try makeStage(width: 100, height: 100)
        let view = UIView(frame: CGRect(x: 30, y: 30, width: 40, height: 40))
        view.transform = CGAffineTransform(scaleX: 0.5, y: 0.5)
        stage.window.addSubview(view)
        UIView.transition(with: view, duration: 0.3, options: .transitionFlipFromLeft, animations: nil)
        try stage.waitUntilIdle()
        XCTAssertEqual(view.transform, CGAffineTransform(scaleX: 0.5, y: 0.5))
    }

    func testAHalfTurnWithoutPerspectiveHidesALayerThatIsNotDoubleSidedButAMirrorDoesNot() throws {
        let stage = try makeStage(width: 40, height: 40)
        let turned = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 40)), mirrored = UIView(frame: CGRect(x: 20, y: 0, width: 20, height: 40))
        for v in [turned, mirrored] { v.backgroundColor = .red; v.layer.isDoubleSided = false; stage.window.addSubview(v) }
        turned.layer.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
        mirrored.layer.transform = CATransform3DMakeScale(-1, 1, 1)
        try stage.wait(0.1)
        let frame = try stage.bitmap(ofFrame: 1)
        XCTAssertEqual(frame.rgba(10, 20), [0, 0, 0, 255], "turned away: hidden")
        XCTAssertEqual(frame.rgba(30, 20), [255, 0, 0, 255], "mirrored in its plane: still facing the viewer")
    }

    func testARotationAboutACornerKeepsTheCornerInPlace() throws {
        let stage = try makeStage(width: 100, height: 100)
        let view = UIView(frame: CGRect(x: 20, y: 20, width: 40, height: 40))
        view.backgroundColor = .red
        stage.window.addSubview(view)
        view.layer.anchorPoint = .zero
        view.layer.position = CGPoint(x: 20, y: 20)
        try stage.wait(0.1)
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear) { view.transform = CGAffineTransform(rotationAngle: .pi / 2) }
        try stage.wait(0.5)
        let half = try stage.bitmap(ofFrame: 6)
        // Turned 45° about its top-left corner at (20, 20): straight below the corner is inside, beside it not.
        XCTAssertEqual(half.rgba(20, 30), [255, 0, 0, 255])
        XCTAssertEqual(half.rgba(30, 21), [0, 0, 0, 255])
        XCTAssertEqual(half.rgba(20, 19), [0, 0, 0, 255], "nothing above the corner")
    }

    func testA3DTurnBeyondAHalfTurnGoesOnTheShortWay() throws {
        let stage = try makeStage(width: 100, height: 100)
        let card = UIView(frame: CGRect(x: 20, y: 20, width: 60, height: 60))
        stage.window.addSubview(card)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 500
        card.layer.transform = CATransform3DRotate(perspective, .pi, 0, 1, 0)
        try stage.wait(0.1)
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear) {
            card.layer.transform = CATransform3DRotate(perspective, .pi * 1.5, 0, 1, 0)
        }
        try stage.wait(0.5)
        let shown = try XCTUnwrap(card.layer.presentation()).transform
        let expected = CATransform3DRotate(perspective, .pi * 1.25, 0, 1, 0)
        XCTAssertEqual(shown.m11, expected.m11, accuracy: 1e-9)
        XCTAssertEqual(shown.m13, expected.m13, accuracy: 1e-9)
        XCTAssertEqual(shown.m14, expected.m14, accuracy: 1e-9)
    }

    func testAHugeShadowAndACycleOfMasksNeitherCrashNorHang() throws {
        let stage = try makeStage(width: 40, height: 40)
        let a = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20)), b = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        a.backgroundColor = .red
        a.layer.shadowOpacity = 1
        a.layer.shadowRadius = 1e12
        stage.window.addSubview(a)
        a.mask = b
        b.mask = a
        try stage.wait(0.1)
        XCTAssertEqual(stage.frameCount, 2)
    }
}

/// `CATransformLayer`: sublayers keep their depth and draw nearest last.
final class TransformLayerTests: XCTestCase {
    /// Two 40-pt squares at the centre of an 80-pt screen, red 10 pt towards the viewer, blue 10 pt away,
    /// in a container of `kind` turned half round about y in perspective: the blue one is then in front.
    private func turnedPair(_ container: CALayer) throws -> Bitmap {
        let stage = try makeStage(width: 80, height: 80)
        container.frame = CGRect(x: 0, y: 0, width: 80, height: 80)
        let red = CALayer(), blue = CALayer()
        for (layer, color, z) in [(red, UIColor.red, 10.0), (blue, UIColor.blue, -10.0)] {
            layer.frame = CGRect(x: 20, y: 20, width: 40, height: 40)
            layer.backgroundColor = color.cgColor
            layer.zPosition = CGFloat(z)
            container.addSublayer(layer)
        }
        var turn = CATransform3DIdentity
        turn.m34 = -1 / 400
        container.transform = CATransform3DRotate(turn, .pi, 0, 1, 0)
        stage.window.layer.addSublayer(container)
        try stage.wait(0.1)
        XCTAssertEqual(stage.notDrawn, [])
        return try stage.bitmap(ofFrame: 1)
    }

    func testATransformLayerDrawsTheNearerSublayerLast() throws {
        let frame = try turnedPair(CATransformLayer())
        XCTAssertEqual(frame.rgba(40, 40), [0, 0, 255, 255], "turned half round, the blue square is nearer")
        // Nearer (10 pt nearer an eye 400 pt away), it looks 400/390 as large: its edge, half a point past
        // 20 pt from the centre, half covers the pixel there.
        XCTAssertEqual(Double(frame.rgba(40, 19)[2]), 255 * 0.5, accuracy: 20)
    }

    func testAPlainLayerFlattensItsSublayersInOrder() throws {
        // Flattened into the container's plane, the sublayers draw by zPosition: red last, turned with it.
        let frame = try turnedPair(CALayer())
        XCTAssertEqual(frame.rgba(40, 40), [255, 0, 0, 255])
    }

    /// A transform layer inside a transform layer: its sublayers join the outer one's depth order, so a
    /// square of the inner one 10 pt behind the outer's square draws under it, and one 10 pt in front over
    /// it (as one scene, as Core Animation keeps it); drawn as one piece at the inner layer's depth, the
    /// far square came over the outer's.
    func testNestedTransformLayersShareOneDepthOrder() throws {
        let stage = try makeStage(width: 80, height: 80)
        let outer = CATransformLayer(), inner = CATransformLayer()
        outer.frame = CGRect(x: 0, y: 0, width: 80, height: 80)
        inner.frame = outer.bounds
        let green = CALayer(), blue = CALayer(), red = CALayer()
        green.frame = CGRect(x: 20, y: 20, width: 40, height: 40)
        green.backgroundColor = UIColor.green.cgColor
        outer.addSublayer(green)
        outer.addSublayer(inner)
        for (layer, color, x, z) in [(blue, UIColor.blue, 10.0, -10.0), (red, UIColor.red, 30.0, 10.0)] {
            layer.frame = CGRect(x: x, y: x, width: 40, height: 40)
            layer.backgroundColor = color.cgColor
            layer.zPosition = CGFloat(z)
            inner.addSublayer(layer)
        }
        stage.window.layer.addSublayer(outer)
        try stage.wait(0.1)
        let frame = try stage.bitmap(ofFrame: 1)
        XCTAssertEqual(frame.rgba(15, 15), [0, 0, 255, 255], "the far square alone")
        XCTAssertEqual(frame.rgba(25, 25), [0, 255, 0, 255], "the outer's square over the far one")
        XCTAssertEqual(frame.rgba(45, 45), [255, 0, 0, 255], "the near one over both")
        // An inner transform layer at half opacity stays one piece, blended as a whole at its depth.
        inner.opacity = 0.5
        try stage.wait(0.1)
        let half = try stage.bitmap(ofFrame: stage.frameCount - 1)
        XCTAssertNotEqual(half.rgba(25, 25), [0, 255, 0, 255], "drawn after the outer's square")
        XCTAssertEqual(stage.notDrawn, [])
    }

    func testATransformLayerDrawsNothingOfItsOwn() throws {
        let stage = try makeStage(width: 40, height: 40)
        let container = CATransformLayer()
        container.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        container.backgroundColor = UIColor.green.cgColor
        container.borderWidth = 2
        stage.window.layer.addSublayer(container)
        try stage.wait(0.1)
        XCTAssertEqual(try stage.bitmap(ofFrame: 1).rgba(1, 1), [0, 0, 0, 255], "the window's black: no background, no border")
    }
}
