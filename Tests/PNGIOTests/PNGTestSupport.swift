import CPNGShim
import PNGIO
import RasterCore
import XCTest

/// Helpers shared by the PNGIO tests: raw PNG encoding through the shim, straight decoding, chunk surgery.
enum PNGTest {
    struct ShimFailure: Error, CustomStringConvertible {
        let code: Int32
        let message: String
        var description: String { "shim error \(code): \(message)" }
    }

    static func message(_ error: cpng_error) -> String {
        var error = error
        return withUnsafeBytes(of: &error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Options for the raw encoder: zlib 6, all filters, default strategy, no sRGB chunk.
    static let rawOptions = cpng_encode_options(zlib_level: 6, filters: CPNG_FILTER_ALL, strategy: CPNG_STRATEGY_DEFAULT, write_srgb: 0)

    /// A PNG with exactly the given samples, through `cpng_encode_raw`. `rows` holds `height` rows of
    /// `rowBytes(width:colorType:bitDepth:)` bytes each, in PNG's own layout.
    static func encodeRaw(
        width: Int, height: Int, bitDepth: Int, colorType: PNGColorType, interlaced: Bool = false, rows: [UInt8],
        palette: [UInt8] = [], paletteAlpha: [UInt8] = [], trnsColor: (gray: UInt16, red: UInt16, green: UInt16, blue: UInt16)? = nil
    ) throws -> [UInt8] {
        let stride = rowBytes(width: width, colorType: colorType, bitDepth: bitDepth)
        precondition(rows.count == stride * height, "test rows have the wrong size")
        var options = rawOptions
        var buffer = cpng_buffer()
        var error = cpng_error()
        let code = rows.withUnsafeBufferPointer { r in
            palette.withUnsafeBufferPointer { p in
                paletteAlpha.withUnsafeBufferPointer { pa in
                    var image = cpng_raw_image(
                        width: UInt32(width), height: UInt32(height), bit_depth: Int32(bitDepth),
                        color_type: Int32(colorType.rawValue), interlaced: interlaced ? 1 : 0,
                        rows: r.baseAddress, row_stride: stride,
                        palette: p.baseAddress, palette_count: Int32(palette.count / 3),
                        palette_alpha: pa.baseAddress, palette_alpha_count: Int32(paletteAlpha.count),
                        has_trns_color: trnsColor == nil ? 0 : 1, trns_gray: trnsColor?.gray ?? 0,
                        trns_red: trnsColor?.red ?? 0, trns_green: trnsColor?.green ?? 0, trns_blue: trnsColor?.blue ?? 0)
                    return cpng_encode_raw(&image, &options, &buffer, &error)
                }
            }
        }
        defer { cpng_buffer_free(&buffer) }
        guard code == CPNG_OK else { throw ShimFailure(code: code, message: message(error)) }
        return Array(UnsafeBufferPointer(start: buffer.data, count: buffer.size))
    }

    static func rowBytes(width: Int, colorType: PNGColorType, bitDepth: Int) -> Int {
        (width * colorType.channels * bitDepth + 7) / 8
    }

    /// Packs samples (each `< 2^bitDepth`) into one PNG row: sub-byte samples MSB first, 16-bit big-endian.
    static func packRow(_ samples: [UInt16], bitDepth: Int) -> [UInt8] {
        switch bitDepth {
        case 16: return samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case 8: return samples.map { UInt8($0) }
        default:
            var out = [UInt8](repeating: 0, count: (samples.count * bitDepth + 7) / 8)
            for (i, s) in samples.enumerated() {
                let bit = i * bitDepth
                out[bit / 8] |= UInt8(s) << (8 - bitDepth - bit % 8)
            }
            return out
        }
    }

    /// A sample scaled to 8 bits as libpng does: 16-bit round(v * 255 / 65535), low-bit grey replicated
    /// (1-bit 0/255, 2-bit x85, 4-bit x17).
    static func to8(_ v: UInt16, bitDepth: Int) -> UInt8 {
        switch bitDepth {
        case 16: return UInt8((UInt32(v) * 255 + 32767) / 65535)
        case 8: return UInt8(v)
        default: return UInt8(UInt32(v) * 255 / ((1 << UInt32(bitDepth)) - 1))
        }
    }

    /// Straight RGBA8 as the shim decodes it, plus the header.
    static func decodeStraight(_ png: [UInt8]) throws -> (pixels: [UInt8], header: cpng_header) {
        final class Output { var pixels = UnsafeMutableRawBufferPointer(start: nil, count: 0) }
        let output = Output()
        defer { output.pixels.deallocate() }
        var header = cpng_header()
        var error = cpng_error()
        let code = png.withUnsafeBufferPointer { bytes in
            cpng_decode(bytes.baseAddress, bytes.count, { ctx, w, h in
                let out = Unmanaged<Output>.fromOpaque(ctx!).takeUnretainedValue()
                out.pixels = .allocate(byteCount: Int(w) * Int(h) * 4, alignment: 4)
                return out.pixels.baseAddress
            }, Unmanaged.passUnretained(output).toOpaque(), &header, &error)
        }
        guard code == CPNG_OK else { throw ShimFailure(code: code, message: message(error)) }
        return (Array(output.pixels), header)
    }

    /// Premultiplies straight RGBA bytes: round(c * a / 255), written independently of the codec's div255.
    static func premultiplied(_ straight: [UInt8]) -> [UInt8] {
        var out = straight
        for i in Swift.stride(from: 0, to: out.count, by: 4) {
            let a = UInt32(out[i + 3])
            for c in 0..<3 { out[i + c] = UInt8((UInt32(out[i + c]) * a + 127) / 255) }
        }
        return out
    }

    static func bytes(of bitmap: Bitmap) -> [UInt8] { bitmap.withUnsafeBytes { Array($0) } }

    // MARK: Chunks

    struct Chunk {
        var type: String
        /// Offset of the chunk's length field.
        var offset: Int
        var length: Int
        var dataOffset: Int { offset + 8 }
        var crcOffset: Int { offset + 8 + length }
        var end: Int { offset + 12 + length }
    }

    static func chunks(_ png: [UInt8]) -> [Chunk] {
        var result: [Chunk] = []
        var i = 8
        while i + 12 <= png.count {
            let length = Int(be32(png, i))
            let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
            result.append(Chunk(type: type, offset: i, length: length))
            i += 12 + length
        }
        return result
    }

    static func chunk(_ type: String, in png: [UInt8]) -> Chunk? { chunks(png).first { $0.type == type } }

    static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    static func putBE32(_ v: UInt32, into b: inout [UInt8], at i: Int) {
        b[i] = UInt8(v >> 24); b[i + 1] = UInt8(v >> 16 & 0xFF); b[i + 2] = UInt8(v >> 8 & 0xFF); b[i + 3] = UInt8(v & 0xFF)
    }

    /// Recomputes the CRC of the chunk whose length field is at `offset`.
    static func fixCRC(_ png: inout [UInt8], chunk: Chunk) {
        putBE32(crc32(png[(chunk.offset + 4)..<chunk.crcOffset]), into: &png, at: chunk.crcOffset)
    }

    /// A complete chunk (length, type, data, CRC).
    static func makeChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 4)
        putBE32(UInt32(data.count), into: &out, at: 0)
        let body = Array(type.utf8) + data
        out += body
        var crc = [UInt8](repeating: 0, count: 4)
        putBE32(crc32(body[...]), into: &crc, at: 0)
        return out + crc
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A deterministic pseudo-random generator for test data.
    struct LCG {
        var state: UInt64
        init(_ seed: UInt64) { state = seed }
        mutating func next() -> UInt32 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt32(truncatingIfNeeded: state >> 33)
        }
        mutating func next(below n: Int) -> Int { Int(next() % UInt32(n)) }
    }

