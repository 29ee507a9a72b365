import Foundation
import RasterCore
import XCTest
import Typesetting

/// Finding and opening fonts, their metrics, and errors for fonts that cannot be used.
final class FontTests: XCTestCase {
    func testSystemFamilyIsInterInEachWeightAndInterDisplayFrom20pt() throws {
        let dir = "/usr/share/fonts/opentype/inter/"
        XCTAssertEqual(try Font.system(size: 17).resolvedPath(), dir + "Inter-Regular.otf")
        XCTAssertEqual(try Font.boldSystem(size: 17).resolvedPath(), dir + "Inter-Bold.otf")
        XCTAssertEqual(try Font.system(size: 17, weight: .semibold).resolvedPath(), dir + "Inter-SemiBold.otf")
        XCTAssertEqual(try Font.system(size: 13, weight: .medium).resolvedPath(), dir + "Inter-Medium.otf")
        XCTAssertEqual(try Font.system(size: 19.5).resolvedPath(), dir + "Inter-Regular.otf")
        XCTAssertEqual(try Font.system(size: 20).resolvedPath(), dir + "InterDisplay-Regular.otf")
        XCTAssertEqual(try Font.system(size: 34, weight: .bold).resolvedPath(), dir + "InterDisplay-Bold.otf")
        XCTAssertEqual(try Font(family: "inter", size: 12).resolvedPath(), dir + "Inter-Regular.otf")
        // withSize keeps a system font a system font: family and tracking follow the size.
        XCTAssertEqual(Font.system(size: 17).withSize(28), Font.system(size: 28))
        XCTAssertEqual(try FontRegistry.shared.face(for: .system(size: 17)).familyName, "Inter")
        // DejaVu Sans is still there by name.
        XCTAssertEqual(try Font(family: "dejavu sans", size: 12).resolvedPath(), "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        XCTAssertEqual(try Font(family: "DejaVu Sans", size: 12, weight: .semibold).resolvedPath(), "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
                       "a family with regular and bold draws semibold as bold")
        XCTAssertEqual(try Font(family: "DejaVu Sans", size: 12, weight: .medium).resolvedPath(), "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    }

    func testTextStylesHaveUIKitSizesAndWeights() {
        let expected: [(Font.TextStyle, Double, Font.Weight)] = [
            (.largeTitle, 34, .regular), (.title1, 28, .regular), (.title2, 22, .regular), (.title3, 20, .regular),
            (.headline, 17, .semibold), (.body, 17, .regular), (.callout, 16, .regular), (.subheadline, 15, .regular),
            (.footnote, 13, .regular), (.caption1, 12, .regular), (.caption2, 11, .regular),
        ]
        XCTAssertEqual(expected.count, Font.TextStyle.allCases.count)
        for (style, size, weight) in expected {
            let font = Font.preferredFont(forTextStyle: style)
            XCTAssertEqual(font, Font.system(size: size, weight: weight), "\(style)")
            XCTAssertEqual(font.pointSize, size)
            XCTAssertEqual(font.weight, weight)
        }
    }

    func testSystemTrackingFollowsSFsTable() throws {
        XCTAssertEqual(Font.systemTracking(forSize: 17), -26)
        XCTAssertEqual(Font.systemTracking(forSize: 12), 0)
        XCTAssertEqual(Font.systemTracking(forSize: 13), -6)
        XCTAssertEqual(Font.systemTracking(forSize: 10), 12)
        XCTAssertEqual(Font.systemTracking(forSize: 28), 14)
        XCTAssertEqual(Font.systemTracking(forSize: 34), 12)
        XCTAssertEqual(Font.systemTracking(forSize: 16.5), -23, accuracy: 1e-12, "linear between sizes")
        XCTAssertEqual(Font.systemTracking(forSize: 3), 41)
        XCTAssertEqual(Font.systemTracking(forSize: 200), 0)
        XCTAssertEqual(Font.system(size: 17).trackingInPoints, -0.442, accuracy: 1e-12)
        XCTAssertEqual(Font(family: "Inter", size: 17).tracking, 0, "only the system font is tracked")
        // Every glyph of the system font advances by its hmtx width plus the tracking: "ll" at 17 pt is
        // two "l" advances minus 2 × 0.442 pt (Inter has no `kern` table, so no kerning enters).
        let tracked = try TextLayout("ll", style: TextStyle(font: .system(size: 17))).exactSize.width
        let plain = try TextLayout("ll", style: TextStyle(font: Font(family: "Inter", size: 17))).exactSize.width
        XCTAssertEqual(tracked, plain - 2 * 0.442, accuracy: 1e-9)
        // Characters from a fallback font are not tracked: a kanji stays one em wide.
        let kanji = try TextLayout("日", style: TextStyle(font: .system(size: 17))).exactSize.width
        XCTAssertEqual(kanji, 17, accuracy: 1e-9)
    }

    func testFallbackOrderIsNotoSansCJKJPThenDejaVuSans() throws {
        let faces = FontRegistry.shared.fallbackFaces()
        XCTAssertEqual(faces.map(\.path), ["/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
                                           "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"])
        XCTAssertEqual(faces[0].familyName, "Noto Sans CJK JP", "face 0 of Debian's collection is the Japanese one")
        XCTAssertNotEqual(faces[0].glyphIndex(for: "日"), 0)
        XCTAssertEqual(try FontRegistry.shared.face(for: .system(size: 17)).glyphIndex(for: "日"), 0, "Inter has no kanji")
        let bold = FontRegistry.shared.fallbackFaces(weight: .semibold)
        XCTAssertEqual(bold.map(\.path), ["/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
                                          "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"])
        // In a layout: Latin from Inter, kana from Noto, and a symbol neither has from DejaVu Sans.
        let inter = try FontRegistry.shared.face(for: .system(size: 17))
        let symbol = try XCTUnwrap(["\u{2A0C}", "\u{2B7F}", "\u{2638}", "\u{2603}", "\u{2619}"].first {
            let s = $0.unicodeScalars.first!
            return inter.glyphIndex(for: s) == 0 && faces[0].glyphIndex(for: s) == 0 && faces[1].glyphIndex(for: s) != 0
        })
        let layout = try TextLayout("Aあ" + symbol, style: TextStyle(font: .system(size: 17)))
        XCTAssertEqual(layout.lines[0].glyphs.map { layout.faces[Int($0.font)].familyName }, ["Inter", "Noto Sans CJK JP", "DejaVu Sans"])
    }

    func testLineHeightsPerTextStyle() throws {
        // One line of each style: Inter's hhea (2728 + 680) / 2816 em below 20 pt, Inter Display's
        // (1974 + 502) / 2048 em from 20 pt; DejaVu Sans's was (1901 + 483) / 2048 em, about 4 % less.
        for style in Font.TextStyle.allCases {
            let size = style.pointSize
            let em = size >= 20 ? 2476.0 / 2048 : 3408.0 / 2816
            let layout = try TextLayout("Hg", style: TextStyle(font: .preferredFont(forTextStyle: style)))
            XCTAssertEqual(layout.lines[0].height, em * size, accuracy: 1e-9, "\(style)")
            XCTAssertEqual(layout.size.height, (em * size - 1e-7).rounded(.up), "\(style)")
        }
        // body: 20.574 pt (a label 21 pt tall), was 19.789 (20 pt).
        XCTAssertEqual(try TextLayout("Hg", style: TextStyle(font: .preferredFont(forTextStyle: .body))).size.height, 21)
        // A line with Japanese takes Noto Sans CJK JP's taller metrics: 1.448 em (24.616 pt at 17 pt).
        let ja = try TextLayout("Hg 日本", style: TextStyle(font: .system(size: 17)))
        XCTAssertEqual(ja.lines[0].height, 1.448 * 17, accuracy: 1e-9)
    }

    func testMissingSystemFontIsAnErrorNamingTheFontAndPackage() {
        XCTAssertThrowsError(try Font(family: "Inter Nonexistent", size: 17).resolvedPath())
        let reason = FontLocator.notFoundReason(family: "Inter", weight: .semibold)
        XCTAssertTrue(reason.contains("'Inter' (semibold) (Debian package fonts-inter)"), reason)
        XCTAssertTrue(reason.contains(FontLocator.environmentVariable), reason)
    }

    func testFamilyNotInTheKnownTableIsFoundByTheNamesInsideTheFiles() throws {
        // "DejaVu Sans Condensed" has no entry in FontLocator.knownFiles: the scan reads family names.
        let path = try Font(family: "DejaVu Sans Condensed", size: 12).resolvedPath()
        XCTAssertTrue(path.hasSuffix("/DejaVuSansCondensed.ttf"), path)
        let bold = try Font(family: "DejaVu Sans Condensed", size: 12, weight: .bold).resolvedPath()
        XCTAssertTrue(bold.hasSuffix("/DejaVuSansCondensed-Bold.ttf"), bold)
    }

    func testEnvironmentDirectoriesAreSearchedFirst() throws {
        let original = try XCTUnwrap(FileManagerless.read("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", limit: .max))
        let copy = try temporaryFile(named: "DejaVuSans.ttf", bytes: original)
        let dir = String(copy.dropLast("/DejaVuSans.ttf".count))
        setenv(FontLocator.environmentVariable, "/nonexistent:" + dir, 1)
        defer { unsetenv(FontLocator.environmentVariable) }
        // A fresh registry: the shared one has already resolved the family.
        let registry = FontRegistry()
        XCTAssertEqual(try registry.face(for: .family("DejaVu Sans", .regular)).path, copy)
    }

    func testFontGivenByFile() throws {
        let font = Font(file: "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf", size: 20)
        XCTAssertEqual(try font.resolvedPath(), "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf")
        let layout = try TextLayout("日本", style: TextStyle(font: font))
        XCTAssertEqual(layout.exactSize.width, 40, accuracy: 1e-9, "IPAGothic kanji are one em wide")
    }

    func testMetricsComeFromHhea() throws {
        // Inter: hhea ascender 2728, descender -680, line gap 0, 2816 units per em.
        let inter = try Font.system(size: 17).metrics()
        XCTAssertEqual(inter.ascender, 2728.0 / 2816 * 17, accuracy: 1e-12)
        XCTAssertEqual(inter.descender, -680.0 / 2816 * 17, accuracy: 1e-12)
        XCTAssertEqual(inter.leading, 0)
        // DejaVu Sans: hhea ascender 1901, descender -483, line gap 0, 2048 units per em.
        let m = try Font(family: "DejaVu Sans", size: 17).metrics()
        XCTAssertEqual(m.ascender, 1901.0 / 2048 * 17, accuracy: 1e-12)
        XCTAssertEqual(m.descender, -483.0 / 2048 * 17, accuracy: 1e-12)
        XCTAssertEqual(m.leading, 0)
        XCTAssertEqual(m.lineHeight, 2384.0 / 2048 * 17, accuracy: 1e-12)
        // IPAGothic: 1802 / -246.
        let ipa = try Font(family: "IPAGothic", size: 17).metrics()
        XCTAssertEqual(ipa.lineHeight, 17, accuracy: 1e-12)
    }

    func testMissingFileIsAnErrorNamingIt() {
        let path = "/nonexistent/dir/NoSuchFont.ttf"
        XCTAssertThrowsError(try TextLayout("Hello", style: TextStyle(font: Font(file: path, size: 12)))) { error in
            let e = error as? TypesettingError
            XCTAssertEqual(e?.kind, .fileNotFound)
            XCTAssertEqual(e?.file, path)
            XCTAssertTrue("\(error)".contains(path), "\(error)")
        }
    }

    func testGarbageFileIsAnErrorNamingIt() throws {
        let path = try temporaryFile(named: "garbage.ttf", bytes: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 7) })
        XCTAssertThrowsError(try Font(file: path, size: 12).metrics()) { error in
            let e = error as? TypesettingError
            XCTAssertEqual(e?.kind, .invalidFont)
            XCTAssertEqual(e?.file, path)
            XCTAssertEqual(e?.reason, "unknown file format")
            XCTAssertEqual("\(error)", "\(path): not a font FreeType can use (unknown file format)")
        }
    }

