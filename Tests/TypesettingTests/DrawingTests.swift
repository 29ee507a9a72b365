import Foundation
import PNGIO
import RasterCore
import XCTest
import Typesetting

/// Drawing: where ink lands against the measured size, colour and alpha, transforms, clips and layers.
/// Bitmaps stay small because per-pixel loops are slow in debug builds.
final class DrawingTests: XCTestCase {
    private let wrapping = TextStyle(font: .system(size: 14), numberOfLines: 0, lineBreakMode: .byWordWrapping)

    func testInkStaysInsideTheMeasuredRectForOneTwoAndThreeLines() throws {
        // Descenders (g, y, p, j, q), tall capitals and ascenders, and Japanese on the last line.
        let texts = ["Gypsy jumped", "Gypsy jumped quickly", "Gypsy jumped quickly over 日本語で読む"]
        for scale in [1.0, 2.0] {
            for (k, text) in texts.enumerated() {
                let layout = try TextLayout(text, style: wrapping, width: 130)
                XCTAssertEqual(layout.lines.count, k + 1, text)
                let margin = 3.0
                var bitmap = try Bitmap(pointSize: Size(width: 130 + 2 * margin, height: layout.size.height + 2 * margin), scale: scale)
                bitmap.draw { layout.draw(in: $0, at: Point(x: margin, y: margin)) }
                let ink = try XCTUnwrap(inkBox(bitmap))
                let rect = Rect(x: margin, y: margin, width: layout.size.width, height: layout.size.height)
                let context = "\(k + 1) lines @\(scale)x: ink \(ink) measured \(rect)"
                XCTAssertGreaterThanOrEqual(Double(ink.minX), rect.minX * scale, context)
                XCTAssertGreaterThanOrEqual(Double(ink.minY), rect.minY * scale, context)
                XCTAssertLessThanOrEqual(Double(ink.maxX), rect.maxX * scale, context)
                XCTAssertLessThanOrEqual(Double(ink.maxY), rect.maxY * scale, context)
                // And the measured height is not padded: descenders reach into the last pixel rows.
                XCTAssertGreaterThan(Double(ink.maxY), (rect.maxY - 0.3 * layout.lines.last!.height) * scale, context)
            }
        }
    }

    func testLineHeightsInPointsAreTheSameAtEveryScale() throws {
        // Layout has no scale input; drawn baselines at @1x, @2x and @3x sit at the same points (to a pixel).
        let layout = try TextLayout("Hg\nHg\nHg", style: wrapping)
        var tops: [[Double]] = []
        for scale in [1.0, 2.0, 3.0] {
            var bitmap = try Bitmap(pointSize: Size(width: 30, height: layout.size.height), scale: scale)
            bitmap.draw { layout.draw(in: $0, at: .zero) }
            // The top of each "H" in points.
            var rows: [Double] = []
            var inLine = false
            let column = Int(2 * scale)
            for y in 0..<bitmap.height {
                let on = (0..<Int(6 * scale)).contains { bitmap[column + $0 - Int(scale), y].a > 128 }
                if on && !inLine { rows.append(Double(y) / scale) }
                inLine = on
            }
            tops.append(rows)
        }
        XCTAssertEqual(tops[0].count, 3)
        for rows in tops.dropFirst() {
            XCTAssertEqual(rows.count, 3)
            for (a, b) in zip(rows, tops[0]) { XCTAssertEqual(a, b, accuracy: 1.01) }
        }
    }

    func testAlignmentPlacesInk() throws {
        var style = TextStyle(font: .system(size: 16))
        var centres: [TextAlignment: (Int, Int)] = [:]
        for alignment in [TextAlignment.left, .center, .right] {
            style.alignment = alignment
            let layout = try TextLayout("Hi", style: style, width: 100)
            var bitmap = try Bitmap(width: 100, height: 22)
            bitmap.draw { layout.draw(in: $0, at: .zero) }
            let ink = try XCTUnwrap(inkBox(bitmap))
            centres[alignment] = (ink.minX, ink.maxX)
        }
        let left = centres[.left]!, center = centres[.center]!, right = centres[.right]!
        XCTAssertLessThanOrEqual(left.0, 3)
        XCTAssertGreaterThanOrEqual(right.1, 97)
        XCTAssertEqual(Double(center.0 + center.1) / 2, 50, accuracy: 2)
        // Right alignment moves the ink by the free width (to the quarter-pixel positioning).
        let free = 100 - (try TextLayout("Hi", style: style).exactSize.width)
        XCTAssertEqual(Double(right.0 - left.0), free, accuracy: 1)
        XCTAssertEqual(right.1 - right.0, left.1 - left.0, "same ink width, just moved")
    }

