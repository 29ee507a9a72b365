import PNGIO
import SmokescreenStage
import XCTest

/// The names transition code reaches for beside its animations.
final class CompatibilityTests: XCTestCase {
    func testLiteralsTheClockAndHuge() throws {
        let stage = try makeStage(width: 20, height: 20)
        let color = #colorLiteral(red: 1, green: 0.5, blue: 0, alpha: 1)
        XCTAssertEqual(color, UIColor(red: 1, green: 0.5, blue: 0, alpha: 1))
        let image: UIImage = #imageLiteral(resourceName: "nowhere")
        XCTAssertEqual(image.size, .zero)
        XCTAssertEqual(stage.warnings.count, 1, "a missing literal image is listed, not a trap")
        XCTAssertEqual(CACurrentMediaTime(), 0)
        try stage.wait(0.5)
        XCTAssertEqual(CACurrentMediaTime(), 0.5, accuracy: 1e-12)
        XCTAssertEqual(HUGE, .infinity)
    }

    func testTheApplicationAndTheDeviceAreTheStages() throws {
        let stage = try makeStage(width: 40, height: 30)
        stage.show(UIViewController())
        XCTAssertTrue(UIApplication.shared.keyWindow === stage.window)
        XCTAssertEqual(UIDevice.current.userInterfaceIdiom, .phone)
        XCTAssertFalse(UIDevice.current.orientation.isLandscape)
        UISelectionFeedbackGenerator().selectionChanged()
        UIImpactFeedbackGenerator(style: .medium).impactOccurred()
    }

    /// Code that asks for Reduce Motion and the other settings compiles and takes its usual path; edge
    /// anti-aliasing is kept.
    func testAccessibilitySettingsAreADevicesDefaults() throws {
        let duration = UIAccessibility.isReduceMotionEnabled || UIAccessibility.prefersCrossFadeTransitions ? 0 : 0.3
        XCTAssertEqual(duration, 0.3)
        XCTAssertFalse(UIAccessibility.isVoiceOverRunning || UIAccessibility.isReduceTransparencyEnabled || UIAccessibility.isBoldTextEnabled)
        XCTAssertTrue(UIAccessibility.isVideoAutoplayEnabled)
        XCTAssertEqual(UIAccessibility.reduceMotionStatusDidChangeNotification.rawValue, "UIAccessibilityReduceMotionStatusDidChangeNotification")
        let layer = CALayer()
        XCTAssertFalse(layer.allowsEdgeAntialiasing, "Core Animation's default")
        layer.allowsEdgeAntialiasing = true
        XCTAssertTrue(layer.allowsEdgeAntialiasing)
    }