    func testTruncatedFontFileIsAnError() throws {
        // The first 2 KiB of a real font: a valid header whose tables point past the end.
        let real = try XCTUnwrap(FileManagerless.read("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", limit: 2048))
        let path = try temporaryFile(named: "cut.ttf", bytes: real)
        XCTAssertThrowsError(try Font(file: path, size: 12).metrics()) { error in
            XCTAssertEqual((error as? TypesettingError)?.kind, .invalidFont)
            XCTAssertEqual((error as? TypesettingError)?.file, path)
        }
    }

    func testAFontWithoutHorizontalMetricsIsAnError() throws {
        // DejaVu Sans with its hhea table's numberOfHMetrics (offset 34) set to 0: no advances to read.
        var bytes = try XCTUnwrap(FileManagerless.read("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", limit: 1 << 24))
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
        let tables = u16(4)
        let record = try XCTUnwrap((0..<tables).map { 12 + 16 * $0 }.first { String(decoding: bytes[$0..<$0 + 4], as: UTF8.self) == "hhea" })
        let hhea = u32(record + 8)
        bytes[hhea + 34] = 0
        bytes[hhea + 35] = 0
        let path = try temporaryFile(named: "no-hmetrics.ttf", bytes: bytes)
        XCTAssertThrowsError(try Font(file: path, size: 12).metrics()) { error in
            XCTAssertEqual((error as? TypesettingError)?.kind, .invalidFont)
            XCTAssertEqual((error as? TypesettingError)?.file, path)
            XCTAssertTrue("\(error)".contains("no horizontal metrics"), "\(error)")
        }
    }

