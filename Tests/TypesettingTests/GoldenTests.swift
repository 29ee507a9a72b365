import RasterCore
import SmokescreenTesting
import XCTest
import Typesetting

/// Small @1x renderings compared pixel for pixel with goldens beside this file
/// (`__Snapshots__/GoldenTests/<name>/frame_0000.png`), through the one golden mechanism the project has
/// (SmokescreenTesting: a run that records fails). Re-record with
/// `SMOKESCREEN_RECORD=all swift test --filter TypesettingTests.GoldenTests` after an intended change, and look at them.
final class GoldenTests: XCTestCase {
    func testEnglishOnWhite() throws {
        let layout = try TextLayout("Hello, world! AVA fij", style: TextStyle(font: .system(size: 14)))
        var bitmap = try Bitmap(width: 150, height: 20, fill: opaqueWhite)
        bitmap.draw { layout.draw(in: $0, at: Point(x: 2, y: 1)) }
        assertSnapshot(of: bitmap, named: "english_1x")
    }

    func testJapaneseWrapsOnWhite() throws {
        let style = TextStyle(font: .system(size: 14), numberOfLines: 0, lineBreakMode: .byWordWrapping)
        let layout = try TextLayout("日本の歴史、英語と日本語の会話。", style: style, width: 100)
        // Seven 14 pt characters a line; "。" stays with the character before it.
        XCTAssertEqual(layout.lines.map(\.text), ["日本の歴史、英", "語と日本語の会", "話。"])
        var bitmap = try Bitmap(width: 104, height: Int(layout.size.height) + 4, fill: opaqueWhite)
        bitmap.draw { layout.draw(in: $0, at: Point(x: 2, y: 2)) }
        assertSnapshot(of: bitmap, named: "japanese_1x")
    }

    func testArabicRightToLeftOnWhite() throws {
        // Inter has no Arabic: DejaVu Sans draws it, joined by HarfBuzz (initial, medial, final forms),
        // the space kept in DejaVu Sans; natural alignment puts the right-to-left line at the right.
        let layout = try TextLayout("مرحبا بالعالم", style: TextStyle(font: .system(size: 14)), width: 110)
        XCTAssertTrue(layout.lines[0].isRightToLeft)
        XCTAssertEqual(layout.lines[0].x + layout.lines[0].width, 110, accuracy: 1e-9)
        var bitmap = try Bitmap(width: 114, height: Int(layout.size.height) + 4, fill: opaqueWhite)
        bitmap.draw { layout.draw(in: $0, at: Point(x: 2, y: 2)) }
        assertSnapshot(of: bitmap, named: "arabic_1x")
    }

    func testHebrewWithLatinOnWhite() throws {
        // A Hebrew paragraph with an English word and digits inside (UAX #9: "iOS 18" stays left to
        // right, placed left of the Hebrew before it).
        let layout = try TextLayout("שלום iOS 18 עולם", style: TextStyle(font: .system(size: 14)), width: 130)
        XCTAssertTrue(layout.lines[0].isRightToLeft)
        var bitmap = try Bitmap(width: 134, height: Int(layout.size.height) + 4, fill: opaqueWhite)
        bitmap.draw { layout.draw(in: $0, at: Point(x: 2, y: 2)) }
        assertSnapshot(of: bitmap, named: "hebrew_1x")
    }

    func testTruncatedCentredColourOnClear() throws {
        let style = TextStyle(font: .boldSystem(size: 13), color: Color(hex: 0x1E6FD9), alignment: .center, numberOfLines: 2)
        let layout = try TextLayout("Tapping a scroll opens it with an animation, closing the one that was open.", style: style, width: 120)
        XCTAssertTrue(layout.lines[1].text.hasSuffix("…"))
        var bitmap = try Bitmap(width: 124, height: Int(layout.size.height) + 4)
        bitmap.draw { layout.draw(in: $0, at: Point(x: 2, y: 2)) }
        assertSnapshot(of: bitmap, named: "truncated_center_clear_1x")
    }

    func testRotatedOutlines() throws {
        let layout = try TextLayout("Spin 回転", style: TextStyle(font: .system(size: 12)))
        var bitmap = try Bitmap(width: 70, height: 40, fill: opaqueWhite)
        bitmap.draw { p in
            p.translate(x: 35, y: 20)
            p.rotate(by: -0.3)
            layout.draw(in: p, at: Point(x: -layout.exactSize.width / 2, y: -layout.exactSize.height / 2))
        }
        assertSnapshot(of: bitmap, named: "rotated_1x")
    }
}
