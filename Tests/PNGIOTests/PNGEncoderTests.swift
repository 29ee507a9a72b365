import CPNGShim
import RasterCore
import XCTest
import PNGIO

/// The fast single-filter encoder (CFastPNG) through PNGIO: filtering, zero runs, repeated segments,
/// the zlib stream it assembles, and `PNGEncoder`'s reuse of its buffers.
final class PNGEncoderTests: XCTestCase {
    /// Rows built to exercise every kind of piece: runs of rows equal to the row above (1, 3, 4, 5, 17,
    /// 64 and 130 rows: below and above the shortest zero run, several powers of two), a block of rows
    /// repeated three times between such runs (equal segments), and random rows. Odd width, so the
    /// two-pixels-at-a-time filter has a last single pixel.
    static func structuredBitmap(width: Int = 37, opaque: Bool, seed: UInt64 = 7) throws -> Bitmap {
        let random = try PNGTest.randomBitmap(width: width, height: 64, opaque: opaque, seed: seed)
        var rows: [[UInt32]] = []
        func randomRow(_ i: Int) -> [UInt32] { random.withUnsafeRow(i % 64) { Array($0) } }
        var next = 0
        func fresh() -> [UInt32] { defer { next += 1 }; return randomRow(next) }
        let block = (0..<9).map { _ in fresh() }
        for run in [1, 3, 4, 5, 17, 64, 130] {
            rows.append(fresh())
            for _ in 0..<run { rows.append(rows.last!) }
        }
        for _ in 0..<3 {
            rows.append(contentsOf: block)
            for _ in 0..<6 { rows.append(rows.last!) }
        }
        rows.append(contentsOf: (0..<5).map { _ in fresh() })
        var bitmap = try Bitmap(width: width, height: rows.count)
        bitmap.withUnsafeMutablePixels { pixels in
            for (y, row) in rows.enumerated() { for x in 0..<width { pixels[y * width + x] = row[x] } }
        }
        return bitmap
    }

    static let singleFilters: [PNGFilters] = [.none, .sub, .up, .average, .paeth]

    /// A 600x400 opaque frame (filtered as RGB, 1 + 3 × width bytes a row) in which no row equals the one
    /// above, so the whole image is one segment, compressed part by part.
    static func gradientBitmap(width: Int = 600, height: Int = 400) throws -> Bitmap {
        var bitmap = try Bitmap(width: width, height: height)
        bitmap.withUnsafeMutablePixels { pixels in
            for y in 0..<height {
                for x in 0..<width { pixels[y * width + x] = PremultipliedRGBA8(r: UInt8((x + y) & 255), g: 100, b: UInt8(y & 255), a: 255).packed }
            }
        }
        return bitmap
    }

    /// Like ``gradientBitmap(width:height:)``, but each row repeats over a band of 16 rows: runs of zero
    /// filtered rows, which the encoder compresses with a zlib stream of their own.
    static func bandedBitmap(width: Int, height: Int) throws -> Bitmap {
        var bitmap = try Bitmap(width: width, height: height)
        bitmap.withUnsafeMutablePixels { pixels in
            for y in 0..<height {
                let band = y / 16
                for x in 0..<width { pixels[y * width + x] = PremultipliedRGBA8(r: UInt8((x + band) & 255), g: 100, b: UInt8(band & 255), a: 255).packed }
            }
        }
        return bitmap
    }

    func testTheZeroRunsStreamIsNotKeptBetweenImages() throws {
        // zlib's state for one stream: 2^17 + 2^17 bytes and its record, as `workingBytes` counts it. The
        // zero runs' stream is freed once the runs are made, so what the encoders keep holds no such state
        // for them: `portable` keeps the segments' stream and a few short parts (this image's segments are
        // 15 rows between runs), `fast` only ISA-L's buffers and no zlib state at all.
        let zlibState = (1 << 18) + 6 * 1024, isal = 282_624 + 86_016
        let portable = PNGEncoder(compression: .portable)
        _ = try portable.encode(try Self.bandedBitmap(width: 600, height: 400))
        XCTAssertGreaterThanOrEqual(portable.workingBytes, zlibState)
        XCTAssertLessThan(portable.workingBytes, 2 * zlibState)
        let fast = PNGEncoder(compression: .fast)
        let banded = try Self.bandedBitmap(width: 800, height: 600)
        let png = try fast.encode(banded)
        XCTAssertGreaterThanOrEqual(fast.workingBytes, isal)
        XCTAssertLessThan(fast.workingBytes, isal + zlibState)
        // Made again for the next image that needs runs: the same bytes.
        _ = try fast.encode(try Self.gradientBitmap(width: 800, height: 600))
        XCTAssertEqual(try fast.encode(banded), png)
        XCTAssertEqual(png, try PNGCodec.encode(banded))
        XCTAssertEqual(try PNGCodec.decode(png), banded)
    }