    func testEmptyFileAndDirectoryAreErrors() throws {
        let empty = try temporaryFile(named: "empty.ttf", bytes: [])
        XCTAssertThrowsError(try Font(file: empty, size: 12).metrics()) { error in
            XCTAssertEqual(error as? TypesettingError, TypesettingError(kind: .invalidFont, file: empty, reason: "empty file"))
        }
        XCTAssertThrowsError(try Font(file: "/usr/share/fonts", size: 12).metrics()) { error in
            XCTAssertEqual(error as? TypesettingError, TypesettingError(kind: .unreadable, file: "/usr/share/fonts", reason: "is a directory"))
        }
        // A FIFO with no writer neither blocks the open nor is read.
        let fifo = NSTemporaryDirectory() + "/smokescreen-font-fifo-\(getpid()).ttf"
        unlink(fifo)
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        XCTAssertThrowsError(try Font(file: fifo, size: 12).metrics()) { error in
            XCTAssertEqual(error as? TypesettingError, TypesettingError(kind: .unreadable, file: fifo, reason: "not a regular file"))
        }
    }

    func testFreeTypeAndHarfBuzzReadOneMappingOfTheFileAndReleaseIt() throws {
        // A copy under a unique name, so no cached face maps it too.
        let bytes = try XCTUnwrap(FileManagerless.read("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", limit: 1 << 24))
        let name = "mapped-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).ttf"
        let path = try temporaryFile(named: name, bytes: bytes)
        // By the file's unique name (the kernel lists the real path, which differs from `path` when the
        // temporary folder is reached through a symbolic link), line by line to the end: a test process
        // has thousands of mappings, more than one read of the file returns.
        func mappings() throws -> Int {
            guard let file = fopen("/proc/self/maps", "r") else { throw CocoaError(.fileReadUnknown) }
            defer { fclose(file) }
            var line: UnsafeMutablePointer<CChar>?, capacity = 0, count = 0
            defer { free(line) }
            while getline(&line, &capacity, file) > 0, let line {
                if String(cString: line).hasSuffix("/" + name + "\n") { count += 1 }
            }
            return count
        }
        XCTAssertEqual(try mappings(), 0)
        do {
            let face = try FontFace(path: path)
            XCTAssertNotEqual(face.glyphIndex(for: "A"), 0, "HarfBuzz reads the mapping")
            XCTAssertGreaterThan(face.advance(of: face.glyphIndex(for: "A")), 0, "FreeType reads it")
            try withExtendedLifetime(face) { XCTAssertEqual(try mappings(), 1, "one mapping for FreeType and HarfBuzz") }
        }
        XCTAssertEqual(try mappings(), 0, "unmapped with the face")
    }

