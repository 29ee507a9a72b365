import Containers
import RasterCore
import SnapshotView
import XCTest

/// iOS's status bar of a phone without a notch: 20 pt, the time centred, icons at both edges, nothing
/// drawn between them, in the style's ink.
final class StatusBarTests: XCTestCase {
    func testTheBarsGeometryAndInk() throws {
        for (style, ink) in [(StatusBar.Style.darkContent, PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255)),
                             (.lightContent, PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))] {
            let bar = StatusBar(width: 375, style: style)
            XCTAssertEqual(bar.frame, Rect(x: 0, y: 0, width: 375, height: 20))
            XCTAssertEqual(bar.timeLabel.text, "9:41 AM")
            XCTAssertEqual(bar.timeLabel.textAlignment, .center)
            var canvas = try Bitmap(width: 750, height: 40, scale: 2)
            ViewRenderer.draw(try XCTUnwrap(bar.renderNode()), into: &canvas)
            // No background: the corners and the space between the icons and the time stay clear.
            for (x, y) in [(0, 0), (749, 39), (150, 20), (560, 20)] {
                XCTAssertEqual(canvas[x, y].a, 0, "\(style) (\(x), \(y))")
            }
            // The charge fills the battery's middle (points 346.2…364.7, 6.25…13.75) in the ink; the fourth
            // signal bar (points 19.5…22.5, 4.5…15) too.
            XCTAssertEqual(canvas[2 * 355, 20], ink, "\(style) battery")
            XCTAssertEqual(canvas[2 * 21, 2 * 12], ink, "\(style) signal")
            // The battery's outline (points 344.2…345.2 at its left) is 35 % of the ink.
            XCTAssertEqual(Int(canvas[2 * 344 + 1, 20].a), 89, accuracy: 1, "\(style) outline")
            // The time's ink is centred: as much of it left of the middle as right of it, to 2 points.
            var columns: [Int] = []
            for x in 200..<550 where (0..<40).contains(where: { canvas[x, $0].a > 128 }) { columns.append(x) }
            let (first, last) = (try XCTUnwrap(columns.first), try XCTUnwrap(columns.last))
            XCTAssertEqual(Double(first + last) / 2, 375, accuracy: 4, "\(style) time centred")
        }
    }
}
