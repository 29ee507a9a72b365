import RasterCore
import SmokescreenStage
import XCTest

/// What the standard controls do when touched and set, on the stage's clock: the events they send,
/// the values they keep, and what moves while they animate.
final class ControlInteractionTests: XCTestCase {
    final class Counter: NSObject {
        var count = 0
        func changed() { count += 1 }
    }

    /// The leftmost and rightmost x of white pixels in row `y` (the segmented control's plate).
    private func whiteRun(_ b: Bitmap, y: Int, in xs: Range<Int>) -> ClosedRange<Int>? {
        let white = xs.filter { b.rgba($0, y)[0] >= 253 && b.rgba($0, y)[2] >= 253 }
        guard let first = white.first, let last = white.last else { return nil }
        return first...last
    }

    func testATapOnASegmentSelectsItSlidingThePlateAndSendsValueChanged() throws {
        let stage = try makeStage(width: 200, height: 52)
        stage.window.backgroundColor = .systemGray
        var ran: [String] = []
        let control = UISegmentedControl(frame: CGRect(x: 10, y: 10, width: 182, height: 32), actions: [
            UIAction(title: "A") { _ in ran.append("A") }, UIAction(title: "B") { _ in ran.append("B") }, UIAction(title: "C") { _ in ran.append("C") },
        ])
        XCTAssertEqual(control.selectedSegmentIndex, UISegmentedControl.noSegment)
        control.selectedSegmentIndex = 0
        let counter = Counter()
        control.addTarget(counter, action: Selector(Counter.changed), for: .valueChanged)
        stage.window.addSubview(control)
        try stage.wait(0)
        XCTAssertEqual(counter.count, 0, "setting the index sends nothing")
        let start = try XCTUnwrap(whiteRun(try stage.bitmap(ofFrame: 0), y: 26, in: 0..<200))
        XCTAssertEqual(start, 12...67, "the plate 2 points inside the first 60-point segment")
        try stage.tap(at: CGPoint(x: 170, y: 26))
        XCTAssertEqual(control.selectedSegmentIndex, 2)
        XCTAssertEqual(counter.count, 1)
        XCTAssertEqual(ran, ["C"], "the segment's action ran")
        try stage.wait(0.5)
        let frames = (0..<stage.frameCount).compactMap { try? stage.bitmap(ofFrame: $0) }.compactMap { whiteRun($0, y: 26, in: 0..<200) }
        XCTAssertEqual(frames.last, 134...189, "the plate ends in the third segment")
        XCTAssertTrue(frames.contains { $0.lowerBound > 12 && $0.lowerBound < 134 }, "and slides there: \(frames.map(\.lowerBound))")
        // A tap on the selected segment changes nothing.
        try stage.tap(at: CGPoint(x: 170, y: 26))
        XCTAssertEqual(counter.count, 1)
        XCTAssertEqual(control.segmentIndex(identifiedBy: control.actionForSegment(at: 1)!.identifier), 1)
    }

    func testSegmentsAreInsertedRemovedDisabledAndSizedByContent() throws {
        let control = UISegmentedControl(items: ["One", "Two"])
        XCTAssertEqual(control.numberOfSegments, 2)
        control.selectedSegmentIndex = 1
        control.insertSegment(withTitle: "Zero", at: 0, animated: false)
        XCTAssertEqual(control.selectedSegmentIndex, 2, "the selection follows its segment")
        XCTAssertEqual(control.titleForSegment(at: 0), "Zero")
        control.removeSegment(at: 2, animated: false)
        XCTAssertEqual(control.selectedSegmentIndex, UISegmentedControl.noSegment)
        control.selectedSegmentIndex = 7
        XCTAssertEqual(control.selectedSegmentIndex, UISegmentedControl.noSegment, "an index past the end selects nothing")
        // Equal widths: each as wide as the widest title's needs; by content, each its own.
        control.setTitle("A much longer title", forSegmentAt: 0)
        let equal = control.intrinsicContentSize
        control.apportionsSegmentWidthsByContent = true
        XCTAssertLessThan(control.intrinsicContentSize.width, equal.width)
        XCTAssertEqual(control.intrinsicContentSize.height, 32)
        control.setWidth(50, forSegmentAt: 1)
        XCTAssertEqual(control.widthForSegment(at: 1), 50)
        control.apportionsSegmentWidthsByContent = false
        let other = control.intrinsicContentSize.width - 50 - 1
        control.setWidth(200, forSegmentAt: 1)
        XCTAssertEqual(control.intrinsicContentSize.width, other + 200 + 1, "a fixed width counts once, the others keep theirs")
        control.apportionsSegmentWidthsByContent = true
        // Title attributes: the colour and font are drawn.
        control.setTitleTextAttributes([.foregroundColor: UIColor.systemRed, .font: UIFont.systemFont(ofSize: 20)], for: .normal)
        XCTAssertEqual(control.titleTextAttributes(for: .normal)?[.foregroundColor] as? UIColor, .systemRed)
        control.setEnabled(false, forSegmentAt: 1)
        XCTAssertFalse(control.isEnabledForSegment(at: 1))
        control.removeAllSegments()
        XCTAssertEqual(control.numberOfSegments, 0)
        XCTAssertEqual(control.intrinsicContentSize, CGSize(width: 0, height: 32))
    }

