import RasterCore
import SmokescreenStage
import SmokescreenStageTesting
import XCTest

/// `assertSnapshot(of: controller, as: .image(on: .iPhoneSe))` as swift-snapshot-testing spells it: the
/// devices' screens, safe areas and traits, the controller laid out on them, and the traits it sees.
final class ViewImageConfigTests: XCTestCase {
    func testPhonesHaveTheirScreensSafeAreasAndTraits() {
        let thirteen = ViewImageConfig.iPhone13
        XCTAssertEqual(thirteen.size, CGSize(width: 390, height: 844))
        XCTAssertEqual(thirteen.safeArea, UIEdgeInsets(top: 47, left: 0, bottom: 34, right: 0))
        XCTAssertEqual(thirteen.traits.horizontalSizeClass, .compact)
        XCTAssertEqual(thirteen.traits.verticalSizeClass, .regular)
        XCTAssertEqual(thirteen.traits.userInterfaceIdiom, .phone)
        XCTAssertEqual(thirteen.traits.preferredContentSizeCategory, .medium)
        XCTAssertEqual(thirteen.traits.displayScale, 3)
        let landscape = ViewImageConfig.iPhone13(.landscape)
        XCTAssertEqual(landscape.size, CGSize(width: 844, height: 390))
        XCTAssertEqual(landscape.safeArea, UIEdgeInsets(top: 0, left: 47, bottom: 21, right: 47))
        XCTAssertEqual(landscape.traits.verticalSizeClass, .compact)
        XCTAssertEqual(landscape.traits.horizontalSizeClass, .compact)
        // The Plus and Max phones are regular wide in landscape.
        XCTAssertEqual(ViewImageConfig.iPhone8Plus(.landscape).traits.horizontalSizeClass, .regular)
        XCTAssertEqual(ViewImageConfig.iPhone13ProMax(.landscape).traits.horizontalSizeClass, .regular)
        XCTAssertEqual(ViewImageConfig.iPhoneSe.size, CGSize(width: 320, height: 568))
        XCTAssertEqual(ViewImageConfig.iPhoneSe.safeArea.top, 20)
        XCTAssertEqual(ViewImageConfig.iPhoneSe(.landscape).safeArea, .zero)
        XCTAssertEqual(ViewImageConfig.iPhoneSe.traits.displayScale, 2)
        XCTAssertEqual(ViewImageConfig.iPhoneX(.landscape).safeArea, UIEdgeInsets(top: 0, left: 44, bottom: 24, right: 44))
        XCTAssertEqual(ViewImageConfig.iPhone13Mini.safeArea.top, 50)
        XCTAssertEqual(ViewImageConfig.iPhone15Pro.size, CGSize(width: 393, height: 852))
        XCTAssertEqual(ViewImageConfig.iPhone15Pro.safeArea.top, 59)
    }

    func testPadsHaveTheirSplits() {
        let pro = ViewImageConfig.iPadPro11
        XCTAssertEqual(pro.size, CGSize(width: 1194, height: 834), "landscape by default")
        XCTAssertEqual(pro.safeArea, UIEdgeInsets(top: 24, left: 0, bottom: 20, right: 0))
        XCTAssertEqual(pro.traits.horizontalSizeClass, .regular)
        XCTAssertEqual(pro.traits.userInterfaceIdiom, .pad)
        XCTAssertEqual(pro.traits.displayScale, 2)
        XCTAssertEqual(ViewImageConfig.iPadPro11(.portrait).size, CGSize(width: 834, height: 1194))
        let third = ViewImageConfig.iPadPro11(.portrait(splitView: .oneThird))
        XCTAssertEqual(third.size, CGSize(width: 320, height: 1194))
        XCTAssertEqual(third.traits.horizontalSizeClass, .compact)
        XCTAssertEqual(ViewImageConfig.iPadPro11(.landscape(splitView: .oneHalf)).traits.horizontalSizeClass, .compact)
        XCTAssertEqual(ViewImageConfig.iPadPro12_9(.landscape(splitView: .oneHalf)).traits.horizontalSizeClass, .regular)
        XCTAssertEqual(ViewImageConfig.iPadPro12_9(.landscape(splitView: .oneHalf)).size, CGSize(width: 678, height: 1024))
        XCTAssertEqual(ViewImageConfig.iPad9_7.size, ViewImageConfig.iPadMini.size)
    }

    func testTraitsCombineTheLastSpecifiedWinning() {
        let empty = UITraitCollection()
        XCTAssertEqual(empty.horizontalSizeClass, .unspecified)
        XCTAssertEqual(empty.displayScale, 0)
        XCTAssertEqual(empty.userInterfaceIdiom, .unspecified)
        let merged = UITraitCollection(traitsFrom: [.iPhoneSe(.portrait), UITraitCollection(displayScale: 1), UITraitCollection(userInterfaceStyle: .dark)])
        XCTAssertEqual(merged.displayScale, 1)
        XCTAssertEqual(merged.userInterfaceStyle, .dark)
        XCTAssertEqual(merged.horizontalSizeClass, .compact, "kept from the first")
        XCTAssertTrue(merged.containsTraits(in: UITraitCollection(verticalSizeClass: .regular)))
        XCTAssertFalse(merged.containsTraits(in: UITraitCollection(displayScale: 2)))
        XCTAssertTrue(merged.containsTraits(in: nil))
    }

