import SmokescreenStage
import XCTest

/// Core Animation's explicit animations on the stage's clock.
final class CoreAnimationTests: XCTestCase {
    private var stage: Stage!
    private var view: UIView!

    override func setUpWithError() throws {
        stage = try makeStage(width: 100, height: 100)
        view = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        view.backgroundColor = .red
        stage.window.addSubview(view)
    }

    private var shown: CALayer { view.layer.presentation()! }

    final class Delegate: NSObject, CAAnimationDelegate {
        var events: [String] = []
        let stage: Stage
        init(stage: Stage) { self.stage = stage }
        func animationDidStart(_ anim: CAAnimation) { events.append("start \(stage.time)") }
        func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { events.append("stop \(flag) \(stage.time)") }
    }

    func testABasicAnimationShowsItsValuesAndLeavesTheModel() throws {
        let delegate = Delegate(stage: stage)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0
        fade.duration = 1
        fade.delegate = delegate
        view.layer.add(fade, forKey: "fade")
        XCTAssertEqual(view.layer.animationKeys(), ["fade"])
        XCTAssertTrue(view.layer.animation(forKey: "fade") === fade)
        try stage.wait(0.25)
        XCTAssertEqual(shown.opacity, 0.75, accuracy: 1e-6, "linear when no timing function is given")
        XCTAssertEqual(view.layer.opacity, 1, "the model is untouched")
        try stage.waitUntilIdle()
        XCTAssertEqual(shown.opacity, 1, "removed on completion: the model shows again")
        XCTAssertNil(view.layer.animationKeys())
        XCTAssertEqual(delegate.events, ["start 0.0", "stop true 1.0"])
    }

    func testFillForwardsKeepsTheEndAndKeyPathsOfTransformsAndPosition() throws {
        let grow = CABasicAnimation(keyPath: "transform.scale")
        grow.toValue = 2
        grow.duration = 0.5
        grow.fillMode = .forwards
        grow.isRemovedOnCompletion = false
        grow.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        view.layer.add(grow, forKey: nil)
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 10
        move.toValue = 90
        move.duration = 0.5
        view.layer.add(move, forKey: "move")
        try stage.wait(0.25)
        XCTAssertEqual(shown.affineTransform().a, 1.5, accuracy: 1e-9, "ease in-out, half way: half the scale")
        XCTAssertEqual(shown.position.x, 50, accuracy: 1e-9)
        XCTAssertEqual(shown.position.y, 10, "the other coordinate is the model's")
        try stage.wait(1)
        XCTAssertEqual(shown.affineTransform().a, 2, accuracy: 1e-9, "kept at its end")
        XCTAssertEqual(shown.position.x, 10, "removed: the model")
        view.layer.removeAllAnimations()
        XCTAssertEqual(shown.affineTransform().a, 1)
    }

    func testKeyframesSpringsGroupsAndATransactionsCompletion() throws {
        var completedAt: Double?
        CATransaction.begin()
        CATransaction.setCompletionBlock { completedAt = self.stage.time }
        let keyframes = CAKeyframeAnimation(keyPath: "cornerRadius")
        keyframes.values = [0, 10, 4]
        keyframes.keyTimes = [0, 0.5, 1]
        keyframes.duration = 0.4
        let spring = CASpringAnimation(keyPath: "bounds.size.width")
        spring.fromValue = 20
        spring.toValue = 60
        spring.duration = spring.settlingDuration
        let group = CAAnimationGroup()
        group.animations = [keyframes, spring]
        group.duration = spring.settlingDuration
        view.layer.add(group, forKey: "group")
        CATransaction.commit()
        try stage.wait(0.2)
        XCTAssertEqual(shown.cornerRadius, 10, accuracy: 1e-9)
        try stage.wait(0.1)
        XCTAssertEqual(shown.cornerRadius, 7, accuracy: 1e-9)
        XCTAssertGreaterThan(shown.bounds.width, 40)
        try stage.waitUntilIdle()
        XCTAssertEqual(completedAt ?? 0, spring.settlingDuration, accuracy: 1e-9)
        XCTAssertEqual(shown.bounds.width, 20)
    }