    func testADisabledSegmentAndAMomentaryControl() throws {
        let stage = try makeStage(width: 200, height: 52)
        let control = UISegmentedControl(items: ["A", "B"])
        control.frame = CGRect(x: 0, y: 10, width: 200, height: 32)
        control.setEnabled(false, forSegmentAt: 1)
        let counter = Counter()
        control.addTarget(counter, action: Selector(Counter.changed), for: .valueChanged)
        stage.window.addSubview(control)
        try stage.tap(at: CGPoint(x: 150, y: 26))
        XCTAssertEqual(control.selectedSegmentIndex, UISegmentedControl.noSegment, "a disabled segment cannot be tapped")
        XCTAssertEqual(counter.count, 0)
        control.isMomentary = true
        try stage.tap(at: CGPoint(x: 50, y: 26))
        XCTAssertEqual(counter.count, 1)
        try stage.wait(1)
        XCTAssertEqual(control.selectedSegmentIndex, UISegmentedControl.noSegment, "a momentary control lets go of its segment")
    }

    func testDraggingTheThumbChangesASlidersValue() throws {
        let stage = try makeStage(width: 200, height: 54)
        let slider = UISlider(frame: CGRect(x: 0, y: 10, width: 200, height: 34))
        slider.minimumValue = 10
        slider.maximumValue = 20
        slider.value = 25
        XCTAssertEqual(slider.value, 20, "clamped")
        slider.value = 10
        let counter = Counter()
        slider.addTarget(counter, action: Selector(Counter.changed), for: .valueChanged)
        stage.window.addSubview(slider)
        // A tap off the thumb does nothing.
        try stage.tap(at: CGPoint(x: 150, y: 27))
        XCTAssertEqual(slider.value, 10)
        XCTAssertEqual(counter.count, 0)
        // The thumb's centre is 14 points in; dragged by 86 points it is half way (172 points of travel).
        let thumb = slider.thumbRect(forBounds: slider.bounds, trackRect: slider.trackRect(forBounds: slider.bounds), value: slider.value)
        XCTAssertEqual(thumb.midX, 14)
        try stage.pan(from: CGPoint(x: 14, y: 27), to: CGPoint(x: 100, y: 27), duration: 0.3)
        XCTAssertEqual(slider.value, 15, accuracy: 0.001)
        XCTAssertGreaterThan(counter.count, 1, "continuous: sent as it moves")
        slider.isContinuous = false
        counter.count = 0
        try stage.pan(from: CGPoint(x: 100, y: 27), to: CGPoint(x: 400 - 200, y: 27), duration: 0.3)
        XCTAssertEqual(slider.value, 20)
        XCTAssertEqual(counter.count, 1, "not continuous: sent once at the end")
        XCTAssertEqual(slider.trackRect(forBounds: slider.bounds), CGRect(x: 3, y: 15, width: 194, height: 4))
    }

    func testAStepperStepsOnTouchRepeatsWhileHeldAndWraps() throws {
        let stage = try makeStage(width: 120, height: 52)
        let stepper = UIStepper(frame: CGRect(x: 10, y: 10, width: 300, height: 300))
        XCTAssertEqual(stepper.frame, CGRect(x: 10, y: 10, width: 94, height: 32), "the size is fixed")
        stepper.maximumValue = 10
        let counter = Counter()
        stepper.addTarget(counter, action: Selector(Counter.changed), for: .valueChanged)
        stage.window.addSubview(stepper)
        try stage.touchDown(at: CGPoint(x: 80, y: 26))
        XCTAssertEqual(stepper.value, 1, "a touch steps at once")
        XCTAssertEqual(counter.count, 1)
        try stage.wait(1)
        stage.liftTouch()
        // Held 1 s: repeats from 0.5 s every 0.1 s (0.6, 0.7, 0.8, 0.9, 1.0 and the first at 0.5).
        XCTAssertEqual(stepper.value, 7)
        XCTAssertEqual(counter.count, 7)
        try stage.wait(1)
        XCTAssertEqual(stepper.value, 7, "nothing repeats after the lift")
        stepper.value = 10
        try stage.tap(at: CGPoint(x: 80, y: 26))
        XCTAssertEqual(stepper.value, 10, "the plus does nothing at the maximum")
        stepper.wraps = true
        try stage.tap(at: CGPoint(x: 80, y: 26))
        XCTAssertEqual(stepper.value, 0, "wrapping past the maximum")
        try stage.tap(at: CGPoint(x: 20, y: 26))
        XCTAssertEqual(stepper.value, 10, "and past the minimum")
        stepper.stepValue = 0
        XCTAssertEqual(stepper.stepValue, 1, "a step of 0 is ignored")
        stepper.minimumValue = 20
        XCTAssertEqual(stepper.minimumValue, 0, "a minimum above the maximum is ignored")
    }

