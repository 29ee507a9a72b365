import CPNGShim
import PNGIO
import RasterCore
import XCTest

/// Every PNG colour type and bit depth, written with exactly known samples through the shim's raw encoder,
/// decoded and compared with RGBA computed here.
final class PNGColorTypeTests: XCTestCase {
    typealias TRNS = (gray: UInt16, red: UInt16, green: UInt16, blue: UInt16)

    /// Builds an image of `width` x `height` with pseudo-random samples (palette indices below
    /// `paletteCount`), encodes it, decodes it and checks every pixel and the header.
    func check(
        _ colorType: PNGColorType, bitDepth: Int, interlaced: Bool, width: Int = 13, height: Int = 11,
        paletteCount: Int = 0, paletteAlphaCount: Int = 0, trns: TRNS? = nil, seed: UInt64 = 1,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        var rng = PNGTest.LCG(seed &+ UInt64(bitDepth) &* 31 &+ UInt64(colorType.rawValue))
        let maxSample = (1 << bitDepth) - 1
        var palette: [UInt8] = [], paletteAlpha: [UInt8] = []
        for _ in 0..<paletteCount * 3 { palette.append(UInt8(rng.next(below: 256))) }
        for _ in 0..<paletteAlphaCount { paletteAlpha.append(UInt8(rng.next(below: 256))) }

        var rows: [UInt8] = []
        var expected: [UInt8] = []  // straight RGBA8
        for _ in 0..<height {
            var samples: [UInt16] = []
            for _ in 0..<width {
                var px: [UInt16] = []
                if colorType == .palette {
                    px = [UInt16(rng.next(below: paletteCount))]
                } else {
                    for _ in 0..<colorType.channels { px.append(UInt16(rng.next(below: maxSample + 1))) }
                    // Make some pixels hit the tRNS colour exactly.
                    if let trns, rng.next(below: 3) == 0 {
                        px = colorType == .grayscale ? [trns.gray] : [trns.red, trns.green, trns.blue]
                    }
                }
                samples += px
                expected += expectedRGBA(px, colorType: colorType, bitDepth: bitDepth, palette: palette,
                                         paletteAlpha: paletteAlpha, trns: trns)
            }
            rows += PNGTest.packRow(samples, bitDepth: bitDepth)
        }
        let png = try PNGTest.encodeRaw(
            width: width, height: height, bitDepth: bitDepth, colorType: colorType, interlaced: interlaced, rows: rows,
            palette: palette, paletteAlpha: paletteAlpha, trnsColor: trns)
        let ihdr = try XCTUnwrap(PNGTest.chunk("IHDR", in: png), file: file, line: line)
        XCTAssertEqual(png[ihdr.dataOffset + 8], UInt8(bitDepth), file: file, line: line)
        XCTAssertEqual(png[ihdr.dataOffset + 9], colorType.rawValue, file: file, line: line)
        XCTAssertEqual(png[ihdr.dataOffset + 12], interlaced ? 1 : 0, file: file, line: line)
        XCTAssertEqual(PNGTest.chunk("tRNS", in: png) != nil, trns != nil || paletteAlphaCount > 0, file: file, line: line)

        let straight = try PNGTest.decodeStraight(png).pixels
        XCTAssertEqual(straight, expected, "straight \(colorType) \(bitDepth)-bit interlaced \(interlaced)", file: file, line: line)
        let (bitmap, header) = try PNGCodec.decodeWithHeader(png)
        XCTAssertEqual(header, PNGHeader(width: width, height: height, bitDepth: bitDepth, colorType: colorType, interlaced: interlaced),
                       file: file, line: line)
        XCTAssertEqual(bitmap.width, width, file: file, line: line)
        XCTAssertEqual(bitmap.height, height, file: file, line: line)
        XCTAssertEqual(PNGTest.bytes(of: bitmap), PNGTest.premultiplied(expected),
                       "premultiplied \(colorType) \(bitDepth)-bit interlaced \(interlaced)", file: file, line: line)
    }

    func expectedRGBA(_ px: [UInt16], colorType: PNGColorType, bitDepth: Int, palette: [UInt8], paletteAlpha: [UInt8], trns: TRNS?) -> [UInt8] {
        func s(_ v: UInt16) -> UInt8 { PNGTest.to8(v, bitDepth: bitDepth) }
        switch colorType {
        case .grayscale:
            let alpha: UInt8 = trns.map { $0.gray == px[0] ? 0 : 255 } ?? 255
            return [s(px[0]), s(px[0]), s(px[0]), alpha]
        case .grayscaleAlpha:
            return [s(px[0]), s(px[0]), s(px[0]), s(px[1])]
        case .rgb:
            let alpha: UInt8 = trns.map { ($0.red, $0.green, $0.blue) == (px[0], px[1], px[2]) ? 0 : 255 } ?? 255
            return [s(px[0]), s(px[1]), s(px[2]), alpha]
        case .rgba:
            return px.map(s)
        case .palette:
            let i = Int(px[0])
            return [palette[i * 3], palette[i * 3 + 1], palette[i * 3 + 2], i < paletteAlpha.count ? paletteAlpha[i] : 255]
        }
    }

    func testGrayscaleAllDepths() throws {
        for depth in [1, 2, 4, 8, 16] {
            for interlaced in [false, true] { try check(.grayscale, bitDepth: depth, interlaced: interlaced) }
        }
    }

    func testGrayscaleWithTRNSColour() throws {
        for depth in [1, 2, 4, 8, 16] {
            let value = UInt16((1 << depth) - 1) / 3  // a mid-grey sample valid at this depth
            for interlaced in [false, true] {
                try check(.grayscale, bitDepth: depth, interlaced: interlaced, trns: (value, 0, 0, 0))
            }
        }
    }