    func testWorkingBytesCountZlibsStateAndOnePartButNotTheFilteredImage() throws {
        let encoder = PNGEncoder(compression: .portable)
        let before = encoder.workingBytes
        let bitmap = try Self.gradientBitmap()
        _ = try encoder.encode(bitmap)
        // zlib: parts of at most 64 KiB (36 rows of 1,801 bytes).
        let filtered = 400 * 1801, part = 36 * 1801, deflate = 1 << 18
        // zlib's state for the segments and one part of filtered rows.
        XCTAssertGreaterThanOrEqual(encoder.workingBytes, before + deflate + part)
        // The filtered image is never held, nor a second zlib state for the zero runs and the final block
        // (freed once they are made): what is kept besides the segments' state is under half the image.
        XCTAssertLessThan(encoder.workingBytes - (deflate + 6 * 1024), filtered / 2)
        _ = try encoder.encode(bitmap)
        XCTAssertTrue(encoder.lastImageRepeated)
    }

    func testWorkingBytesCountTheStateOfISALAndZlib() throws {
        let encoder = PNGEncoder(compression: .fast)
        let before = encoder.workingBytes
        let bitmap = try Self.gradientBitmap(width: 800, height: 600)
        _ = try encoder.encode(bitmap)
        // ISA-L: parts of at most 256 KiB (109 rows of 2,401 bytes); its level-1 buffer and its stream record
        // in whole pages.
        let filtered = 600 * 2401, part = 109 * 2401, isal = 282_624 + 86_016
        XCTAssertGreaterThanOrEqual(encoder.workingBytes, before + isal + part)
        // Besides those and the part, room for a part's compressed bytes (rounded up to a power of two) and
        // the row records: under half the filtered image, which is never held. zlib's state for the zero
        // runs and the final block (256 KiB) is freed once they are made; kept, it would not fit.
        XCTAssertLessThan(encoder.workingBytes - isal - part, filtered / 2)
        _ = try encoder.encode(bitmap)
        XCTAssertTrue(encoder.lastImageRepeated)
    }

    func testEverySingleFilterRoundTrips() throws {
        for opaque in [true, false] {
            let bitmap = try Self.structuredBitmap(opaque: opaque)
            // The straight samples libpng's own row-by-row path writes (several filters go through it).
            let reference = try PNGTest.decodeStraight(try PNGCodec.encode(bitmap, compression: .small)).pixels
            for filter in Self.singleFilters {
                for level in [0, 1, 6, 9] {
                    for strategy in [PNGZlibStrategy.default, .rle, .filtered, .huffmanOnly, .fixed] {
                        let compression = PNGCompression(zlibLevel: level, filters: filter, strategy: strategy)
                        let png = try PNGCodec.encode(bitmap, compression: compression)
                        XCTAssertEqual(try PNGTest.decodeStraight(png).pixels, reference, "\(compression), opaque \(opaque)")
                        if opaque { XCTAssertEqual(try PNGCodec.decode(png), bitmap, "\(compression)") }
                    }
                }
            }
        }
    }

    func testTheZlibStreamIsOneStreamInIDATChunks() throws {
        let bitmap = try Self.structuredBitmap(opaque: true)
        for (level, flags) in [(0, 0x01), (1, 0x01), (2, 0x5E), (5, 0x5E), (6, 0x9C), (9, 0xDA)] as [(Int, UInt8)] {
            let png = try PNGCodec.encode(bitmap, compression: PNGCompression(zlibLevel: level, filters: .up))
            XCTAssertEqual(PNGTest.chunks(png).map(\.type), ["IHDR", "sRGB", "IDAT", "IEND"])
            let idat = try XCTUnwrap(PNGTest.chunk("IDAT", in: png))
            // zlib's header for a 32 KiB window with the level's FLEVEL, as deflate itself writes it.
            XCTAssertEqual(Array(png[idat.dataOffset..<idat.dataOffset + 2]), [0x78, flags], "level \(level)")
        }
        // Over 1 MiB of stream: several IDAT chunks, one stream.
        let noise = try PNGTest.randomBitmap(width: 700, height: 600, opaque: true)
        let png = try PNGCodec.encode(noise, compression: .store)
        let idats = PNGTest.chunks(png).filter { $0.type == "IDAT" }
        XCTAssertEqual(idats.count, 2)
        XCTAssertEqual(idats[0].length, 1 << 20)
        XCTAssertEqual(try PNGCodec.decode(png), noise)
    }

