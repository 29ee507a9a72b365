import RasterCore
import XCTest
import Typesetting

/// These tests measure DejaVu Sans (a fixed, known font), not the system font.
private let dejavu17 = Font(family: "DejaVu Sans", size: 17)

/// Line breaking, truncation and measurement, all in points (no pixels involved).
final class LayoutTests: XCTestCase {
    private let wrapping = TextStyle(font: dejavu17, numberOfLines: 0, lineBreakMode: .byWordWrapping)
    /// DejaVu Sans line height at 17 pt: (1901 + 483) / 2048 em.
    private let lineHeight17 = 2384.0 / 2048 * 17
    private let japanese = "日本の歴史についての会話を英語と日本語で読むことができます。"

    func testLongEnglishSentenceBreaksAtSpaces() throws {
        let sentence = "Tapping a historical event will toggle its language between English and Japanese, and the height of the row changes with it."
        let layout = try TextLayout(sentence, style: wrapping, width: 150)
        XCTAssertGreaterThan(layout.lines.count, 3)
        for line in layout.lines {
            XCTAssertLessThanOrEqual(line.width, 150)
            XCTAssertFalse(line.text.hasPrefix(" ") || line.text.hasSuffix(" "), line.text)
        }
        // Every break is at a space: the lines rejoined with spaces are the sentence.
        XCTAssertEqual(layout.lines.map(\.text).joined(separator: " "), sentence)
        // Greedy: the next word would not have fitted on any line.
        for (k, line) in layout.lines.dropLast().enumerated() {
            let nextWord = layout.lines[k + 1].text.split(separator: " ").first.map(String.init) ?? ""
            let longer = try TextLayout(line.text + " " + nextWord, style: wrapping)
            XCTAssertGreaterThan(longer.exactSize.width, 150, "\(line.text) + \(nextWord)")
        }
    }

    func testHyphenatedWordsBreakAfterTheHyphen() throws {
        // "a well-known" is 111.5 pt wide, "known fact" 93.5 pt.
        let layout = try TextLayout("a well-known fact", style: wrapping, width: 100)
        XCTAssertEqual(layout.lines.map(\.text), ["a well-", "known fact"])
    }

    func testJapaneseBreaksBetweenCharactersAndNeverBeforeFullStop() throws {
        // IPAGothic kanji and kana are one em wide, so 17 pt text fits width / 17 characters a line.
        let plain = try TextLayout(japanese, style: wrapping, width: 17 * 10)
        XCTAssertEqual(plain.lines.map(\.text), ["日本の歴史についての", "会話を英語と日本語で", "読むことができます。"])
        // With room for 29 of the 30 characters, "。" alone would start line 2; kinsoku carries "す" with it.
        let kinsoku = try TextLayout(japanese, style: wrapping, width: 17 * 29)
        XCTAssertEqual(kinsoku.lines.map(\.text), ["日本の歴史についての会話を英語と日本語で読むことができま", "す。"])
        for w in stride(from: 40.0, through: 520, by: 3) {
            let layout = try TextLayout("「日本」の歴史、会話（英語と日本語）を読むことができます。" + japanese, style: wrapping, width: w)
            XCTAssertEqual(layout.lines.map(\.text).joined(), "「日本」の歴史、会話（英語と日本語）を読むことができます。" + japanese)
            for line in layout.lines {
                XCTAssertFalse(line.text.first.map { "。、」）".contains($0) } ?? false, "width \(w): line starts with \(line.text)")
                XCTAssertFalse(line.text.last.map { "「（".contains($0) } ?? false, "width \(w): line ends with \(line.text)")
                XCTAssertLessThanOrEqual(line.width, max(w, 34) + 1e-9, "width \(w)")
            }
        }
    }

    func testMixedEnglishAndJapaneseBreakAtSpacesAndBetweenKanji() throws {
        let layout = try TextLayout("History 日本の歴史 of Japan", style: wrapping, width: 100)
        for line in layout.lines { XCTAssertLessThanOrEqual(line.width, 100) }
        XCTAssertEqual(layout.lines.map(\.text).joined(separator: " ").replacingOccurrences(of: " ", with: ""),
                       "History日本の歴史ofJapan")
        XCTAssertFalse(layout.lines.contains { $0.text.hasSuffix("Jap") }, "English words stay whole")
    }