    func testDrawInRectCentresVerticallyLikeALabel() throws {
        let style = TextStyle(font: .system(size: 14), alignment: .center)
        let layout = try TextLayout("Label", style: style, width: 80)
        var bitmap = try Bitmap(width: 80, height: 60)
        bitmap.draw { layout.draw(in: $0, rect: Rect(x: 0, y: 0, width: 80, height: 60)) }
        let ink = try XCTUnwrap(inkBox(bitmap))
        let top = (60 - layout.size.height) / 2
        XCTAssertGreaterThanOrEqual(Double(ink.minY), top)
        XCTAssertLessThanOrEqual(Double(ink.maxY), top + layout.size.height)
        XCTAssertEqual(Double(ink.minX + ink.maxX) / 2, 40, accuracy: 2)
    }

    func testColourOfCoveredPixelsIsTheTextColour() throws {
        let red = Color(red: 1, green: 0, blue: 0)
        let layout = try TextLayout("III", style: TextStyle(font: .boldSystem(size: 30)))
        var bitmap = try Bitmap(width: 60, height: 40, fill: opaqueWhite)
        bitmap.draw { layout.draw(in: $0, at: .zero, color: red) }
        var solid = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap[x, y]
                // Red over white keeps red at 255 and lowers green and blue together by the coverage.
                XCTAssertEqual(p.r, 255)
                XCTAssertEqual(p.g, p.b)
                if p == PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255) { solid += 1 }
            }
        }
        XCTAssertGreaterThan(solid, 100, "the stems of bold I are fully covered")
        // The style's colour is the default.
        var styled = try Bitmap(width: 60, height: 40)
        let blue = try TextLayout("III", style: TextStyle(font: .boldSystem(size: 30), color: Color(hex: 0x0000FF)))
        styled.draw { blue.draw(in: $0, at: .zero) }
        var blueSolid = 0
        for y in 0..<styled.height {
            for x in 0..<styled.width where styled[x, y].a == 255 {
                XCTAssertEqual(styled[x, y], PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255))
                blueSolid += 1
            }
        }
        XCTAssertEqual(blueSolid, solid, "same glyphs, same fully covered pixels")
    }

    func testTransparentBackgroundKeepsStraightColourThroughPNG() throws {
        let colour = Color(red8: 51, green8: 102, blue8: 204)
        let layout = try TextLayout("Text", style: TextStyle(font: .boldSystem(size: 24), color: colour))
        var bitmap = try Bitmap(width: 70, height: 30)
        bitmap.draw { layout.draw(in: $0, at: .zero) }
        let path = try temporaryFile(named: "text.png", bytes: [])
        try PNGCodec.write(bitmap, to: path)
        let back = try PNGCodec.read(contentsOf: path)
        var full = 0, partial = 0
        for y in 0..<back.height {
            for x in 0..<back.width {
                let p = back[x, y]
                if p.a == 255 {
                    XCTAssertEqual(p, PremultipliedRGBA8(r: 51, g: 102, b: 204, a: 255), "(\(x), \(y))")
                    full += 1
                } else if p.a >= 64 {
                    // Edges: the straight colour survives premultiplication within rounding.
                    let straight = p.unpremultiplied
                    XCTAssertEqual(Int(straight.r), 51, accuracy: 3)
                    XCTAssertEqual(Int(straight.g), 102, accuracy: 3)
                    XCTAssertEqual(Int(straight.b), 204, accuracy: 3)
                    partial += 1
                }
            }
        }
        XCTAssertGreaterThan(full, 50)
        XCTAssertGreaterThan(partial, 10)
    }

    func testRotatedTextFillsOutlinesWithTheSameInk() throws {
        let layout = try TextLayout("Rotate", style: TextStyle(font: .system(size: 16)))
        var straight = try Bitmap(width: 80, height: 80)
        straight.draw { layout.draw(in: $0, at: Point(x: 10, y: 30)) }
        var rotated = try Bitmap(width: 80, height: 80)
        rotated.draw { p in
            p.translate(x: 40, y: 40)
            p.rotate(by: .pi / 4)
            layout.draw(in: p, at: Point(x: -layout.exactSize.width / 2, y: -layout.exactSize.height / 2))
        }
        let ink = try XCTUnwrap(inkBox(rotated))
        XCTAssertGreaterThan(ink.height, 35, "the text runs diagonally")
        // Exact-area coverage either way: the same amount of ink within a few percent.
        XCTAssertEqual(Double(alphaSum(rotated)), Double(alphaSum(straight)), accuracy: 0.03 * Double(alphaSum(straight)))
    }

    func testMasksAndOutlinesAgree() throws {
        // A rotation too small to move anything visibly (1e-6 rad) sends drawing down the outline path;
        // both rasterize the same unhinted outlines with exact area coverage.
        let layout = try TextLayout("Agree 日本", style: TextStyle(font: .system(size: 15)))
        var masked = try Bitmap(width: 100, height: 24)
        masked.draw { layout.draw(in: $0, at: Point(x: 2, y: 2)) }
        var outlined = try Bitmap(width: 100, height: 24)
        outlined.draw { p in
            p.rotate(by: 1e-6)
            layout.draw(in: p, at: Point(x: 2, y: 2))
        }
        XCTAssertEqual(Double(alphaSum(outlined)), Double(alphaSum(masked)), accuracy: 0.02 * Double(alphaSum(masked)))
        let a = try XCTUnwrap(inkBox(masked)), b = try XCTUnwrap(inkBox(outlined))
        XCTAssertEqual(a.minX, b.minX, accuracy: 1)
        XCTAssertEqual(a.maxX, b.maxX, accuracy: 1)
        XCTAssertEqual(a.maxY, b.maxY, accuracy: 1)
    }

    func testScaledViewDrawsMasksAtTheEffectiveSize() throws {
        let layout = try TextLayout("Scale", style: TextStyle(font: .system(size: 12)))
        var plain = try Bitmap(width: 100, height: 60, scale: 2)
        plain.draw { layout.draw(in: $0, at: .zero) }
        var scaled = try Bitmap(width: 100, height: 60, scale: 2)
        scaled.draw { p in
            p.scale(x: 1.5, y: 1.5)
            layout.draw(in: p, at: .zero)
        }
        let a = try XCTUnwrap(inkBox(plain)), b = try XCTUnwrap(inkBox(scaled))
        XCTAssertEqual(Double(b.width), 1.5 * Double(a.width), accuracy: 2)
        XCTAssertEqual(Double(alphaSum(scaled)), 2.25 * Double(alphaSum(plain)), accuracy: 0.05 * 2.25 * Double(alphaSum(plain)))
    }

    func testPainterAlphaClipAndLayersApply() throws {
        let layout = try TextLayout("IIII", style: TextStyle(font: .boldSystem(size: 20)))
        var half = try Bitmap(width: 50, height: 26)
        half.draw { p in
            p.alpha = 0.5
            layout.draw(in: p, at: .zero)
        }
        XCTAssertEqual(half.withUnsafePixels { $0.map { $0 >> 24 }.max() }, 128)

        var clipped = try Bitmap(width: 50, height: 26)
        clipped.draw { p in
            p.clip(to: Rect(x: 0, y: 0, width: 20, height: 26))
            layout.draw(in: p, at: .zero)
        }
        XCTAssertLessThanOrEqual(try XCTUnwrap(inkBox(clipped)).maxX, 20)

        // Inside a layer whose origin is offset by a clip, glyphs land on the same pixels.
        var direct = try Bitmap(width: 50, height: 26)
        direct.draw { p in
            p.clip(to: Rect(x: 3, y: 2, width: 40, height: 20))
            layout.draw(in: p, at: Point(x: 4, y: 1))
        }
        var layered = try Bitmap(width: 50, height: 26)
        layered.draw { p in
            p.clip(to: Rect(x: 3, y: 2, width: 40, height: 20))
            p.withLayer(opacity: 1) { layout.draw(in: p, at: Point(x: 4, y: 1)) }
        }
        XCTAssertEqual(direct, layered)
        XCTAssertNotNil(inkBox(direct))
    }

    func testCoverageMaskBlendsWithExactRounding() throws {
        // Painter.fill(coverageMask:) directly: black at coverage c over white is 255 - c; at 50% alpha the
        // coverage is first scaled to round(c * 128 / 255).
        let mask: [UInt8] = [0, 1, 64, 128, 200, 255]
        var bitmap = try Bitmap(width: 8, height: 3, fill: opaqueWhite)
        bitmap.draw { p in
            mask.withUnsafeBufferPointer { p.fill(coverageMask: $0, width: 6, height: 1, atDevicePixel: (1, 0), color: .black) }
            p.alpha = 0.5
            mask.withUnsafeBufferPointer { p.fill(coverageMask: $0, width: 3, height: 2, atDevicePixel: (1, 1), color: .black) }
            // A buffer too small for its dimensions draws nothing.
            mask.withUnsafeBufferPointer { p.fill(coverageMask: $0, width: 6, height: 2, atDevicePixel: (0, 0), color: .black) }
        }
        XCTAssertEqual((0..<8).map { bitmap[$0, 0].r }, [255, 255, 254, 191, 127, 55, 0, 255])
        // Row 1 of a 3-wide mask is [0, 1, 64]; row 2 is [128, 200, 255]. Black at alpha 128 times coverage.
        func expected(_ c: Int) -> UInt8 {
            let a = (128 * c + 127) / 255  // round(128·c/255) for these values
            return UInt8(255 - a)
        }
        XCTAssertEqual(bitmap[1, 1].r, expected(0))
        XCTAssertEqual(bitmap[3, 1].r, UInt8(255 - Int((128.0 * 64 / 255).rounded())))
        XCTAssertEqual(bitmap[3, 2].r, 255 - 128)
        XCTAssertEqual(bitmap[2, 2].r, UInt8(255 - Int((128.0 * 200 / 255).rounded())))
    }

    func testCacheStateDoesNotChangePixels() throws {
        let layout = try TextLayout("Cold and warm 日本", style: TextStyle(font: .system(size: 13)))
        func render() throws -> Bitmap {
            var b = try Bitmap(width: 90, height: 40, scale: 2)
            b.draw { layout.draw(in: $0, at: Point(x: 0.3, y: 0.7)) }
            return b
        }
        TextLayout.removeCachedGlyphs()
        let cold = try render()
        let warm = try render()
        XCTAssertEqual(cold, warm)
        XCTAssertGreaterThan(TextLayout.glyphCacheStatistics.hits, 0)
    }

    func testSubpixelPositionsUseQuarterPixelPhases() throws {
        // Moving the text by 1/4 px changes the pixels; by a whole pixel only moves them.
        let layout = try TextLayout("l", style: TextStyle(font: .system(size: 20)))
        func render(_ x: Double) throws -> Bitmap {
            var b = try Bitmap(width: 16, height: 26)
            b.draw { layout.draw(in: $0, at: Point(x: x, y: 0)) }
            return b
        }
        let a = try render(2), quarter = try render(2.25), whole = try render(3)
        XCTAssertNotEqual(a, quarter)
        for y in 0..<26 { for x in 0..<15 { XCTAssertEqual(a[x, y], whole[x + 1, y]) } }
        XCTAssertEqual(try render(2.1), a, "2.1 rounds to the 2.0 phase")
    }

    func testHugeAndOffscreenTextIsBounded() throws {
        // 2000 pt at @2x is far above the mask limit: drawn as outlines, no giant mask allocated. A full
        // block "█" this size covers the whole small canvas.
        let layout = try TextLayout("\u{2588}", style: TextStyle(font: .system(size: 2000)))
        var bitmap = try Bitmap(width: 40, height: 40, scale: 2)
        let entries = TextLayout.glyphCacheStatistics.entries
        bitmap.draw { layout.draw(in: $0, at: Point(x: -100, y: -1000)) }
        XCTAssertEqual(bitmap[0, 0].a, 255)
        XCTAssertEqual(bitmap[39, 39].a, 255)
        XCTAssertLessThanOrEqual(TextLayout.glyphCacheStatistics.entries, entries, "no mask cached")
        // Far off-canvas text is culled before any glyph is rendered.
        let before = TextLayout.glyphCacheStatistics.misses
        let off = try TextLayout("Nowhere near", style: TextStyle(font: .system(size: 17.25)))
        var small = try Bitmap(width: 10, height: 10)
        small.draw { off.draw(in: $0, at: Point(x: 5000, y: -9000)) }
        XCTAssertEqual(TextLayout.glyphCacheStatistics.misses, before)
        XCTAssertNil(inkBox(small))
        // Non-finite origins draw nothing.
        small.draw { off.draw(in: $0, at: Point(x: .nan, y: 0)) }
        XCTAssertNil(inkBox(small))
    }
}