    func testAnEncoderGivesTheSameBytesWhateverItEncodedBefore() throws {
        let images = [
            try Self.structuredBitmap(opaque: true),
            try Self.structuredBitmap(width: 20, opaque: true, seed: 3),
            try Self.structuredBitmap(opaque: false),
            try Bitmap(width: 5, height: 1, fill: .white),
            try Bitmap(width: 64, height: 300, fill: .white),
            try Self.structuredBitmap(opaque: true),
        ]
        for compression in [PNGCompression.fast, .balanced, .store, PNGCompression(zlibLevel: 6, filters: .sub, strategy: .rle)] {
            let encoder = PNGEncoder(compression: compression)
            XCTAssertEqual(encoder.compression, compression)
            for (i, image) in images.enumerated() {
                XCTAssertEqual(try encoder.encode(image), try PNGCodec.encode(image, compression: compression), "image \(i), \(compression)")
            }
        }
        // Several filters: libpng's own path, through an encoder too.
        let encoder = PNGEncoder(compression: .small)
        XCTAssertEqual(try encoder.encode(images[0]), try PNGCodec.encode(images[0], compression: .small))
    }

    func testAnEncoderRecognisesTheImageItEncodedBefore() throws {
        let a = try Self.structuredBitmap(opaque: true), b = try Self.structuredBitmap(opaque: true, seed: 9)
        var c = a
        c[36, 250] = PremultipliedRGBA8(r: 1, g: 2, b: 3, a: 255)  // one pixel in the last rows
        let encoder = PNGEncoder()
        let first = try encoder.encode(a)
        XCTAssertFalse(encoder.lastImageRepeated)
        XCTAssertEqual(try encoder.encode(a), first)
        XCTAssertTrue(encoder.lastImageRepeated)
        for other in [b, c, a] {
            XCTAssertEqual(try encoder.encode(other), try PNGCodec.encode(other))
            XCTAssertFalse(encoder.lastImageRepeated)
        }
        // The same pixels as RGBA (not opaque): a different image.
        var translucent = a
        translucent[0, 0] = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 0)
        _ = try encoder.encode(translucent)
        XCTAssertFalse(encoder.lastImageRepeated)
        XCTAssertEqual(try encoder.encode(translucent), try PNGCodec.encode(translucent))
        XCTAssertTrue(encoder.lastImageRepeated)