    func testALayerRendersIntoAContextAndABlurIsDrawn() throws {
        let stage = try makeStage(width: 20, height: 20)
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 4, height: 4))
        view.backgroundColor = .red
        stage.window.addSubview(view)
        UIGraphicsBeginImageContextWithOptions(CGSize(width: 4, height: 4), false, 1)
        view.layer.render(in: UIGraphicsGetCurrentContext()!)
        let image = try XCTUnwrap(UIGraphicsGetImageFromCurrentImageContext())
        UIGraphicsEndImageContext()
        let pixels = try XCTUnwrap(image.cgImage)
        XCTAssertEqual([pixels.width, pixels.height], [4, 4])
        let decoded = try PNGCodec.decode([UInt8](try XCTUnwrap(image.pngData())), scale: 1)
        XCTAssertEqual(decoded.rgba(2, 2), [255, 0, 0, 255], "red: the layer as it shows")
        let blur = UIVisualEffectView(effect: UIBlurEffect(style: .systemMaterial))
        blur.contentView.addSubview(UIView())
        stage.window.addSubview(blur)
        XCTAssertEqual(stage.notDrawn, [], "the blur is drawn (VisualEffectTests)")
    }

    // Deprecated itself, so that the old names it checks warn nowhere.
    @available(*, deprecated)
    func testSwift3NamesAndTwoFingerRecognizersStillCompile() throws {
        let stage = try makeStage()
        let options: UIViewKeyframeAnimationOptions = [.calculationModeLinear]
        let curve: UIViewAnimationOptions = .curveEaseIn
        XCTAssertEqual(options, UIView.KeyframeAnimationOptions.calculationModeLinear)
        XCTAssertEqual(curve, UIView.AnimationOptions.curveEaseIn)
        XCTAssertEqual(UIEdgeInsetsMake(1, 2, 3, 4), UIEdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        let pinch = UIPinchGestureRecognizer(target: nil, action: nil)
        XCTAssertEqual(pinch.scale, 1)
        XCTAssertEqual(stage.notDrawn, ["UIPinchGestureRecognizer (the stage has one finger: it never begins)"])
        XCTAssertFalse(UIViewController().prefersStatusBarHidden)
    }

    /// Names published table and collection code uses, found by compiling it: nibs (none here, logged),
    /// associated objects, part-of-a-view snapshots, asset-catalog colours (none here, logged).
    func testNibsAssociatedObjectsPartSnapshotsAndNamedColours() throws {
        let stage = try makeStage(width: 40, height: 30)
        let table = UITableView(frame: stage.window.bounds, style: .plain)
        table.register(UINib(nibName: "Cell", bundle: nil), forCellReuseIdentifier: "cell")
        XCTAssertNotNil(table.dequeueReusableCell(withIdentifier: "cell"), "a plain cell")
        XCTAssertNil(Bundle.main.loadNibNamed("Card", owner: nil))
        XCTAssertNil(UIColor(named: "Brand"))
        XCTAssertEqual(stage.warnings.count, 3)

        var key = 0
        let view = UIView()
        XCTAssertNil(objc_getAssociatedObject(view, &key))
        objc_setAssociatedObject(view, &key, "badge", .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        XCTAssertEqual(objc_getAssociatedObject(view, &key) as? String, "badge")
        objc_setAssociatedObject(view, &key, nil, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        XCTAssertNil(objc_getAssociatedObject(view, &key))

        let card = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 10))
        card.backgroundColor = .red
        let inner = UIView(frame: CGRect(x: 10, y: 0, width: 10, height: 10))
        inner.backgroundColor = .blue
        card.addSubview(inner)
        stage.window.addSubview(card)
        let part = try XCTUnwrap(card.resizableSnapshotView(from: CGRect(x: 10, y: 0, width: 10, height: 10), afterScreenUpdates: true, withCapInsets: .zero))
        XCTAssertEqual(part.frame.size, CGSize(width: 10, height: 10))
        stage.window.addSubview(part)
        part.frame.origin = CGPoint(x: 25, y: 15)
        try stage.wait(0.1)
        let frame = try stage.bitmap(ofFrame: stage.frameCount - 1)
        XCTAssertEqual(frame.rgba(30, 20), [0, 0, 255, 255], "the blue right half of the card, and only it")
        XCTAssertEqual(frame.rgba(26, 16), [0, 0, 255, 255])
        XCTAssertNil(card.resizableSnapshotView(from: CGRect(x: 1e300, y: 0, width: 10, height: 10), afterScreenUpdates: false, withCapInsets: .zero))
    }

    /// iOS 7's layout guides and the navigation controller's back-swipe recognizer, as published code uses them.
    func testTopLayoutGuideAndTheBackSwipeRecognizer() throws {
        let stage = try Stage(device: Device(name: "phone", size: CGSize(width: 100, height: 200), scale: 1,
                                             safeAreaInsets: UIEdgeInsets(top: 20, left: 0, bottom: 10, right: 0)), fps: 10)
        let screen = UIViewController()
        let navigation = UINavigationController(rootViewController: screen)
        stage.show(navigation)
        try stage.wait(0.1)
        XCTAssertEqual(screen.topLayoutGuide.length, 64)
        XCTAssertEqual(screen.bottomLayoutGuide.length, 10)
        let banner = UIView()
        banner.translatesAutoresizingMaskIntoConstraints = false
        screen.view.addSubview(banner)
        NSLayoutConstraint.activate([
            banner.topAnchor.constraint(equalTo: screen.topLayoutGuide.bottomAnchor),
            banner.leadingAnchor.constraint(equalTo: screen.view.leadingAnchor),
            banner.trailingAnchor.constraint(equalTo: screen.view.trailingAnchor),
            banner.heightAnchor.constraint(equalToConstant: 20),
        ])
        screen.view.layoutIfNeeded()
        XCTAssertEqual(banner.frame, CGRect(x: 0, y: 64, width: 100, height: 20))
        XCTAssertTrue(screen.topLayoutGuide === screen.topLayoutGuide)
        let recognizer = try XCTUnwrap(navigation.interactivePopGestureRecognizer)
        XCTAssertTrue(recognizer === navigation.interactivePopGestureRecognizer)
        XCTAssertEqual((recognizer as? UIScreenEdgePanGestureRecognizer)?.edges, .left)
        XCTAssertEqual(stage.warnings, [])
    }
}
