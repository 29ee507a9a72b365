import Foundation
import RasterCore
import SmokescreenStage
import XCTest

/// `UIVisualEffectView` with a `UIBlurEffect`: what is behind it blurred and tinted, its content on top,
/// and `effect` animated in an animation block.
final class VisualEffectTests: XCTestCase {
    /// Black and white stripes 2 pt wide under a 120 × 20 effect view at (0, 0), on a 120 × 40 screen.
    func stripes(effect: UIVisualEffect?) throws -> (Stage, UIVisualEffectView) {
        let stage = try makeStage(width: 120, height: 40)
        stage.window.backgroundColor = .white
        for x in stride(from: 0, to: 120, by: 4) {
            let stripe = UIView(frame: CGRect(x: CGFloat(x), y: 0, width: 2, height: 40))
            stripe.backgroundColor = .black
            stage.window.addSubview(stripe)
        }
        let effectView = UIVisualEffectView(effect: effect)
        effectView.frame = CGRect(x: 0, y: 0, width: 120, height: 20)
        stage.window.addSubview(effectView)
        try stage.wait(0.1)
        return (stage, effectView)
    }

    /// How far the red channel of row `y` ranges, in the middle of the screen (more than 3σ from its edges,
    /// which extend the stripes' end pixels), in levels.
    func spread(_ frame: Bitmap, row y: Int) -> Int {
        let values = (40..<80).map { Int(frame.rgba($0, y)[0]) }
        return (values.max() ?? 0) - (values.min() ?? 0)
    }

    func testABlurEffectBlursAndTintsWhatIsBehind() throws {
        let (stage, effectView) = try stripes(effect: UIBlurEffect(style: .systemMaterialLight))
        let label = UILabel(frame: CGRect(x: 0, y: 0, width: 120, height: 20))
        label.backgroundColor = .clear
        effectView.contentView.addSubview(label)
        try stage.wait(0.1)
        let frame = try stage.bitmap(ofFrame: 2)
        XCTAssertEqual(spread(frame, row: 30), 255, "below the bar: sharp stripes")
        XCTAssertLessThan(spread(frame, row: 10), 8, "under the bar: blurred to an even grey")
        // Half black, half white, blurred to 50 % grey, with white at 65 % over it: 0.5·0.35 + 0.65 = 0.825.
        XCTAssertEqual(Double(frame.rgba(60, 10)[0]), 255 * 0.825, accuracy: 4)
        XCTAssertEqual(stage.notDrawn, [])
    }

    func testNoEffectShowsWhatIsBehindAsItIs() throws {
        let (stage, _) = try stripes(effect: nil)
        XCTAssertEqual(spread(try stage.bitmap(ofFrame: 1), row: 10), 255)
    }

    func testSettingTheEffectInAnAnimationBlockBlursIn() throws {
        let (stage, effectView) = try stripes(effect: nil)
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear) {
            effectView.effect = UIBlurEffect(style: .systemMaterialLight)
        }
        try stage.wait(1.1)
        let spreads = [1, 2, 12].map { (try? stage.bitmap(ofFrame: $0)).map { spread($0, row: 10) } ?? -1 }
        XCTAssertEqual(spreads[0], 255, "before the block: sharp")
        XCTAssertTrue((1..<200).contains(spreads[1]), "0.1 s in (σ 1 pt): softening, \(spreads[1])")
        XCTAssertLessThan(spreads[2], 8, "the end: the full material")
        // Half way the tint is white at half of 65 %: 0.5 · (1 − 0.325) + 0.325.
        XCTAssertEqual(Double(try stage.bitmap(ofFrame: 6).rgba(60, 10)[0]), 255 * (0.5 * 0.675 + 0.325), accuracy: 5)
    }

    func testDarkAppearanceTintsDark() throws {
        let stage = try makeStage(width: 20, height: 20, appearance: .dark)
        stage.window.backgroundColor = .white
        let effectView = UIVisualEffectView(effect: UIBlurEffect(style: .systemMaterial))
        effectView.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        stage.window.addSubview(effectView)
        try stage.wait(0.1)
        // White under #1C1C1E at 70 %: 0.3 + 0.7 · 28/255 ≈ 0.377.
        XCTAssertEqual(Double(try stage.bitmap(ofFrame: 1).rgba(10, 10)[0]), 255 * (0.3 + 0.7 * 28 / 255), accuracy: 3)
    }

    /// A vibrancy effect with a style (iOS 13) uses only the alpha of its content: a red square and a
    /// half-transparent blue one in its content view are drawn in the style's colour (secondaryLabel:
    /// #3C3C43 at 60 % in the light appearance) through their alpha, over white, exactly; `.label` passes
    /// colour through; a dark blur's style takes the dark colour (the separator's #545458 at 60 %).
    func testVibrancyDrawsTheContentInTheStylesColourThroughItsAlpha() throws {
        func vibrant(_ effect: UIVibrancyEffect) throws -> Bitmap {
            let stage = try makeStage(width: 60, height: 20)
            stage.window.backgroundColor = .white
            let effectView = UIVisualEffectView(effect: effect)
            effectView.frame = CGRect(x: 0, y: 0, width: 60, height: 20)
            let red = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            red.backgroundColor = .red
            let blue = UIView(frame: CGRect(x: 20, y: 0, width: 20, height: 20))
            blue.backgroundColor = UIColor.blue.withAlphaComponent(0.5)
            effectView.contentView.addSubview(red)
            effectView.contentView.addSubview(blue)
            stage.window.addSubview(effectView)
            try stage.wait(0.1)
            return try stage.bitmap(ofFrame: 1)
        }
        let light = UIBlurEffect(style: .systemMaterialLight)
        let secondary = try vibrant(UIVibrancyEffect(blurEffect: light, style: .secondaryLabel))
        // #3C3C43 at 60 % over white: premultiplied (36, 36, 40, 153) + 255 · 102/255.
        XCTAssertEqual(secondary.rgba(10, 10), [138, 138, 142, 255], "the red square, in secondaryLabel")
        // At half the alpha: 30 %: (18, 18, 20, 77) + 255 · 178/255.
        let half = secondary.rgba(30, 10)
        XCTAssertEqual(Double(half[0]), 18 + 255 * 178 / 255.0, accuracy: 1)
        XCTAssertEqual(Double(half[2]), 20 + 255 * 178 / 255.0, accuracy: 1)
        XCTAssertEqual(secondary.rgba(50, 10), [255, 255, 255, 255], "nothing where nothing is drawn")

        let label = try vibrant(UIVibrancyEffect(blurEffect: light, style: .label))
        XCTAssertEqual(label.rgba(10, 10), [255, 0, 0, 255], ".label passes colour through")
        let legacy = try vibrant(UIVibrancyEffect(blurEffect: light))
        XCTAssertEqual(legacy.rgba(10, 10), [255, 0, 0, 255], "iOS 8's vibrancy: drawn as it is")

        let dark = try vibrant(UIVibrancyEffect(blurEffect: UIBlurEffect(style: .systemThinMaterialDark), style: .separator))
        // #545458 at 60 % over white: (50, 50, 53, 153) + 102.
        XCTAssertEqual(dark.rgba(10, 10), [152, 152, 155, 255], "the dark separator colour")
    }
}