        // Several filters go through libpng, which never reuses anything.
        let small = PNGEncoder(compression: .small)
        _ = try small.encode(a)
        _ = try small.encode(a)
        XCTAssertFalse(small.lastImageRepeated)
    }

    func testOneTranslucentPixelAnywhereMakesRGBA() throws {
        let opaque = try Self.structuredBitmap(opaque: true)
        // The first row, a row equal to the one above it (the 130-row run), the last pixel.
        for (x, y) in [(0, 0), (20, 150), (36, opaque.height - 1)] {
            var bitmap = opaque
            bitmap[x, y] = PremultipliedRGBA8(r: 10, g: 20, b: 30, a: 128)
            for compression in [PNGCompression.fast, .balanced, .small, .store] {
                let encoder = PNGEncoder(compression: compression)
                _ = try encoder.encode(opaque)  // what the encoder compares with is an RGB image
                let png = try encoder.encode(bitmap)
                XCTAssertEqual(png, try PNGCodec.encode(bitmap, compression: compression))
                let ihdr = try XCTUnwrap(PNGTest.chunk("IHDR", in: png))
                XCTAssertEqual(png[ihdr.dataOffset + 9], 6, "RGBA for (\(x), \(y)), \(compression)")
                XCTAssertEqual(try PNGCodec.decode(png), bitmap)
                // And back to RGB for the opaque image.
                let again = try encoder.encode(opaque)
                XCTAssertEqual(again[ihdr.dataOffset + 9], 2)
                XCTAssertEqual(try PNGCodec.decode(again), opaque)
            }
        }
    }

    /// The encoder's digests (libcrypto's SHA-256) are the digests recorded in manifests and goldens so far.
    func testDigestsMatchKnownSHA256Digests() {
        func hex(_ bytes: [UInt8]) -> String { PNGEncoder.hexDigest(bytes) }
        XCTAssertEqual(hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(hex([UInt8](repeating: 0x61, count: 1_000_000)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // Around the padding and block boundaries (digests from an independent implementation).
        let expected: [Int: String] = [
            55: "8aa994584139d128848eeebc4e815639ba5ab6e6e39574195a63ac4f14f7c43b",
            56: "ad574708f75c044c9b85de64cb568ee7711ff4f36448c6242f053ba8f6cc2b63",
            63: "280ed3e8ff1df845b2e7dfe6ac6cee817bef20e783cc65abc41b818b4d2fe076",
            64: "c6ab9724ade5b6a7a1edfffb12f3aa9181351355af8fd08c919952ad211339dd",
            65: "788367c73c7ddf4c53f65e68cc0d943e6227ab55b0e78ba63ace822b1c6301c0",
            119: "3d610547d68216dedf7435a4fb6260353911f6b3fd3f18805ddb8be285d726fe",
            120: "1f80156a804cb7862ad113e8200e9d74499723e7c7854d5f48776d3148e09656",
            128: "cc548ca2dec1f6fe4f58b2e27aa9c7521607df1130d140b55a4dad0665302356",
            1000: "5097e7d587352f5097062ae679f37bda5802d9f875aba14c8cb4d1a188ada179",
        ]
        for (n, digest) in expected {
            XCTAssertEqual(hex((0..<n).map { UInt8(truncatingIfNeeded: $0 * 31 + 7) }), digest, "\(n) bytes")
        }
    }

    func testEncodeWithDigestHashesThePNGAndReusesItForARepeat() throws {
        let a = try Self.structuredBitmap(opaque: true), b = try Self.structuredBitmap(opaque: false)
        let encoder = PNGEncoder()
        // The digest of the bytes returned (the digest function itself is checked above).
        func hex(_ bytes: [UInt8]) -> String { PNGEncoder.hexDigest(bytes) }
        for image in [a, a, b, b, a] {
            let (png, digest) = try encoder.encodeWithDigest(image)
            XCTAssertEqual(png, try PNGCodec.encode(image))
            XCTAssertEqual(digest, hex(png))
        }
        XCTAssertFalse(encoder.lastImageRepeated)
        _ = try encoder.encode(a)
        XCTAssertTrue(encoder.lastImageRepeated)
        let (png, digest) = try encoder.encodeWithDigest(a)
        XCTAssertTrue(encoder.lastImageRepeated)
        XCTAssertEqual(digest, hex(png))
    }

    func testWithEncodedFileLendsThePNGAndItsDigest() throws {
        let a = try Self.structuredBitmap(opaque: true), b = try Self.structuredBitmap(opaque: false)
        let encoder = PNGEncoder()
        var repeats: [Bool] = []
        for image in [a, a, b, a, a] {
            let expected = try PNGCodec.encode(image)
            let (png, digest) = try encoder.withEncodedFile(image) { bytes, digest in ([UInt8](bytes), digest) }
            XCTAssertEqual(png, expected)
            XCTAssertEqual(digest, PNGEncoder.hexDigest(expected))
            repeats.append(encoder.lastImageRepeated)
        }
        XCTAssertEqual(repeats, [false, true, false, false, true])
        // A repeat after a plain encode (which keeps no digest) is hashed, not given a stale digest.
        _ = try encoder.encode(b)
        let digest = try encoder.withEncodedFile(b) { _, digest in digest }
        XCTAssertTrue(encoder.lastImageRepeated)
        XCTAssertEqual(digest, PNGEncoder.hexDigest(try PNGCodec.encode(b)))
    }

    func testEncoderReportsBadSettings() throws {
        let encoder = PNGEncoder(compression: PNGCompression(zlibLevel: 11, filters: .up))
        PNGTest.assertThrows(.invalidArgument, path: "<memory>") { _ = try encoder.encode(try Bitmap(width: 2, height: 2)) }
    }

    func testRepeatedRowsCompressWell() throws {
        // A flat frame with a few edges: nearly every row equals the one above.
        var bitmap = try Bitmap(width: 750, height: 1334, fill: .white)
        bitmap.draw { p in
            p.fill(Rect(x: 0, y: 0, width: 750, height: 128), color: Color(hex: 0x007AFF))
            p.fill(Rect(x: 32, y: 300.5, width: 718, height: 2), color: Color(hex: 0xC6C6C8))
        }
        let png = try PNGCodec.encode(bitmap)
        XCTAssertLessThan(png.count, 20_000, "3 MB of image data")
        XCTAssertEqual(try PNGCodec.decode(png), bitmap)
    }
}