    /// A controller that records what it saw when it was laid out.
    final class Recording: UIViewController {
        var safeArea = UIEdgeInsets.zero
        var traits = UITraitCollection()
        var bodySize: CGFloat = 0
        let header = UIView()
        let heading = UILabel()

        override func viewDidLoad() {
            super.viewDidLoad()
            view.backgroundColor = .systemBackground
            header.backgroundColor = .systemBlue
            view.addSubview(header)
            heading.text = "Settings"
            heading.textColor = .white
            header.addSubview(heading)
        }

        override func viewDidLayoutSubviews() {
            super.viewDidLayoutSubviews()
            safeArea = view.safeAreaInsets
            traits = traitCollection
            // A 40-pt band under the safe area's top, inset 16 pt.
            header.frame = CGRect(x: 16, y: view.safeAreaInsets.top, width: view.bounds.width - 32, height: 40)
            // Dynamic Type's body style at the traits' text size.
            heading.font = .preferredFont(forTextStyle: .body)
            bodySize = heading.font.pointSize
            heading.frame = CGRect(x: 12, y: 10, width: 200, height: 20)
        }
    }

    func testAControllerIsLaidOutOnTheDevice() throws {
        let controller = Recording()
        assertSnapshot(of: controller, as: .image(on: .iPhoneSe, traits: UITraitCollection(displayScale: 1)))
        XCTAssertEqual(controller.view.frame.size, CGSize(width: 320, height: 568))
        XCTAssertEqual(controller.safeArea, UIEdgeInsets(top: 20, left: 0, bottom: 0, right: 0))
        XCTAssertEqual(controller.traits.horizontalSizeClass, .compact)
        XCTAssertEqual(controller.traits.preferredContentSizeCategory, .medium)
        XCTAssertEqual(controller.bodySize, 16, "the body style at the medium text size (17 at the default, large)")
        XCTAssertEqual(controller.traits.displayScale, 1)
        // The picture: 320 × 568 px, white with the blue band at y 20…60, x 16…304.
        let (stage, _) = try ViewImageConfig.stage(.iPhoneSe, traits: UITraitCollection(displayScale: 1), size: .zero)
        let again = Recording()
        stage.show(again)
        let bitmap = try XCTUnwrap(try stage.snapshot(of: again.view).bitmap)
        XCTAssertEqual([bitmap.width, bitmap.height], [320, 568])
        XCTAssertEqual(bitmap.rgba(100, 10), [255, 255, 255, 255])
        XCTAssertEqual(bitmap.rgba(280, 30), [0, 122, 255, 255])
        XCTAssertEqual(bitmap.rgba(10, 30), [255, 255, 255, 255])
        XCTAssertEqual(bitmap.rgba(100, 60), [255, 255, 255, 255])
    }

    func testDarkTraitsReachTheColours() throws {
        let (stage, _) = try ViewImageConfig.stage(.iPhoneSe, traits: UITraitCollection(traitsFrom: [UITraitCollection(displayScale: 1),
                                                                                                 UITraitCollection(userInterfaceStyle: .dark)]), size: .zero)
        let controller = Recording()
        stage.show(controller)
        let bitmap = try XCTUnwrap(try stage.snapshot(of: controller.view).bitmap)
        XCTAssertEqual(bitmap.rgba(100, 10), [0, 0, 0, 255], "systemBackground in the dark")
    }

    func testAViewAtItsOwnSize() throws {
        let view = UIView(frame: CGRect(x: 50, y: 50, width: 30, height: 20))
        view.backgroundColor = .systemRed
        let small = UITraitCollection(displayScale: 1)
        assertSnapshot(of: view, as: .image(traits: small))
        // A red one level off in two channels: within a ΔE of 2 of the reference, not the same bytes.
        let nearly = UIView(frame: CGRect(x: 0, y: 0, width: 30, height: 20))
        nearly.backgroundColor = UIColor(red: 254 / 255, green: 60 / 255, blue: 48 / 255, alpha: 1)
        assertSnapshot(of: nearly, as: .image(perceptualPrecision: 0.98, traits: small), named: "1")
        let exact = verifySnapshot(of: nearly, as: .image(traits: small), named: "1")
        XCTAssertNotNil(exact, "compared exactly, the nearly red view differs")
        // Every pixel differs in two bytes of four: 50 % of the bytes.
        XCTAssertNil(verifySnapshot(of: nearly, as: .image(precision: 0.5, traits: small), named: "1"), "half the bytes may differ")
        XCTAssertNotNil(verifySnapshot(of: nearly, as: .image(precision: 0.51, traits: small), named: "1"), "49 % of the bytes may differ")
    }
}
