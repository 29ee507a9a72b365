import RasterCore
import SmokescreenStage
import SmokescreenStageTesting
import XCTest

/// iOS 15's `UIButton.Configuration`: the four styles, sizes, images beside titles, subtitles, and the
/// colours following the button's state.
final class ButtonConfigurationTests: XCTestCase {
    static func gallery() -> UIView {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 220))
        root.backgroundColor = .systemBackground
        let styles: [(String, UIButton.Configuration)] = [("Plain", .plain()), ("Gray", .gray()), ("Tinted", .tinted()), ("Filled", .filled())]
        var y: CGFloat = 10
        for (name, style) in styles {
            var x: CGFloat = 10
            for size in [UIButton.Configuration.Size.small, .medium, .large] {
                var configuration = style
                configuration.title = name
                configuration.buttonSize = size
                let button = UIButton(configuration: configuration)
                button.frame.origin = CGPoint(x: x, y: y)
                root.addSubview(button)
                x += button.frame.width + 8
            }
            y += 50
        }
        return root
    }

    static func extras() -> UIView {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 150))
        root.backgroundColor = .systemBackground
        var withImage = UIButton.Configuration.filled()
        withImage.title = "Add"
        withImage.image = UIImage(systemName: "plus")
        withImage.imagePadding = 6
        withImage.cornerStyle = .capsule
        let add = UIButton(configuration: withImage)
        add.frame.origin = CGPoint(x: 10, y: 10)
        root.addSubview(add)
        var withSubtitle = UIButton.Configuration.tinted()
        withSubtitle.title = "Download"
        withSubtitle.subtitle = "12 MB"
        withSubtitle.image = UIImage(systemName: "arrow.down")
        withSubtitle.imagePlacement = .top
        withSubtitle.imagePadding = 4
        let download = UIButton(configuration: withSubtitle)
        download.frame.origin = CGPoint(x: 120, y: 10)
        root.addSubview(download)
        let pressed = UIButton(configuration: .filled())
        pressed.configuration?.title = "Pressed"
        pressed.frame = CGRect(origin: CGPoint(x: 10, y: 100), size: pressed.sizeThatFits(.zero))
        pressed.isHighlighted = true
        root.addSubview(pressed)
        let disabled = UIButton(configuration: .filled())
        disabled.configuration?.title = "Disabled"
        disabled.frame.origin = CGPoint(x: 120, y: 100)
        disabled.frame.size = disabled.sizeThatFits(.zero)
        disabled.isEnabled = false
        root.addSubview(disabled)
        return root
    }

    /// The styles at three sizes, and images, subtitles, pressed and disabled buttons: goldens at @1x
    /// (looked at @3x before they were recorded; `SMOKESCREEN_PARITY_OUT` writes those).
    func testTheStylesAsDrawn() throws {
        try IOSParityTests.keep(try ViewImageConfig.draw(Self.gallery(), size: nil, traits: UITraitCollection(displayScale: 3)), name: "buttons@3x.png")
        try IOSParityTests.keep(try ViewImageConfig.draw(Self.extras(), size: nil, traits: UITraitCollection(displayScale: 3)), name: "buttons-extras@3x.png")
        assertSnapshot(of: Self.gallery(), as: .image(traits: UITraitCollection(displayScale: 1)), named: "styles")
        assertSnapshot(of: Self.extras(), as: .image(traits: UITraitCollection(displayScale: 1)), named: "extras")
    }

    /// A medium button is its title's size plus 7 points above and below and 12 at the sides; a large
    /// one 14 and 20; a small one 5 and 10 in the subheadline style. Corners: 6 points medium, 8.75
    /// large, capsules small; `.fixed` takes the background's radius.
    func testSizesInsetsAndCorners() throws {
        var configuration = UIButton.Configuration.filled()
        configuration.title = "Continue"
        let label = UILabel()
        label.text = "Continue"
        label.font = .preferredFont(forTextStyle: .body)
        let title = label.sizeThatFits(.zero)
        let medium = UIButton(configuration: configuration)
        XCTAssertEqual(medium.bounds.size, CGSize(width: title.width + 24, height: title.height + 14))
        XCTAssertEqual(medium.intrinsicContentSize, medium.bounds.size)
        configuration.buttonSize = .large
        XCTAssertEqual(configuration.contentInsets, NSDirectionalEdgeInsets(top: 14, leading: 20, bottom: 14, trailing: 20))
        let large = UIButton(configuration: configuration)
        XCTAssertEqual(large.bounds.height, title.height + 28)
        configuration.buttonSize = .small
        let small = UIButton(configuration: configuration)
        label.font = .preferredFont(forTextStyle: .subheadline)
        XCTAssertEqual(small.bounds.size, CGSize(width: label.sizeThatFits(.zero).width + 20, height: label.sizeThatFits(.zero).height + 10))
        // Insets given stay given when the size changes.
        configuration.contentInsets = NSDirectionalEdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4)
        configuration.buttonSize = .large
        XCTAssertEqual(configuration.contentInsets.trailing, 4)
        configuration.setDefaultContentInsets()
        XCTAssertEqual(configuration.contentInsets.leading, 20)
        XCTAssertEqual(UIButton.Configuration.filled().cornerRadius(height: 34), 6)
        XCTAssertEqual(configuration.cornerRadius(height: 50), 8.75)
        configuration.buttonSize = .small
        XCTAssertEqual(configuration.cornerRadius(height: 28), 14)
        configuration.cornerStyle = .fixed
        configuration.background.cornerRadius = 3
        XCTAssertEqual(configuration.cornerRadius(height: 28), 3)
    }

    /// Filled: the tint colour behind white; tinted: the tint at 15 % behind the tint; gray: the
    /// secondary system fill behind the tint; plain: no background. Pressed: 70 %; disabled: grey.
    func testStylesColourThemselvesAndFollowTheState() throws {
        func centre(_ configuration: UIButton.Configuration, highlighted: Bool = false, enabled: Bool = true) throws -> [Int] {
            var configuration = configuration
            configuration.title = " "
            let button = UIButton(configuration: configuration)
            button.isHighlighted = highlighted
            button.isEnabled = enabled
            let b = try ViewImageConfig.draw(button, size: nil, traits: UITraitCollection(displayScale: 1))
            return IOSParityTests.onWhite(b, b.width / 2, b.height / 2)
        }
        XCTAssertEqual(try centre(.filled()), [0, 122, 255])
        XCTAssertEqual(try centre(.tinted()), [217, 235, 255], accuracy: 1)
        XCTAssertEqual(try centre(.gray()), [233, 233, 234], accuracy: 1)
        XCTAssertEqual(try centre(.plain()), [255, 255, 255])
        XCTAssertEqual(try centre(.filled(), highlighted: true), [77, 162, 255], accuracy: 1, "pressed: 70 %")
        XCTAssertEqual(try centre(.filled(), enabled: false), [239, 239, 240], accuracy: 1, "disabled: the tertiary fill")
        var red = UIButton.Configuration.filled()
        red.baseBackgroundColor = .systemRed
        XCTAssertEqual(try centre(red), [255, 59, 48])
        var stroked = UIButton.Configuration.plain()
        stroked.background.backgroundColor = .systemYellow
        XCTAssertEqual(try centre(stroked), [255, 204, 0], "the background's own colour wins")
    }

    /// The update handler runs when the state changes, and what it sets is drawn; a tap sends the
    /// primary action; an image goes where `imagePlacement` says.
    func testTheUpdateHandlerFollowsTheStateAndImagesArePlaced() throws {
        let stage = try makeStage(width: 200, height: 60)
        var tapped = 0
        var configuration = UIButton.Configuration.gray()
        configuration.title = "Like"
        configuration.image = UIImage(systemName: "heart")
        configuration.imagePadding = 5
        let button = UIButton(configuration: configuration, primaryAction: UIAction { _ in tapped += 1 })
        var states: [UIControl.State] = []
        button.configurationUpdateHandler = { button in
            states.append(button.state)
            button.configuration?.image = UIImage(systemName: button.isHighlighted ? "heart.fill" : "heart")
        }
        button.frame.origin = CGPoint(x: 10, y: 10)
        stage.window.addSubview(button)
        try stage.touchDown(at: CGPoint(x: 40, y: 25))
        XCTAssertEqual(button.configuration?.image?.symbolName, "heart.fill")
        stage.liftTouch()
        XCTAssertEqual(button.configuration?.image?.symbolName, "heart")
        XCTAssertEqual(tapped, 1)
        XCTAssertEqual(states, [.normal, .highlighted, .normal])
        button.layoutIfNeeded()
        let image = try XCTUnwrap(button.imageView).frame, title = try XCTUnwrap(button.titleLabel).frame
        XCTAssertEqual(image.minX, 12, "the leading inset")
        XCTAssertEqual(title.minX, image.maxX + 5, accuracy: 0.001, "after the image and its padding")
        button.configuration?.imagePlacement = .trailing
        button.layoutIfNeeded()
        XCTAssertEqual(try XCTUnwrap(button.imageView).frame.minX, try XCTUnwrap(button.titleLabel).frame.maxX + 5, accuracy: 0.001)
    }
}

private func XCTAssertEqual(_ a: [Int], _ b: [Int], accuracy: Int, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, file: file, line: line)
    for (x, y) in zip(a, b) where abs(x - y) > accuracy { XCTFail("\(a) is not \(b) within \(accuracy) \(message)", file: file, line: line); return }
}
