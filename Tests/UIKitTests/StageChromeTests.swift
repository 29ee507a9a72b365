import RasterCore
import SmokescreenStage
import XCTest

/// The stage's status bar and home indicator (`showsStatusBar`, `showsHomeIndicator`; on in
/// `smokescreen render File.swift`): the device's layout, ink from the appearance and the visible
/// controller, light over a sheet at its large detent.
final class StageChromeTests: XCTestCase {
    final class Screen: UIViewController {
        var style = UIStatusBarStyle.default
        override var preferredStatusBarStyle: UIStatusBarStyle { style }
        override func viewDidLoad() {
            super.viewDidLoad()
            view.backgroundColor = .systemBackground
        }
    }

    /// Columns of a row band that hold ink darker (or lighter) than the background, as runs.
    func inkRuns(_ bitmap: Bitmap, rows: Range<Int>, dark: Bool) -> [Range<Int>] {
        var runs: [Range<Int>] = [], start: Int?
        for x in 0..<bitmap.width {
            let ink = rows.contains { y in dark ? bitmap.rgba(x, y)[0] < 128 : bitmap.rgba(x, y)[0] > 128 }
            if ink, start == nil { start = x }
            if !ink, let s = start { runs.append(s..<x); start = nil }
        }
        if let s = start { runs.append(s..<bitmap.width) }
        return runs
    }

    func testAPhoneWithTheIslandGetsTheEarsLayoutAndTheIndicator() throws {
        let stage = try Stage(device: .iPhone15, fps: 10, scale: 1, appearance: .light)
        stage.showsStatusBar = true
        stage.showsHomeIndicator = true
        stage.show(Screen())
        try stage.wait(0.1)
        let frame = try stage.bitmap(ofFrame: stage.frameCount - 1)
        try IOSParityTests.keep(frame, name: "stage-chrome-iphone15.png")
        // Ink in both ears (time left, icons right), none under the 126-pt cut-out in the middle.
        let runs = inkRuns(frame, rows: 20..<42, dark: true)
        XCTAssertFalse(runs.isEmpty)
        XCTAssertTrue(runs.allSatisfy { $0.upperBound <= 134 || $0.lowerBound >= 259 }, "\(runs)")
        XCTAssertTrue(runs.contains { $0.upperBound <= 134 }, "the time")
        XCTAssertTrue(runs.contains { $0.lowerBound >= 259 }, "the icons")
        // The time's ink is centred in the left ear (133.5 pt wide) to 3 points.
        let left = runs.filter { $0.upperBound <= 134 }
        XCTAssertEqual(Double(left.first!.lowerBound + left.last!.upperBound) / 2, 133.5 / 2, accuracy: 3)
        // The home indicator: black, 134 × 5 at the bottom, 8 points up.
        XCTAssertEqual(frame.rgba(196, 852 - 8 - 3), [0, 0, 0, 255])
        XCTAssertEqual(frame.rgba(196, 852 - 4), [255, 255, 255, 255])
        XCTAssertEqual(frame.rgba(196 - 70, 852 - 10), [255, 255, 255, 255], "134 wide")
    }

    /// A phone turned to landscape: iOS's landscape insets (the island's 59 points on both sides, 21
    /// below), no status bar, the home indicator along the new bottom; a pad keeps its top and bottom.
    func testALandscapePhoneHidesItsStatusBarAndKeepsTheIndicator() throws {
        let turned = Device.iPhone15.landscape
        XCTAssertEqual(turned.size, CGSize(width: 852, height: 393))
        XCTAssertEqual(turned.safeAreaInsets, UIEdgeInsets(top: 0, left: 59, bottom: 21, right: 59))
        XCTAssertEqual(Device.iPhoneSE.landscape.safeAreaInsets, .zero, "a home button's phone: its status bar hides")
        XCTAssertEqual(Device.iPadAir.landscape.safeAreaInsets, Device.iPadAir.safeAreaInsets)
        XCTAssertEqual(turned.landscape, turned, "already on its side")
        let own = Device(name: "own", size: CGSize(width: 300, height: 600), scale: 2, safeAreaInsets: UIEdgeInsets(top: 40, left: 0, bottom: 20, right: 0),
                         landscapeSafeAreaInsets: UIEdgeInsets(top: 0, left: 10, bottom: 5, right: 30))
        XCTAssertEqual(own.landscape.safeAreaInsets, UIEdgeInsets(top: 0, left: 10, bottom: 5, right: 30), "the insets given")
        let stage = try Stage(device: turned, fps: 10, scale: 1, appearance: .light)
        stage.showsStatusBar = true
        stage.showsHomeIndicator = true
        let screen = Screen()
        stage.show(screen)
        try stage.wait(0.1)
        XCTAssertEqual(screen.traitCollection.verticalSizeClass, .compact)
        XCTAssertEqual(screen.view.safeAreaInsets, UIEdgeInsets(top: 0, left: 59, bottom: 21, right: 59))
        let frame = try stage.bitmap(ofFrame: stage.frameCount - 1)
        XCTAssertEqual([frame.width, frame.height], [852, 393])
        XCTAssertTrue(inkRuns(frame, rows: 0..<40, dark: true).isEmpty, "no status bar")
        XCTAssertEqual(frame.rgba(426, 393 - 8 - 3), [0, 0, 0, 255], "the indicator, centred along the bottom")
        XCTAssertEqual(frame.rgba(426, 393 - 4), [255, 255, 255, 255])
    }