    func testAProgressViewGrowsWhenAnimated() throws {
        let stage = try makeStage(width: 100, height: 20)
        stage.window.backgroundColor = .white
        let progress = UIProgressView(frame: CGRect(x: 0, y: 0, width: 100, height: 20))
        progress.progress = 2
        XCTAssertEqual(progress.progress, 1, "clamped")
        progress.progress = 0
        stage.window.addSubview(progress)
        try stage.wait(0)
        progress.setProgress(1, animated: true)
        try stage.wait(0.3)
        func blueWidth(_ frame: Int) throws -> Int {
            let b = try stage.bitmap(ofFrame: frame)
            return (0..<100).filter { b.rgba($0, 9)[2] > 200 && b.rgba($0, 9)[0] < 60 }.count
        }
        XCTAssertEqual(try blueWidth(0), 0)
        XCTAssertEqual(try blueWidth(stage.frameCount - 1), 100)
        XCTAssertTrue(try (1..<(stage.frameCount - 1)).contains { try (10..<90).contains(blueWidth($0)) }, "it grows")
        // The bar is 4 points high, centred, whatever the view's height.
        let b = try stage.bitmap(ofFrame: stage.frameCount - 1)
        XCTAssertEqual((0..<20).filter { b.rgba(50, $0)[0] < 60 }, [8, 9, 10, 11])
    }

    func testAnActivityIndicatorTurnsInStepsWhileAnimating() throws {
        let stage = try makeStage(width: 40, height: 40, fps: 40)
        stage.window.backgroundColor = .white
        let spinner = UIActivityIndicatorView(style: .large)
        XCTAssertTrue(spinner.isHidden, "hidden while stopped")
        XCTAssertEqual(spinner.bounds.size, CGSize(width: 37, height: 37))
        XCTAssertEqual(UIActivityIndicatorView(style: .medium).intrinsicContentSize, CGSize(width: 20, height: 20))
        stage.window.addSubview(spinner)
        spinner.startAnimating()
        XCTAssertTrue(spinner.isAnimating)
        XCTAssertFalse(spinner.isHidden)
        try stage.wait(1)
        // 40 frames a second, a step every 0.1 s: frames 0–3 alike, 4 differs, 32 (0.8 s) is 0 again.
        let pixels = try (0...40).map { try stage.bitmap(ofFrame: $0) }
        func same(_ a: Int, _ b: Int) -> Bool {
            (0..<37).allSatisfy { y in (0..<37).allSatisfy { x in pixels[a][x, y] == pixels[b][x, y] } }
        }
        XCTAssertTrue(same(0, 3))
        XCTAssertFalse(same(0, 4))
        XCTAssertTrue(same(0, 32), "one turn in 0.8 s")
        // The leading spoke (top at the start) is the darkest; a step later the next one clockwise is.
        func ink(_ frame: Int, _ x: Int, _ y: Int) -> Int { 255 - Int(pixels[frame].rgba(x, y)[1]) }
        XCTAssertGreaterThan(ink(0, 18, 4), ink(0, 29, 8))
        XCTAssertGreaterThan(ink(4, 28, 8), ink(4, 18, 4) - 1)
        // Like Core Animation's other endless animations, its turn does not keep the stage from idling.
        try stage.waitUntilIdle(timeLimit: 2)
        spinner.stopAnimating()
        XCTAssertTrue(spinner.isHidden)
        XCTAssertFalse(spinner.isAnimating)
    }

    func testATapBesideTheCurrentPageMovesOnePage() throws {
        let stage = try makeStage(width: 200, height: 40)
        let pages = UIPageControl(frame: CGRect(x: 0, y: 7, width: 200, height: 26))
        pages.numberOfPages = 5
        pages.currentPage = 9
        XCTAssertEqual(pages.currentPage, 4, "clamped")
        pages.currentPage = 2
        let counter = Counter()
        pages.addTarget(counter, action: Selector(Counter.changed), for: .valueChanged)
        stage.window.addSubview(pages)
        try stage.tap(at: CGPoint(x: 180, y: 20))
        XCTAssertEqual(pages.currentPage, 3)
        try stage.tap(at: CGPoint(x: 10, y: 20))
        XCTAssertEqual(pages.currentPage, 2)
        XCTAssertEqual(counter.count, 2)
        XCTAssertEqual(pages.size(forNumberOfPages: 3), CGSize(width: 76, height: 26))
        pages.numberOfPages = 1
        pages.hidesForSinglePage = true
        XCTAssertTrue(pages.subviews.allSatisfy(\.isHidden), "nothing drawn for a single page")
        XCTAssertFalse(pages.isHidden, "the view's own isHidden stays the user's")
        pages.isHidden = true
        pages.currentPage = 0
        XCTAssertTrue(pages.isHidden)
    }
}