    func testAShapeLayersPathAnimatesAndUnknownKeyPathsAreListed() throws {
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        shape.fillColor = UIColor.blue.cgColor
        let small = UIBezierPath(ovalIn: CGRect(x: 45, y: 45, width: 10, height: 10)).cgPath
        let large = UIBezierPath(ovalIn: CGRect(x: -50, y: -50, width: 200, height: 200)).cgPath
        shape.path = large
        stage.window.layer.addSublayer(shape)
        let reveal = CABasicAnimation(keyPath: "path")
        reveal.fromValue = small
        reveal.toValue = large
        reveal.duration = 1
        shape.add(reveal, forKey: "reveal")
        try stage.wait(0)
        let first = try stage.bitmap(ofFrame: stage.frameCount - 1)
        XCTAssertEqual(first.rgba(50, 50), [0, 0, 255, 255])
        XCTAssertNotEqual(first.rgba(10, 10), [0, 0, 255, 255], "the small circle at the start")
        try stage.waitUntilIdle()
        let last = try stage.bitmap(ofFrame: stage.frameCount - 1)
        XCTAssertEqual(last.rgba(10, 10), [0, 0, 255, 255])
        let unknown = CABasicAnimation(keyPath: "filters.blur.inputRadius")
        unknown.toValue = 1
        view.layer.add(unknown, forKey: nil)
        XCTAssertTrue(stage.notDrawn.contains("CAAnimation of \"filters.blur.inputRadius\" (not shown)"))
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
    }

    func testValuesInNSValuesAndAnInfiniteRepeat() throws {
        let path = CAKeyframeAnimation(keyPath: "position")
        path.values = [NSValue(cgPoint: CGPoint(x: 10, y: 10)), NSValue(cgPoint: CGPoint(x: 50, y: 10))]
        path.duration = 1
        view.layer.add(path, forKey: nil)
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.toValue = CGFloat.pi * 2
        spin.duration = 1
        spin.repeatCount = HUGE
        view.layer.add(spin, forKey: "spin")
        try stage.wait(0.5)
        XCTAssertEqual(shown.position.x, 30, accuracy: 1e-9)
        try stage.waitUntilIdle()
        XCTAssertEqual(stage.time, 1, accuracy: 1e-9, "a spin that never ends does not keep the stage waiting")
        XCTAssertNotNil(view.layer.animation(forKey: "spin"))
    }

