import RasterCore
import XCTest
import Typesetting

/// Text whose space sits between device rows (a label in mid-animation): snapped on its own layer's
/// grid, then moved down by the fraction as Core Animation moves a layer's contents, so it keeps its
/// distance to shapes drawn at exact positions beside it.
final class MovingTextTests: XCTestCase {
    private let layout = try! TextLayout("Hgy", style: TextStyle(font: .system(size: 14)))

    /// Black text drawn at (2, `y`) in a space translated down by `offset` device pixels (@1x).
    private func render(offset: Double, y: Double = 0) throws -> Bitmap {
        var bitmap = try Bitmap(width: 40, height: 30)
        bitmap.draw { painter in
            painter.translate(x: 0, y: offset)
            layout.draw(in: painter, at: Point(x: 2, y: y), color: Color(white: 0))
        }
        return bitmap
    }

    func testTextBetweenRowsIsTheSnappedTextWithEachRowBlendedWithTheOneAbove() throws {
        let rest = try render(offset: 5)
        for (offset, weight) in [(5.25, 64), (5.5, 128), (5.875, 224), (5.1, 26)] {
            let moved = try render(offset: offset)
            XCTAssertNotEqual(moved, rest)
            for y in 0..<30 {
                for x in 0..<40 {
                    let below = Int(rest[x, y].a), above = y > 0 ? Int(rest[x, y - 1].a) : 0
                    let expected = (below * (256 - weight) + above * weight + 128) >> 8
                    XCTAssertEqual(Int(moved[x, y].a), expected, "offset \(offset), pixel (\(x), \(y))")
                    XCTAssertEqual(moved[x, y].r, 0, "black stays black")
                }
            }
        }
    }

    func testASpaceOnAWholeRowDrawsTheDeviceSnappedText() throws {
        // Within 1/64 px of a row counts as on it: the same pixels as the row itself.
        XCTAssertEqual(try render(offset: 5 + 1.0 / 128), try render(offset: 5))
        XCTAssertEqual(try render(offset: 6 - 1.0 / 128), try render(offset: 6))
        // Also when the baseline itself is a hair above a whole pixel of the space (0.975: within the
        // allowance once a near-whole origin's 0.01 is added to it, as snapping to the device would).
        let line = try XCTUnwrap(layout.lines.first)
        let y = 0.975 - (line.baseline - line.baseline.rounded(.down))
        XCTAssertEqual(try render(offset: 5.01, y: y), try render(offset: 5, y: y))
        XCTAssertEqual(try render(offset: 4.99, y: y), try render(offset: 5, y: y))
        // A whole row further down moves the pixels by exactly one row.
        let a = try render(offset: 5), b = try render(offset: 6)
        for y in 0..<29 { for x in 0..<40 { XCTAssertEqual(a[x, y], b[x, y + 1]) } }
    }

    func testTextAndAHairlineMovingTogetherKeepTheirDistance() throws {
        // Red text over a blue 1-px line 20 px below the space's origin, the pair moved down in eighths
        // of a pixel: the line is an exact anti-aliased fill, so its centroid moves by the offset; the
        // text's must move with it. Device-snapped text wobbled by up to a whole pixel against it.
        func centroids(_ offset: Double) throws -> (text: Double, line: Double) {
            var bitmap = try Bitmap(width: 40, height: 30)
            bitmap.draw { painter in
                painter.translate(x: 0, y: offset)
                layout.draw(in: painter, at: Point(x: 2, y: 0), color: Color(red: 1, green: 0, blue: 0))
                painter.fill(Rect(x: 0, y: 20, width: 40, height: 1), color: Color(red: 0, green: 0, blue: 1))
            }
            var text = (sum: 0.0, weight: 0.0), line = (sum: 0.0, weight: 0.0)
            for y in 0..<30 {
                for x in 0..<40 {
                    let p = bitmap[x, y]
                    text.sum += Double(p.r) * Double(y); text.weight += Double(p.r)
                    line.sum += Double(p.b) * Double(y); line.weight += Double(p.b)
                }
            }
            return (text.sum / text.weight, line.sum / line.weight)
        }
        let rest = try centroids(3)
        for step in 1...8 {
            let offset = 3 + Double(step) / 8
            let moved = try centroids(offset)
            XCTAssertEqual(moved.line - rest.line, Double(step) / 8, accuracy: 0.002, "the line moves by the offset (coverage in 1/255)")
            // Tolerance: each blended byte is rounded to 1/255 (a few thousandths of a pixel overall).
            XCTAssertEqual(moved.line - moved.text, rest.line - rest.text, accuracy: 0.01, "offset \(offset)")
        }
    }

    func testShiftingAMaskKeepsFullCoverageAndAddsOneRow() {
        let mask: [UInt8] = [255, 0, 255, 255, 128, 0]  // 2 × 3
        var out: [UInt8] = []
        TextLayout.shiftDown(mask, width: 2, height: 3, weight: 64, into: &out)
        // Rows [255, 0], [255, 255], [128, 0] moved down by a quarter of a row.
        XCTAssertEqual(out, [191, 0,      // 255 · 3/4
                             255, 191,    // full under full; 255 · 3/4 under nothing
                             160, 64,     // 128 · 3/4 + 255 · 1/4; 255 · 1/4
                             32, 0])      // 128 · 1/4
    }
}
