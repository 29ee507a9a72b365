import RasterCore
import Typesetting
import XCTest
@testable import SnapshotView

final class LabelTests: XCTestCase {
    func inkRows(_ b: Bitmap) -> ClosedRange<Int>? {
        var rows: [Int] = []
        for y in 0..<b.height where (0..<b.width).contains(where: { b[$0, y].a != 0 }) { rows.append(y) }
        return rows.isEmpty ? nil : rows.first!...rows.last!
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
