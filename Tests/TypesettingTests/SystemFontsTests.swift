import Foundation
import XCTest
import Typesetting

/// SF Pro from a folder the user has (`Font.useSystemFonts(inDirectory:)`, `--system-fonts`): tested with
/// fonts made here under Apple's file names (DejaVu Sans as "SF Pro Text", DejaVu Serif as "SF Pro Display"),
/// never with Apple's files. The system font takes the Text design below 20 pt and the Display design from
/// 20 pt, the nearest weight among the files, SF's tracking; without the folder it is Inter again.
final class SystemFontsTests: XCTestCase {
    static let dejavu = "/usr/share/fonts/truetype/dejavu"
    var folder = ""

    override func setUpWithError() throws {
        // Whatever the shell says: Inter first.
        unsetenv(Font.systemFontsVariable)
        try Font.useSystemFonts(inDirectory: nil)
        folder = NSTemporaryDirectory() + "system-fonts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (source, target) in [("DejaVuSans.ttf", "SF-Pro-Text-Regular.otf"), ("DejaVuSans-Bold.ttf", "SF-Pro-Text-Bold.otf"),
                                 ("DejaVuSerif.ttf", "SF-Pro-Display-Regular.otf")] {
            try FileManager.default.copyItem(atPath: Self.dejavu + "/" + source, toPath: folder + "/" + target)
        }
    }

    override func tearDownWithError() throws {
        try Font.useSystemFonts(inDirectory: nil)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The width of `text` in `font`.
    func width(_ text: String, _ font: Font) throws -> Double { try TextLayout(text, style: TextStyle(font: font)).exactSize.width }

    func testTheSystemFontComesFromTheFolderInBothDesignsAndGoesBack() throws {
        let text = "Hello, world"
        let inter = try width(text, .system(size: 17))
        try Font.useSystemFonts(inDirectory: folder)
        XCTAssertEqual(Font.systemFontsDirectory, folder)
        XCTAssertEqual(Font.system(size: 17).source, .family(Font.sfProText, .regular))
        XCTAssertEqual(Font.system(size: 20).source, .family(Font.sfProDisplay, .regular), "the Display design from 20 pt")
        // Below 20 pt the Text files (DejaVu Sans here), with SF's tracking at the size.
        let text17 = try width(text, .system(size: 17))
        let sans = try width(text, Font(family: "DejaVu Sans", size: 17).withTracking(Font.systemTracking(forSize: 17)))
        XCTAssertEqual(text17, sans, accuracy: 1e-9)
        XCTAssertNotEqual(text17, inter)
        // From 20 pt the Display files (DejaVu Serif).
        let display = try width(text, .system(size: 28))
        XCTAssertEqual(display, try width(text, Font(family: "DejaVu Serif", size: 28).withTracking(Font.systemTracking(forSize: 28))), accuracy: 1e-9)
        // Semibold and heavier: the nearest weight among the files (Bold here); medium: Regular.
        XCTAssertEqual(try width(text, .system(size: 17, weight: .semibold)),
                       try width(text, Font(family: "DejaVu Sans", size: 17, weight: .bold).withTracking(Font.systemTracking(forSize: 17))), accuracy: 1e-9)
        XCTAssertEqual(try width(text, .system(size: 17, weight: .medium)), text17, accuracy: 1e-9)
        // The line height is the files' own (DejaVu's, taller than Inter's at the same size).
        let line = try TextLayout("Hg", style: TextStyle(font: .system(size: 17))).lines[0].height
        XCTAssertEqual(line, try TextLayout("Hg", style: TextStyle(font: Font(family: "DejaVu Sans", size: 17))).lines[0].height, accuracy: 1e-9)
        // Another folder (its Text design a serif): the paths found for the first are forgotten.
        let other = folder + "/other"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.dejavu + "/DejaVuSerif.ttf", toPath: other + "/SF-Pro-Text-Regular.otf")
        try FileManager.default.copyItem(atPath: Self.dejavu + "/DejaVuSans.ttf", toPath: other + "/SF-Pro-Display-Regular.otf")
        try Font.useSystemFonts(inDirectory: other)
        XCTAssertEqual(try width(text, .system(size: 17)),
                       try width(text, Font(family: "DejaVu Serif", size: 17).withTracking(Font.systemTracking(forSize: 17))), accuracy: 1e-9)
        XCTAssertNotNil(Font.systemFontsFingerprint)
        // Back to Inter.
        try Font.useSystemFonts(inDirectory: nil)
        XCTAssertNil(Font.systemFontsFingerprint)
        XCTAssertNil(Font.systemFontsDirectory)
        XCTAssertEqual(try width(text, .system(size: 17)), inter, accuracy: 1e-9)
    }

    func testAFolderWithoutBothDesignsIsRefusedNamingIt() throws {
        XCTAssertThrowsError(try Font.useSystemFonts(inDirectory: folder + "/missing")) { error in
            XCTAssertTrue("\(error)".contains(folder + "/missing: no such folder"), "\(error)")
        }
        try FileManager.default.removeItem(atPath: folder + "/SF-Pro-Display-Regular.otf")
        XCTAssertThrowsError(try Font.useSystemFonts(inDirectory: folder)) { error in
            XCTAssertTrue("\(error)".contains("no SF-Pro-Display-Regular.otf"), "\(error)")
        }
        // Bold alone is not enough: regular text would be drawn bold.
        try FileManager.default.copyItem(atPath: Self.dejavu + "/DejaVuSerif-Bold.ttf", toPath: folder + "/SF-Pro-Display-Bold.otf")
        XCTAssertThrowsError(try Font.useSystemFonts(inDirectory: folder)) { error in
            XCTAssertTrue("\(error)".contains("no SF-Pro-Display-Regular.otf"), "\(error)")
        }
        XCTAssertNil(Font.systemFontsDirectory, "nothing changed")
    }
}
