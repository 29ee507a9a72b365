import CUnicodeShim
import Foundation
import RasterCore
import SmokescreenTesting
import XCTest
import Typesetting

/// Line breaking (ICU's UAX #14 iterator) against Unicode's own conformance file, Japanese kinsoku and
/// truncation through `TextLayout`, and bidirectional order (UAX #9).
final class BreakingAndBidiTests: XCTestCase {
    /// Unicode's LineBreakTest.txt (Debian `unicode-data`, Unicode 15.0, the version of Debian's ICU 72):
    /// every case, break for break, except where ICU tailors UAX #14 on purpose. ICU keeps a hyphen or
    /// an infix separator (`-`, `,`, `.`) with what follows it where a number may start (its LB25
    /// tailoring: "-#", ",0", "a.2 "); those 22 cases, and only cases with such a separator, differ.
    func testLineBreaksEqualUnicodeLineBreakTest() throws {
        let path = "/usr/share/unicode/auxiliary/LineBreakTest.txt"
        guard let data = FileManager.default.contents(atPath: path) else {
            if ProcessInfo.processInfo.environment["SMOKESCREEN_REFERENCE_REQUIRED"] == "1" {
                XCTFail("\(path) missing: install Debian's unicode-data (.ci/run does)")
            }
            throw XCTSkip("\(path) missing (Debian unicode-data)")
        }
        var cases = 0, failures: [String] = [], numberTailoring = 0
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let body = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let tokens = body.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard tokens.count >= 3 else { continue }
            var units: [UInt16] = [], expected: [UInt8] = [0]
            for token in tokens.dropFirst() {
                if token == "÷" || token == "×" {
                    expected[expected.count - 1] = token == "÷" ? 1 : 0
                } else {
                    let scalar = Unicode.Scalar(UInt32(token, radix: 16)!)!
                    let count = UTF16.width(scalar)
                    units += Array(String(scalar).utf16)
                    expected += Array(repeating: 0, count: count)
                }
            }
            var got = [UInt8](repeating: 0, count: units.count + 1)
            XCTAssertEqual(cus_line_breaks(units, Int32(units.count), &got), 0)
            cases += 1
            if got.map({ $0 != 0 }) != expected.map({ $0 != 0 }) {
                let tailored = units.contains(0x2D) || units.contains(0x2C) || units.contains(0x2E)
                if tailored { numberTailoring += 1 } else { failures.append(String(line.prefix(120))) }
            }
        }
        XCTAssertGreaterThan(cases, 7000)
        XCTAssertEqual(failures, [], "\(failures.count) of \(cases) cases differ")
        XCTAssertEqual(numberTailoring, 22, "ICU's number tailoring")
    }

    func lines(_ text: String, width: Double, size: Double = 14, mode: LineBreakMode = .byWordWrapping, numberOfLines: Int = 0) throws -> [String] {
        let style = TextStyle(font: Font(file: ShapingTests.noto, size: size), numberOfLines: numberOfLines, lineBreakMode: mode)
        return try TextLayout(text, style: style, width: width).lines.map(\.text)
    }

    func testKinsokuKeepsClosingPunctuationOffALineStart() throws {
        // 14 pt full-width characters: five fit in 70 pt. "。" and "」" would start the second line;
        // kinsoku carries the character before them down with them.
        XCTAssertEqual(try lines("あいうえお。かき", width: 70), ["あいうえ", "お。かき"])
        XCTAssertEqual(try lines("あいうえ」。かき", width: 70), ["あいう", "え」。かき"])
        XCTAssertEqual(try lines("あいうえ、くけこ", width: 70), ["あいうえ、", "くけこ"])
        // Small kana and the prolonged sound mark do not start a line either (ICU's default, strict).
        XCTAssertEqual(try lines("あいうえおっか", width: 70), ["あいうえ", "おっか"])
        XCTAssertEqual(try lines("あいうえおーか", width: 70), ["あいうえ", "おーか"])
    }

    func testKinsokuKeepsOpeningBracketsOffALineEnd() throws {
        // "（" and "「" in the fifth place would end the first line: they move down.
        XCTAssertEqual(try lines("あいうえ（かき）", width: 70), ["あいうえ", "（かき）"])
        XCTAssertEqual(try lines("あいうえ「かき」", width: 70), ["あいうえ", "「かき」"])
    }

    func testTruncationModesForNumberOfLines() throws {
        let text = "The quick brown fox jumps over the lazy dog"
        let font = Font(file: ShapingTests.dejavu, size: 12)
        func shown(_ mode: LineBreakMode) throws -> String {
            try TextLayout(text, style: TextStyle(font: font, numberOfLines: 1, lineBreakMode: mode), width: 100).lines[0].text
        }
        let tail = try shown(.byTruncatingTail), head = try shown(.byTruncatingHead), middle = try shown(.byTruncatingMiddle)
        XCTAssertTrue(tail.hasSuffix("…") && text.hasPrefix(String(tail.dropLast())), tail)
        XCTAssertTrue(head.hasPrefix("…") && text.hasSuffix(String(head.dropFirst())), head)
        let parts = middle.split(separator: "…", omittingEmptySubsequences: false)
        XCTAssertEqual(parts.count, 2, middle)
        XCTAssertTrue(text.hasPrefix(parts[0]) && text.hasSuffix(parts[1]), middle)
        for s in [tail, head, middle] {
            XCTAssertLessThanOrEqual(try TextLayout(s, style: TextStyle(font: font)).exactSize.width, 100 + 1e-9, s)
        }
    }

    func testVisualOrderReversesRightToLeftRuns() {
        // UAX #9 L2 on levels 0 0 1 1 1 0 2 2 1: the level-2 pair is reversed, then every run at 1 or
        // above.
        let levels: [UInt8] = [0, 0, 1, 1, 1, 0, 1, 2, 2, 1]
        let order = TextLayout.visualOrder(levels.enumerated().map { (index: $0.offset, level: $0.element) }).map(\.index)
        XCTAssertEqual(order, [0, 1, 4, 3, 2, 5, 9, 7, 8, 6])
    }

    func testNaturalAlignmentFollowsTheFirstStrongCharacter() throws {
        let font = Font(file: ShapingTests.dejavu, size: 14)
        let style = TextStyle(font: font, alignment: .natural, numberOfLines: 0)
        let hebrew = try TextLayout("שלום עולם", style: style, width: 200)
        XCTAssertTrue(hebrew.lines[0].isRightToLeft)
        XCTAssertEqual(hebrew.lines[0].x, 200 - hebrew.lines[0].width, accuracy: 1e-9)
        // Digits and punctuation first: still the first strong character (Arabic) decides.
        let arabic = try TextLayout("123 مرحبا", style: style, width: 200)
        XCTAssertTrue(arabic.lines[0].isRightToLeft)
        let latin = try TextLayout("Hello עולם", style: style, width: 200)
        XCTAssertFalse(latin.lines[0].isRightToLeft)
        XCTAssertEqual(latin.lines[0].x, 0)
        // .left and .right stay where they say.
        let left = try TextLayout("שלום", style: TextStyle(font: font, alignment: .left), width: 200)
        XCTAssertEqual(left.lines[0].x, 0)
    }

    func testMixedLineIsReorderedByUAX9() throws {
        // A right-to-left paragraph with an English word: the word stays left to right, placed left
        // of the Hebrew before it. Glyph x positions grow left to right in visual order.
        let font = Font(file: ShapingTests.dejavu, size: 14)
        let layout = try TextLayout("שלום OK עולם", style: TextStyle(font: font))
        let line = layout.lines[0]
        XCTAssertTrue(line.isRightToLeft)
        let face = try FontRegistry.shared.face(for: .file(ShapingTests.dejavu))
        let ids = line.glyphs.map(\.id)
        // Visual: "םלוע" then " KO"... as glyph ids: עולם reversed, space, O, K, space, שלום reversed.
        let expected = "םלוע OK םולש".unicodeScalars.map { face.glyphIndex(for: $0) }
        XCTAssertEqual(ids, expected)
        XCTAssertEqual(line.glyphs.map(\.x), line.glyphs.map(\.x).sorted())
    }
}
