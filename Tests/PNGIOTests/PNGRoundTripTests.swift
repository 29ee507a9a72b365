import CPNGShim
import PNGIO
import RasterCore
import XCTest

final class PNGRoundTripTests: XCTestCase {
    func testOpaqueBitmapIsRGBWithSRGBAndDecodesExactly() throws {
        let bitmap = try PNGTest.randomBitmap(width: 7, height: 5, opaque: true)
        let png = try PNGCodec.encode(bitmap)
        let ihdr = try XCTUnwrap(PNGTest.chunk("IHDR", in: png))
        XCTAssertEqual(PNGTest.be32(png, ihdr.dataOffset), 7)
        XCTAssertEqual(PNGTest.be32(png, ihdr.dataOffset + 4), 5)
        XCTAssertEqual(png[ihdr.dataOffset + 8], 8, "bit depth")
        XCTAssertEqual(png[ihdr.dataOffset + 9], 2, "colour type RGB")
        XCTAssertEqual(png[ihdr.dataOffset + 12], 0, "not interlaced")
        let types = PNGTest.chunks(png).map(\.type)
        XCTAssertEqual(types.first, "IHDR")
        XCTAssertEqual(types.last, "IEND")
        let srgb = try XCTUnwrap(PNGTest.chunk("sRGB", in: png))
        XCTAssertEqual(srgb.length, 1)
        XCTAssertEqual(png[srgb.dataOffset], 0, "perceptual intent")
        XCTAssertFalse(types.contains("gAMA"))
        XCTAssertFalse(types.contains("cHRM"))

        let (decoded, header) = try PNGCodec.decodeWithHeader(png)
        XCTAssertEqual(decoded, bitmap)
        XCTAssertEqual(header, PNGHeader(width: 7, height: 5, bitDepth: 8, colorType: .rgb, interlaced: false))
        XCTAssertEqual(try PNGCodec.decode(png, scale: 2).scale, 2)
    }

    func testTranslucentBitmapIsRGBAWithRoundedStraightSamples() throws {
        // Hand-picked premultiplied pixels where truncation and rounding differ.
        let pixels: [PremultipliedRGBA8] = [
            .init(r: 0, g: 0, b: 0, a: 0), .init(r: 255, g: 255, b: 255, a: 255), .init(r: 1, g: 0, b: 1, a: 1),
            .init(r: 64, g: 100, b: 127, a: 128), .init(r: 1, g: 2, b: 3, a: 3), .init(r: 200, g: 100, b: 7, a: 254),
            .init(r: 10, g: 20, b: 30, a: 77), .init(r: 0, g: 12, b: 12, a: 12),
        ]
        var bitmap = try Bitmap(width: 4, height: 2)
        for (i, p) in pixels.enumerated() { bitmap[i % 4, i / 4] = p }
        let png = try PNGCodec.encode(bitmap)
        let ihdr = try XCTUnwrap(PNGTest.chunk("IHDR", in: png))
        XCTAssertEqual(png[ihdr.dataOffset + 9], 6, "colour type RGBA")
        XCTAssertNotNil(PNGTest.chunk("sRGB", in: png))

        let straight = try PNGTest.decodeStraight(png).pixels
        let expected: [UInt8] = [
            0, 0, 0, 0, /**/ 255, 255, 255, 255, /**/ 255, 0, 255, 1,
            128, 199, 253, 128, /**/ 85, 170, 255, 3, /**/ 201, 100, 7, 254,
            33, 66, 99, 77, /**/ 0, 255, 255, 12,
        ]
        XCTAssertEqual(straight, expected)
        // Decoding premultiplies the file's straight samples again: round(c * a / 255).
        let decoded = try PNGCodec.decode(png)
        XCTAssertEqual(PNGTest.bytes(of: decoded), PNGTest.premultiplied(expected))
        XCTAssertEqual(PNGTest.bytes(of: decoded), [
            0, 0, 0, 0, 255, 255, 255, 255, 1, 0, 1, 1,
            64, 100, 127, 128, 1, 2, 3, 3, 200, 100, 7, 254,
            10, 20, 30, 77, 0, 12, 12, 12,
        ])
    }

