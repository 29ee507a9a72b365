import RasterCore
import XCTest
import FrameDiff

final class DiffSheetTests: XCTestCase {
    static let red = PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255)

    /// A 30x20 white frame whose diff has a single red pixel at (13, 7).
    static func row(_ name: String) throws -> DiffSheet.Row {
        let white = try Bitmap(width: 30, height: 20, fill: .white)
        var diff = try Bitmap(width: 30, height: 20, fill: PremultipliedRGBA8(r: 240, g: 240, b: 240, a: 255))
        diff[13, 7] = red
        return DiffSheet.Row(name: name, expected: white, actual: white, diff: diff)
    }

    func testFullSizeLayout() throws {
        let sheet = try XCTUnwrap(DiffSheet.make(rows: [try Self.row("a"), try Self.row("b")]))
        XCTAssertEqual(sheet.bitmap.width, 4 + 3 * (30 + 4))
        // Each row has its 14-px label band above it.
        XCTAssertEqual(sheet.bitmap.height, 4 + 2 * (14 + 20 + 4))
        XCTAssertEqual(sheet.downscale, 1)
        XCTAssertEqual(sheet.note, "2 frames, expected | actual | diff, full size")
        XCTAssertEqual(sheet.bitmap[4 + 34 + 34 + 13, 4 + 14 + 24 + 14 + 7], Self.red, "second row, diff column")
        XCTAssertEqual(sheet.bitmap[2, 2], DiffSheet.background)
        XCTAssertNil(DiffSheet.make(rows: []))
    }

    func testRowsAreCappedAndScaledDownKeepingMarks() throws {
        let rows = try (0..<12).map { try Self.row("frame \($0)") }
        // 8 rows of 20 px and their labels need 4 + 8 * (14 + 20 + 4) = 308 px; 240 px forces a downscale by
        // 2 (4 + 8 * (14 + 10 + 4) = 228; labels keep their size).
        let sheet = try XCTUnwrap(DiffSheet.make(rows: rows, maxSide: 240))
        XCTAssertEqual(sheet.rowCount, 8)
        XCTAssertEqual(sheet.downscale, 2)
        XCTAssertEqual(sheet.note, "first 8 of 12 failing frames, expected | actual | diff, scaled down 2x")
        XCTAssertEqual(sheet.bitmap.height, 228)
        XCTAssertEqual(sheet.bitmap.width, 4 + 3 * (15 + 4))
        // The single red pixel survives as a red block; the grey around it is averaged.
        XCTAssertEqual(sheet.bitmap[4 + 19 + 19 + 6, 18 + 3], Self.red)
        XCTAssertEqual(sheet.bitmap[4 + 19 + 19 + 0, 18 + 0], PremultipliedRGBA8(r: 240, g: 240, b: 240, a: 255))
        XCTAssertEqual(DiffSheet.make(rows: rows, failingFrames: 30, maxRows: 2)?.note,
                       "first 2 of 30 failing frames, expected | actual | diff, full size")
    }

    func testMissingCellsStayBackground() throws {
        let frame = try Bitmap(width: 5, height: 5, fill: .black)
        let sheet = try XCTUnwrap(DiffSheet.make(rows: [DiffSheet.Row(name: "only actual", expected: nil, actual: frame, diff: nil)]))
        XCTAssertEqual(sheet.bitmap.width, 4 + 0 + 4 + 5 + 4 + 0 + 4)
        XCTAssertEqual(sheet.bitmap[4 + 4 + 2, 18 + 2], .black)
    }

    func testEveryCellIsLabelled() throws {
        var row = try Self.row("frame_0007.png")
        let wide = try Bitmap(width: 200, height: 20, fill: .white)
        row.expected = wide
        row.actual = wide
        row.diff = wide
        row.measure = "12 px, max Δ 40"
        let sheet = try XCTUnwrap(DiffSheet.make(rows: [row]))
        // White text in the band above each cell: light pixels on the grey band in every column.
        for c in 0..<3 {
            let x0 = 4 + c * 204
            let band = (x0..<(x0 + 120)).flatMap { x in (5..<17).map { y in sheet.bitmap[x, y] } }
            XCTAssertTrue(band.contains { $0.r > 200 }, "column \(c) has a label")
        }
    }

    func testDownscaleAveragesPremultiplied() throws {
        var image = try Bitmap(width: 3, height: 1)
        image[0, 0] = PremultipliedRGBA8(r: 100, g: 0, b: 0, a: 100)
        image[1, 0] = .clear
        image[2, 0] = .white
        let small = DiffSheet.downscale(image, by: 2, keeping: [])
        XCTAssertEqual(small.width, 2)
        XCTAssertEqual(small[0, 0], PremultipliedRGBA8(r: 50, g: 0, b: 0, a: 50))
        XCTAssertEqual(small[1, 0], .white, "a partial block averages the pixels it has")
    }
}

final class FailureArtifactNameTests: XCTestCase {
    func testDifferentFrameNamesNeverShareAnArtifactName() {
        let names = ["a/b.png", "a_b.png", "a%2Fb.png", "frame_0001.png", "frame_0001", "frame_0001.PNG", ".hidden.png", "%2Ehidden.png", ".png", "x.png"]
        let stems = names.map(FailureArtifacts.stem(for:))
        XCTAssertEqual(Set(stems).count, names.count, "\(stems)")
        XCTAssertEqual(FailureArtifacts.stem(for: "frame_0001.png"), "frame_0001")
        XCTAssertEqual(FailureArtifacts.stem(for: "a/b.png"), "a%2Fb")
        XCTAssertFalse(stems.contains { $0.hasPrefix(".") || $0.contains("/") }, "no hidden files, no sub-folders")
    }
}
