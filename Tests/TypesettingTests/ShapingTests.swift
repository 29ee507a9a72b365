import Foundation
import XCTest
import Typesetting

/// Glyphs and positions checked against an independent shaper: HarfBuzz's own command-line tool
/// `hb-shape` (Debian `libharfbuzz-bin`), run on the same font file with the same features (HarfBuzz's
/// defaults: kern, liga, calt, ...), direction and language. Fonts are given by file, so no tracking
/// is added (``Font/tracking`` is 0 for a font by file; the system font's SF tracking would add
/// `tracking` points after each glyph, which hb-shape knows nothing of).
///
/// Exact comparison: at a point size equal to the font's units per em, a point is a font unit, and
/// hb-shape's default scale is also one unit per font unit, so positions are the same integers. At
/// 17 pt they are those integers × 17 / units per em (tolerance 1e-9 pt: one rounding of a Double).
final class ShapingTests: XCTestCase {
    static let inter = "/usr/share/fonts/opentype/inter/Inter-Regular.otf"
    static let noto = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    static let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// (font file, text, language); every text is one line in one font.
    static let corpus: [(font: String, text: String, language: String)] = [
        (inter, "AVATAR", "en"),
        (inter, "Tokyo", "en"),
        (inter, "office affine waffle", "en"),
        (inter, "Yesterday, “To” → 1/2", "en"),
        (noto, "東京の天気、晴れ。「明日」は雨でしょう。", "ja"),
        (noto, "ヴァイオリン（弦楽器）・ｶﾀｶﾅ", "ja"),
        (dejavu, "مرحبا بالعالم", "ar"),
        (dejavu, "السَّلَامُ عَلَيْكُمْ", "ar"),
        (dejavu, "שלום עולם", "he"),
        (dejavu, "Hello עולם and مرحبا", "en"),
        (dejavu, "AVATAR office", "en"),
    ]

    /// One glyph as hb-shape prints it (JSON output): id, advance, offsets, in font units.
    struct Reference: Decodable { var g: UInt32; var cl: Int; var dx: Int; var dy: Int; var ax: Int }

    static func hbShape() throws -> String {
        for path in ["/usr/bin/hb-shape", "/usr/local/bin/hb-shape"] where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        if ProcessInfo.processInfo.environment["SMOKESCREEN_REFERENCE_REQUIRED"] == "1" {
            XCTFail("hb-shape not found: install Debian's libharfbuzz-bin (.ci/run does)")
        }
        throw XCTSkip("hb-shape not found (Debian libharfbuzz-bin)")
    }