    func testEveryAlphaAndComponentUnpremultipliesToNearest() throws {
        // Pixel (x: c, y: a) is premultiplied (c, c, c, a) with c clamped to a.
        var bitmap = try Bitmap(width: 256, height: 256)
        bitmap.withUnsafeMutablePixels { px in
            for a in 0..<256 {
                for c in 0..<256 { px[a * 256 + c] = PremultipliedRGBA8(r: UInt8(c), g: UInt8(c), b: UInt8(c), a: UInt8(a)).packed }
            }
        }
        let png = try PNGCodec.encode(bitmap)
        let straight = try PNGTest.decodeStraight(png).pixels
        var mismatches = 0
        for a in 0..<256 {
            for c in 0..<256 {
                let pc = min(c, a)
                let want = a == 0 ? 0 : min(255, (pc * 255 + a / 2) / a)
                let i = (a * 256 + c) * 4
                if straight[i] != UInt8(want) || straight[i + 3] != UInt8(a) { mismatches += 1 }
                let p = PremultipliedRGBA8(r: UInt8(pc), g: 0, b: 0, a: UInt8(a)).unpremultiplied
                if p.r != UInt8(want) { mismatches += 1 }
            }
        }
        XCTAssertEqual(mismatches, 0)
        XCTAssertEqual(PNGTest.bytes(of: try PNGCodec.decode(png)), PNGTest.premultiplied(straight))
    }

    func testLargerTranslucentRoundTripIsStable() throws {
        // decode(encode(x)) is not x for translucent pixels, but encode(decode(encode(x))) is encode(x)'s image.
        let bitmap = try PNGTest.randomBitmap(width: 33, height: 9, opaque: false, seed: 7)
        let first = try PNGCodec.decode(PNGCodec.encode(bitmap))
        let second = try PNGCodec.decode(PNGCodec.encode(first))
        XCTAssertEqual(first, second)
        XCTAssertEqual(PNGTest.bytes(of: first), PNGTest.premultiplied(try PNGTest.decodeStraight(PNGCodec.encode(bitmap)).pixels))
    }

    func testEveryPresetRoundTrips() throws {
        let opaque = try PNGTest.randomBitmap(width: 20, height: 6, opaque: true, seed: 3)
        let translucent = try PNGTest.randomBitmap(width: 20, height: 6, opaque: false, seed: 4)
        let expectedTranslucent = try PNGCodec.decode(PNGCodec.encode(translucent))
        var settings = PNGCompression.allPresets.map(\.compression)
        for strategy in PNGZlibStrategy.allCases {
            settings.append(PNGCompression(zlibLevel: 5, filters: [.sub, .paeth], strategy: strategy))
        }
        for filter in [PNGFilters.none, .sub, .up, .average, .paeth] {
            settings.append(PNGCompression(zlibLevel: 3, filters: filter))
        }
        for compression in settings {
            XCTAssertEqual(try PNGCodec.decode(PNGCodec.encode(opaque, compression: compression)), opaque, "\(compression)")
            XCTAssertEqual(try PNGCodec.decode(PNGCodec.encode(translucent, compression: compression)), expectedTranslucent, "\(compression)")
        }
    }

    func testCompressionPresetsAndNames() throws {
        XCTAssertEqual(PNGCompression.allPresets.map(\.name), ["fast", "portable", "small", "balanced", "store"])
        XCTAssertEqual(try PNGCompression(named: "fast"), .fast)
        XCTAssertEqual(try PNGCompression(named: "Portable"), .portable)
        XCTAssertEqual(try PNGCompression(named: "SMALL"), .small)
        XCTAssertEqual(try PNGCompression(named: "store"), .store)
        XCTAssertEqual(PNGCompression.fast, PNGCompression(zlibLevel: 1, filters: .up, strategy: .default, compressor: .isal))
        // `portable` is the `fast` of earlier versions: zlib level 1 over up-filtered rows, the same bytes everywhere.
        XCTAssertEqual(PNGCompression.portable, PNGCompression(zlibLevel: 1, filters: .up, strategy: .default))
        XCTAssertEqual(PNGCompression.allPresets.filter { !$0.compression.sameBytesOnEveryProcessor }.map(\.name), ["fast"])
        XCTAssertEqual(PNGCompression.small, PNGCompression(zlibLevel: 9, filters: .all, strategy: .default))
        XCTAssertEqual(PNGCompression.balanced, PNGCompression(zlibLevel: 9, filters: .paeth, strategy: .rle))
        XCTAssertEqual(PNGCompression.fast.presetName, "fast")
        XCTAssertThrowsError(try PNGCompression(named: "tiny")) { error in
            XCTAssertEqual("\(error)", "unknown PNG compression 'tiny': expected one of fast, portable, small, balanced, store")
        }
        XCTAssertEqual(PNGFilters.all.rawValue, 0xF8)
        XCTAssertEqual(PNGFilters.all.description, "all")
        XCTAssertEqual(PNGFilters([.sub, .up]).description, "sub+up")
    }

