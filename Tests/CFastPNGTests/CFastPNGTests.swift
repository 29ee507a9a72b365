import CCPUFeatures
import CFastPNG
import CPNGShim
import Dispatch
import XCTest

/// The fast encoder's C API called directly: files that libpng decodes back to the same pixels, the same
/// bytes from the scalar and the SSSE3 code, the repeated-image cache, the chunks it writes, and its
/// error codes. (PNGIOTests checks it again through `PNGCodec` and `PNGEncoder`.)
final class CFastPNGTests: XCTestCase {
    override func tearDown() { ccpu_force_scalar(0) }

    // MARK: Round trips

    func testEveryFilterLevelAndStrategyDecodesToTheSamePixels() throws {
        for (width, height) in [(1, 1), (5, 3), (17, 9), (33, 12), (64, 7)] {
            for channels in [3, 4] {
                let image = TestImage(width: width, height: height, seed: UInt64(width * 100 + height), opaque: channels == 3)
                for filter in CFPNG_FILTER_NONE...CFPNG_FILTER_PAETH {
                    for (level, strategy) in [(0, CFPNG_STRATEGY_DEFAULT), (1, CFPNG_STRATEGY_DEFAULT), (6, CFPNG_STRATEGY_FILTERED),
                                              (9, CFPNG_STRATEGY_RLE), (4, CFPNG_STRATEGY_HUFFMAN_ONLY), (2, CFPNG_STRATEGY_FIXED)] {
                        let options = cfpng_options(zlib_level: Int32(level), filter: filter, strategy: strategy, write_srgb: 1, compressor: CFPNG_COMPRESSOR_ZLIB)
                        let png = try encode(image, channels: channels, bytesPerPixel: channels, options: options)
                        let (pixels, header) = try Self.decode(png)
                        let what = "\(width)x\(height), \(channels) channels, filter \(filter), level \(level), strategy \(strategy)"
                        XCTAssertEqual(header.width, UInt32(width), what)
                        XCTAssertEqual(header.color_type, channels == 4 ? CPNG_COLOR_RGBA : CPNG_COLOR_RGB, what)
                        XCTAssertEqual(pixels, image.straightRGBA(channels: channels), what)
                    }
                }
            }
        }
    }

    func testRGBAInputWrittenAsRGBDropsEveryFourthByte() throws {
        let image = TestImage(width: 23, height: 14, seed: 7, opaque: false)  // alphas ignored: channels 3
        for filter in CFPNG_FILTER_NONE...CFPNG_FILTER_PAETH {
            let png = try encode(image, channels: 3, bytesPerPixel: 4, options: Self.options(filter: filter))
            let (pixels, header) = try Self.decode(png)
            XCTAssertEqual(header.color_type, CPNG_COLOR_RGB)
            XCTAssertEqual(pixels, image.straightRGBA(channels: 3), "filter \(filter)")
        }
    }

    func testRowCallbackGivesTheSameFileAsPixels() throws {
        let image = TestImage(width: 19, height: 11, seed: 3, opaque: false)
        for filter in CFPNG_FILTER_NONE...CFPNG_FILTER_PAETH {
            let options = Self.options(filter: filter)
            XCTAssertEqual(try encode(image, channels: 4, bytesPerPixel: 4, options: options, fromRows: true),
                           try encode(image, channels: 4, bytesPerPixel: 4, options: options))
        }
    }

    func testAlphaFallbackWritesRGBWhenOpaqueAndRGBAFromTheRowsOtherwise() throws {
        let cache = try XCTUnwrap(cfpng_cache_create())
        defer { cfpng_cache_destroy(cache) }
        let opaque = TestImage(width: 21, height: 9, seed: 11, opaque: true)
        var translucent = opaque
        translucent.pixels[4 * (21 * 5 + 20) + 3] = 17  // one pixel in the last column of row 5
        for filter in CFPNG_FILTER_NONE...CFPNG_FILTER_PAETH {
            let options = Self.options(filter: filter)
            for image in [opaque, translucent, translucent, opaque] {
                let png = try encode(image, channels: 3, bytesPerPixel: 4, options: options, alphaFallback: true, cache: cache)
                let (pixels, header) = try Self.decode(png)
                let isOpaque = image.pixels == opaque.pixels
                XCTAssertEqual(header.color_type, isOpaque ? CPNG_COLOR_RGB : CPNG_COLOR_RGBA, "filter \(filter)")
                XCTAssertEqual(pixels, image.straightRGBA(channels: isOpaque ? 3 : 4), "filter \(filter)")
                // The same file as a fresh encoder writes for what the image turned out to be.
                XCTAssertEqual(png, try encode(image, channels: isOpaque ? 3 : 4, bytesPerPixel: 4, options: options))
            }
        }
    }