    func testNewlinesForceBreaks() throws {
        XCTAssertEqual(try TextLayout("one\ntwo\n\nfour", style: wrapping).lines.map(\.text), ["one", "two", "", "four"])
        XCTAssertEqual(try TextLayout("a\r\nb\u{2028}c", style: wrapping).lines.map(\.text), ["a", "b", "c"])
        // A newline at the very end adds no empty line, as in a label.
        XCTAssertEqual(try TextLayout("end\n", style: wrapping).lines.count, 1)
        let empty = try TextLayout("one\n\nthree", style: wrapping)
        XCTAssertEqual(empty.lines[1].height, lineHeight17, accuracy: 1e-9, "an empty line is one line of the font")
    }

    func testWordLongerThanTheWidthBreaksBetweenCharacters() throws {
        let word = "Supercalifragilisticexpialidocious"
        let layout = try TextLayout("a " + word, style: wrapping, width: 80)
        XCTAssertEqual(layout.lines.first?.text, "a")
        XCTAssertEqual(layout.lines.dropFirst().map(\.text).joined(), word)
        XCTAssertGreaterThan(layout.lines.count, 3)
        for line in layout.lines { XCTAssertLessThanOrEqual(line.width, 80) }
        // At least one character per line, even when none fits.
        let tiny = try TextLayout("WW", style: wrapping, width: 1)
        XCTAssertEqual(tiny.lines.map(\.text), ["W", "W"])
        XCTAssertEqual(tiny.size.width, (tiny.lines[0].width).rounded(.up))
    }

    func testCharWrappingBreaksInsideWords() throws {
        var style = wrapping
        style.lineBreakMode = .byCharWrapping
        let layout = try TextLayout("hello wonderful world", style: style, width: 70)
        XCTAssertEqual(layout.lines.map(\.text).joined().filter { $0 != " " }, "hellowonderfulworld")
        XCTAssertTrue(layout.lines.contains { !"hello wonderful world".split(separator: " ").contains(Substring($0.text)) },
                      "some line ends inside a word: \(layout.lines.map(\.text))")
        for line in layout.lines { XCTAssertLessThanOrEqual(line.width, 70) }
    }

    func testTruncatingTailEndsWithEllipsisInsideTheWidth() throws {
        let layout = try TextLayout("The history page shows a scroll for every era", style: TextStyle(font: dejavu17), width: 120)
        XCTAssertEqual(layout.lines.count, 1)
        let line = layout.lines[0]
        XCTAssertTrue(line.text.hasSuffix("…"), line.text)
        XCTAssertLessThanOrEqual(line.width, 120)
        XCTAssertTrue(layout.isTruncated && line.isTruncated)
        XCTAssertEqual(line.range, layout.text.startIndex..<layout.text.endIndex, "the line covers the hidden rest")
        // One more character (after any spaces) would not have fitted with the ellipsis.
        let shown = String(line.text.dropLast())
        let rest = layout.text.dropFirst(shown.count)
        let more = rest.prefix { $0 == " " } + String(rest.drop { $0 == " " }.prefix(1))
        XCTAssertGreaterThan(try TextLayout(shown + more + "…", style: TextStyle(font: dejavu17)).exactSize.width, 120, "\(shown)\(more)…")
        // Japanese truncates the same way: five kanji and DejaVu Sans's "…", one em each, fit in 6.5 em.
        let ja = try TextLayout(japanese, style: TextStyle(font: dejavu17), width: 17 * 6.5)
        XCTAssertEqual(ja.lines.map(\.text), ["日本の歴史…"])
        // Text that fits is not truncated.
        let fits = try TextLayout("Short", style: TextStyle(font: dejavu17), width: 120)
        XCTAssertEqual(fits.lines.map(\.text), ["Short"])
        XCTAssertFalse(fits.isTruncated)
    }

    func testTruncatingHeadAndMiddle() throws {
        let text = "0123456789abcdefghij"
        var style = TextStyle(font: dejavu17)
        style.lineBreakMode = .byTruncatingHead
        let head = try TextLayout(text, style: style, width: 80)
        XCTAssertTrue(head.lines[0].text.hasPrefix("…"), head.lines[0].text)
        XCTAssertTrue(text.hasSuffix(head.lines[0].text.dropFirst()))
        XCTAssertLessThanOrEqual(head.lines[0].width, 80)
        style.lineBreakMode = .byTruncatingMiddle
        let middle = try TextLayout(text, style: style, width: 80)
        let parts = middle.lines[0].text.split(separator: "…", omittingEmptySubsequences: false)
        XCTAssertEqual(parts.count, 2, middle.lines[0].text)
        XCTAssertTrue(text.hasPrefix(parts[0]) && text.hasSuffix(parts[1]) && !parts[0].isEmpty && !parts[1].isEmpty)
        XCTAssertLessThanOrEqual(middle.lines[0].width, 80)
    }

