import Motion
import RasterCore
import SnapshotView
import XCTest

/// The seam end to end: a tree rendered through the engine shows presentation values.
final class RenderSeamTests: XCTestCase {
    func testSnapshotAtMidAnimationShowsInterpolatedPositionAndColour() throws {
        let engine = AnimationEngine()
        let root = View(frame: Rect(x: 0, y: 0, width: 20, height: 20), name: "root")
        root.backgroundColor = .white
        let chip = View(frame: Rect(x: 2, y: 8, width: 4, height: 4), name: "chip")
        chip.backgroundColor = Color(red: 1, green: 0, blue: 0)
        try root.addSubview(chip)
        engine.animate(duration: 1, options: .curveLinear, animations: {
            chip.center = Point(x: 14, y: 10)
            chip.backgroundColor = Color(red: 0, green: 0, blue: 1)
        })

        engine.advance(to: 0.5)
        let mid = try root.snapshot(scale: 1, presentation: engine)
        let purple = PremultipliedRGBA8(r: 128, g: 0, b: 128, a: 255)
        let white = PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255)
        // Centre at x = 9: the chip covers pixels 7...10 of rows 8...11.
        for x in 7...10 {
            for y in 8...11 { XCTAssertEqual(mid[x, y], purple, "(\(x), \(y))") }
        }
        for (x, y) in [(6, 9), (11, 9), (8, 7), (8, 12), (3, 9), (14, 9)] {
            XCTAssertEqual(mid[x, y], white, "(\(x), \(y))")
        }

        engine.advance(to: 1)
        let end = try root.snapshot(scale: 1, presentation: engine)
        XCTAssertEqual(end[13, 9], PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255))
        XCTAssertEqual(end, try root.snapshot(scale: 1), "at the end the presentation is the model")
    }
}
