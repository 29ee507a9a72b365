import RasterCore
import Typesetting
import XCTest
import SnapshotView

final class LabelTests: XCTestCase {
    func inkRows(_ b: Bitmap) -> ClosedRange<Int>? {
        var rows: [Int] = []
        for y in 0..<b.height where (0..<b.width).contains(where: { b[$0, y].a != 0 }) { rows.append(y) }
        return rows.isEmpty ? nil : rows.first!...rows.last!
    }

    /// table-row-styles' moving cell reduced to two views: a label and a one-pixel separator inside a
    /// cell that moves down in eighths of a device pixel @2x. The separator lands between rows (its
    /// cell's backing store is resampled); the label's text, snapped on its own layer's grid and moved by
    /// the same fraction, keeps its distance. Snapped to the device instead, the text stepped a whole
    /// pixel at a time and the gap between them changed by up to a pixel.
    func testAMovingCellsLabelAndSeparatorMoveAsOne() throws {
        func centroids(cellAt y: Double) throws -> (text: Double, line: Double) {
            let window = View(frame: Rect(x: 0, y: 0, width: 60, height: 40))
            let cell = View(frame: Rect(x: 0, y: y, width: 60, height: 22))
            let label = Label(text: "Charlie", style: TextStyle(font: .system(size: 12), color: Color(red: 1, green: 0, blue: 0)),
                              frame: Rect(x: 4, y: 2, width: 56, height: 16))
            let separator = View(frame: Rect(x: 4, y: 21.5, width: 56, height: 0.5))
            separator.backgroundColor = Color(red: 0, green: 0, blue: 1)
            try cell.addSubview(label)
            try cell.addSubview(separator)
            try window.addSubview(cell)
            let image = try window.snapshot(scale: 2, clearBackground: true)
            var text = (sum: 0.0, weight: 0.0), line = (sum: 0.0, weight: 0.0)
            for py in 0..<image.height {
                for px in 0..<image.width {
                    let p = image[px, py]
                    text.sum += Double(p.r) * Double(py); text.weight += Double(p.r)
                    line.sum += Double(p.b) * Double(py); line.weight += Double(p.b)
                }
            }
            return (text.sum / text.weight, line.sum / line.weight)
        }
        let rest = try centroids(cellAt: 5)
        var gaps: [Double] = []
        for step in 1...8 {
            let moved = try centroids(cellAt: 5 + Double(step) / 16)  // eighths of a pixel @2x
            XCTAssertEqual(moved.line - rest.line, Double(step) / 8, accuracy: 0.002, "the separator glides")
            gaps.append(moved.line - moved.text)
        }
        let restGap = rest.line - rest.text
        // Tolerance: rounding of the blended bytes (a few thousandths of a pixel).
        for (k, gap) in gaps.enumerated() { XCTAssertEqual(gap, restGap, accuracy: 0.01, "offset \(k + 1)/8 px") }
    }

    func testSizeThatFitsGivesTheHeightTheLabelDrawsAt() throws {
        let text = "The fog came in just after six and the lights on the pier blinked on one by one."
        let label = Label(text: text, style: TextStyle(font: .system(size: 12), numberOfLines: 0))
        let one = try label.sizeThatFits(Size(width: .infinity, height: .infinity))
        let narrow = try label.sizeThatFits(Size(width: 120, height: .infinity))
        XCTAssertGreaterThan(narrow.height, one.height * 2, "wraps to several lines at 120 pt")
        XCTAssertLessThanOrEqual(narrow.width, 120)
        XCTAssertEqual(narrow.height, narrow.height.rounded(.up), "whole points, as UILabel")
        label.frame = Rect(x: 0, y: 0, width: 120, height: narrow.height)
        for scale in [1.0, 2.0] {
            let image = try label.snapshot(scale: scale)
            let rows = try XCTUnwrap(inkRows(image))
            XCTAssertGreaterThanOrEqual(rows.lowerBound, 0)
            XCTAssertLessThan(rows.upperBound, Int(narrow.height * scale), "ink inside the measured height @\(scale)x")
        }
    }

    func testSizeToFitAndPropertiesInvalidateTheLayout() throws {
        let label = Label(text: "Timeline", style: TextStyle(font: .boldSystem(size: 17)), frame: Rect(x: 10, y: 20, width: 0, height: 0))
        try label.sizeToFit()
        XCTAssertEqual(label.frame.origin, Point(x: 10, y: 20))
        XCTAssertGreaterThan(label.bounds.width, 40)
        let before = try label.layout()
        XCTAssertEqual(before.lines.count, 1)
        label.text = "Timeline and more"
        XCTAssertEqual(try label.layout().lines.first?.text.hasSuffix("…"), true, "the old bounds now truncate")
        label.textColor = .white
        XCTAssertEqual(try label.layout().style.color, .white)
        XCTAssertTrue(label.summary.contains("text \"Timeline and more\""), label.summary)
    }

    func testLabelDrawsItsTextCentredVerticallyInItsBounds() throws {
        let label = Label(text: "Hi", style: TextStyle(font: .system(size: 10), color: .black, alignment: .center),
                          frame: Rect(x: 0, y: 0, width: 40, height: 40))
        let image = try label.snapshot(scale: 1)
        let rows = try XCTUnwrap(inkRows(image))
        // 10 pt DejaVu text is about 12 pt tall; centred in 40 pt it sits around the middle.
        XCTAssertGreaterThan(rows.lowerBound, 10)
        XCTAssertLessThan(rows.upperBound, 30)
    }

    func testAMissingFontIsAnErrorFromLayoutAndDrawsNothing() throws {
        let label = Label(text: "x", style: TextStyle(font: Font(file: "/nonexistent/font.ttf", size: 12)), frame: Rect(x: 0, y: 0, width: 20, height: 20))
        XCTAssertThrowsError(try label.layout()) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/font.ttf"), "\(error)")
        }
        XCTAssertThrowsError(try label.sizeThatFits(Size(width: 10, height: 10)))
        XCTAssertNil(label.makeContent())
        XCTAssertNoThrow(try label.snapshot(scale: 1))
    }
}
