import CPNGShim
import PNGIO
import RasterCore
import XCTest

/// Damaged data made from a valid PNG: every case throws a PNGError of the right kind, never crashes.
final class PNGCorruptionTests: XCTestCase {
    let pngPath = "assets/x.png"

    /// A valid PNG of a noisy 24x16 translucent bitmap: sizeable IDAT, with sRGB, IDAT and IEND chunks.
    func validPNG() throws -> [UInt8] {
        try PNGCodec.encode(try PNGTest.randomBitmap(width: 24, height: 16, opaque: false, seed: 5))
    }

    func decode(_ bytes: [UInt8]) throws { _ = try PNGCodec.decode(bytes, name: pngPath) }

    @discardableResult
    func expect(_ kind: PNGError.Kind, _ bytes: [UInt8], reasonContains: String? = nil,
                file: StaticString = #filePath, line: UInt = #line) -> PNGError? {
        let error = PNGTest.assertThrows(kind, path: pngPath, file: file, line: line) { try decode(bytes) }
        if let error, let reasonContains {
            XCTAssertTrue(error.reason.contains(reasonContains), "\(error)", file: file, line: line)
        }
        return error
    }

    func testValidPNGDecodes() throws {
        let png = try validPNG()
        XCTAssertEqual(PNGTest.chunks(png).map(\.type), ["IHDR", "sRGB", "IDAT", "IEND"])
        XCTAssertNoThrow(try decode(png))
    }

    func testEmptyData() {
        let error = expect(.notPNG, [], reasonContains: "empty")
        XCTAssertEqual(error?.description, "assets/x.png: not a PNG file (empty file)")
    }