    func testNumberOfLinesLimitsLines() throws {
        let text = "one two three four five six seven eight nine ten eleven twelve"
        var style = wrapping
        XCTAssertGreaterThan(try TextLayout(text, style: style, width: 60).lines.count, 3)
        style.numberOfLines = 2
        let cut = try TextLayout(text, style: style, width: 60)
        XCTAssertEqual(cut.lines.count, 2)
        XCTAssertTrue(cut.isTruncated)
        XCTAssertFalse(cut.lines[1].text.hasSuffix("…"), "word wrapping cuts without an ellipsis")
        style.lineBreakMode = .byTruncatingTail
        let tail = try TextLayout(text, style: style, width: 60)
        XCTAssertEqual(tail.lines.count, 2)
        XCTAssertEqual(tail.lines[0].text, cut.lines[0].text, "lines before the last wrap as usual")
        XCTAssertTrue(tail.lines[1].text.hasSuffix("…"))
        XCTAssertLessThanOrEqual(tail.lines[1].width, 60)
        // One line of two paragraphs: the ellipsis shows that more follows.
        let paragraphs = try TextLayout("first\nsecond", style: TextStyle(font: dejavu17), width: 200)
        XCTAssertEqual(paragraphs.lines.map(\.text), ["first…"])
        XCTAssertEqual(cut.size.height, (2 * lineHeight17).rounded(.up))
    }

    func testHeightLimitKeepsTheLinesThatFit() throws {
        var style = wrapping
        style.lineBreakMode = .byTruncatingTail
        let text = "one two three four five six seven eight nine ten"
        let layout = try TextLayout(text, style: style, width: 60, height: 2.5 * lineHeight17)
        XCTAssertEqual(layout.lines.count, 2)
        XCTAssertTrue(layout.lines[1].text.hasSuffix("…"))
        // Always at least one line, as a label too short for its text still shows one.
        XCTAssertEqual(try TextLayout(text, style: style, width: 60, height: 3).lines.count, 1)
    }

    func testClippingKeepsTheRestOfTheParagraphOnTheLastLine() throws {
        var style = TextStyle(font: dejavu17)
        style.lineBreakMode = .byClipping
        let layout = try TextLayout("clipped at the edge of the label", style: style, width: 70)
        let line = layout.lines[0]
        XCTAssertTrue(line.isClipped)
        XCTAssertFalse(line.text.contains("…"))
        XCTAssertEqual(line.width, 70, "the visible part is the whole width")
        XCTAssertLessThan(line.text.count, "clipped at the edge of the label".count, "glyphs past the edge are dropped")
    }

    func testLineMetricsTakeTheLargestFontOnTheLine() throws {
        // IPAGothic as the primary font (line height exactly one em) and DejaVu Sans as the fallback for a
        // character IPAGothic lacks: that line grows to DejaVu Sans's ascent and descent.
        let ipa = try FontRegistry.shared.face(for: .file("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"))
        let dejavu = try FontRegistry.shared.face(for: dejavu17)
        let lacking = try XCTUnwrap(["\u{0250}", "\u{2C60}", "\u{A7A0}", "\u{0462}"].first {
            ipa.glyphIndex(for: $0.unicodeScalars.first!) == 0 && dejavu.glyphIndex(for: $0.unicodeScalars.first!) != 0
        })
        let style = TextStyle(font: Font(file: ipa.path, size: 17), numberOfLines: 0)
        let layout = TextLayout(validated: "日本\n日" + lacking, style: style, width: .infinity, height: .infinity, primary: ipa) { [dejavu] }
        XCTAssertEqual(layout.lines[0].height, 17, accuracy: 1e-9)
        XCTAssertEqual(layout.lines[1].ascent, 1901.0 / 2048 * 17, accuracy: 1e-9)
        XCTAssertEqual(layout.lines[1].descent, 483.0 / 2048 * 17, accuracy: 1e-9)
        XCTAssertEqual(layout.exactSize.height, 17 + lineHeight17, accuracy: 1e-9)
        // With DejaVu Sans as the primary font, Japanese lines from Noto Sans CJK JP take Noto's taller
        // hhea metrics (ascender 1160, descender -288 per 1000): 1.448 em.
        let ja = try TextLayout("日本語", style: wrapping)
        XCTAssertEqual(ja.lines[0].ascent, 1.160 * 17, accuracy: 1e-9)
        XCTAssertEqual(ja.lines[0].height, 1.448 * 17, accuracy: 1e-9)
    }

