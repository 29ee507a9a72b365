import RasterCore
import SmokescreenStage
import SmokescreenStageTesting
import XCTest

/// `UIImage(systemName:)`: Smokescreen's own drawings of the symbols, sized and weighted by their
/// configuration, tinted by the views that show them.
final class SymbolImageTests: XCTestCase {
    static let names = ["plus", "minus", "xmark", "checkmark", "chevron.left", "chevron.right", "chevron.up", "chevron.down",
                        "arrow.left", "arrow.right", "arrow.up", "arrow.down", "ellipsis", "line.3.horizontal", "magnifyingglass", "trash",
                        "star", "star.fill", "heart", "heart.fill", "play", "play.fill", "pause", "pause.fill", "stop.fill", "square", "square.fill",
                        "square.and.arrow.up", "house", "house.fill", "person", "person.fill", "bell", "bell.fill", "bookmark", "bookmark.fill",
                        "envelope", "photo", "gearshape", "paperplane", "circle", "circle.fill", "plus.circle", "plus.circle.fill",
                        "xmark.circle", "xmark.circle.fill", "checkmark.circle", "checkmark.circle.fill", "info.circle", "info.circle.fill",
                        "questionmark.circle", "exclamationmark.circle.fill", "ellipsis.circle", "person.circle", "chevron.right.circle.fill", "minus.circle.fill"]

    /// Every symbol in a grid, tinted blue, `size` points each.
    static func sheet(size: CGFloat, columns: Int = 8) -> UIView {
        let cell = size * 1.6
        let rows = (names.count + columns - 1) / columns
        let root = UIView(frame: CGRect(x: 0, y: 0, width: CGFloat(columns) * cell, height: CGFloat(rows) * cell))
        root.backgroundColor = .white
        for (index, name) in names.enumerated() {
            let view = UIImageView(image: UIImage(systemName: name, withConfiguration: UIImage.SymbolConfiguration(pointSize: size)))
            view.tintColor = .systemBlue
            view.contentMode = .center
            view.frame = CGRect(x: CGFloat(index % columns) * cell, y: CGFloat(index / columns) * cell, width: cell, height: cell)
            root.addSubview(view)
        }
        return root
    }

    /// The sheet at 12 points, kept as a golden at @1x (looked at @3x at 17 points before it was
    /// recorded: `SMOKESCREEN_PARITY_OUT` writes that).
    func testEverySymbolIsDrawn() throws {
        try IOSParityTests.keep(try ViewImageConfig.draw(Self.sheet(size: 17), size: nil, traits: UITraitCollection(displayScale: 3)), name: "symbols@3x.png")
        for name in Self.names {
            let image = try XCTUnwrap(UIImage(systemName: name), name)
            XCTAssertTrue(image.isSymbolImage)
            XCTAssertTrue(UIImage.isDrawnSymbol(name), "\(name) is drawn, not a placeholder")
            XCTAssertGreaterThan(image.size.width, 5, name)
        }
        assertSnapshot(of: Self.sheet(size: 12), as: .image(traits: UITraitCollection(displayScale: 1)))
    }

    /// A name not drawn here is a placeholder (where iOS returns nil for a name it does not know), and
    /// the render says so.
    func testAnUnknownNameIsAPlaceholderAndNoted() throws {
        let stage = try makeStage()
        let image = try XCTUnwrap(UIImage(systemName: "not.a.symbol"))
        XCTAssertTrue(image.isSymbolImage)
        stage.window.addSubview(UIImageView(image: image))
        XCTAssertTrue(stage.notDrawn.contains { $0.contains("not.a.symbol") }, "\(stage.notDrawn)")
    }