    /// A controller that hides the bar asks for an update inside an animation block: the bar slides up
    /// out of view over the block's duration (`.slide`), or fades (`.fade`), or goes at once (`.none`).
    func testHidingTheBarInsideAnAnimationBlockAnimatesIt() throws {
        final class Hiding: UIViewController {
            var hides = false
            var animation = UIStatusBarAnimation.slide
            override var prefersStatusBarHidden: Bool { hides }
            override var preferredStatusBarUpdateAnimation: UIStatusBarAnimation { animation }
            override func viewDidLoad() {
                super.viewDidLoad()
                view.backgroundColor = .white
            }
        }
        /// Rows of the top 60 points holding dark ink in the last frame, as a range.
        func inkRows(_ stage: Stage) throws -> ClosedRange<Int>? {
            let frame = try stage.bitmap(ofFrame: stage.frameCount - 1)
            let rows = (0..<60).filter { y in (0..<frame.width).contains { frame.rgba($0, y)[0] < 128 } }
            return rows.isEmpty ? nil : rows.first!...rows.last!
        }
        func darkest(_ stage: Stage) throws -> Int {
            let frame = try stage.bitmap(ofFrame: stage.frameCount - 1)
            return (0..<60).flatMap { y in (0..<frame.width).map { Int(frame.rgba($0, y)[0]) } }.min() ?? 255
        }
        for animation in [UIStatusBarAnimation.slide, .fade, .none] {
            let stage = try Stage(device: .iPhone15, fps: 10, scale: 1, appearance: .light)
            stage.showsStatusBar = true
            let screen = Hiding()
            screen.animation = animation
            stage.show(screen)
            try stage.wait(0.1)
            let shown = try XCTUnwrap(try inkRows(stage))
            UIView.animate(withDuration: 0.4) {
                screen.hides = true
                screen.setNeedsStatusBarAppearanceUpdate()
            }
            try stage.wait(0.2)
            switch animation {
            case .slide:
                let half = try XCTUnwrap(try inkRows(stage), "half way, part of the bar still shows")
                XCTAssertLessThan(half.upperBound, shown.upperBound, "moved up")
            case .fade:
                let half = try XCTUnwrap(try inkRows(stage))
                XCTAssertTrue(shown.contains(half.lowerBound) && shown.contains(half.upperBound), "in place: \(half) in \(shown)")
                XCTAssertGreaterThan(try darkest(stage), 40, "half faded")
            default:
                XCTAssertNil(try inkRows(stage), "gone at once")
            }
            try stage.wait(0.3)
            XCTAssertNil(try inkRows(stage), "hidden at the end (\(animation))")
        }
    }

    func testTheInkFollowsTheAppearanceTheControllerAndASheet() throws {
        let stage = try Stage(device: .iPhoneSE, fps: 10, scale: 1, appearance: .dark)
        stage.showsStatusBar = true
        let screen = Screen()
        stage.show(screen)
        try stage.wait(0.1)
        var frame = try stage.bitmap(ofFrame: stage.frameCount - 1)
        XCTAssertFalse(inkRuns(frame, rows: 4..<16, dark: false).isEmpty, "white ink on the dark screen")
        screen.style = .darkContent
        try stage.wait(0.1)
        frame = try stage.bitmap(ofFrame: stage.frameCount - 1)
        XCTAssertTrue(inkRuns(frame, rows: 4..<16, dark: false).isEmpty, "black ink asked for: none white")
        // No home indicator on the SE; and none unless asked.
        XCTAssertEqual(frame.rgba(187, 667 - 10), [0, 0, 0, 255])
        // A sheet at its large detent: light content over the black behind.
        let light = try Stage(device: .iPhone15, fps: 10, scale: 1, appearance: .light)
        light.showsStatusBar = true
        let host = Screen()
        light.show(host)
        host.present(Screen(), animated: false)
        try light.wait(0.1)
        frame = try light.bitmap(ofFrame: light.frameCount - 1)
        XCTAssertFalse(inkRuns(frame, rows: 20..<42, dark: false).isEmpty, "white ink over the black behind the sheet")
    }

    func testAPadGetsTheTwentyPointBarAndAControllerMayHideIt() throws {
        let pad = try Stage(device: .iPadAir, fps: 10, scale: 1, appearance: .light)
        pad.showsStatusBar = true
        pad.show(Screen())
        try pad.wait(0.1)
        var frame = try pad.bitmap(ofFrame: pad.frameCount - 1)
        // The 20-pt bar's time is centred ("9:41 AM"), not in a left ear.
        let runs = inkRuns(frame, rows: 4..<16, dark: true)
        XCTAssertTrue(runs.contains { $0.lowerBound > 380 && $0.upperBound < 440 }, "\(runs)")
        final class Hidden: UIViewController {
            override var prefersStatusBarHidden: Bool { true }
            override func viewDidLoad() { super.viewDidLoad(); view.backgroundColor = .systemBackground }
        }
        let phone = try Stage(device: .iPhone15, fps: 10, scale: 1, appearance: .dark)
        phone.showsStatusBar = true
        phone.showsHomeIndicator = true
        phone.show(Hidden())
        try phone.wait(0.1)
        frame = try phone.bitmap(ofFrame: phone.frameCount - 1)
        XCTAssertTrue(inkRuns(frame, rows: 20..<42, dark: false).isEmpty, "hidden")
        XCTAssertEqual(frame.rgba(196, 852 - 8 - 3), [255, 255, 255, 255], "the home indicator white in the dark appearance")
    }
}
