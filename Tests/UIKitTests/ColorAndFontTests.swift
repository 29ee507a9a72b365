import SmokescreenStage
import XCTest

final class ColorAndFontTests: XCTestCase {
    private func components(_ color: UIColor) -> [CGFloat] {
        var r: CGFloat = 0, g: CGFloat = 0, b: CGFloat = 0, a: CGFloat = 0
        color.getRed(&r, green: &g, blue: &b, alpha: &a)
        return [r, g, b, a]
    }

    func testSystemColoursFollowTheStagesAppearance() throws {
        var stage: Stage? = try makeStage(appearance: .light)
        XCTAssertEqual(components(.systemBlue), [0, 122.0 / 255, 1, 1])
        XCTAssertEqual(components(.label), [0, 0, 0, 1])
        stage = try makeStage(appearance: .dark)
        XCTAssertEqual(components(.systemBlue), [10.0 / 255, 132.0 / 255, 1, 1])
        XCTAssertEqual(components(.systemBackground), [0, 0, 0, 1])
        let custom = UIColor { $0.userInterfaceStyle == .dark ? .white : .black }
        XCTAssertEqual(components(custom), [1, 1, 1, 1])
        XCTAssertEqual(components(custom.resolvedColor(with: UITraitCollection(userInterfaceStyle: .light))), [0, 0, 0, 1])
        _ = stage
    }

    func testColourConversions() {
        XCTAssertEqual(components(UIColor(hue: 1.0 / 3, saturation: 1, brightness: 1, alpha: 1)), [0, 1, 0, 1])
        XCTAssertEqual(components(UIColor(white: 0.5, alpha: 0.25)), [0.5, 0.5, 0.5, 0.25])
        XCTAssertEqual(components(UIColor.red.withAlphaComponent(0.5)), [1, 0, 0, 0.5])
        XCTAssertEqual(components(UIColor(red: 2, green: -1, blue: .nan, alpha: 1)), [1, 0, 0, 1], "clamped, NaN as 0")
        XCTAssertEqual(UIColor.red, UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        XCTAssertEqual(UIColor(cgColor: UIColor.orange.cgColor), .orange)
    }

    func testFontsHaveUIKitsSizesAndWeights() {
        XCTAssertEqual(UIFont.systemFont(ofSize: 17).pointSize, 17)
        XCTAssertEqual(UIFont.preferredFont(forTextStyle: .largeTitle).pointSize, 34)
        XCTAssertEqual(UIFont.preferredFont(forTextStyle: .caption2).pointSize, 11)
        XCTAssertEqual(UIFont.systemFont(ofSize: 12).withSize(30).pointSize, 30)
        XCTAssertEqual(UIFont.Weight.semibold.rawValue, 0.3)
        let font = UIFont.systemFont(ofSize: 20)
        XCTAssertGreaterThan(font.lineHeight, 20)
        XCTAssertLessThan(font.descender, 0)
        XCTAssertEqual(font, UIFont.systemFont(ofSize: 20, weight: .regular))
        XCTAssertNotEqual(font, UIFont.boldSystemFont(ofSize: 20))
    }

    func testAFontThatIsNotInstalledIsDrawnAsTheSystemFontAndNoted() throws {
        let stage = try makeStage()
        let font = try XCTUnwrap(UIFont(name: "Avenir-Heavy", size: 18))
        XCTAssertEqual(font.fontName, "Avenir-Heavy")
        XCTAssertEqual(font.pointSize, 18)
        XCTAssertEqual(font, UIFont.systemFont(ofSize: 18, weight: .heavy))
        XCTAssertEqual(stage.notDrawn, ["font 'Avenir-Heavy' is not installed (drawn with the system font)"])
        XCTAssertEqual(UIFont(name: "DejaVu Sans", size: 12)?.familyName, "DejaVu Sans")
    }
}