    // MARK: Streamed and held

    /// Pixels in memory are streamed (the filtered image never held; rows matched by hashes, then compared
    /// in the source); rows from the callback are filtered whole. The bytes are the same, with repeated
    /// segments, runs of zero rows, segments longer than a part, for both compressors and every filter,
    /// and a cache used for other images first changes nothing.
    func testStreamedAndHeldEncodesWriteTheSameBytes() throws {
        var repeated = TestImage(width: 120, height: 150, seed: 21, opaque: true, repeatedRows: true)
        // Rows 40..<60 again at 80..<100 (the rows above them too): an equal segment to reuse.
        let rowBytes = 120 * 4
        repeated.pixels.replaceSubrange(79 * rowBytes..<100 * rowBytes, with: repeated.pixels[39 * rowBytes..<60 * rowBytes])
        let images = [repeated, TestImage(width: 600, height: 120, seed: 22, opaque: false), TestImage(width: 3, height: 2, seed: 23, opaque: true)]
        let cache = try XCTUnwrap(cfpng_cache_create())
        defer { cfpng_cache_destroy(cache) }
        for image in images {
            for compressor in [CFPNG_COMPRESSOR_ZLIB, CFPNG_COMPRESSOR_ISAL] {
                for filter in CFPNG_FILTER_NONE...CFPNG_FILTER_PAETH {
                    let options = Self.options(filter: filter, compressor: compressor)
                    let held = try encode(image, channels: 4, bytesPerPixel: 4, options: options, fromRows: true)
                    let streamed = try encode(image, channels: 4, bytesPerPixel: 4, options: options, cache: cache)
                    XCTAssertEqual(streamed, held, "\(image.width)x\(image.height), filter \(filter), compressor \(compressor)")
                    XCTAssertEqual(try Self.decode(streamed).pixels, image.pixels)
                }
            }
        }
    }

    /// A streamed image is a repeat of the previous one only when every row is the same: one changed byte
    /// anywhere (in a row that was equal to the row above, too) makes it a new image.
    func testOneChangedByteIsNotARepeat() throws {
        let image = TestImage(width: 64, height: 40, seed: 31, opaque: true, repeatedRows: true)
        let options = Self.options(filter: CFPNG_FILTER_UP, compressor: CFPNG_COMPRESSOR_ISAL)
        let cache = try XCTUnwrap(cfpng_cache_create())
        defer { cfpng_cache_destroy(cache) }
        let first = try encode(image, channels: 3, bytesPerPixel: 4, options: options, cache: cache)
        XCTAssertEqual(try encode(image, channels: 3, bytesPerPixel: 4, options: options, cache: cache), first)
        XCTAssertEqual(cfpng_cache_last_repeated(cache), 1)
        for index in [0, 64 * 4 * 3 + 5, 64 * 4 * 2 + 9, image.pixels.count - 2] {  // rows 0, 3 (equal to row 2), 2, 39
            var changed = image
            changed.pixels[index] &+= 1
            let png = try encode(changed, channels: 3, bytesPerPixel: 4, options: options, cache: cache)
            XCTAssertEqual(cfpng_cache_last_repeated(cache), 0, "byte \(index)")
            XCTAssertEqual(try Self.decode(png).pixels, changed.straightRGBA(channels: 3), "byte \(index)")
            XCTAssertEqual(try encode(image, channels: 3, bytesPerPixel: 4, options: options, cache: cache), first)
        }
    }

    // MARK: ISA-L

    /// ISA-L's pieces (stateless, full flush, no end of stream) spliced into one zlib stream inflate back:
    /// libpng's strict decoder (inflate and the Adler-32 checked) gives the pixels back, the same as zlib's.
    func testISALStreamsInflateBackToTheSamePixels() throws {
        // Small images, runs of zero rows between segments, and segments of several hundred KiB.
        let small = [TestImage(width: 1, height: 1, seed: 1, opaque: true), TestImage(width: 17, height: 9, seed: 2, opaque: false),
                     TestImage(width: 33, height: 40, seed: 3, opaque: true, repeatedRows: true)]
        let large = [TestImage(width: 400, height: 200, seed: 4, opaque: true), TestImage(width: 300, height: 260, seed: 5, opaque: false, repeatedRows: true)]
        for (image, levels) in small.map({ ($0, Array(Int32(0)...3)) }) + large.map({ ($0, [Int32(1)]) }) {
            for channels in [3, 4] {
                for filter in [CFPNG_FILTER_NONE, CFPNG_FILTER_UP, CFPNG_FILTER_PAETH] {
                    for level in levels {
                        let what = "\(image.width)x\(image.height), \(channels) channels, filter \(filter), isa-l level \(level)"
                        let png = try encode(image, channels: channels, bytesPerPixel: 4,
                                             options: Self.options(filter: filter, level: level, compressor: CFPNG_COMPRESSOR_ISAL))
                        let (pixels, header) = try Self.decode(png)
                        XCTAssertEqual(header.color_type, channels == 4 ? CPNG_COLOR_RGBA : CPNG_COLOR_RGB, what)
                        XCTAssertEqual(pixels, image.straightRGBA(channels: channels), what)
                    }
                }
            }
        }
    }

