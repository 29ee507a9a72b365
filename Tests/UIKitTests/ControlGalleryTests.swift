import RasterCore
import SmokescreenStage
import SmokescreenStageTesting
import XCTest

/// The standard controls as iOS 13 and later draw them, each measured against what iOS's own drawing
/// shows (facts read from simulator pictures, docs/ios-parity.md, Controls), and a gallery of them kept
/// as a golden picture.
final class ControlGalleryTests: XCTestCase {
    /// A white screen `width` points wide with `control` centred in it, as the pictures iOS drew show
    /// it: `height` points high (the control's fitted height plus 20 when nil).
    static func screen(_ control: UIView, width: CGFloat, height: CGFloat? = nil) -> UIView {
        let fitted = control.sizeThatFits(CGSize(width: width, height: 0))
        let container = UIView(frame: CGRect(x: 0, y: 0, width: width, height: height ?? fitted.height + 20))
        container.backgroundColor = .white
        container.addSubview(control)
        return container
    }

    /// The gallery: every control in its usual states, light mode.
    static func gallery(width: CGFloat = 240) -> UIView {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: width, height: 300))
        root.backgroundColor = .systemBackground
        var y: CGFloat = 10
        func place(_ view: UIView, height: CGFloat? = nil, x: CGFloat = 10, width w: CGFloat? = nil) {
            let size = view.sizeThatFits(CGSize(width: w ?? width - 20, height: 0))
            view.frame = CGRect(x: x, y: y, width: w ?? size.width, height: height ?? size.height)
            root.addSubview(view)
            y += (height ?? size.height) + 10
        }
        let segments = UISegmentedControl(items: ["One", "Two", "Three"])
        segments.selectedSegmentIndex = 0
        place(segments, width: width - 20)
        let slider = UISlider()
        slider.value = 0.3
        place(slider, width: width - 20)
        let progress = UIProgressView(progressViewStyle: .default)
        progress.progress = 0.6
        place(progress, width: width - 20)
        let stepper = UIStepper()
        stepper.frame.origin = CGPoint(x: 10, y: y)
        root.addSubview(stepper)
        let toggle = UISwitch()
        toggle.isOn = true
        toggle.frame.origin = CGPoint(x: 120, y: y)
        root.addSubview(toggle)
        y += 42
        let spinner = UIActivityIndicatorView(style: .medium)
        spinner.hidesWhenStopped = false
        spinner.frame.origin = CGPoint(x: 10, y: y)
        root.addSubview(spinner)
        let large = UIActivityIndicatorView(style: .large)
        large.hidesWhenStopped = false
        large.frame.origin = CGPoint(x: 50, y: y)
        root.addSubview(large)
        let pages = UIPageControl()
        pages.numberOfPages = 4
        pages.currentPage = 1
        pages.pageIndicatorTintColor = .systemGray4
        pages.currentPageIndicatorTintColor = .label
        pages.frame = CGRect(x: 100, y: y + 5, width: 130, height: 26)
        root.addSubview(pages)
        y += 47
        root.frame.size.height = y
        return root
    }

    /// The gallery in light and dark mode, kept as goldens at @1x (looked at @3x before they were
    /// recorded: `SMOKESCREEN_PARITY_OUT` writes those).
    func testTheGalleryInLightAndDarkMode() throws {
        for style in [UIUserInterfaceStyle.light, .dark] {
            let traits = UITraitCollection(userInterfaceStyle: style)
            let name = style == .dark ? "dark" : "light"
            try IOSParityTests.keep(try ViewImageConfig.draw(Self.gallery(), size: nil, traits: UITraitCollection(traitsFrom: [traits, UITraitCollection(displayScale: 3)])),
                                    name: "gallery-\(name)@3x.png")
            assertSnapshot(of: Self.gallery(), as: .image(traits: UITraitCollection(traitsFrom: [traits, UITraitCollection(displayScale: 1)])), named: name)
        }
    }
}