    /// Transforms, sizes and rects in `NSValue`s animate as the structs do (iOS's usual way of writing a
    /// flip's halves), and each kind of `NSValue` reads as itself: a size is not taken for a point.
    func testTransformsSizesAndRectsInNSValues() throws {
        var half = CATransform3DIdentity
        half.m34 = -1 / 500
        half = CATransform3DRotate(half, .pi / 2, 0, 1, 0)
        let turn = CABasicAnimation(keyPath: "transform")
        turn.fromValue = NSValue(caTransform3D: CATransform3DIdentity)
        turn.toValue = NSValue(caTransform3D: half)
        turn.duration = 1
        view.layer.add(turn, forKey: "turn")
        let grow = CABasicAnimation(keyPath: "bounds.size")
        grow.fromValue = NSValue(cgSize: CGSize(width: 20, height: 20))
        grow.toValue = NSValue(cgSize: CGSize(width: 60, height: 40))
        grow.duration = 1
        view.layer.add(grow, forKey: "grow")
        let other = UIView(frame: CGRect(x: 50, y: 50, width: 20, height: 20))
        stage.window.addSubview(other)
        let scale = CAKeyframeAnimation(keyPath: "transform")
        scale.values = [NSValue(caTransform3D: CATransform3DIdentity), NSValue(caTransform3D: CATransform3DMakeScale(3, 3, 1)),
                        NSValue(caTransform3D: CATransform3DIdentity)]
        scale.duration = 1
        other.layer.add(scale, forKey: "scale")
        try stage.wait(0.5)
        // Half way: a quarter turn about y (the matrix mixed part by part, as Core Animation mixes it).
        let shownTurn = shown.transform
        XCTAssertEqual(atan2(-shownTurn.m13, shownTurn.m11), .pi / 4, accuracy: 1e-6)
        XCTAssertNotEqual(shownTurn.m14, 0, "and part of the end's perspective")
        XCTAssertEqual(shown.bounds.size.width, 40, accuracy: 1e-9)
        XCTAssertEqual(shown.bounds.size.height, 30, accuracy: 1e-9)
        XCTAssertEqual(other.layer.presentation()!.transform.m11, 3, accuracy: 1e-9, "the middle keyframe")

        // Each value reads back as what it holds, and as zero or the identity when asked for another kind.
        XCTAssertEqual(NSValue(caTransform3D: half).caTransform3DValue, half)
        XCTAssertEqual(NSValue(cgAffineTransform: CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)).cgAffineTransformValue,
                       CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6))
        XCTAssertEqual(NSValue(cgSize: CGSize(width: 3, height: 4)).cgSizeValue, CGSize(width: 3, height: 4))
        XCTAssertEqual(NSValue(cgSize: CGSize(width: 3, height: 4)).cgPointValue, .zero)
        XCTAssertEqual(NSValue(cgPoint: CGPoint(x: 1, y: 2)).caTransform3DValue, CATransform3DIdentity)
        XCTAssertEqual(NSValue(cgRect: CGRect(x: 1, y: 2, width: 3, height: 4)).cgRectValue, CGRect(x: 1, y: 2, width: 3, height: 4))
        XCTAssertEqual(NSValue(caTransform3D: half), NSValue(caTransform3D: half))
    }

    func testADisplayLinkCallsAtEveryTickUntilInvalidated() throws {
        final class Stepper: NSObject {
            var times: [Double] = []
            var link: CADisplayLink?
            func step(_ link: CADisplayLink) {
                times.append(link.timestamp)
                if times.count == 3 { link.invalidate() }
            }
        }
        let stepper = Stepper()
        let link = CADisplayLink(target: stepper, selector: Selector(Stepper.step(_:)))
        link.add(to: .main, forMode: .default)
        XCTAssertEqual(link.duration, 0.1, accuracy: 1e-12, "a tick of the stage's 10 fps clock")
        try stage.waitUntilIdle()
        XCTAssertEqual(stepper.times.count, 3)
        XCTAssertEqual(stepper.times[0], 0.1, accuracy: 1e-12)
        XCTAssertEqual(stepper.times[2], 0.3, accuracy: 1e-12)
        XCTAssertEqual(stage.time, 0.3, accuracy: 1e-12, "invalidated: the stage is idle")
    }

    func testALayerOfItsOwnAnimatesItsChangesImplicitly() throws {
        let dot = CALayer()
        dot.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        dot.backgroundColor = UIColor.blue.cgColor
        stage.window.layer.addSublayer(dot)
        dot.opacity = 0.5
        XCTAssertNil(dot.animationKeys(), "a layer added in this turn changes at once, as Core Animation's")
        try stage.wait(0.1)
        dot.opacity = 0
        XCTAssertEqual(dot.animationKeys(), ["opacity"])
        try stage.wait(0.125)
        let half = dot.presentation()!.opacity
        XCTAssertGreaterThan(half, 0.05)
        XCTAssertLessThan(half, 0.45, "the default timing function, half way through 0.25 s")
        try stage.waitUntilIdle()
        XCTAssertEqual(dot.presentation()!.opacity, 0)
        // Disabled by the transaction, by an NSNull action, and never on a view's own layer.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        dot.position = CGPoint(x: 50, y: 50)
        CATransaction.commit()
        dot.actions = ["cornerRadius": NSNull()]
        dot.cornerRadius = 4
        view.layer.opacity = 0.2
        XCTAssertNil(dot.animationKeys())
        XCTAssertNil(view.layer.animationKeys())
        // A shape layer's path animates too.
        let shape = CAShapeLayer()
        shape.path = UIBezierPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)).cgPath
        stage.window.layer.addSublayer(shape)
        try stage.wait(0.1)
        shape.path = UIBezierPath(rect: CGRect(x: 0, y: 0, width: 90, height: 90)).cgPath
        XCTAssertEqual(shape.animationKeys(), ["path"])
    }
}