    /// hb-shape's glyphs for `text[range]`, the rest of the text given as context as Typesetting does.
    static func reference(_ tool: String, font: String, text: String, range: Range<String.Index>, rightToLeft: Bool,
                          language: String) throws -> [Reference] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--output-format=json", "--no-glyph-names", "--direction=\(rightToLeft ? "rtl" : "ltr")",
                             "--language=\(language)", "--text-before=\(text[..<range.lowerBound])",
                             "--text-after=\(text[range.upperBound...])", font, String(text[range])]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "hb-shape \(process.arguments!)")
        return try JSONDecoder().decode([Reference].self, from: data)
    }

    /// The expected glyphs of the whole line: hb-shape for each run of one direction, in visual order
    /// (these lines are left to right, so runs stay in logical order and each right-to-left run comes
    /// out of hb-shape already reversed).
    func expectedLine(_ tool: String, font: String, text: String, language: String) throws -> [(id: UInt32, x: Int, y: Int)] {
        var runs: [(Range<String.Index>, Bool)] = []
        var start = text.startIndex
        func isRTL(_ c: Character) -> Bool { LineBuilder.isRightToLeftOrControl(c.unicodeScalars.first!.value) }
        let paragraphRTL = text.first(where: { $0.isLetter }).map(isRTL) ?? false
        // Spaces between two runs of the same direction belong to them; between directions, to the
        // paragraph's (UAX #9 rules N1–N2), which is how these test texts are written.
        var current = paragraphRTL
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c.isLetter || c.isPunctuation && !c.isWhitespace {
                let direction = c.isLetter ? isRTL(c) : current
                if direction != current {
                    // Neutrals before this letter go with the paragraph direction when the runs differ.
                    var cut = i
                    while cut > start, text[text.index(before: cut)].isWhitespace, current != paragraphRTL { cut = text.index(before: cut) }
                    if cut > start { runs.append((start..<cut, current)) }
                    start = cut
                    current = direction
                }
            }
            i = text.index(after: i)
        }
        runs.append((start..<text.endIndex, current))
        var out: [(UInt32, Int, Int)] = []
        var pen = 0
        for (range, rtl) in (paragraphRTL ? runs.reversed() : runs) {
            for g in try Self.reference(tool, font: font, text: text, range: range, rightToLeft: rtl, language: language) {
                out.append((g.g, pen + g.dx, g.dy))
                pen += g.ax
            }
        }
        return out
    }

    func testGlyphsAndPositionsEqualHBShape() throws {
        let tool = try Self.hbShape()
        for (font, text, language) in Self.corpus {
            let upem = try FontRegistry.shared.face(for: .file(font)).unitsPerEm
            let expected = try expectedLine(tool, font: font, text: text, language: language)
            for size in [Double(upem), 17] {
                let layout = try TextLayout(text, style: TextStyle(font: Font(file: font, size: size)))
                XCTAssertEqual(layout.lines.count, 1, text)
                let glyphs = layout.lines[0].glyphs
                XCTAssertEqual(glyphs.map(\.id), expected.map(\.id), "glyph ids of \(text) at \(size) pt")
                guard glyphs.count == expected.count else { continue }
                let perUnit = size / Double(upem)
                for (g, e) in zip(glyphs, expected) {
                    XCTAssertEqual(g.font, 0, "\(text): one font")
                    if size == Double(upem) {
                        XCTAssertEqual(g.x, Double(e.x), "x of glyph \(g.id) in \(text)")
                        XCTAssertEqual(g.y, Double(e.y), "y of glyph \(g.id) in \(text)")
                    } else {
                        XCTAssertEqual(g.x, Double(e.x) * perUnit, accuracy: 1e-9, "x of glyph \(g.id) in \(text) at 17 pt")
                        XCTAssertEqual(g.y, Double(e.y) * perUnit, accuracy: 1e-9, "y of glyph \(g.id) in \(text) at 17 pt")
                    }
                }
            }
        }
    }

    func testSystemFontTrackingIsAddedAfterShaping() throws {
        // SF's tracking at 17 pt is -26/1000 em after every glyph: the system font's positions are
        // Inter's shaped positions minus 0.442 pt per preceding glyph.
        let text = "AVATAR Tokyo"
        let tracked = try TextLayout(text, style: TextStyle(font: .system(size: 17))).lines[0].glyphs
        let plain = try TextLayout(text, style: TextStyle(font: Font(file: Self.inter, size: 17))).lines[0].glyphs
        XCTAssertEqual(tracked.map(\.id), plain.map(\.id))
        let tracking = Font.system(size: 17).trackingInPoints
        XCTAssertEqual(tracking, -0.442, accuracy: 1e-12)
        for (k, (t, p)) in zip(tracked, plain).enumerated() {
            XCTAssertEqual(t.x, p.x + Double(k) * tracking, accuracy: 1e-9)
        }
    }

    func testLigaturesAndKerningChangeWidths() throws {
        // DejaVu Sans has an "fi" ligature: one glyph for two characters, narrower than "f" + "i".
        let style = TextStyle(font: Font(file: Self.dejavu, size: 40))
        let fi = try TextLayout("fi", style: style)
        XCTAssertEqual(fi.lines[0].glyphs.count, 1)
        // Inter kerns "AV" through GPOS.
        let inter = TextStyle(font: Font(file: Self.inter, size: 40))
        let av = try TextLayout("AV", style: inter).exactSize.width
        let apart = try TextLayout("A", style: inter).exactSize.width + TextLayout("V", style: inter).exactSize.width
        XCTAssertLessThan(av, apart - 1)
    }
}
