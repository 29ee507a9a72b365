import Foundation
import RasterCore
import XCTest
@testable import Typesetting

/// Finding and opening fonts, their metrics, and errors for fonts that cannot be used.
final class FontTests: XCTestCase {
    func testSystemFamilyIsDejaVuSansRegularAndBold() throws {
        XCTAssertEqual(try Font.system(size: 17).resolvedPath(), "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        XCTAssertEqual(try Font.boldSystem(size: 17).resolvedPath(), "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
        XCTAssertEqual(try Font(family: "dejavu sans", size: 12).resolvedPath(), "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    }

    func testFallbackIsIPAGothic() throws {
        let face = try XCTUnwrap(FontRegistry.shared.fallbackFace())
        XCTAssertEqual(face.path, "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf")
        XCTAssertEqual(face.familyName, "IPAGothic")
        XCTAssertNotEqual(face.glyphIndex(for: "日"), 0)
        XCTAssertEqual(try FontRegistry.shared.face(for: .system(size: 17)).glyphIndex(for: "日"), 0, "DejaVu Sans has no kanji")
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
        // DejaVu Sans: hhea ascender 1901, descender -483, line gap 0, 2048 units per em.
        let m = try Font.system(size: 17).metrics()
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

    func testEmptyFileAndDirectoryAreErrors() throws {
        let empty = try temporaryFile(named: "empty.ttf", bytes: [])
        XCTAssertThrowsError(try Font(file: empty, size: 12).metrics()) { error in
            XCTAssertEqual(error as? TypesettingError, TypesettingError(kind: .invalidFont, file: empty, reason: "empty file"))
        }
        XCTAssertThrowsError(try Font(file: "/usr/share/fonts", size: 12).metrics()) { error in
            XCTAssertEqual(error as? TypesettingError, TypesettingError(kind: .unreadable, file: "/usr/share/fonts", reason: "is a directory"))
        }
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
        // DejaVu Sans has a legacy `kern` table (format 0), which FT_Get_Kerning reads.
        let face = try FontRegistry.shared.face(for: .system(size: 17))
        guard face.hasKerning else { throw XCTSkip("this DejaVu Sans has no kern table") }
        let style = TextStyle(font: .system(size: 40))
        let pair = try TextLayout("AV", style: style).exactSize.width
        let separate = try TextLayout("A", style: style).exactSize.width + TextLayout("V", style: style).exactSize.width
        XCTAssertLessThan(pair, separate - 1, "kerning brings A and V closer")
        // The adjustment is the kern table's value at this size: -131 units.
        XCTAssertEqual(pair - separate, -131.0 / 2048 * 40, accuracy: 1e-9)
    }

    func testMissingFallbackWarnsOnceAndDrawsNotdef() throws {
        let registry = FontRegistry(fallbackFile: "/nonexistent/ipag.ttf")
        XCTAssertNil(registry.fallbackProblem, "not looked for before a character needs it")
        let primary = try FontRegistry.shared.face(for: .system(size: 17))
        let layout = TextLayout(validated: "A日本", style: TextStyle(), width: .infinity, height: .infinity, primary: primary) {
            registry.fallbackFace()
        }
        XCTAssertEqual(layout.lines[0].glyphs.map(\.id).dropFirst(), [0, 0], "kanji fall back to .notdef")
        XCTAssertEqual(layout.faces.count, 1)
        let problem = try XCTUnwrap(registry.fallbackProblem)
        XCTAssertTrue(problem.contains("/nonexistent/ipag.ttf"), problem)
        // Resolved once: asking again neither retries nor warns again (the problem stays the first one).
        XCTAssertNil(registry.fallbackFace())
        XCTAssertEqual(registry.fallbackProblem, problem)
        // .notdef draws an empty box: ink, not a crash.
        var bitmap = try Bitmap(width: 60, height: 24)
        bitmap.draw { layout.draw(in: $0, at: Point(x: 1, y: 1)) }
        XCTAssertGreaterThan(inkBox(bitmap)?.width ?? 0, 30)
    }

    func testCharacterInNoFontDrawsPrimaryNotdef() throws {
        // U+10FFFD is a private-use character that neither DejaVu Sans nor IPAGothic has.
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