extension ControlGalleryTests {
    /// The screens of the iOS pictures the measurements come from: the control centred in a white
    /// screen 393 points wide (sliders 10 points in from each side), 20 points higher than it.
    static func iosScreen(_ control: UIView) -> UIView {
        let width: CGFloat = 393
        let fitted = control.sizeThatFits(CGSize(width: width - 20, height: 0))
        let size = control is UISlider || control is UIProgressView ? CGSize(width: width - 20, height: fitted.height) : fitted
        control.frame = CGRect(x: (width - size.width) / 2, y: 10, width: size.width, height: size.height)
        let container = UIView(frame: CGRect(x: 0, y: 0, width: width, height: size.height + 20))
        container.backgroundColor = .white
        container.addSubview(control)
        return container
    }

    /// `control` on its iOS screen, drawn at @3x (kept as `name` in `$SMOKESCREEN_PARITY_OUT`).
    static func draw(_ control: UIView, name: String, traits: UITraitCollection = UITraitCollection()) throws -> Bitmap {
        let bitmap = try ViewImageConfig.draw(iosScreen(control), size: nil, traits: UITraitCollection(traitsFrom: [traits, UITraitCollection(displayScale: 3)]))
        try IOSParityTests.keep(bitmap, name: name)
        return bitmap
    }

    /// The grey level of a pixel over white (the pictures' controls are grey on white).
    static func level(_ b: Bitmap, _ x: Int, _ y: Int) -> Int { IOSParityTests.onWhite(b, x, y)[1] }

    /// The first and last x in row `y` (from `from` to `to`) whose level passes `test`.
    static func run(_ b: Bitmap, y: Int, from: Int, to: Int, where test: (Int) -> Bool) -> ClosedRange<Int>? {
        let xs = (from...to).filter { test(level(b, $0, y)) }
        guard let first = xs.first, let last = xs.last else { return nil }
        return first...last
    }

    /// iOS 17's "Segment A / B / C" with B selected (pictures of iOS 13.3 to 17.5 at @3x, the same
    /// geometry): 32 points high; three equal segments and two 1-point slots; the white plate 2 points
    /// inside its segment, 28 high; no dividers beside it; the track's fill (238–239 over white) with
    /// nothing of the plate's shadow outside the control; the selected title semibold.
    func testASegmentedControlIsDrawnAsIOSDrawsIt() throws {
        let control = UISegmentedControl(items: ["Segment A", "Segment B", "Segment C"])
        control.selectedSegmentIndex = 1
        XCTAssertEqual(control.bounds.height, 32)
        let segment = (control.bounds.width - 2) / 3
        XCTAssertEqual(segment, segment.rounded(), "three whole-point segments and two 1-point slots")
        XCTAssertEqual(control.intrinsicContentSize, control.bounds.size)
        let b = try Self.draw(control, name: "segmented-control@3x.png")
        let left = Int(control.frame.minX * 3), middle = 30 + 48
        // The plate: white, from 2 points inside the second segment to 2 points before its end.
        let plate = try XCTUnwrap(Self.run(b, y: middle, from: left, to: left + Int(control.bounds.width * 3) - 1) { $0 >= 253 })
        XCTAssertEqual(Double(plate.lowerBound), Double(left) + (segment + 1 + 2) * 3, accuracy: 1)
        XCTAssertEqual(Double(plate.upperBound + 1), Double(left) + (2 * segment + 1 - 2) * 3, accuracy: 1)
        let plateColumn = (plate.lowerBound + plate.upperBound) / 2
        let rows = (30...(30 + 96)).filter { Self.level(b, plate.lowerBound + 22, $0) >= 253 }
        XCTAssertEqual(rows.count, 28 * 3, accuracy: 1, "28 points high")
        // The track beside: iOS's fill, no divider on either side of the plate.
        let inFirst = left + Int(segment * 3 / 2)
        XCTAssertEqual(Self.level(b, inFirst, 30 + 10), 238, accuracy: 2)
        for x in [left + Int(segment * 3) + 1, left + Int((2 * segment + 1) * 3) + 1] {
            XCTAssertEqual(Self.level(b, x, middle), Self.level(b, x + (x < plateColumn ? -3 : 3), middle), accuracy: 3, "no divider beside the plate (the plate's shadow only)")
        }
        // Nothing outside the control: the plate's shadow stays in the track.
        for y in [28, 29, 30 + 96, 30 + 97] { XCTAssertEqual(Self.level(b, plateColumn, y), 255, "row \(y)") }
        // The shadow under the plate, as iOS's: 214–220 in the 2 points below it.
        XCTAssertEqual(Self.level(b, plateColumn, 30 + 91), 216, accuracy: 4)
    }