    /// ISA-L 2.30's level 1/2 code hashes one byte of each piece from its stream record's address, so every
    /// cache maps that record where the hash-table slot it gives is the same: caches made one after the
    /// other and on other threads (their records at different addresses) write the same bytes at every
    /// ISA-L level, and their records all give CFPNG_ISAL_RECORD_BUCKET.
    func testISALBytesDoNotDependOnWhereTheStreamRecordIs() throws {
        let images = [TestImage(width: 300, height: 200, seed: 41, opaque: true, repeatedRows: true),
                      TestImage(width: 64, height: 30, seed: 42, opaque: true), TestImage(width: 5, height: 3, seed: 43, opaque: false)]
        for level: Int32 in 0...3 {
            let options = Self.options(filter: CFPNG_FILTER_UP, level: level, compressor: CFPNG_COMPRESSOR_ISAL)
            let caches = try (0..<4).map { _ in try XCTUnwrap(cfpng_cache_create()) }
            defer { caches.forEach { cfpng_cache_destroy($0) } }
            let expected = try images.map { try encode($0, channels: 3, bytesPerPixel: 4, options: options, cache: caches[0]) }
            #if arch(x86_64)  // the placement is for ISA-L's x86 code; elsewhere the record is plainly allocated
            XCTAssertEqual(cfpng_isal_record_bucket(caches[0]), Int32(CFPNG_ISAL_RECORD_BUCKET), "level \(level)")
            #endif
            // The other caches on other threads, at the same time (each thread writes its own slot).
            let shared = ThreadShared(test: self, caches: caches)
            defer { shared.results.deallocate() }
            DispatchQueue.concurrentPerform(iterations: caches.count - 1) { i in
                shared.results[i + 1] = try? images.map {
                    try shared.test.encode($0, channels: 3, bytesPerPixel: 4, options: options, cache: shared.caches[i + 1])
                }
            }
            for i in 1..<caches.count {
                XCTAssertEqual(shared.results[i], expected, "level \(level), cache \(i)")
                #if arch(x86_64)
                XCTAssertEqual(cfpng_isal_record_bucket(caches[i]), Int32(CFPNG_ISAL_RECORD_BUCKET), "level \(level), cache \(i)")
                #endif
            }
            XCTAssertEqual(Set(caches.map { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer($0))) }).count, caches.count)
        }
        XCTAssertEqual(cfpng_isal_record_bucket(nil), -1)
    }

    /// ISA-L's bytes depend on the image alone, never on what the cache held (and so not on --jobs), and
    /// the cache counts ISA-L's level buffer and stream record.
    func testISALBytesDoNotDependOnTheCache() throws {
        let a = TestImage(width: 300, height: 200, seed: 11, opaque: true, repeatedRows: true)
        let b = TestImage(width: 300, height: 200, seed: 12, opaque: true)
        let isal = Self.options(filter: CFPNG_FILTER_UP, compressor: CFPNG_COMPRESSOR_ISAL)
        let fresh = try encode(b, channels: 3, bytesPerPixel: 4, options: isal)
        let cache = try XCTUnwrap(cfpng_cache_create())
        defer { cfpng_cache_destroy(cache) }
        _ = try encode(b, channels: 3, bytesPerPixel: 4, options: Self.options(filter: CFPNG_FILTER_UP), cache: cache)
        let zlibBytes = cfpng_cache_bytes(cache)
        _ = try encode(a, channels: 3, bytesPerPixel: 4, options: isal, cache: cache)
        XCTAssertEqual(try encode(b, channels: 3, bytesPerPixel: 4, options: isal, cache: cache), fresh)
        XCTAssertEqual(try encode(b, channels: 3, bytesPerPixel: 4, options: isal, cache: cache), fresh)
        XCTAssertEqual(cfpng_cache_last_repeated(cache), 1)
        // Level 1's buffer: 4 KiB + two 8K-entry hash tables of 16 bits + 64K tokens of 4 bytes.
        XCTAssertGreaterThanOrEqual(cfpng_cache_bytes(cache), zlibBytes + 4096 + 2 * 8192 * 2 + 4 * 65536)
        // A different compressor is not a repeat, and zlib's bytes are zlib's again.
        let zlib = try encode(b, channels: 3, bytesPerPixel: 4, options: Self.options(filter: CFPNG_FILTER_UP), cache: cache)
        XCTAssertEqual(cfpng_cache_last_repeated(cache), 0)
        XCTAssertEqual(zlib, try encode(b, channels: 3, bytesPerPixel: 4, options: Self.options(filter: CFPNG_FILTER_UP)))
        XCTAssertNotEqual(zlib, fresh)

        var name = [CChar](repeating: 0, count: 32)
        func text() -> String { String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        XCTAssertEqual(cfpng_compressor_name(CFPNG_COMPRESSOR_ISAL, &name, name.count), 0)
        XCTAssertTrue(text().hasPrefix("isa-l 2."), text())
        XCTAssertEqual(cfpng_compressor_name(CFPNG_COMPRESSOR_ZLIB, &name, name.count), 0)
        XCTAssertTrue(text().hasPrefix("zlib 1."), text())
        XCTAssertEqual(cfpng_compressor_name(7, &name, name.count), -1)
    }

    func testISALRefusesWhatItCannotDo() throws {
        let image = TestImage(width: 4, height: 4, seed: 1, opaque: true)
        for options in [Self.options(filter: CFPNG_FILTER_UP, level: 4, compressor: CFPNG_COMPRESSOR_ISAL),
                        cfpng_options(zlib_level: 1, filter: CFPNG_FILTER_UP, strategy: CFPNG_STRATEGY_RLE, write_srgb: 1, compressor: CFPNG_COMPRESSOR_ISAL),
                        Self.options(filter: CFPNG_FILTER_UP, compressor: 9)] {
            XCTAssertThrowsError(try encode(image, channels: 3, bytesPerPixel: 4, options: options)) { error in
                XCTAssertEqual((error as? EncodeFailure)?.code, CFPNG_ERR_INVALID_ARGUMENT)
            }
        }
    }

    // MARK: Scalar and SSSE3 code

    func testScalarAndSSSE3CodeGiveTheSameBytesForEveryWidth() throws {
        ccpu_force_scalar(0)
        if ccpu_features() & UInt32(CCPU_SSSE3) == 0 {
            throw XCTSkip("this processor has no SSSE3: only the scalar code runs here")
        }
        func all() throws -> [[UInt8]] {
            var outputs: [[UInt8]] = []
            let cache = try XCTUnwrap(cfpng_cache_create())  // a new cache takes the switch's state
            defer { cfpng_cache_destroy(cache) }
            for width in 1...70 {
                // Rows repeated in runs (zero rows for up and Paeth) and random rows between them.
                let opaque = TestImage(width: width, height: 13, seed: UInt64(width), opaque: true, repeatedRows: true)
                let translucent = TestImage(width: width, height: 6, seed: UInt64(1000 + width), opaque: false)
                for filter in CFPNG_FILTER_NONE...CFPNG_FILTER_PAETH {
                    let options = Self.options(filter: filter, level: width % 3 == 0 ? 0 : 1)
                    outputs.append(try encode(opaque, channels: 3, bytesPerPixel: 4, options: options, alphaFallback: true, cache: cache))
                    outputs.append(try encode(opaque, channels: 3, bytesPerPixel: 4, options: options, alphaFallback: true, cache: cache))
                    outputs.append(try encode(translucent, channels: 3, bytesPerPixel: 4, options: options, alphaFallback: true, cache: cache))
                    outputs.append(try encode(translucent, channels: 4, bytesPerPixel: 4, options: options, cache: cache))
                    outputs.append(try encode(opaque, channels: 3, bytesPerPixel: 3, options: options, cache: cache))
                }
            }
            // Large pieces: Adler-32 over more than 5,552 bytes at once (its reduction), IDAT over 1 MiB.
            for (width, seed) in [(301, 5), (512, 6)] {
                let big = TestImage(width: width, height: 700, seed: UInt64(seed), opaque: true)
                outputs.append(try encode(big, channels: 3, bytesPerPixel: 4, options: Self.options(filter: CFPNG_FILTER_UP, level: 1), alphaFallback: true, cache: cache))
                outputs.append(try encode(big, channels: 4, bytesPerPixel: 4, options: Self.options(filter: CFPNG_FILTER_NONE, level: 0), cache: cache))
            }
            return outputs
        }
        let vector = try all()
        ccpu_force_scalar(1)
        XCTAssertEqual(ccpu_features(), 0)
        let scalar = try all()
        XCTAssertEqual(vector.count, scalar.count)
        for (i, (v, s)) in zip(vector, scalar).enumerated() where v != s {
            XCTFail("encode \(i): SSSE3 and scalar code differ (\(v.count) and \(s.count) bytes)")
        }
        // Still valid files.
        for png in scalar.prefix(50) { XCTAssertNoThrow(try Self.decode(png)) }
    }

    // MARK: The repeated-image cache

    func testARepeatedImageReusesTheCompressedStream() throws {
        let cache = try XCTUnwrap(cfpng_cache_create())
        defer { cfpng_cache_destroy(cache) }
        XCTAssertEqual(cfpng_cache_last_repeated(cache), 0)
        XCTAssertEqual(cfpng_cache_last_repeated(nil), 0)
        let a = TestImage(width: 40, height: 30, seed: 1, opaque: true, repeatedRows: true)
        var b = a
        b.pixels[4 * (40 * 29 + 39)] ^= 1  // the last pixel's red
        let up = Self.options(filter: CFPNG_FILTER_UP)
        func run(_ image: TestImage, _ options: cfpng_options, channels: Int = 3) throws -> (png: [UInt8], repeated: Bool) {
            let png = try encode(image, channels: channels, bytesPerPixel: 4, options: options, alphaFallback: channels == 3, cache: cache)
            return (png, cfpng_cache_last_repeated(cache) != 0)
        }
        let first = try run(a, up)
        XCTAssertFalse(first.repeated)
        let second = try run(a, up)
        XCTAssertTrue(second.repeated)
        XCTAssertEqual(second.png, first.png)
        XCTAssertFalse(try run(b, up).repeated, "one byte differs")
        XCTAssertFalse(try run(a, up).repeated)
        XCTAssertFalse(try run(a, Self.options(filter: CFPNG_FILTER_UP, level: 6)).repeated, "another level")
        XCTAssertFalse(try run(a, Self.options(filter: CFPNG_FILTER_PAETH, level: 6)).repeated, "another filter")
        XCTAssertFalse(try run(a, Self.options(filter: CFPNG_FILTER_PAETH, level: 6), channels: 4).repeated, "RGBA")
        XCTAssertTrue(try run(a, Self.options(filter: CFPNG_FILTER_PAETH, level: 6), channels: 4).repeated)
        // The sRGB chunk is outside the stream: the stream is reused, the file has no sRGB chunk.
        var noSRGB = Self.options(filter: CFPNG_FILTER_PAETH, level: 6)
        noSRGB.write_srgb = 0
        let plain = try run(a, noSRGB, channels: 4)
        XCTAssertTrue(plain.repeated)
        XCTAssertNil(Self.chunks(plain.png).first { $0.type == "sRGB" })
        // What the cache held never changes a byte: a fresh encoder writes the same file.
        XCTAssertEqual(plain.png, try encode(a, channels: 4, bytesPerPixel: 4, options: noSRGB))
        // A failed encode does not count as a repeat.
        var bad = up
        bad.zlib_level = 10
        XCTAssertThrowsError(try run(a, bad))
        XCTAssertEqual(cfpng_cache_last_repeated(cache), 0)
    }

    func testAForgottenImageIsNotARepeat() throws {
        let cache = try XCTUnwrap(cfpng_cache_create())
        defer { cfpng_cache_destroy(cache) }
        let a = TestImage(width: 40, height: 30, seed: 3, opaque: true, repeatedRows: true)
        for compressor in [CFPNG_COMPRESSOR_ZLIB, CFPNG_COMPRESSOR_ISAL] {
            let options = Self.options(filter: CFPNG_FILTER_UP, compressor: compressor)
            func run() throws -> (png: [UInt8], repeated: Bool) {
                let png = try encode(a, channels: 3, bytesPerPixel: 4, options: options, alphaFallback: true, cache: cache)
                return (png, cfpng_cache_last_repeated(cache) != 0)
            }
            let first = try run()
            XCTAssertTrue(try run().repeated)
            cfpng_cache_forget(cache)
            XCTAssertEqual(cfpng_cache_last_repeated(cache), 0)
            // Compressed again, to the same bytes; the one after is a repeat again.
            let again = try run()
            XCTAssertFalse(again.repeated)
            XCTAssertEqual(again.png, first.png)
            XCTAssertTrue(try run().repeated)
        }
        cfpng_cache_forget(nil)
    }

    // MARK: The file's chunks

    func testChunksAreSignatureIHDRSRGBIDATIENDWithTheirCRCs() throws {
        // 512x700 RGBA stored (level 0): 1,434,300 bytes of image data, so two IDAT chunks.
        let image = TestImage(width: 512, height: 700, seed: 9, opaque: false)
        let png = try encode(image, channels: 4, bytesPerPixel: 4, options: Self.options(filter: CFPNG_FILTER_NONE, level: 0))
        XCTAssertEqual(Array(png.prefix(8)), [137, 80, 78, 71, 13, 10, 26, 10])
        let chunks = Self.chunks(png)
        XCTAssertEqual(chunks.map(\.type), ["IHDR", "sRGB", "IDAT", "IDAT", "IEND"])
        XCTAssertEqual(chunks[0].data, [0, 0, 2, 0, 0, 0, 2, 188, 8, 6, 0, 0, 0])
        XCTAssertEqual(chunks[1].data, [0])
        XCTAssertEqual(chunks[2].data.count, Int(CFPNG_IDAT_MAX))
        XCTAssertEqual(chunks[4].data, [])
        for chunk in chunks { XCTAssertTrue(chunk.crcMatches, chunk.type) }
        XCTAssertEqual(chunks.reduce(8) { $0 + 12 + $1.data.count }, png.count)
        XCTAssertEqual(try Self.decode(png).pixels, image.pixels)
    }

    // MARK: Errors

    func testBadArgumentsAreErrorCodesAndLeaveTheBufferEmpty() throws {
        let image = TestImage(width: 4, height: 4, seed: 2, opaque: true)
        let good = Self.options(filter: CFPNG_FILTER_UP)
        func code(_ change: (inout cfpng_rgb8_source, inout cfpng_options) -> Void) -> (Int32, String) {
            image.pixels.withUnsafeBufferPointer { p in
                var source = cfpng_rgb8_source(width: 4, height: 4, channels: 3, bytes_per_pixel: 4, pixels: p.baseAddress,
                                               row_stride: 16, row: nil, ctx: nil, alpha_fallback: 0)
                var options = good
                change(&source, &options)
                var out = cfpng_buffer()
                var error = cfpng_error()
                let code = cfpng_encode(nil, &source, &options, &out, &error)
                defer { cfpng_buffer_free(&out) }
                if code != CFPNG_OK {
                    XCTAssertNil(out.data)
                    XCTAssertEqual(out.size, 0)
                }
                XCTAssertEqual(error.code, code)
                return (code, Self.message(error))
            }
        }
        XCTAssertEqual(code { _, _ in }.0, CFPNG_OK)
        let invalid: [(String, (inout cfpng_rgb8_source, inout cfpng_options) -> Void)] = [
            ("level -1", { $1.zlib_level = -1 }), ("level 10", { $1.zlib_level = 10 }),
            ("filter -1", { $1.filter = -1 }), ("filter 5", { $1.filter = 5 }),
            ("strategy 5", { $1.strategy = 5 }), ("strategy -1", { $1.strategy = -1 }),
            ("width 0", { s, _ in s.width = 0 }), ("height 0", { s, _ in s.height = 0 }),
            ("2 channels", { s, _ in s.channels = 2; s.bytes_per_pixel = 2 }),
            ("4 channels of 3 bytes", { s, _ in s.channels = 4; s.bytes_per_pixel = 3 }),
            ("no pixels", { s, _ in s.pixels = nil }), ("short stride", { s, _ in s.row_stride = 15 }),
            ("fallback without rows", { s, _ in s.alpha_fallback = 1 }),
        ]
        for (what, change) in invalid {
            let (result, message) = code(change)
            XCTAssertEqual(result, CFPNG_ERR_INVALID_ARGUMENT, what)
            XCTAssertFalse(message.isEmpty, what)
        }
        let tooLarge: [(String, (inout cfpng_rgb8_source, inout cfpng_options) -> Void)] = [
            ("width", { s, _ in s.width = CFPNG_MAX_DIMENSION + 1; s.row_stride = Int.max }),
            ("height", { s, _ in s.height = CFPNG_MAX_DIMENSION + 1 }),
            ("filtered bytes", { s, _ in s.width = 100_000; s.height = 1_000; s.row_stride = Int.max }),
        ]
        for (what, change) in tooLarge {
            let (result, message) = code(change)
            XCTAssertEqual(result, CFPNG_ERR_TOO_LARGE, what)
            XCTAssertTrue(message.contains("over the encoder's limits"), message)
        }
        // NULL arguments.
        var out = cfpng_buffer(), error = cfpng_error(), options = good
        XCTAssertEqual(cfpng_encode(nil, nil, &options, &out, &error), CFPNG_ERR_INVALID_ARGUMENT)
        image.pixels.withUnsafeBufferPointer { p in
            var source = cfpng_rgb8_source(width: 4, height: 4, channels: 3, bytes_per_pixel: 4, pixels: p.baseAddress,
                                           row_stride: 16, row: nil, ctx: nil, alpha_fallback: 0)
            XCTAssertEqual(cfpng_encode(nil, &source, nil, &out, &error), CFPNG_ERR_INVALID_ARGUMENT)
            XCTAssertEqual(cfpng_encode(nil, &source, &options, nil, nil), CFPNG_ERR_INVALID_ARGUMENT)
        }
        cfpng_buffer_free(nil)
        cfpng_buffer_free(&out)
    }

    func testFitsFollowsTheLimits() {
        XCTAssertEqual(cfpng_fits(1, 1, 3), 1)
        XCTAssertEqual(cfpng_fits(0, 1, 3), 0)
        XCTAssertEqual(cfpng_fits(1, 0, 3), 0)
        XCTAssertEqual(cfpng_fits(CFPNG_MAX_DIMENSION, 1, 4), 1)
        XCTAssertEqual(cfpng_fits(CFPNG_MAX_DIMENSION + 1, 1, 4), 0)
        XCTAssertEqual(cfpng_fits(1, CFPNG_MAX_DIMENSION + 1, 4), 0)
        // (1 + width x channels) x height <= 256 MiB.
        let limit = UInt64(CFPNG_MAX_FILTERED_BYTES)
        XCTAssertEqual(cfpng_fits(16383, 4096, 4), 1)   // 65,533 x 4,096 = 268,423,168
        XCTAssertEqual(cfpng_fits(16384, 4097, 4), 0)
        XCTAssertLessThanOrEqual(UInt64(1 + 16383 * 4) * 4096, limit)
        XCTAssertEqual(cfpng_fits(1, 1, 0), 0)
        XCTAssertEqual(cfpng_fits(1, 1, 5), 0)
    }

    func testAFailingRowCallbackIsACallbackError() throws {
        let rows = Rows(TestImage(width: 8, height: 8, seed: 4, opaque: true), failingRow: 5)
        var source = cfpng_rgb8_source(width: 8, height: 8, channels: 4, bytes_per_pixel: 4, pixels: nil, row_stride: 32,
                                       row: Rows.callback, ctx: Unmanaged.passUnretained(rows).toOpaque(), alpha_fallback: 0)
        var options = Self.options(filter: CFPNG_FILTER_SUB)
        var out = cfpng_buffer(), error = cfpng_error()
        XCTAssertEqual(withExtendedLifetime(rows) { cfpng_encode(nil, &source, &options, &out, &error) }, CFPNG_ERR_CALLBACK)
        XCTAssertNil(out.data)
        XCTAssertEqual(Self.message(error), "the row callback failed")
    }

    // MARK: Helpers

    static func options(filter: Int32, level: Int32 = 1, compressor: Int32 = CFPNG_COMPRESSOR_ZLIB) -> cfpng_options {
        cfpng_options(zlib_level: level, filter: filter, strategy: CFPNG_STRATEGY_DEFAULT, write_srgb: 1, compressor: compressor)
    }

    static func message(_ error: cfpng_error) -> String {
        var error = error
        return withUnsafeBytes(of: &error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Encodes `image` (RGBA bytes) from its pixels or through the row callback.
    func encode(_ image: TestImage, channels: Int, bytesPerPixel: Int, options: cfpng_options, fromRows: Bool = false,
                alphaFallback: Bool = false, cache: OpaquePointer? = nil) throws -> [UInt8] {
        // The rows as the source's bytes per pixel.
        let rows: [UInt8] = bytesPerPixel == 4 ? image.pixels : image.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        let stride = image.width * bytesPerPixel
        let rgba = Rows(image)
        var options = options
        var out = cfpng_buffer()
        defer { cfpng_buffer_free(&out) }
        var error = cfpng_error()
        let code = withExtendedLifetime(rgba) {
            rows.withUnsafeBufferPointer { p in
                var source = cfpng_rgb8_source(
                    width: UInt32(image.width), height: UInt32(image.height), channels: Int32(channels),
                    bytes_per_pixel: Int32(bytesPerPixel), pixels: fromRows ? nil : p.baseAddress, row_stride: stride,
                    row: fromRows || alphaFallback ? Rows.callback : nil,
                    ctx: Unmanaged.passUnretained(rgba).toOpaque(), alpha_fallback: alphaFallback ? 1 : 0)
                if fromRows { XCTAssertEqual(bytesPerPixel, 4) }
                return cfpng_encode(cache, &source, &options, &out, &error)
            }
        }
        guard code == CFPNG_OK else { throw EncodeFailure(code: code, message: Self.message(error)) }
        XCTAssertEqual(error.code, CFPNG_OK)
        XCTAssertLessThanOrEqual(out.size, out.capacity)
        return Array(UnsafeBufferPointer(start: out.data, count: out.size))
    }

    struct EncodeFailure: Error { let code: Int32; let message: String }

    /// Straight RGBA8 and the header, through libpng (CPNGShim's strict decoder: CRCs and Adler-32 checked).
    static func decode(_ png: [UInt8]) throws -> (pixels: [UInt8], header: cpng_header) {
        final class Output { var pixels: [UInt8] = [] }
        let output = Output()
        var header = cpng_header()
        var error = cpng_error()
        let code = png.withUnsafeBufferPointer { bytes in
            cpng_decode(bytes.baseAddress, bytes.count, { ctx, w, h in
                let out = Unmanaged<Output>.fromOpaque(ctx!).takeUnretainedValue()
                out.pixels = [UInt8](repeating: 0, count: Int(w) * Int(h) * 4)
                return out.pixels.withUnsafeMutableBytes { $0.baseAddress }  // the array is not touched until decode returns
            }, Unmanaged.passUnretained(output).toOpaque(), &header, &error)
        }
        guard code == CPNG_OK else {
            var message = error.message
            throw EncodeFailure(code: code, message: withUnsafeBytes(of: &message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return (output.pixels, header)
    }

    struct Chunk { let type: String; let data: [UInt8]; let crcMatches: Bool }

    /// The chunks after the signature, with their CRC-32 checked by an implementation of its own.
    static func chunks(_ png: [UInt8]) -> [Chunk] {
        var chunks: [Chunk] = []
        var at = 8
        func be32(_ i: Int) -> UInt32 { png[i..<i + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        while at + 12 <= png.count {
            let length = Int(be32(at))
            let typed = Array(png[at + 4..<at + 8 + length])
            chunks.append(Chunk(type: String(decoding: typed.prefix(4), as: UTF8.self), data: Array(typed.dropFirst(4)),
                                crcMatches: crc32(typed) == be32(at + 8 + length)))
            at += 12 + length
        }
        return chunks
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// An image's RGBA rows for the row callback (a C function: it finds them through its context).
final class Rows {
    let bytes: UnsafeMutableBufferPointer<UInt8>
    let stride: Int
    let failingRow: Int?

    init(_ image: TestImage, failingRow: Int? = nil) {
        bytes = .allocate(capacity: image.pixels.count)
        _ = bytes.initialize(from: image.pixels)
        stride = image.width * 4
        self.failingRow = failingRow
    }

    deinit { bytes.deallocate() }

    static let callback: cfpng_row_fn = { ctx, y in
        let rows = Unmanaged<Rows>.fromOpaque(ctx!).takeUnretainedValue()
        return Int(y) == rows.failingRow ? nil : UnsafePointer(rows.bytes.baseAddress! + Int(y) * rows.stride)
    }
}

/// Straight RGBA8 pixels made from a seed: random, or random rows repeated in runs.
struct TestImage {
    let width: Int, height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, seed: UInt64, opaque: Bool, repeatedRows: Bool = false) {
        self.width = width
        self.height = height
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        func next() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        var row: [UInt8] = []
        for y in 0..<height {
            // With repeatedRows, rows 1-5 and 8-12 (of every 13) repeat the row before them: runs of zero
            // rows for the up and Paeth filters.
            let repeats = repeatedRows && y > 0 && ((1...5).contains(y % 13) || (8...12).contains(y % 13))
            if !repeats {
                row = (0..<width * 4).map { i in i % 4 == 3 && opaque ? 255 : next() }
            }
            pixels += row
        }
        self.pixels = pixels
    }

    /// What a decoder gives for the image written with `channels`: RGBA, with alpha 255 for RGB.
    func straightRGBA(channels: Int) -> [UInt8] {
        channels == 4 ? pixels : pixels.enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element }
    }
}

/// What the threads of a test share: each writes only its own slot of `results` and uses only its own
/// cache, and the test reads them after every thread has finished.
private final class ThreadShared: @unchecked Sendable {
    let test: CFastPNGTests
    let caches: [OpaquePointer]
    let results: UnsafeMutableBufferPointer<[[UInt8]]?>

    init(test: CFastPNGTests, caches: [OpaquePointer]) {
        self.test = test
        self.caches = caches
        results = .allocate(capacity: caches.count)
        results.initialize(repeating: nil)
    }
}