    func testUnknownFamilyIsAnError() {
        XCTAssertThrowsError(try Font(family: "No Such Family", size: 12).metrics()) { error in
            let e = error as? TypesettingError
            XCTAssertEqual(e?.kind, .familyNotFound)
            XCTAssertNil(e?.file)
            XCTAssertTrue(e?.reason.contains("'No Such Family'") ?? false)
        }
    }

    func testBadPointSizesAreErrors() {
        for size in [0, -1, .nan, .infinity, 1e9] {
            XCTAssertThrowsError(try TextLayout("a", style: TextStyle(font: .system(size: size))), "\(size)") { error in
                XCTAssertEqual((error as? TypesettingError)?.kind, .invalidArgument)
            }
        }
    }

    func testDejaVuSansKernsAV() throws {
        // DejaVu Sans kerns "AV" (HarfBuzz reads its GPOS `kern` feature, or its legacy `kern` table).
        let style = TextStyle(font: Font(family: "DejaVu Sans", size: 40))
        let pair = try TextLayout("AV", style: style).exactSize.width
        let separate = try TextLayout("A", style: style).exactSize.width + TextLayout("V", style: style).exactSize.width
        XCTAssertLessThan(pair, separate - 1, "kerning brings A and V closer")
        // The adjustment is the kern table's value at this size: -131 units.
        XCTAssertEqual(pair - separate, -131.0 / 2048 * 40, accuracy: 1e-9)
    }