    /// With the first segment selected, the divider between the other two shows: 1 point wide, 18 high,
    /// centred (214 on the track's 238, as the stepper's).
    func testADividerShowsBetweenTwoUnselectedSegments() throws {
        let control = UISegmentedControl(items: ["Segment A", "Segment B", "Segment C"])
        control.selectedSegmentIndex = 0
        let b = try Self.draw(control, name: "segmented-control-divider@3x.png")
        let segment = (control.bounds.width - 2) / 3
        let x = Int((control.frame.minX + 2 * segment + 1) * 3) + 1
        let dark = (30...(30 + 96)).filter { Self.level(b, x, $0) < 230 }
        XCTAssertEqual(dark.count, 18 * 3, accuracy: 1)
        XCTAssertEqual(Double(dark.first! + dark.last!) / 2, 30 + 47.5, accuracy: 1, "centred")
        XCTAssertEqual(Self.level(b, x, 30 + 48), 214, accuracy: 2)
        XCTAssertEqual(Self.level(b, x - 4, 30 + 48), 238, accuracy: 2, "1 point wide")
    }

    /// iOS 17's slider at 0.75 (373 points wide): 34 high; the 4-point track 3 points in from each end,
    /// blue below the value and 227 over white above; the white 27-point disc centred at 272.5 points,
    /// 1.5 points above the track's centre line, with iOS's shadow under it (216 just below the disc,
    /// 235 a point and a half lower).
    func testASliderIsDrawnAsIOSDrawsIt() throws {
        let slider = UISlider()
        slider.value = 0.75
        XCTAssertEqual(slider.intrinsicContentSize.height, 34)
        let b = try Self.draw(slider, name: "slider@3x.png")
        XCTAssertEqual(slider.frame, CGRect(x: 10, y: 10, width: 373, height: 34))
        let trackRow = 30 + 51
        let track = try XCTUnwrap(Self.run(b, y: trackRow, from: 30, to: 30 + 1118) { $0 < 250 })
        XCTAssertEqual(track.lowerBound, 30 + 9, "3 points in")
        XCTAssertEqual(track.upperBound, 30 + 1118 - 9)
        let trackRows = (30...(30 + 101)).filter { Self.level(b, 30 + 60, $0) < 250 }
        XCTAssertEqual(trackRows.count, 12, "4 points high")
        let blue = b[30 + 60, trackRow].unpremultiplied
        XCTAssertEqual([Int(blue.r), Int(blue.g), Int(blue.b)], [0, 122, 255])
        XCTAssertEqual(Self.level(b, 30 + 1100, trackRow), 227, accuracy: 2)
        let disc = try XCTUnwrap(Self.run(b, y: 30 + 47, from: 30 + 700, to: 30 + 950) { $0 >= 244 })
        XCTAssertEqual(Double(disc.lowerBound + disc.upperBound + 1) / 2, 847.5, accuracy: 1)
        XCTAssertEqual(disc.count, 81, accuracy: 1, "27 points across")
        let discRows = (30...(30 + 101)).filter { Self.level(b, 848, $0) >= 250 }
        XCTAssertEqual(Double(discRows.first! + discRows.last! + 1) / 2, 30 + 51 - 4.5, accuracy: 1, "1.5 points above the track's centre")
        XCTAssertEqual(Self.level(b, 848, discRows.last! + 3), 216, accuracy: 4)
        XCTAssertEqual(Self.level(b, 848, discRows.last! + 9), 235, accuracy: 4)
    }