    func testGrayscaleAlpha() throws {
        for depth in [8, 16] {
            for interlaced in [false, true] { try check(.grayscaleAlpha, bitDepth: depth, interlaced: interlaced) }
        }
    }

    func testRGB() throws {
        for depth in [8, 16] {
            for interlaced in [false, true] {
                try check(.rgb, bitDepth: depth, interlaced: interlaced)
                let v = UInt16((1 << depth) - 1)
                try check(.rgb, bitDepth: depth, interlaced: interlaced, trns: (0, v / 5, v / 2, v / 7))
            }
        }
    }

    func testRGBA() throws {
        for depth in [8, 16] {
            for interlaced in [false, true] { try check(.rgba, bitDepth: depth, interlaced: interlaced) }
        }
    }

    func testPaletteAllDepthsWithAndWithoutTRNS() throws {
        for depth in [1, 2, 4, 8] {
            let entries = min(1 << depth, 200)
            for interlaced in [false, true] {
                try check(.palette, bitDepth: depth, interlaced: interlaced, paletteCount: entries)
                // tRNS shorter than the palette: the remaining entries are opaque.
                try check(.palette, bitDepth: depth, interlaced: interlaced, paletteCount: entries, paletteAlphaCount: max(1, entries / 2))
                try check(.palette, bitDepth: depth, interlaced: interlaced, paletteCount: entries, paletteAlphaCount: entries)
            }
        }
    }

    func testOddSizesAndSinglePixels() throws {
        for (w, h) in [(1, 1), (1, 9), (9, 1), (3, 2)] {
            try check(.grayscale, bitDepth: 1, interlaced: true, width: w, height: h)
            try check(.palette, bitDepth: 2, interlaced: true, width: w, height: h, paletteCount: 4, paletteAlphaCount: 3)
            try check(.rgba, bitDepth: 16, interlaced: true, width: w, height: h)
        }
    }

    func testLowBitGreyExpansion() throws {
        // Exact values: 1-bit 0/255, 2-bit x85, 4-bit x17.
        let cases: [(depth: Int, samples: [UInt16], grey: [UInt8])] = [
            (1, [0, 1], [0, 255]),
            (2, [0, 1, 2, 3], [0, 85, 170, 255]),
            (4, [0, 1, 7, 8, 15], [0, 17, 119, 136, 255]),
        ]
        for c in cases {
            let png = try PNGTest.encodeRaw(width: c.samples.count, height: 1, bitDepth: c.depth, colorType: .grayscale,
                                            rows: PNGTest.packRow(c.samples, bitDepth: c.depth))
            XCTAssertEqual(try PNGTest.decodeStraight(png).pixels, c.grey.flatMap { [$0, $0, $0, 255] }, "\(c.depth)-bit")
        }
    }

    func testSixteenBitRoundsToNearest() throws {
        // Values where truncation (v >> 8) and rounding round(v * 255 / 65535) differ, and neighbours.
        let cases: [(UInt16, UInt8)] = [
            (0x0000, 0), (0x0080, 0), (0x0081, 1), (0x00FF, 1), (0x7EFF, 127), (0x7F7F, 127), (0x7FFF, 127),
            (0x8080, 128), (0x80FF, 128), (0xFE00, 253), (0xFEFF, 254), (0xFF7E, 254), (0xFF7F, 255), (0xFFFF, 255),
        ]
        let png = try PNGTest.encodeRaw(width: cases.count, height: 1, bitDepth: 16, colorType: .grayscale,
                                        rows: PNGTest.packRow(cases.map(\.0), bitDepth: 16))
        XCTAssertEqual(try PNGTest.decodeStraight(png).pixels, cases.flatMap { [$0.1, $0.1, $0.1, 255] })
    }

    func testScale16IsExactForAll65536Values() throws {
        // libpng's png_set_scale_16 against round(v * 255 / 65535), for every 16-bit value, in every channel.
        let samples = (0...65535).map { UInt16($0) }
        let png = try PNGTest.encodeRaw(width: 256, height: 256, bitDepth: 16, colorType: .grayscale,
                                        rows: PNGTest.packRow(samples, bitDepth: 16))
        let grey = try PNGTest.decodeStraight(png).pixels
        var mismatches = 0
        for v in 0...65535 where grey[v * 4] != UInt8((v * 255 + 32767) / 65535) { mismatches += 1 }
        XCTAssertEqual(mismatches, 0)

        // RGBA 16: value v in R, 65535 - v in G, v in B, v as alpha.
        var rgba: [UInt16] = []
        for v in samples { rgba += [v, 65535 - v, v, v] }
        let png2 = try PNGTest.encodeRaw(width: 256, height: 256, bitDepth: 16, colorType: .rgba,
                                         rows: PNGTest.packRow(rgba, bitDepth: 16))
        let out = try PNGTest.decodeStraight(png2).pixels
        mismatches = 0
        for v in 0...65535 {
            let e = UInt8((v * 255 + 32767) / 65535), f = UInt8(((65535 - v) * 255 + 32767) / 65535)
            if out[v * 4] != e || out[v * 4 + 1] != f || out[v * 4 + 2] != e || out[v * 4 + 3] != e { mismatches += 1 }
        }
        XCTAssertEqual(mismatches, 0)
    }

    func testRawEncoderRejectsBadParameters() throws {
        XCTAssertThrowsError(try PNGTest.encodeRaw(width: 2, height: 1, bitDepth: 4, colorType: .rgb, rows: [0, 0, 0]))
        XCTAssertThrowsError(try PNGTest.encodeRaw(width: 2, height: 1, bitDepth: 2, colorType: .palette, rows: [0]))  // no PLTE
    }
}