    func testInterKernsThroughItsGPOSTable() throws {
        // Inter has no `kern` table: its kerning is the GPOS `kern` feature, which HarfBuzz applies.
        let style = TextStyle(font: Font(family: "Inter", size: 40))
        func width(_ text: String) throws -> Double { try TextLayout(text, style: style).exactSize.width }
        for pair in ["AV", "To", "Ty", "LT"] {
            let apart = try width(String(pair.first!)) + width(String(pair.last!))
            XCTAssertLessThan(try width(pair), apart - 1, "\(pair) is kerned closer")
        }
        // Pairs without an adjustment keep their advances.
        XCTAssertEqual(try width("HH"), try 2 * width("H"), accuracy: 1e-9)
    }

    func testMissingFallbackWarnsOnceAndDrawsNotdef() throws {
        let registry = FontRegistry(fallbackFile: "/nonexistent/ipag.ttf")
        XCTAssertNil(registry.fallbackProblem, "not looked for before a character needs it")
        let primary = try FontRegistry.shared.face(for: .system(size: 17))
        let layout = TextLayout(validated: "A日本", style: TextStyle(), width: .infinity, height: .infinity, primary: primary) {
            registry.fallbackFaces()
        }
        XCTAssertEqual(layout.lines[0].glyphs.map(\.id).dropFirst(), [0, 0], "kanji fall back to .notdef (DejaVu Sans has none either)")
        XCTAssertEqual(layout.faces.map(\.familyName), ["Inter", "DejaVu Sans"], "the missing fallback is skipped")
        let problem = try XCTUnwrap(registry.fallbackProblem)
        XCTAssertTrue(problem.contains("/nonexistent/ipag.ttf"), problem)
        // Resolved once: asking again neither retries nor warns again (the problem stays the first one).
        XCTAssertEqual(registry.fallbackFaces().count, 1)
        XCTAssertEqual(registry.fallbackProblem, problem)
        // .notdef draws an empty box: ink, not a crash.
        var bitmap = try Bitmap(width: 60, height: 24)
        bitmap.draw { layout.draw(in: $0, at: Point(x: 1, y: 1)) }
        XCTAssertGreaterThan(inkBox(bitmap)?.width ?? 0, 30)
    }

    func testCharacterInNoFontDrawsPrimaryNotdef() throws {
        // U+10FFFD is a private-use character that none of Inter, Noto Sans CJK JP and DejaVu Sans has.
        let layout = try TextLayout("a\u{10FFFD}b", style: TextStyle(numberOfLines: 0))
        let ids = layout.lines[0].glyphs.map(\.id)
        XCTAssertEqual(ids.count, 3)
        XCTAssertEqual(ids[1], 0)
        XCTAssertEqual(layout.lines[0].glyphs[1].font, 0, "the primary font's .notdef")
        var bitmap = try Bitmap(width: 40, height: 24)
        bitmap.draw { layout.draw(in: $0, at: .zero) }
        XCTAssertNotNil(inkBox(bitmap))
    }
}