    func testBadSignature() throws {
        var png = try validPNG()
        png[1] = UInt8(ascii: "J")
        let error = expect(.notPNG, png)
        XCTAssertEqual(error?.description, "assets/x.png: not a PNG file (bad signature)")
        expect(.notPNG, Array("hello, world: not a PNG at all".utf8), reasonContains: "bad signature")
        expect(.notPNG, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x0A, 0x0A], reasonContains: "bad signature")  // LF for CR LF
    }

    func testTruncatedAtChosenOffsets() throws {
        let png = try validPNG()
        let idat = try XCTUnwrap(PNGTest.chunk("IDAT", in: png))
        let iend = try XCTUnwrap(PNGTest.chunk("IEND", in: png))
        expect(.corrupt, Array(png[..<4]), reasonContains: "signature")               // inside the signature
        expect(.corrupt, Array(png[..<8]), reasonContains: "truncated")               // signature only
        expect(.corrupt, Array(png[..<20]), reasonContains: "IHDR")                   // inside IHDR
        expect(.corrupt, Array(png[..<(idat.dataOffset + idat.length / 2)]), reasonContains: "truncated")  // inside IDAT
        expect(.corrupt, Array(png[..<(idat.crcOffset + 2)]), reasonContains: "IDAT") // inside the IDAT CRC
        // Missing IEND (the file ends right after the last IDAT): an error by design.
        let missingIEND = expect(.corrupt, Array(png[..<iend.offset]), reasonContains: "no IEND chunk")
        XCTAssertEqual(missingIEND?.description, "assets/x.png: corrupt PNG: truncated: no IEND chunk (the data ends after \(iend.offset) bytes)")
        expect(.corrupt, Array(png[..<(png.count - 1)]), reasonContains: "IEND")     // inside the IEND CRC
    }

    func testEveryTruncationThrows() throws {
        let png = try validPNG()
        for length in 0..<png.count {
            do {
                try decode(Array(png[..<length]))
                XCTFail("a PNG cut at \(length) of \(png.count) bytes decoded")
            } catch let error as PNGError {
                XCTAssertEqual(error.kind, length == 0 ? .notPNG : .corrupt, "\(length): \(error)")
                XCTAssertTrue(length == 0 || error.reason.hasPrefix("truncated"), "\(length): \(error)")
            }
        }
    }

    func testFlippedByteInIDATIsAnError() throws {
        // libpng inflates IDAT data as it reads it and checks the chunk CRC only at the chunk's end, so with
        // a single IDAT zlib's own check (Adler-32) fails first.
        var png = try validPNG()
        let idat = try XCTUnwrap(PNGTest.chunk("IDAT", in: png))
        png[idat.dataOffset + idat.length / 2] ^= 0x5A
        let error = expect(.corrupt, png)
        XCTAssertEqual(error?.description, "assets/x.png: corrupt PNG: IDAT: incorrect data check")
    }

    func testFlippedByteInFirstOfSeveralIDATsIsACRCError() throws {
        // Split the IDAT in two: the damaged first chunk ends (and its CRC is checked) before zlib finishes.
        let png = try validPNG()
        let idat = try XCTUnwrap(PNGTest.chunk("IDAT", in: png))
        let data = Array(png[idat.dataOffset..<idat.crcOffset])
        let split = data.count / 2
        let twoIDATs = Array(png[..<idat.offset]) + PNGTest.makeChunk("IDAT", Array(data[..<split]))
            + PNGTest.makeChunk("IDAT", Array(data[split...])) + Array(png[idat.end...])
        XCTAssertEqual(try PNGCodec.decode(twoIDATs), try PNGCodec.decode(png))
        var bad = twoIDATs
        bad[idat.dataOffset + split / 2] ^= 0x5A
        XCTAssertEqual(expect(.corrupt, bad)?.description, "assets/x.png: corrupt PNG: IDAT: CRC error")
    }

    func testFlippedBytesInIDATWithGoodCRCAreZlibErrors() throws {
        let png = try validPNG()
        let idat = try XCTUnwrap(PNGTest.chunk("IDAT", in: png))
        // Zlib header check byte, the middle of the deflate data, and the Adler-32 at the end.
        let cases: [(offset: Int, flip: UInt8, reason: String)] = [
            (0, 0x01, "IDAT: incorrect header check"),  // zlib CMF
            (1, 0x21, "IDAT: missing LZ dictionary"),   // zlib FLG: FDICT set
            (idat.length / 2, 0x21, "IDAT: incorrect data check"),  // deflate data: output differs, Adler-32 fails
            (idat.length - 2, 0x21, "IDAT: incorrect data check"),  // the Adler-32 itself
        ]
        for c in cases {
            var bad = png
            bad[idat.dataOffset + c.offset] ^= c.flip
            PNGTest.fixCRC(&bad, chunk: idat)
            XCTAssertEqual(expect(.corrupt, bad)?.reason, c.reason, "IDAT byte \(c.offset)")
        }
    }

    func testBrokenCRCOfCriticalChunks() throws {
        var png = try validPNG()
        let ihdr = try XCTUnwrap(PNGTest.chunk("IHDR", in: png))
        png[ihdr.crcOffset] ^= 1
        XCTAssertEqual(expect(.corrupt, png)?.reason, "IHDR: CRC error")

        png = try validPNG()
        let idat = try XCTUnwrap(PNGTest.chunk("IDAT", in: png))
        png[idat.crcOffset + 3] ^= 0x80
        XCTAssertEqual(expect(.corrupt, png)?.reason, "IDAT: CRC error")

        png = try validPNG()
        let iend = try XCTUnwrap(PNGTest.chunk("IEND", in: png))
        png[iend.crcOffset] ^= 1
        XCTAssertEqual(expect(.corrupt, png)?.reason, "IEND: CRC error")
    }

    func testBrokenCRCOfAncillaryChunksIsAnError() throws {
        // Known ancillary chunk (sRGB) with a bad CRC: an error by design (libpng's default would warn and skip).
        var png = try validPNG()
        let srgb = try XCTUnwrap(PNGTest.chunk("sRGB", in: png))
        png[srgb.crcOffset] ^= 1
        XCTAssertEqual(expect(.corrupt, png)?.reason, "sRGB: CRC error")

        // Unknown private ancillary chunk: ignored when intact, an error with a bad CRC; also after IDAT.
        let clean = try validPNG()
        let idat = try XCTUnwrap(PNGTest.chunk("IDAT", in: clean))
        for position in [idat.offset, idat.end] {
            var good = clean
            good.insert(contentsOf: PNGTest.makeChunk("prVt", Array("private data".utf8)), at: position)
            XCTAssertEqual(try PNGCodec.decode(good), try PNGCodec.decode(clean))
            var bad = good
            bad[position + 8 + 12] ^= 1  // the CRC of the inserted chunk
            expect(.corrupt, bad, reasonContains: "prVt: CRC error")
        }
    }

    func testOversizeHeadersAreTooLarge() throws {
        for (w, h) in [(20000, 10), (16384, 16385), (10, 20000), (0x7FFF_FFFF, 1)] {
            var png = try validPNG()
            let ihdr = try XCTUnwrap(PNGTest.chunk("IHDR", in: png))
            PNGTest.putBE32(UInt32(w), into: &png, at: ihdr.dataOffset)
            PNGTest.putBE32(UInt32(h), into: &png, at: ihdr.dataOffset + 4)
            PNGTest.fixCRC(&png, chunk: ihdr)  // so that the size limit, not the CRC, rejects it
            let (error, usage) = MemoryLedger.measure { expect(.tooLarge, png, reasonContains: "\(w)x\(h)") }
            XCTAssertEqual(usage.allocationCount, 0, "no bitmap allocated for \(w)x\(h)")
            XCTAssertEqual(error?.description.hasPrefix("assets/x.png: image too large: image size \(w)x\(h)"), true, "\(String(describing: error))")
        }
    }

    func testOversizeHeaderWithBadCRCIsCorrupt() throws {
        var png = try validPNG()
        let ihdr = try XCTUnwrap(PNGTest.chunk("IHDR", in: png))
        PNGTest.putBE32(20000, into: &png, at: ihdr.dataOffset)
        XCTAssertEqual(expect(.corrupt, png)?.reason, "IHDR: CRC error")
    }

    func testTinyFileClaimingTheLargestSizeAllocatesNothing() throws {
        // 16384 x 16384 is within the limits, but 8 bytes of IDAT cannot hold it: refused before allocation.
        var png = try validPNG()
        let ihdr = try XCTUnwrap(PNGTest.chunk("IHDR", in: png))
        PNGTest.putBE32(16384, into: &png, at: ihdr.dataOffset)
        PNGTest.putBE32(16384, into: &png, at: ihdr.dataOffset + 4)
        PNGTest.fixCRC(&png, chunk: ihdr)
        let (_, usage) = MemoryLedger.measure { expect(.corrupt, png, reasonContains: "cannot hold a 16384x16384 image") }
        XCTAssertEqual(usage.allocationCount, 0)
    }

    func testInvalidHeaderValues() throws {
        for (offset, value) in [(8, UInt8(3)), (9, 1), (10, 1), (11, 1), (12, 2)] {  // depth, colour type, compression, filter, interlace
            var png = try validPNG()
            let ihdr = try XCTUnwrap(PNGTest.chunk("IHDR", in: png))
            png[ihdr.dataOffset + offset] = value
            PNGTest.fixCRC(&png, chunk: ihdr)
            expect(.corrupt, png)
        }
        var png = try validPNG()
        let ihdr = try XCTUnwrap(PNGTest.chunk("IHDR", in: png))
        PNGTest.putBE32(0, into: &png, at: ihdr.dataOffset)
        PNGTest.fixCRC(&png, chunk: ihdr)
        expect(.corrupt, png)
    }

    func testMissingOrMisplacedChunks() throws {
        let png = try validPNG()
        let idat = try XCTUnwrap(PNGTest.chunk("IDAT", in: png))
        // No IDAT at all.
        expect(.corrupt, Array(png[..<idat.offset] + png[idat.end...]))
        // Palette image without PLTE.
        let palette = try PNGTest.encodeRaw(width: 4, height: 1, bitDepth: 8, colorType: .palette, rows: [0, 1, 1, 0],
                                            palette: [0, 0, 0, 255, 255, 255])
        let plte = try XCTUnwrap(PNGTest.chunk("PLTE", in: palette))
        expect(.corrupt, Array(palette[..<plte.offset] + palette[plte.end...]))
        // Palette index out of range is tolerated by libpng (black), so not tested as an error.
    }

    func testGarbageAfterSignatureNeverCrashes() throws {
        var rng = PNGTest.LCG(42)
        let png = try validPNG()
        for _ in 0..<200 {
            var bad = png
            for _ in 0..<(1 + rng.next(below: 4)) { bad[8 + rng.next(below: bad.count - 8)] = UInt8(rng.next(below: 256)) }
            do { try decode(bad) } catch let error as PNGError {
                XCTAssertTrue([.corrupt, .tooLarge].contains(error.kind), "\(error)")
            }
        }
    }
}