    /// A bitmap with pseudo-random premultiplied pixels; `opaque` forces alpha 255.
    static func randomBitmap(width: Int, height: Int, opaque: Bool, seed: UInt64 = 1) throws -> Bitmap {
        var bitmap = try Bitmap(width: width, height: height)
        var rng = LCG(seed)
        for y in 0..<height {
            for x in 0..<width {
                let a = opaque ? 255 : UInt8(rng.next(below: 256))
                bitmap[x, y] = PremultipliedRGBA8(
                    r: UInt8(rng.next(below: Int(a) + 1)), g: UInt8(rng.next(below: Int(a) + 1)),
                    b: UInt8(rng.next(below: Int(a) + 1)), a: a)
            }
        }
        return bitmap
    }

    /// Asserts that `body` throws a PNGError of `kind` whose description contains the path; returns it.
    @discardableResult
    static func assertThrows(
        _ kind: PNGError.Kind, path: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
    ) -> PNGError? {
        do {
            try body()
            XCTFail("expected a PNGError of kind \(kind), got success", file: file, line: line)
        } catch let error as PNGError {
            XCTAssertEqual(error.kind, kind, "\(error)", file: file, line: line)
            XCTAssertEqual(error.path, path, file: file, line: line)
            XCTAssertTrue(error.description.hasPrefix("\(path): "), error.description, file: file, line: line)
            return error
        } catch {
            XCTFail("expected a PNGError, got \(error)", file: file, line: line)
        }
        return nil
    }
}
