import Foundation
import Containers
import RasterCore
import SnapshotView
import XCTest

/// Table separators are hairlines: one device pixel of `opaqueSeparator` (#C6C6C8) at every scale,
/// snapped to the pixel grid (of the device, or of the view's backing store).
final class TableViewHairlineTests: XCTestCase {
    private let separator = PremultipliedRGBA8(r: 0xC6, g: 0xC6, b: 0xC8, a: 255)
    private let white = PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255)

    /// The column of pixels at `x` points from rows `y0..<y1` points.
    private func column(_ bitmap: Bitmap, x: Double, from y0: Double, to y1: Double) -> [PremultipliedRGBA8] {
        let s = bitmap.scale
        let column = Int(x * s)
        let rows = Int(y0 * s)..<Int(y1 * s)
        return rows.map { (y: Int) -> PremultipliedRGBA8 in bitmap[column, y] }
    }

    func testSeparatorIsOneDevicePixelOfC6C6C8AtEveryScale() throws {
        let model = ListModel([names(2)])
        let table = try makeTable(model, size: Size(width: 60, height: 88))
        for scale in [1.0, 2.0, 3.0] {
            let bitmap = try table.snapshot(scale: scale)
            // Row 0 ends at 44 pt: device row 44·scale − 1 is the line, the rows around it are white.
            let pixels = column(bitmap, x: 40, from: 40, to: 48)
            let line = Int(44 * scale) - 1 - Int(40 * scale)
            for (k, p) in pixels.enumerated() {
                XCTAssertEqual(p, k == line ? separator : white, "@\(scale)x row \(Int(40 * scale) + k)")
            }
            // The line starts at the 16-pt inset, on a whole pixel.
            XCTAssertEqual(bitmap[Int(16 * scale), Int(44 * scale) - 1], separator, "@\(scale)x")
            XCTAssertEqual(bitmap[Int(16 * scale) - 1, Int(44 * scale) - 1], white, "@\(scale)x")
        }
    }

    func testRowEndingBetweenPixelsSnapsItsSeparatorToTheNearestPixelBoundary() throws {
        let model = ListModel([names(2)])
        model.heights["r0"] = 44.3
        let table = try makeTable(model, size: Size(width: 60, height: 90))
        for scale in [1.0, 2.0, 3.0] {
            let bitmap = try table.snapshot(scale: scale)
            // The bottom 44.3 pt is device y 44.3·scale: the line is the whole pixel row just above it,
            // inside the row, fully #C6C6C8 (not two half-covered rows).
            let boundary = Int((44.3 * scale).rounded(.down))
            let pixels = column(bitmap, x: 40, from: 40, to: 48)
            let first = Int(40 * scale)
            for (k, p) in pixels.enumerated() {
                XCTAssertEqual(p, first + k == boundary - 1 ? separator : white, "@\(scale)x row \(first + k)")
            }
        }
    }

    func testTableBetweenDevicePixelsSnapsInItsBackingStoreGrid() throws {
        // The table half a device pixel below a pixel boundary: its row is drawn into a backing store on
        // its own grid, where the line is one whole pixel, and the store is placed with bilinear
        // filtering: the line shows as two device rows of half its ink each, one pixel of ink in all.
        let model = ListModel([names(1)])
        for scale in [1.0, 2.0] {
            let table = try makeTable(model, size: Size(width: 60, height: 60))
            let window = View(frame: Rect(x: 0, y: 0, width: 60, height: 70))
            window.backgroundColor = .white
            table.frame.origin.y = 0.5 / scale
            try window.addSubview(table)
            let bitmap = try window.snapshot(scale: scale)
            let pixels = column(bitmap, x: 40, from: 40, to: 48)
            let inked = pixels.filter { $0.g != 255 }
            XCTAssertEqual(inked.count, 2, "@\(scale)x: \(pixels.map(\.g))")
            for p in inked { XCTAssertEqual(Double(p.g), (255.0 + 0xC6) / 2, accuracy: 1, "@\(scale)x") }
        }
    }
}