    /// iOS 17's stepper: 94 × 32 points, the fill 238 over white, the 1 × 18-point divider at 214, a
    /// minus and a plus 13.5 points across with 1.5-point strokes, black; at the minimum the minus at
    /// half (119 on the fill).
    func testAStepperIsDrawnAsIOSDrawsIt() throws {
        let stepper = UIStepper()
        stepper.value = 50
        XCTAssertEqual(stepper.bounds.size, CGSize(width: 94, height: 32))
        let b = try Self.draw(stepper, name: "stepper@3x.png")
        let left = Int(stepper.frame.minX * 3)
        XCTAssertEqual(Self.level(b, left + 30, 30 + 10), 238, accuracy: 2)
        let divider = (30...(30 + 96)).filter { Self.level(b, left + 141, $0) < 230 }
        XCTAssertEqual(divider.count, 54, accuracy: 1)
        XCTAssertEqual(Self.level(b, left + 141, 30 + 48), 214, accuracy: 2)
        func ink(_ x0: Int, _ x1: Int) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
            let points = (30...(30 + 96)).flatMap { y in (x0...x1).filter { Self.level(b, $0, y) < 120 }.map { ($0, y) } }
            guard let minX = points.map(\.0).min(), let maxX = points.map(\.0).max(), let minY = points.map(\.1).min(), let maxY = points.map(\.1).max() else { return nil }
            return (minX...maxX, minY...maxY)
        }
        let minus = try XCTUnwrap(ink(left, left + 140)), plus = try XCTUnwrap(ink(left + 142, left + 281))
        XCTAssertEqual(minus.x.count, 41, accuracy: 1, "13.5 points")
        XCTAssertEqual(minus.y.count, 4, accuracy: 1, "1.5 points")
        XCTAssertEqual(plus.x.count, 41, accuracy: 1)
        XCTAssertEqual(plus.y.count, 41, accuracy: 1)
        XCTAssertEqual(Double(minus.x.lowerBound + minus.x.upperBound) / 2, Double(left) + 70.5, accuracy: 1, "centred in its half")
        XCTAssertEqual(Double(plus.x.lowerBound + plus.x.upperBound) / 2, Double(left) + 211.5, accuracy: 1)
        XCTAssertLessThan(Self.level(b, left + 70, 30 + 48), 5)
        stepper.value = 0
        let atMinimum = try Self.draw(stepper, name: "stepper-at-minimum@3x.png")
        XCTAssertEqual(Self.level(atMinimum, left + 70, 30 + 48), 119, accuracy: 3, "the minus at half at the minimum")
        XCTAssertLessThan(Self.level(atMinimum, left + 211, 30 + 48), 5)
    }

    /// iOS 17's page control, 3 pages on page 1 (colours given): 7.5-point dots 53 pixels apart at @3x,
    /// centred.
    func testAPageControlIsDrawnAsIOSDrawsIt() throws {
        let pages = UIPageControl()
        pages.numberOfPages = 3
        pages.currentPage = 1
        pages.pageIndicatorTintColor = .darkGray
        pages.currentPageIndicatorTintColor = .black
        let b = try Self.draw(pages, name: "page-control@3x.png")
        let row = 30 + 39
        var blobs: [(centre: Double, area: Double, level: Int)] = []
        var x = 0
        while x < b.width {
            guard Self.level(b, x, row) < 250 else { x += 1; continue }
            let start = x
            while x < b.width, Self.level(b, x, row) < 250 { x += 1 }
            var area = 0.0, moment = 0.0
            for y in (row - 15)...(row + 15) { for bx in (start - 2)...(x + 1) {
                let cover = Double(255 - Self.level(b, bx, y)) / Double(255 - Self.level(b, (start + x) / 2, row))
                area += min(1, max(0, cover)); moment += Double(bx) * min(1, max(0, cover))
            } }
            blobs.append((moment / area, area, Self.level(b, (start + x) / 2, row)))
        }
        XCTAssertEqual(blobs.count, 3)
        XCTAssertEqual(blobs[1].centre - blobs[0].centre, 53, accuracy: 1)
        XCTAssertEqual(blobs[2].centre - blobs[1].centre, 53, accuracy: 1)
        XCTAssertEqual(blobs[1].centre, 1179 / 2, accuracy: 1, "centred")
        for blob in blobs { XCTAssertEqual(2 * (blob.area / .pi).squareRoot() / 3, 7.5, accuracy: 0.15, "7.5-point dots") }
        XCTAssertEqual(blobs[1].level, 0)
        XCTAssertEqual(blobs[0].level, 85, accuracy: 1)
    }
}
