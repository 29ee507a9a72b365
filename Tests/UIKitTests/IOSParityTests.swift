import Foundation
import PNGIO
import RasterCore
import SmokescreenStage
import SmokescreenStageTesting
import XCTest

/// Screens iOS itself drew, drawn again here and measured the same way.
///
/// The iOS pictures are swift-snapshot-testing's own references (its repository's
/// `Tests/SnapshotTestingTests/__Snapshots__/SnapshotTestingTests/`, drawn on iOS simulators at @3x),
/// read from its checkout: it is a dependency of this package, so SwiftPM fetches it with them. The
/// screens are written again here with the UIKit layer (a table view controller of ten rows; four labels
/// held to the safe area by Auto Layout, in Dynamic Type's styles, on every device configuration and text
/// size it was drawn at), drawn as `assertSnapshot(of:as: .image(on:))` draws them at @3x, and both
/// pictures are measured: separators and backgrounds exactly (rows within 1 device pixel, colours within
/// 2 levels), text by where its ink sits (Inter is not SF: within the tolerances each check states). What
/// each found is printed as a table (docs/ios-parity.md keeps it).
///
/// Without the checkout (a package built without its dependencies' sources) it is skipped, saying so; with
/// `SMOKESCREEN_REFERENCE_REQUIRED=1` (`.ci/run`) it fails instead.
final class IOSParityTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let references = root + "/.build/checkouts/swift-snapshot-testing/Tests/SnapshotTestingTests/__Snapshots__/SnapshotTestingTests"

    /// The iOS picture `name` (@3x), or a skip (a failure under `SMOKESCREEN_REFERENCE_REQUIRED=1`).
    func reference(_ name: String) throws -> Bitmap {
        let path = Self.references + "/" + name
        guard FileManager.default.fileExists(atPath: path) else {
            let message = "no iOS reference at \(path): swift-snapshot-testing's checkout (swift package resolve) holds them"
            if ProcessInfo.processInfo.environment["SMOKESCREEN_REFERENCE_REQUIRED"] == "1" { XCTFail(message) }
            throw XCTSkip(message)
        }
        return try PNGCodec.read(contentsOf: path, scale: 3)
    }

    /// `controller` drawn at @3x on `config` under `traits`, as `.image(on:traits:)` draws it; also
    /// written as `<name>.png` into `$SMOKESCREEN_PARITY_OUT` when it is set (to look at beside iOS's).
    func draw(_ controller: UIViewController, on config: ViewImageConfig, traits: UITraitCollection = UITraitCollection(), name: String) throws -> Bitmap {
        let bitmap = try ViewImageConfig.draw(controller, on: config, traits: UITraitCollection(traitsFrom: [traits, UITraitCollection(displayScale: 3)]))
        try Self.keep(bitmap, name: name)
        return bitmap
    }

    /// Writes `bitmap` as `name` into `$SMOKESCREEN_PARITY_OUT` when it is set.
    static func keep(_ bitmap: Bitmap, name: String) throws {
        guard let folder = ProcessInfo.processInfo.environment["SMOKESCREEN_PARITY_OUT"], !folder.isEmpty else { return }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try PNGCodec.write(bitmap, to: folder + "/" + name)
    }

    // MARK: Measuring

    /// A pixel's straight colour over white.
    static func onWhite(_ b: Bitmap, _ x: Int, _ y: Int) -> [Int] {
        let p = b[x, y]
        let cover = 255 - Int(p.a)
        return [Int(p.r) + cover, Int(p.g) + cover, Int(p.b) + cover]
    }

    /// The box of the ink (pixels with a channel under 128 over white) inside `region`, or nil: what
    /// differs from white by more than 127 levels, found by FrameDiff (optimized in script/test's build;
    /// these pictures are up to 12 million pixels).
    static func ink(_ b: Bitmap, in region: PixelRect) -> PixelRect? {
        guard let part = try? b.cropped(to: region), let white = try? Bitmap(width: part.width, height: part.height, scale: b.scale, fill: .white) else { return nil }
        var comparison = FrameComparison.tolerance(127)
        comparison.diffImage = nil
        guard let box = comparison.compare(white, part)?.boundingBox else { return nil }
        let r = region.intersection(b.bounds)
        return PixelRect(x: box.x + r.minX, y: box.y + r.minY, width: box.width, height: box.height)
    }

    /// The rows (pixels) where column `x` is not white.
    static func markedRows(_ b: Bitmap, x: Int) -> [Int] {
        (0..<b.height).filter { onWhite(b, x, $0) != [255, 255, 255] }
    }

    // MARK: A table view controller

    final class Numbers: UITableViewController {
        override func viewDidLoad() {
            super.viewDidLoad()
            tableView.register(UITableViewCell.self, forCellReuseIdentifier: "Cell")
        }
        override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 10 }
        override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
            cell.textLabel?.text = "\(indexPath.row)"
            return cell
        }
    }

    /// Pictures where iOS set the cells' text larger than the 17-pt body font, with what was measured: the
    /// baseline is allowed 5 px there (1 pt more), and docs/ios-parity.md lists them.
    static let largerText: [String: String] = [
        "testAssertMultipleSnapshot.2": "on the iPhone XS Max iOS's digits are 38 px tall and 26 wide, on the X 36 and 24: about 6 % larger text, which nothing in UIKit's documentation explains; here 17 pt on both",
    ]

    /// A plain table of ten one-digit rows, as iOS drew it on four devices (`testTableViewController.1.png`
    /// and `testAssertMultipleSnapshot`'s four pictures): the separators (one device pixel at the foot of
    /// every row and where more rows would be) at the same rows within 1 px, with the same inset within
    /// 1 px and colour within 2 levels; the background; each digit's ink left edge and foot (the digits
    /// have no descenders: the baseline) within 1 pt (3 px).
    func testATableViewControllerAsIOSDrawsIt() throws {
        let screens: [(String, ViewImageConfig)] = [
            ("testTableViewController.1", .iPhoneSe), ("testAssertMultipleSnapshot.iPhoneSE-image", .iPhoneSe),
            ("testAssertMultipleSnapshot.iPad-image", .iPadMini), ("testAssertMultipleSnapshot.1", .iPhoneX),
            ("testAssertMultipleSnapshot.2", .iPhoneXsMax),
        ]
        for (name, config) in screens {
            let ios = try reference(name + ".png")
            let ours = try draw(Numbers(), on: config, name: name + ".png")
            guard ours.width == ios.width, ours.height == ios.height else {
                XCTFail("\(name): iOS drew \(ios.width)x\(ios.height) px, here \(ours.width)x\(ours.height)")
                continue
            }
            // Separators: a hairline at the foot of every row, the empty rows' below the last too.
            let x = ios.width * 6 / 10
            let iosRows = Self.markedRows(ios, x: x), ourRows = Self.markedRows(ours, x: x)
            XCTAssertEqual(ourRows.count, iosRows.count, "\(name): separator rows: iOS \(iosRows), here \(ourRows)")
            let rowGap = zip(iosRows, ourRows).map { abs($0 - $1) }.max() ?? 0
            XCTAssertLessThanOrEqual(rowGap, 1, "\(name): separators: iOS \(iosRows), here \(ourRows)")
            var inset = 0
            if let row = iosRows.first, let ourRow = ourRows.first {
                let start = { (b: Bitmap, y: Int) in (0..<b.width).first { Self.onWhite(b, $0, y) != [255, 255, 255] } ?? -1 }
                inset = abs(start(ios, row) - start(ours, ourRow))
                XCTAssertLessThanOrEqual(inset, 1, "\(name): the separators' inset")
                for (a, b) in zip(Self.onWhite(ios, x, row), Self.onWhite(ours, x, ourRow)) { XCTAssertLessThanOrEqual(abs(a - b), 2, "\(name): the separators' colour") }
            }
            XCTAssertEqual(Self.onWhite(ours, ours.width - 1, ours.height - 1), Self.onWhite(ios, ios.width - 1, ios.height - 1), "\(name): the background")
            var worst = (left: 0, baseline: 0)
            let top = Int(config.safeArea.top) * 3
            for row in 0..<10 {
                let band = PixelRect(x: 0, y: top + 132 * row, width: ios.width / 2, height: 131)
                guard band.maxY <= ios.height else { break }
                let a = try XCTUnwrap(Self.ink(ios, in: band), "\(name): iOS's row \(row)"), b = try XCTUnwrap(Self.ink(ours, in: band), "\(name): row \(row)")
                worst.left = max(worst.left, abs(a.minX - b.minX))
                worst.baseline = max(worst.baseline, abs(a.maxY - b.maxY))
            }
            XCTAssertLessThanOrEqual(worst.left, 3, "\(name): the digits' left edges")
            let allowance = Self.largerText[name].map { _ in 5 } ?? 3
            XCTAssertLessThanOrEqual(worst.baseline, allowance, "\(name): the digits' baselines")
            print("ios-parity | \(name) | \(ios.width)x\(ios.height) | separators \(ourRows.count) of \(iosRows.count), rows ±\(rowGap) px, inset ±\(inset) px; "
                  + "digits: left ±\(worst.left) px, baseline ±\(worst.baseline) px |")
        }
    }

    /// `testAutolayout.1.png` (a controller whose view holds a subview pinned to its edges by constraints,
    /// neither with a background) and `testUIViewControllerLifeCycle.1.png` and `.2.png` (a controller
    /// appearing and disappearing): iOS drew nothing, transparent pixels at the simulator's screen size, and so does this
    /// (drawn at that size: the simulator is not part of the test's code).
    func testControllersThatDrawNothingAreTransparent() throws {
        for name in ["testAutolayout.1", "testUIViewControllerLifeCycle.1", "testUIViewControllerLifeCycle.2"] {
            let ios = try reference(name + ".png")
            let controller = UIViewController()
            controller.view.translatesAutoresizingMaskIntoConstraints = false
            let subview = UIView()
            subview.translatesAutoresizingMaskIntoConstraints = false
            controller.view.addSubview(subview)
            NSLayoutConstraint.activate([
                subview.topAnchor.constraint(equalTo: controller.view.topAnchor),
                subview.bottomAnchor.constraint(equalTo: controller.view.bottomAnchor),
                subview.leftAnchor.constraint(equalTo: controller.view.leftAnchor),
                subview.rightAnchor.constraint(equalTo: controller.view.rightAnchor),
            ])
            let ours = try draw(controller, on: ViewImageConfig(size: CGSize(width: ios.width / 3, height: ios.height / 3)), name: name + ".png")
            XCTAssertNil(FrameComparison.exact.compare(ios, ours), "\(name): every pixel")
            print("ios-parity | \(name) | \(ios.width)x\(ios.height) | identical (transparent) |")
        }
    }

    // MARK: A collection view on four devices

    /// A horizontal flow layout inside the view's layout margins: orange cells 50 points narrower than the
    /// collection view (300 at most), as tall as it, 20 apart.
    final class Cards: UIViewController, UICollectionViewDataSource, UICollectionViewDelegateFlowLayout {
        let flow: UICollectionViewFlowLayout = {
            let layout = UICollectionViewFlowLayout()
            layout.scrollDirection = .horizontal
            layout.minimumLineSpacing = 20
            return layout
        }()
        lazy var collectionView = UICollectionView(frame: .zero, collectionViewLayout: flow)

        override func viewDidLoad() {
            super.viewDidLoad()
            view.backgroundColor = .white
            view.addSubview(collectionView)
            collectionView.backgroundColor = .white
            collectionView.dataSource = self
            collectionView.delegate = self
            collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "Cell")
            collectionView.translatesAutoresizingMaskIntoConstraints = false
            let margins = view.layoutMarginsGuide
            NSLayoutConstraint.activate([
                collectionView.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
                collectionView.topAnchor.constraint(equalTo: margins.topAnchor),
                collectionView.trailingAnchor.constraint(equalTo: margins.trailingAnchor),
                collectionView.bottomAnchor.constraint(equalTo: margins.bottomAnchor),
            ])
        }

        override func viewDidLayoutSubviews() {
            super.viewDidLayoutSubviews()
            collectionView.collectionViewLayout.invalidateLayout()
        }

        func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { 20 }

        func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
            let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "Cell", for: indexPath)
            cell.contentView.backgroundColor = .orange
            return cell
        }

        func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                            sizeForItemAt indexPath: IndexPath) -> CGSize {
            CGSize(width: min(collectionView.frame.width - 50, 300), height: collectionView.frame.height)
        }
    }

    /// Whether pixel (`x`, `y`) is orange.
    static func isOrange(_ b: Bitmap, _ x: Int, _ y: Int) -> Bool {
        let c = onWhite(b, x, y)
        return c[0] > 200 && c[2] < 60 && (100..<200).contains(c[1])
    }

    /// The orange runs (first and last column, pixels) across row `y`.
    static func orangeRuns(_ b: Bitmap, y: Int) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = [], x = 0
        while x < b.width {
            if isOrange(b, x, y) {
                let start = x
                while x < b.width, isOrange(b, x, y) { x += 1 }
                runs.append(start...(x - 1))
            }
            x += 1
        }
        return runs
    }

    /// `testCollectionViewsWithMultipleScreenSizes.*`: the cells' columns across the middle row and the
    /// first cell's rows, within 1 device pixel, and their colour within 2 levels, on four devices.
    func testACollectionViewOnFourDevicesAsIOSDrawsIt() throws {
        let screens: [(String, ViewImageConfig)] = [("iphoneSe", .iPhoneSe), ("iphone8", .iPhone8), ("iphoneMax", .iPhoneXsMax), ("ipad", .iPadPro12_9)]
        for (suffix, config) in screens {
            let name = "testCollectionViewsWithMultipleScreenSizes.\(suffix)"
            let ios = try reference(name + ".png")
            let ours = try draw(Cards(), on: config, name: name + ".png")
            guard ours.width == ios.width, ours.height == ios.height else {
                XCTFail("\(name): iOS drew \(ios.width)x\(ios.height) px, here \(ours.width)x\(ours.height)")
                continue
            }
            let a = Self.orangeRuns(ios, y: ios.height / 2), b = Self.orangeRuns(ours, y: ours.height / 2)
            XCTAssertEqual(a.count, b.count, "\(name): cells across: iOS \(a), here \(b)")
            let across = zip(a, b).map { max(abs($0.lowerBound - $1.lowerBound), abs($0.upperBound - $1.upperBound)) }.max() ?? 0
            XCTAssertLessThanOrEqual(across, 1, "\(name): cells across: iOS \(a), here \(b)")
            var down = 0
            if let first = a.first {
                let column = first.lowerBound + 3
                let rows = { (bitmap: Bitmap) in (0..<bitmap.height).filter { Self.isOrange(bitmap, column, $0) } }
                let ra = rows(ios), rb = rows(ours)
                down = max(abs((ra.first ?? 0) - (rb.first ?? 0)), abs((ra.last ?? 0) - (rb.last ?? 0)))
                XCTAssertLessThanOrEqual(down, 1, "\(name): the first cell's rows: iOS \(ra.first ?? -1)…\(ra.last ?? -1), here \(rb.first ?? -1)…\(rb.last ?? -1)")
                for (p, q) in zip(Self.onWhite(ios, column, ios.height / 2), Self.onWhite(ours, column, ours.height / 2)) { XCTAssertLessThanOrEqual(abs(p - q), 2, "\(name): orange") }
            }
            print("ios-parity | \(name) | \(ios.width)x\(ios.height) | \(b.count) of \(a.count) cells across, columns ±\(across) px, rows ±\(down) px |")
        }
    }

    // MARK: A bar button item

    /// The add item at the leading end of a navigation bar, as iOS drew it in
    /// `testTraitsEmbeddedInTabNavigation.*` (iPhone SE, 8 and X): the plus's ink box, measured from the
    /// bar's top, within 1 device pixel, and its blue within 2 levels. Only the bar is compared: those
    /// pictures come from an older iOS's layout (no status bar, a tab bar controller 548 points tall on
    /// the SE) that the UIKit layer does not reproduce.
    func testABarButtonItemAsIOSDrawsIt() throws {
        var rows: [String] = []
        for (suffix, config) in [("iphone-se", ViewImageConfig.iPhoneSe), ("iphone-8", .iPhone8), ("iphone-x", .iPhoneX)] {
            let name = "testTraitsEmbeddedInTabNavigation.\(suffix)"
            let ios = try reference(name + ".png")
            let root = UIViewController()
            root.view.backgroundColor = .white
            root.navigationItem.leftBarButtonItem = UIBarButtonItem(barButtonSystemItem: .add, target: nil, action: nil)
            let navigation = UINavigationController(rootViewController: root)
            let ours = try draw(navigation, on: config, name: name + ".png")
            let barTop = Int((navigation.navigationBar.frame.minY * 3).rounded())
            let band = PixelRect(x: 0, y: 0, width: 300, height: 132)
            let a = try XCTUnwrap(Self.blueInk(ios, in: band), "\(name): iOS's plus")
            let b = try XCTUnwrap(Self.blueInk(ours, in: PixelRect(x: 0, y: barTop, width: 300, height: 132)), "\(name): the plus")
            let d = max(abs(a.minX - b.minX), abs(a.maxX - b.maxX), abs(a.minY - (b.minY - barTop)), abs(a.maxY - (b.maxY - barTop)))
            XCTAssertLessThanOrEqual(d, 1, "\(name): the plus at \(b) (from the bar's top at \(barTop)), iOS's at \(a)")
            let centre = { (bitmap: Bitmap, box: PixelRect) in Self.onWhite(bitmap, (box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2) }
            for (p, q) in zip(centre(ios, a), centre(ours, b)) { XCTAssertLessThanOrEqual(abs(p - q), 2, "\(name): the tint") }
            rows.append("ios-parity | \(name), its bar | \(ios.width)x\(ios.height) | the plus's box ±\(d) px |")
        }
        print(rows.joined(separator: "\n"))
    }

    // MARK: A filled path

    /// `testUIBezierPath.iOS.png` and `testCGPath.iOS.png`: a heart of lines, quadratic and cubic curves and
    /// a circle of four cubics (the elements as the references' `.txt` files list them), filled black by
    /// `UIBezierPath.fill()` and by a context's `drawPath(using: .eoFill)` in a `UIGraphicsImageRenderer` at
    /// 1x, as swift-snapshot-testing's two strategies draw it: the same size, black, and each pixel's
    /// coverage within 32 levels of iOS's, the edge pixels' within 8 on average: two rasterizers'
    /// anti-aliasing of the same edges (iOS's own two pictures of this heart differ by up to 37 levels at
    /// an edge pixel and by 7.8 on average; most pixels are exact).
    func testAHeartPathAsIOSDrawsIt() throws {
        func heart() -> UIBezierPath {
            let path = UIBezierPath()
            path.move(to: CGPoint(x: 0, y: 0))
            path.addLine(to: CGPoint(x: 0, y: 60))
            path.addQuadCurve(to: CGPoint(x: 30, y: 90), controlPoint: CGPoint(x: 3.75, y: 86.25))
            path.addQuadCurve(to: CGPoint(x: 60, y: 60), controlPoint: CGPoint(x: 56.25, y: 86.25))
            path.addCurve(to: CGPoint(x: 90, y: 30), controlPoint1: CGPoint(x: 75, y: 60), controlPoint2: CGPoint(x: 90, y: 45))
            path.addCurve(to: CGPoint(x: 60, y: 0), controlPoint1: CGPoint(x: 90, y: 15), controlPoint2: CGPoint(x: 75, y: 0))
            path.addLine(to: CGPoint(x: 0, y: 0))
            path.close()
            path.move(to: CGPoint(x: 90, y: 75))
            path.addCurve(to: CGPoint(x: 75, y: 90), controlPoint1: CGPoint(x: 90, y: 83.284), controlPoint2: CGPoint(x: 83.284, y: 90))
            path.addCurve(to: CGPoint(x: 60, y: 75), controlPoint1: CGPoint(x: 66.716, y: 90), controlPoint2: CGPoint(x: 60, y: 83.284))
            path.addCurve(to: CGPoint(x: 75, y: 60), controlPoint1: CGPoint(x: 60, y: 66.716), controlPoint2: CGPoint(x: 66.716, y: 60))
            path.addCurve(to: CGPoint(x: 90, y: 75), controlPoint1: CGPoint(x: 83.284, y: 60), controlPoint2: CGPoint(x: 90, y: 66.716))
            path.close()
            return path
        }
        let format = UIGraphicsImageRendererFormat.preferred()
        format.scale = 1
        let bezier = heart()
        let filled = UIGraphicsImageRenderer(bounds: bezier.bounds, format: format).image { _ in bezier.fill() }
        let cgPath = heart().cgPath
        let drawn = UIGraphicsImageRenderer(bounds: cgPath.boundingBoxOfPath, format: format).image { context in
            context.cgContext.addPath(cgPath)
            context.cgContext.drawPath(using: .eoFill)
        }
        var rows: [String] = []
        for (name, image) in [("testUIBezierPath.iOS", filled), ("testCGPath.iOS", drawn)] {
            let ios = try reference(name + ".png")
            let ours = try XCTUnwrap(image.bitmap, name)
            try Self.keep(ours, name: name + ".png")
            XCTAssertEqual([ours.width, ours.height], [ios.width, ios.height], name)
            guard ours.width == ios.width, ours.height == ios.height else { continue }
            var worst = 0, exact = 0, edge = 0, edgeDifference = 0
            for y in 0..<ios.height {
                for x in 0..<ios.width {
                    let a = Int(ios[x, y].a), b = Int(ours[x, y].a)
                    worst = max(worst, abs(a - b))
                    if a == b { exact += 1 }
                    if a != 0 && a != 255 { edge += 1; edgeDifference += abs(a - b) }
                    XCTAssertEqual([Int(ours[x, y].r), Int(ours[x, y].g), Int(ours[x, y].b)], [0, 0, 0], "\(name): black at (\(x), \(y))")
                }
            }
            let mean = Double(edgeDifference) / Double(max(1, edge))
            XCTAssertLessThanOrEqual(worst, 32, "\(name): a pixel's coverage \(worst) levels from iOS's")
            XCTAssertLessThanOrEqual(mean, 8, "\(name): the edge pixels' coverage \(mean) levels from iOS's on average")
            rows.append(String(format: "ios-parity | %@ | 90x90 | coverage within %d levels, the %d edge pixels %.1f on average; %d of 8100 pixels exact |",
                               name, worst, edge, mean, exact))
        }
        print(rows.joined(separator: "\n"))
    }

    /// `testUIView.1.png`: `UIButton(type: .contactAdd)` at its own size: the same size (73 × 71 px at
    /// @3x), the glyph's box within 1 px, and at most 2 % of the pixels more than half a step of coverage
    /// apart (the ring and the plus are vector shapes drawn by different rasterizers).
    func testAContactAddButtonAsIOSDrawsIt() throws {
        let ios = try reference("testUIView.1.png")
        let button = UIButton(type: .contactAdd)
        let ours = try ViewImageConfig.draw(button, size: nil, traits: UITraitCollection(displayScale: 3))
        try Self.keep(ours, name: "testUIView.1.png")
        XCTAssertEqual([ours.width, ours.height], [ios.width, ios.height])
        guard ours.width == ios.width, ours.height == ios.height else { return }
        let a = try XCTUnwrap(Self.blueInk(ios, in: ios.bounds)), b = try XCTUnwrap(Self.blueInk(ours, in: ours.bounds))
        let box = max(abs(a.minX - b.minX), abs(a.maxX - b.maxX), abs(a.minY - b.minY), abs(a.maxY - b.maxY))
        XCTAssertLessThanOrEqual(box, 1, "the glyph at \(b), iOS's at \(a)")
        var apart = 0
        for y in 0..<ios.height { for x in 0..<ios.width where abs(Int(ios[x, y].a) - Int(ours[x, y].a)) > 128 { apart += 1 } }
        let share = Double(apart) / Double(ios.width * ios.height)
        XCTAssertLessThanOrEqual(share, 0.02, "\(apart) pixels' coverage differs by more than half")
        print(String(format: "ios-parity | testUIView.1 | 73x71 | the glyph's box ±%d px; %.2f %% of pixels over half a step apart |", box, share * 100))
    }

    /// The box of the blue ink (the tint: blue over 200, red under 100) inside `region`.
    static func blueInk(_ b: Bitmap, in region: PixelRect) -> PixelRect? {
        let r = region.intersection(b.bounds)
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in r.minY..<r.maxY {
            for x in r.minX..<r.maxX {
                let p = b[x, y]
                guard p.b > 200, p.r < 100 else { continue }
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    // MARK: Layers

    /// `testCALayer.1.png`: a 100-pt red layer with a 4-pt black border, @3x: the same pixels.
    func testALayerWithABorderAsIOSDrawsIt() throws {
        let ios = try reference("testCALayer.1.png")
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.backgroundColor = UIColor.red.cgColor
        layer.borderWidth = 4
        layer.borderColor = UIColor.black.cgColor
        let ours = try ViewImageConfig.draw(layer, traits: UITraitCollection(displayScale: 3))
        XCTAssertNil(FrameComparison.exact.compare(ios, ours), "every pixel")
        print("ios-parity | testCALayer.1 | 300x300 | identical |")
    }

    /// `testCALayerWithGradient.1.png`: a red-to-yellow `CAGradientLayer`, @3x. The same size and
    /// direction; the colours between differ (iOS interpolates in its display's colour space and dithers:
    /// see docs/ios-parity.md), and the test says by how much rather than failing on it.
    func testAGradientLayerAgainstIOSs() throws {
        let ios = try reference("testCALayerWithGradient.1.png")
        let base = CALayer()
        base.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let gradient = CAGradientLayer()
        gradient.colors = [UIColor.red.cgColor, UIColor.yellow.cgColor]
        gradient.frame = base.frame
        base.addSublayer(gradient)
        let ours = try ViewImageConfig.draw(base, traits: UITraitCollection(displayScale: 3))
        XCTAssertEqual([ours.width, ours.height], [ios.width, ios.height])
        var greens: [(ios: Int, ours: Int)] = []
        for y in stride(from: 0, to: 300, by: 30) {
            let a = Self.onWhite(ios, 150, y), b = Self.onWhite(ours, 150, y)
            XCTAssertEqual(b[0], 255, "red throughout")
            XCTAssertLessThanOrEqual(b[2], 1, "no blue")
            greens.append((a[1], b[1]))
        }
        // Both run from red at the top to yellow at the bottom, green rising all the way.
        for pair in zip(greens, greens.dropFirst()) { XCTAssertLessThan(pair.0.ours, pair.1.ours) }
        let gap = greens.map { abs($0.ios - $0.ours) }.max() ?? 0
        print("ios-parity | testCALayerWithGradient.1 | 300x300 | green every 10 pt, iOS \(greens.map(\.ios)), here \(greens.map(\.ours)); largest gap \(gap) levels |")
    }

    // MARK: A label at every text size

    /// `testTraitsWithView.label-*.png`: a title-1 label that adjusts to the text size, sized to fit, at
    /// every text size: its height (the line height) within 1 pt plus 2 % (Inter's line is 1.21 em, SF's
    /// 1.19, and the height is rounded up to whole points), its width within 10 % (Inter sets wider or narrower than
    /// SF), its first glyph's foot (the baseline) as far from the bottom within 1 pt.
    func testALabelAtEveryTextSizeAsIOSDrawsIt() throws {
        var worst = (height: 0, width: 0.0, baseline: 0)
        for (name, size) in Self.textSizes {
            let ios = try reference("testTraitsWithView.label-\(name).png")
            let label = UILabel()
            label.font = .preferredFont(forTextStyle: .title1)
            label.adjustsFontForContentSizeCategory = true
            label.text = "What's the point?"
            let ours = try ViewImageConfig.draw(label, size: nil, traits: UITraitCollection(traitsFrom: [UITraitCollection(preferredContentSizeCategory: size),
                                                                                                       UITraitCollection(displayScale: 3)]))
            let height = abs(ours.height - ios.height), width = abs(Double(ours.width - ios.width)) / Double(ios.width)
            let a = try XCTUnwrap(Self.ink(ios, in: ios.bounds)), b = try XCTUnwrap(Self.ink(ours, in: ours.bounds))
            // The foot of "W" (no descender) to the bottom of the label.
            let baseline = abs((ios.height - Self.footOfFirstGlyph(ios, ink: a)) - (ours.height - Self.footOfFirstGlyph(ours, ink: b)))
            worst = (max(worst.height, height), max(worst.width, width), max(worst.baseline, baseline))
            XCTAssertLessThanOrEqual(height, 3 + ios.height * 2 / 100, "label-\(name): \(ours.height) px tall, iOS's \(ios.height)")
            XCTAssertLessThanOrEqual(width, 0.10, "label-\(name): \(ours.width) px wide, iOS's \(ios.width)")
            XCTAssertLessThanOrEqual(baseline, 3, "label-\(name): the baseline")
        }
        print(String(format: "ios-parity | testTraitsWithView.label, 12 pictures | worst: height %d px, width %.1f %%, baseline %d px |",
                     worst.height, worst.width * 100, worst.baseline))
    }

    // MARK: A label in a frame of half points

    /// `testPrecision.ios.png`: a `UILabel` 43.5 × 20.5 pt with a white background and "Hello" in the
    /// default 17-pt system font, at 3x (the label of swift-snapshot-testing's precision test): the same
    /// size in pixels (the half-point frame rounded up to 131 × 62), the white background, and the text
    /// where iOS puts it: its left edge within 1 pt (the font's side bearing), its top and its baseline (the
    /// foot of "H") within 1 pt, its height within 5 % (Inter's capitals against SF's).
    func testALabelInAHalfPointFrameAsIOSDrawsIt() throws {
        let ios = try reference("testPrecision.ios.png")
        let label = UILabel()
        label.frame = CGRect(x: 0, y: 0, width: 43.5, height: 20.5)
        label.backgroundColor = .white
        label.text = "Hello"
        let ours = try ViewImageConfig.draw(label, size: nil, traits: UITraitCollection(displayScale: 3))
        try Self.keep(ours, name: "testPrecision.ios.png")
        XCTAssertEqual([ours.width, ours.height], [ios.width, ios.height])
        XCTAssertEqual(Self.onWhite(ours, 60, 2), [255, 255, 255], "white")
        // (iOS's picture has a grey line along its top row and its last column, where the half-point frame
        // meets the pixel grid: the text is looked for inside them.)
        let inside = PixelRect(x: 0, y: 1, width: ios.width - 1, height: ios.height - 2)
        let a = try XCTUnwrap(Self.ink(ios, in: inside)), b = try XCTUnwrap(Self.ink(ours, in: inside))
        let left = abs(a.minX - b.minX), top = abs(a.minY - b.minY)
        let foot = abs(Self.footOfFirstGlyph(ios, ink: a) - Self.footOfFirstGlyph(ours, ink: b))
        let height = abs(Double(a.height - b.height)) / Double(a.height)
        XCTAssertLessThanOrEqual(left, 3, "the text's left edge at \(b.minX) px, iOS's at \(a.minX)")
        XCTAssertLessThanOrEqual(top, 3, "the text's top at \(b.minY) px, iOS's at \(a.minY)")
        XCTAssertLessThanOrEqual(foot, 3, "the baseline")
        XCTAssertLessThanOrEqual(height, 0.05, "the text \(b.height) px tall, iOS's \(a.height)")
        print(String(format: "ios-parity | testPrecision.ios | %dx%d | left ±%d px, top ±%d, baseline ±%d, height %.1f %%; ink %d px wide, iOS's %d |",
                     ios.width, ios.height, left, top, foot, height * 100, b.width, a.width))
    }

    /// The lowest ink row of the first glyph (the columns up to the first blank column after the ink starts).
    static func footOfFirstGlyph(_ b: Bitmap, ink: PixelRect) -> Int {
        var x = ink.minX
        while x < ink.maxX, Self.ink(b, in: PixelRect(x: x, y: ink.minY, width: 1, height: ink.height)) != nil { x += 1 }
        return (Self.ink(b, in: PixelRect(x: ink.minX, y: ink.minY, width: x - ink.minX, height: ink.height))?.maxY ?? ink.maxY)
    }

    static let textSizes: [(String, UIContentSizeCategory)] = [
        ("extra-small", .extraSmall), ("small", .small), ("medium", .medium), ("large", .large), ("extra-large", .extraLarge),
        ("extra-extra-large", .extraExtraLarge), ("extra-extra-extra-large", .extraExtraExtraLarge),
        ("accessibility-medium", .accessibilityMedium), ("accessibility-large", .accessibilityLarge),
        ("accessibility-extra-large", .accessibilityExtraLarge), ("accessibility-extra-extra-large", .accessibilityExtraExtraLarge),
        ("accessibility-extra-extra-extra-large", .accessibilityExtraExtraExtraLarge),
    ]

    // MARK: Four labels on every device

    /// Four labels held to the safe area: a headline at the top, centred; body text at the leading and
    /// trailing edges, centred vertically; a subheadline at the bottom, centred. Fonts are set when the
    /// traits arrive (`traitCollectionDidChange`), so they follow the text size.
    final class Labels: UIViewController {
        let top = UILabel(), leading = UILabel(), trailing = UILabel(), bottom = UILabel()

        override func viewDidLoad() {
            super.viewDidLoad()
            view.backgroundColor = .white
            top.text = "What's"
            leading.text = "the"
            trailing.text = "point"
            bottom.text = "?"
            for label in [top, leading, trailing, bottom] {
                label.translatesAutoresizingMaskIntoConstraints = false
                view.addSubview(label)
            }
            let safe = view.safeAreaLayoutGuide
            NSLayoutConstraint.activate([
                top.topAnchor.constraint(equalTo: safe.topAnchor),
                top.centerXAnchor.constraint(equalTo: safe.centerXAnchor),
                leading.leadingAnchor.constraint(equalTo: safe.leadingAnchor),
                leading.trailingAnchor.constraint(lessThanOrEqualTo: safe.centerXAnchor),
                leading.centerYAnchor.constraint(equalTo: safe.centerYAnchor),
                trailing.leadingAnchor.constraint(greaterThanOrEqualTo: safe.centerXAnchor),
                trailing.trailingAnchor.constraint(equalTo: safe.trailingAnchor),
                trailing.centerYAnchor.constraint(equalTo: safe.centerYAnchor),
                bottom.bottomAnchor.constraint(equalTo: safe.bottomAnchor),
                bottom.centerXAnchor.constraint(equalTo: safe.centerXAnchor),
            ])
        }

        override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
            super.traitCollectionDidChange(previousTraitCollection)
            top.font = .preferredFont(forTextStyle: .headline, compatibleWith: traitCollection)
            leading.font = .preferredFont(forTextStyle: .body, compatibleWith: traitCollection)
            trailing.font = .preferredFont(forTextStyle: .body, compatibleWith: traitCollection)
            bottom.font = .preferredFont(forTextStyle: .subheadline, compatibleWith: traitCollection)
            view.setNeedsUpdateConstraints()
            view.updateConstraintsIfNeeded()
        }
    }

    /// The iOS pictures of the four labels: file name, device, traits over the device's.
    static let labelScreens: [(String, ViewImageConfig, UITraitCollection)] = {
        var screens: [(String, ViewImageConfig, UITraitCollection)] = [
            ("iphone-se", .iPhoneSe, UITraitCollection()), ("iphone-se-alternative", .iPhoneSe(.landscape), UITraitCollection()),
            ("iphone-8", .iPhone8, UITraitCollection()), ("iphone-8-alternative", .iPhone8(.landscape), UITraitCollection()),
            ("iphone-8-plus", .iPhone8Plus, UITraitCollection()), ("iphone-8-plus-alternative", .iPhone8Plus(.landscape), UITraitCollection()),
            ("iphone-x", .iPhoneX, UITraitCollection()), ("iphone-x-alternative", .iPhoneX(.landscape), UITraitCollection()),
            ("iphone-xr", .iPhoneXr, UITraitCollection()), ("iphone-xr-alternative", .iPhoneXr(.landscape), UITraitCollection()),
            ("iphone-xs-max", .iPhoneXsMax, UITraitCollection()), ("iphone-xs-max-alternative", .iPhoneXsMax(.landscape), UITraitCollection()),
        ]
        let pads: [(String, String, (ViewImageConfig.TabletOrientation) -> ViewImageConfig)] = [
            ("ipad-mini", "ipad-mini", ViewImageConfig.iPadMini), ("ipad-9-7", "ipad-9-7", ViewImageConfig.iPad9_7),
            ("ipad-10-2", "ipad-10-2", ViewImageConfig.iPad10_2), ("ipad-pro-10-5", "ipad-pro-10inch", ViewImageConfig.iPadPro10_5),
            ("ipad-pro-11", "ipad-pro-11inch", ViewImageConfig.iPadPro11), ("ipad-pro-12-9", "ipad-pro-12inch", ViewImageConfig.iPadPro12_9),
        ]
        for (name, splitName, config) in pads {
            screens.append((name, config(.landscape(splitView: .full)), UITraitCollection()))
            screens.append((name + "-alternative", config(.portrait(splitView: .full)), UITraitCollection()))
            // (One of the references is named without its third.)
            screens.append((splitName == "ipad-10-2" ? "ipad-10-2-split-landscape" : splitName + "-33-split-landscape",
                            config(.landscape(splitView: .oneThird)), UITraitCollection()))
            screens.append((splitName + "-50-split-landscape", config(.landscape(splitView: .oneHalf)), UITraitCollection()))
            screens.append((splitName + "-66-split-landscape", config(.landscape(splitView: .twoThirds)), UITraitCollection()))
            screens.append((splitName + "-33-split-portrait", config(.portrait(splitView: .oneThird)), UITraitCollection()))
            screens.append((splitName + "-66-split-portrait", config(.portrait(splitView: .twoThirds)), UITraitCollection()))
        }
        for (name, size) in textSizes { screens.append(("iphone-se-" + name, .iPhoneSe, UITraitCollection(preferredContentSizeCategory: size))) }
        return screens
    }()

    /// What is measured of the four labels, in device pixels: the top and bottom labels' ink centred
    /// across; the leading label's ink left edge, the trailing one's right edge; the side labels' ink
    /// centred down the safe area; the top label's ink top and the bottom label's ink foot; the side
    /// labels' ink height (their text size).
    struct LabelInk {
        var topCentre, bottomCentre, leadingLeft, trailingRight, sideMiddle, topTop, bottomFoot, sideHeight: Int

        init(_ b: Bitmap) throws {
            let w = b.width, h = b.height
            let top = try XCTUnwrap(IOSParityTests.ink(b, in: PixelRect(x: 0, y: 0, width: w, height: h / 3)), "the top label")
            let bottom = try XCTUnwrap(IOSParityTests.ink(b, in: PixelRect(x: 0, y: 2 * h / 3, width: w, height: h - 2 * h / 3)), "the bottom label")
            let leading = try XCTUnwrap(IOSParityTests.ink(b, in: PixelRect(x: 0, y: h / 3, width: w / 2, height: h / 3)), "the leading label")
            let trailing = try XCTUnwrap(IOSParityTests.ink(b, in: PixelRect(x: w / 2, y: h / 3, width: w - w / 2, height: h / 3)), "the trailing label")
            topCentre = top.minX + top.maxX
            bottomCentre = bottom.minX + bottom.maxX
            leadingLeft = leading.minX
            trailingRight = trailing.maxX
            sideMiddle = leading.minY + leading.maxY
            topTop = top.minY
            bottomFoot = bottom.maxY
            sideHeight = leading.height
        }
    }

    func testFourLabelsOnEveryDeviceAndTextSizeAsIOSDrawsThem() throws {
        var rows: [String] = [], worst: [String: Int] = [:]
        for (name, config, traits) in Self.labelScreens {
            let file = "testTraits.\(name).png"
            let ios = try reference(file)
            let ours = try draw(Labels(), on: config, traits: traits, name: file)
            guard ours.width == ios.width, ours.height == ios.height else {
                XCTFail("\(file): iOS drew \(ios.width)x\(ios.height) px, here \(ours.width)x\(ours.height)")
                continue
            }
            let a = try LabelInk(ios), b = try LabelInk(ours)
            // Centres are sums of two edges (half-pixels); every figure below is in device pixels.
            let d = [
                "centred": max(abs(a.topCentre - b.topCentre), abs(a.bottomCentre - b.bottomCentre)) / 2,
                "edges": max(abs(a.leadingLeft - b.leadingLeft), abs(a.trailingRight - b.trailingRight)),
                "middle": abs(a.sideMiddle - b.sideMiddle) / 2,
                "top": abs(a.topTop - b.topTop),
                "foot": abs(a.bottomFoot - b.bottomFoot),
                "size": abs(a.sideHeight - b.sideHeight) * 100 / max(1, a.sideHeight),
            ]
            for (key, value) in d { worst[key] = max(worst[key] ?? 0, value) }
            rows.append("ios-parity | testTraits.\(name) | \(ios.width)x\(ios.height) | " + d.keys.sorted().map { "\($0) \(d[$0]!)" }.joined(separator: ", ") + " |")
            // Where the text is placed: within 1 pt (3 px) across, the ink's edges within 2 pt (SF's and Inter's
            // side bearings differ); down, within 2 pt (their ascents and descents differ); the body's ink height
            // (its text size) within 12 % (Inter's x-height and ascenders are taller than SF's).
            XCTAssertLessThanOrEqual(d["centred"]!, 3, "\(file): the centred labels")
            XCTAssertLessThanOrEqual(d["edges"]!, 6, "\(file): the leading and trailing labels' edges")
            XCTAssertLessThanOrEqual(d["middle"]!, 6, "\(file): the side labels' vertical centre")
            XCTAssertLessThanOrEqual(d["top"]!, 6, "\(file): the top label under the safe area's top")
            XCTAssertLessThanOrEqual(d["foot"]!, 6, "\(file): the bottom label over the safe area's bottom")
            XCTAssertLessThanOrEqual(d["size"]!, 12, "\(file): the body text's size (ink height, %)")
        }
        print(rows.joined(separator: "\n"))
        print("ios-parity | testTraits, \(rows.count) pictures | worst: " + worst.keys.sorted().map { "\($0) \(worst[$0]!)" }.joined(separator: ", ") + " |")
    }
}