    /// The body text style at 17 points by default: a plus 17 points across with 1.6-point strokes (at
    /// @3x: 51 and 5 pixels); bold strokes 1.5 times as wide, a large scale 1.29 times the size, a point
    /// size or a text style as given; the configuration merges over the image's own.
    func testConfigurationsSizeAndWeighSymbols() throws {
        func ink(_ image: UIImage, tint: UIColor = .black) throws -> (width: Int, stroke: Int) {
            let view = UIImageView(image: image)
            view.tintColor = tint
            let b = try ViewImageConfig.draw(view, size: nil, traits: UITraitCollection(displayScale: 3))
            let middle = b.height / 2
            let row = (0..<b.width).filter { b[$0, middle].a > 127 }
            let column = (0..<b.height).filter { b[b.width / 4, $0].a > 127 }
            return (row.count, column.count)
        }
        // Symbols are drawn at the main screen's scale: @3x here, as the pictures measured.
        let traits = UITraitCollection.current
        UITraitCollection.current = UITraitCollection(traitsFrom: [traits, UITraitCollection(displayScale: 3)])
        defer { UITraitCollection.current = traits }
        let plus = try ink(try XCTUnwrap(UIImage(systemName: "plus")))
        XCTAssertEqual(plus.width, 51 - 3, accuracy: 3, "17 points across, less the round ends' inset")
        XCTAssertEqual(plus.stroke, 5, accuracy: 1, "1.6-point strokes")
        let bold = try ink(try XCTUnwrap(UIImage(systemName: "plus", withConfiguration: UIImage.SymbolConfiguration(weight: .bold))))
        XCTAssertEqual(bold.stroke, 7, accuracy: 1)
        let large = try XCTUnwrap(UIImage(systemName: "plus", withConfiguration: UIImage.SymbolConfiguration(scale: .large)))
        let regular = try XCTUnwrap(UIImage(systemName: "plus"))
        XCTAssertEqual(large.size.width / regular.size.width, 1.29, accuracy: 0.05)
        let title = try XCTUnwrap(UIImage(systemName: "plus", withConfiguration: UIImage.SymbolConfiguration(textStyle: .largeTitle)))
        XCTAssertEqual(title.size.height, 34 + 34 * 0.094, accuracy: 0.5, "the large title's 34 points")
        let merged = large.withConfiguration(UIImage.SymbolConfiguration(weight: .bold))
        XCTAssertEqual(merged.symbolConfiguration?.scale, .large)
        XCTAssertEqual(merged.symbolConfiguration?.weight, .bold)
        XCTAssertGreaterThan(merged.size.width, large.size.width, "room for the bolder strokes' ends")
    }