    func testSmallPresetIsNotLargerThanFastOnUIContent() throws {
        // What the presets were chosen for: flat fills with anti-aliased edges (not noise, where RLE loses).
        var bitmap = try Bitmap(width: 120, height: 90, fill: .white)
        bitmap.draw { p in
            p.fill(Rect(x: 0, y: 0, width: 120, height: 20), color: Color(hex: 0x007AFF))
            for row in 0..<5 {
                let y = 20.0 + 14 * Double(row)
                p.fill(Rect(x: 8, y: y + 13, width: 112, height: 0.5), color: Color(hex: 0xC6C6C8))
                p.fill(roundedRect: Rect(x: 4.5, y: y + 2.25, width: 10, height: 10), cornerRadii: CornerRadii(all: 3), color: Color(hex: 0x34C759))
            }
            p.fill(Rect(x: 0, y: 0, width: 120, height: 90), color: Color(white: 0, alpha: 0.3))
        }
        XCTAssertLessThanOrEqual(try PNGCodec.encode(bitmap, compression: .small).count, try PNGCodec.encode(bitmap, compression: .fast).count)
        XCTAssertGreaterThan(try PNGCodec.encode(bitmap, compression: .store).count, 40 * 12 * 3)
    }

    func testBadCompressionSettingsThrow() throws {
        let bitmap = try Bitmap(width: 2, height: 2, fill: .white)
        PNGTest.assertThrows(.invalidArgument, path: "<memory>") {
            _ = try PNGCodec.encode(bitmap, compression: PNGCompression(zlibLevel: 10))
        }
        // ISA-L: levels 0...3, one filter, the default strategy.
        for bad in [PNGCompression(zlibLevel: 4, filters: .up, compressor: .isal), PNGCompression(zlibLevel: 1, filters: .all, compressor: .isal),
                    PNGCompression(zlibLevel: 1, filters: .up, strategy: .rle, compressor: .isal)] {
            PNGTest.assertThrows(.invalidArgument, path: "<memory>") { _ = try PNGCodec.encode(bitmap, compression: bad) }
        }
        PNGTest.assertThrows(.invalidArgument, path: "<memory>") {
            _ = try PNGCodec.encode(bitmap, compression: PNGCompression(zlibLevel: -1))
        }
        PNGTest.assertThrows(.invalidArgument, path: "<memory>") {
            _ = try PNGCodec.encode(bitmap, compression: PNGCompression(zlibLevel: 6, filters: []))
        }
        PNGTest.assertThrows(.invalidArgument, path: "<memory>") {
            _ = try PNGCodec.encode(bitmap, compression: PNGCompression(zlibLevel: 6, filters: PNGFilters(rawValue: 0x01)))
        }
    }

    func testDecodeRejectsBadScale() throws {
        let png = try PNGCodec.encode(try Bitmap(width: 1, height: 1, fill: .white))
        for scale in [0, -1, Double.nan, .infinity] {
            PNGTest.assertThrows(.invalidArgument, path: "x.png") { _ = try PNGCodec.decode(png, name: "x.png", scale: scale) }
        }
    }

    func testDecodeFromRawBufferPointer() throws {
        let bitmap = try PNGTest.randomBitmap(width: 3, height: 3, opaque: true)
        let png = try PNGCodec.encode(bitmap)
        let decoded = try png.withUnsafeBytes { try PNGCodec.decode($0) }
        XCTAssertEqual(decoded, bitmap)
    }
}