    func testLineSpacingAndRounding() throws {
        var style = wrapping
        style.lineSpacing = 6
        let layout = try TextLayout("one\ntwo\nthree", style: style)
        XCTAssertEqual(layout.lines[1].baseline - layout.lines[0].baseline, lineHeight17 + 6, accuracy: 1e-9)
        XCTAssertEqual(layout.exactSize.height, 3 * lineHeight17 + 12, accuracy: 1e-9)
        XCTAssertEqual(layout.size.height, (3 * lineHeight17 + 12).rounded(.up))
        XCTAssertEqual(layout.size.width, layout.exactSize.width.rounded(.up))
        XCTAssertEqual(try TextLayout.size(of: "one\ntwo\nthree", style: style), layout.size)
        style.lineSpacing = .nan
        XCTAssertEqual(try TextLayout("a\nb", style: style).exactSize.height, 2 * lineHeight17, accuracy: 1e-9)
    }

    func testMeasuredWidthLaysOutTheSameLinesAgain() throws {
        // A label sized with sizeThatFits gets a width of whole points; laying out at that width must give
        // the same lines.
        let text = "The first idea that probably comes to everyone's mind is to use a table view."
        for w in [90.0, 123.5, 200, 333.25] {
            let layout = try TextLayout(text, style: wrapping, width: w)
            let again = try TextLayout(text, style: wrapping, width: layout.size.width)
            XCTAssertEqual(again.lines.map(\.text), layout.lines.map(\.text), "width \(w)")
            XCTAssertEqual(again.size, layout.size)
        }
    }

    func testAlignmentOffsets() throws {
        var style = TextStyle(font: .system(size: 20))
        let w = try TextLayout("Hi", style: style).exactSize.width
        for (alignment, expected) in [(TextAlignment.left, 0.0), (.natural, 0), (.center, (200 - w) / 2), (.right, 200 - w)] {
            style.alignment = alignment
            let layout = try TextLayout("Hi", style: style, width: 200)
            XCTAssertEqual(layout.lines[0].x, expected, accuracy: 1e-9, "\(alignment)")
            XCTAssertEqual(layout.width, 200)
        }
        // Without a width, lines align with the widest line.
        style.alignment = .right
        let free = try TextLayout("a\nwide line", style: TextStyle(font: .system(size: 20), alignment: .right, numberOfLines: 0))
        XCTAssertEqual(free.lines[0].x + free.lines[0].width, free.lines[1].width, accuracy: 1e-9)
    }

    func testEmptyAndBlankText() throws {
        let empty = try TextLayout("", style: wrapping, width: 100)
        XCTAssertEqual(empty.lines.count, 0)
        XCTAssertEqual(empty.size, .zero)
        let spaces = try TextLayout("   ", style: wrapping, width: 100)
        XCTAssertEqual(spaces.lines.count, 1)
        XCTAssertEqual(spaces.lines[0].width, 0, "trailing spaces do not count")
        XCTAssertEqual(spaces.size.height, lineHeight17.rounded(.up))
    }

    func testBadArgumentsAreErrorsNotCrashes() {
        XCTAssertThrowsError(try TextLayout("a", width: .nan)) { XCTAssertEqual(($0 as? TypesettingError)?.kind, .invalidArgument) }
        XCTAssertThrowsError(try TextLayout("a", height: .nan)) { XCTAssertEqual(($0 as? TypesettingError)?.kind, .invalidArgument) }
        let long = String(repeating: "a", count: TextLayout.maxTextBytes + 1)
        XCTAssertThrowsError(try TextLayout(long)) { XCTAssertEqual(($0 as? TypesettingError)?.kind, .invalidArgument) }
        // Negative widths and line counts are treated as 0.
        XCTAssertEqual(try TextLayout("ab", style: TextStyle(font: dejavu17, numberOfLines: -3, lineBreakMode: .byWordWrapping), width: -5).lines.count, 2)
    }

    func testControlCharactersAndCombiningMarksDoNotBreakLayout() throws {
        // "e" + combining acute is one cluster; a ZWSP is a break opportunity without width.
        let layout = try TextLayout("cafe\u{301}\u{200B}bar\u{0007}", style: wrapping, width: 40)
        XCTAssertEqual(layout.lines.map(\.text), ["cafe\u{301}", "bar"], "the invisible BEL is not shown")
        let tab = try TextLayout("a\tb", style: wrapping)
        let spaced = try TextLayout("a    b", style: wrapping)
        XCTAssertEqual(tab.exactSize.width, spaced.exactSize.width, accuracy: 1e-9, "a tab is four spaces wide")
    }
}