    /// A view tints a symbol (a template) with its tint colour; `.alwaysOriginal` keeps it black, and a
    /// PNG made a template is tinted too.
    func testViewsTintSymbolsAndTemplates() throws {
        let view = UIImageView(image: UIImage(systemName: "circle.fill"))
        view.tintColor = .systemRed
        let tinted = try ViewImageConfig.draw(view, size: nil, traits: UITraitCollection(displayScale: 1))
        let centre = tinted.rgba(tinted.width / 2, tinted.height / 2)
        XCTAssertEqual(centre, [255, 59, 48, 255], "system red")
        view.image = view.image?.withRenderingMode(.alwaysOriginal)
        let original = try ViewImageConfig.draw(view, size: nil, traits: UITraitCollection(displayScale: 1))
        XCTAssertEqual(original.rgba(original.width / 2, original.height / 2), [0, 0, 0, 255])
        let white = try Bitmap(width: 4, height: 4, fill: PremultipliedRGBA8.white)
        let template = UIImageView(image: UIImage(bitmap: white).withRenderingMode(.alwaysTemplate))
        template.tintColor = .systemGreen
        let green = try ViewImageConfig.draw(template, size: nil, traits: UITraitCollection(displayScale: 1))
        XCTAssertEqual(green.rgba(1, 1), [52, 199, 89, 255])
        // A button's image is its tint colour's, dimmed while highlighted as its title.
        let button = UIButton(type: .system)
        button.setImage(UIImage(systemName: "heart.fill"), for: .normal)
        XCTAssertEqual(button.imageView?.image?.isSymbolImage, true)
        // A tint set on a superview reaches the image views under it, even those added later; a system
        // button draws a PNG left `.automatic` as a template too.
        let container = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        container.backgroundColor = .white
        let star = UIImageView(image: UIImage(systemName: "circle.fill"))
        container.tintColor = .systemRed
        container.addSubview(star)
        let red = try ViewImageConfig.draw(container, size: nil, traits: UITraitCollection(displayScale: 1))
        XCTAssertEqual(red.rgba(Int(star.frame.midX), Int(star.frame.midY)), [255, 59, 48, 255])
        container.tintColor = .systemGreen
        let green2 = try ViewImageConfig.draw(container, size: nil, traits: UITraitCollection(displayScale: 1))
        XCTAssertEqual(green2.rgba(Int(star.frame.midX), Int(star.frame.midY)), [52, 199, 89, 255], "the tint changed above it")
        let system = UIButton(type: .system)
        system.setImage(UIImage(bitmap: white), for: .normal)
        system.tintColor = .systemRed
        system.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        let tintedPNG = try ViewImageConfig.draw(system, size: nil, traits: UITraitCollection(displayScale: 1))
        XCTAssertEqual(tintedPNG.rgba(10, 10), [255, 59, 48, 255], "a system button's image is a template")
        // A preferred configuration applies to images set after it, and the image stays as given.
        let sized = UIImageView()
        sized.preferredSymbolConfiguration = UIImage.SymbolConfiguration(pointSize: 40)
        let plain = try XCTUnwrap(UIImage(systemName: "plus"))
        sized.image = plain
        XCTAssertTrue(sized.image === plain)
        XCTAssertGreaterThan(sized.intrinsicContentSize.width, plain.size.width * 2, "drawn at 40 points")
    }
}


/// UIKit's own chrome that draws symbols: the detail button of a cell, the info and close buttons.
final class ChromeSymbolTests: XCTestCase {
    func testDetailAccessoriesAndInfoAndCloseButtonsAreDrawn() throws {
        let stage = try makeStage(width: 200, height: 100)
        stage.window.backgroundColor = .white
        let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
        cell.frame = CGRect(x: 0, y: 0, width: 200, height: 44)
        cell.accessoryType = .detailDisclosureButton
        stage.window.addSubview(cell)
        let info = UIButton(type: .infoLight)
        XCTAssertEqual(info.frame.size.width, info.frame.size.height)
        XCTAssertGreaterThan(info.frame.width, 20)
        info.frame.origin = CGPoint(x: 10, y: 60)
        stage.window.addSubview(info)
        let close = UIButton(type: .close)
        XCTAssertEqual(close.frame.size, CGSize(width: 30, height: 30))
        close.frame.origin = CGPoint(x: 60, y: 55)
        stage.window.addSubview(close)
        try stage.wait(0)
        XCTAssertEqual(stage.notDrawn, [], "every symbol drawn")
        let b = try stage.bitmap(ofFrame: 0)
        try IOSParityTests.keep(b, name: "chrome-symbols.png")
        func blue(_ xs: Range<Int>, _ ys: Range<Int>) -> Int { ys.reduce(0) { n, y in n + xs.filter { b.rgba($0, y)[2] > 200 && b.rgba($0, y)[0] < 80 }.count } }
        XCTAssertGreaterThan(blue(130..<190, 0..<44), 20, "the cell's info symbol in the tint")
        XCTAssertGreaterThan(blue(10..<40, 60..<90), 20, "the info button's")
        let grey = (55..<95).flatMap { y in (60..<90).filter { let p = b.rgba($0, y); return p[0] < 240 && abs(Int(p[0]) - Int(p[2])) < 12 } }
        XCTAssertFalse(grey.isEmpty, "the close button's grey circle")
    }
}
