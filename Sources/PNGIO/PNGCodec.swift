import CFastPNG
import CPNGShim
import RasterCore

/// Encodes `Bitmap`s to PNG and decodes PNGs to `Bitmap`s, in memory and on disk.
///
/// Decoding, and encoding with several filters, go through the C shim (`CPNGShim`), the only code that
/// calls libpng; encoding with one filter goes through Smokescreen's own encoder (`CFastPNG`). Every
/// failure is a thrown ``PNGError``; no input can crash the process.
///
/// Pixels: a `Bitmap` is premultiplied RGBA8 in sRGB. PNG stores straight (not premultiplied) alpha,
/// so encoding un-premultiplies (`(c * 255 + a / 2) / a`, transparent pixels become 0,0,0,0) and decoding
/// premultiplies (`round(c * a / 255)`). Decoding never applies gamma or colour management: samples are
/// taken as sRGB whatever gAMA, cHRM or iCCP chunks say.
public enum PNGCodec {
    /// Encodes `bitmap` as a PNG: colour type 2 (RGB, 8 bits) when every pixel is opaque, else colour type 6
    /// (RGBA, 8 bits, straight alpha), never interlaced, with an sRGB chunk (perceptual intent, no gAMA or
    /// cHRM). The bitmap's `scale` is not stored.
    /// - Parameter bitmap: the image to encode.
    /// - Parameter compression: zlib level, filters and strategy; default ``PNGCompression/fast``.
    /// - Returns: the bytes of the PNG file.
    /// - Throws: ``PNGError`` with `path` `<memory>`: `invalidArgument` for a bad compression setting,
    ///   `outOfMemory`, or `encodeFailed`.
    public static func encode(_ bitmap: Bitmap, compression: PNGCompression = .fast) throws(PNGError) -> [UInt8] {
        try withEncoded(bitmap, compression: compression, path: memoryName) { bytes, _ throws(PNGError) in Array(bytes) }
    }

    /// Decodes a PNG from memory to a premultiplied bitmap.
    ///
    /// Every colour type and bit depth is accepted: palettes, grey and tRNS are expanded, 16-bit samples
    /// become `round(v * 255 / 65535)`, Adam7 is de-interlaced. The decoder is strict: a bad CRC in any
    /// chunk, a failed zlib check, truncated data or a missing IEND chunk is an error.
    /// - Parameters:
    ///   - bytes: the PNG file's bytes.
    ///   - name: the name used as `path` in errors; default `<memory>`.
    ///   - scale: the bitmap's scale, pixels per point; default 1.
    /// - Throws: ``PNGError``: `notPNG`, `corrupt`, `tooLarge` (over `Bitmap.maxDimension` per side or
    ///   `Bitmap.maxPixelCount` in all), `outOfMemory`, `invalidArgument` (a scale that is not finite and
    ///   positive).
    public static func decode(_ bytes: [UInt8], name: String = memoryName, scale: Double = 1) throws(PNGError) -> Bitmap {
        try decodeWithHeader(bytes, name: name, scale: scale).bitmap
    }

    /// Decodes a PNG from memory; see `decode(_:name:scale:)`.
    public static func decode(_ bytes: UnsafeRawBufferPointer, name: String = memoryName, scale: Double = 1) throws(PNGError) -> Bitmap {
        try decodeWithHeader(bytes, name: name, scale: scale).bitmap
    }

    /// Decodes a PNG from memory and also returns its header as stored in the file (size, bit depth,
    /// colour type, interlacing). Same behaviour and errors as `decode(_:name:scale:)`.
    public static func decodeWithHeader(
        _ bytes: [UInt8], name: String = memoryName, scale: Double = 1
    ) throws(PNGError) -> (bitmap: Bitmap, header: PNGHeader) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(PNGError) in try decodeWithHeader(raw, name: name, scale: scale) }
        }
        return try result.get()
    }

    /// Decodes a PNG from memory and also returns its header; see ``decodeWithHeader(_:name:scale:)``.
    public static func decodeWithHeader(
        _ bytes: UnsafeRawBufferPointer, name: String = memoryName, scale: Double = 1
    ) throws(PNGError) -> (bitmap: Bitmap, header: PNGHeader) {
        guard scale.isFinite, scale > 0 else {
            throw PNGError(path: name, kind: .invalidArgument, reason: "scale \(scale) must be finite and positive")
        }
        let output = DecodeOutput(scale: scale)
        var header = cpng_header()
        var error = cpng_error()
        let code = withExtendedLifetime(output) {
            cpng_decode(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, allocateBitmap,
                Unmanaged.passUnretained(output).toOpaque(), &header, &error)
        }
        guard code == CPNG_OK else {
            if code == CPNG_ERR_CALLBACK, let failure = output.failure { throw PNGError(path: name, bitmapError: failure) }
            throw PNGError(path: name, code: code, error: error, encoding: false)
        }
        guard var bitmap = output.bitmap, let colorType = PNGColorType(rawValue: UInt8(truncatingIfNeeded: header.color_type)) else {
            throw PNGError(path: name, kind: .corrupt, reason: "the decoder produced no image")
        }
        output.bitmap = nil  // keeps `bitmap` uniquely referenced: premultiplying then writes in place
        bitmap.withUnsafeMutablePixels { premultiply($0) }
        let pngHeader = PNGHeader(width: Int(header.width), height: Int(header.height), bitDepth: Int(header.bit_depth),
                                  colorType: colorType, interlaced: header.interlaced != 0)
        return (bitmap, pngHeader)
    }

    /// The `path` of errors from in-memory work when no name is given.
    public static let memoryName = "<memory>"

    /// The version of the libpng in use, e.g. `1.6.39`.
    public static var libpngVersion: String { String(cString: cpng_libpng_version()) }
}

// MARK: - Decoding support

/// Where the allocation callback leaves the bitmap it made (or why it could not).
private final class DecodeOutput {
    let scale: Double
    var bitmap: Bitmap?
    var failure: BitmapError?
    init(scale: Double) { self.scale = scale }
}

/// Makes the output bitmap when the shim knows the size. The pixel pointer escapes `withUnsafeMutableBytes`:
/// that is sound here because the storage is a heap allocation owned (uniquely) by `output.bitmap`, which
/// nobody touches until `cpng_decode` has returned.
private let allocateBitmap: cpng_alloc_fn = { context, width, height in
    guard let context else { return nil }
    let output = Unmanaged<DecodeOutput>.fromOpaque(context).takeUnretainedValue()
    do throws(BitmapError) {
        output.bitmap = try Bitmap(width: Int(width), height: Int(height), scale: output.scale)
    } catch {
        output.failure = error
        return nil
    }
    return output.bitmap?.withUnsafeMutableBytes { $0.baseAddress }
}

// MARK: - Encoding support

extension PNGCodec {
    /// Encodes `bitmap` always as RGBA (colour type 6), even when every pixel is opaque: for formats
    /// whose frames must share one header (an animated PNG). Otherwise as ``encode(_:compression:)``.
    public static func encodeRGBA(_ bitmap: Bitmap, compression: PNGCompression = .fast) throws(PNGError) -> [UInt8] {
        try withEncoded(bitmap, compression: compression, path: memoryName, alwaysRGBA: true) { bytes, _ throws(PNGError) in Array(bytes) }
    }

    /// Encodes `bitmap` and passes the PNG file's bytes to `body`, which may not keep them, and whether
    /// the fast encoder reused the compressed data of `cache`'s previous image (the file is then the same
    /// as the previous one: `cfpng_cache_last_repeated`; always false through libpng).
    ///
    /// RGB straight from the bitmap's memory (every 4th byte dropped as the rows are filtered, no copy),
    /// checking on the way that every pixel is opaque; if one is not, RGBA, each row un-premultiplied into
    /// one reusable row buffer when the encoder asks for it. `alwaysRGBA` skips the RGB attempt.
    ///
    /// One filter: Smokescreen's own encoder (`CFastPNG`), with `cache` (from a ``PNGEncoder``: its buffers
    /// and zlib streams kept between calls; nil: a temporary one). Several filters, or an image too large
    /// for that encoder's in-memory pipeline: libpng row by row (`CPNGShim`), which picks each row's filter.
    static func withEncoded<Result>(
        _ bitmap: Bitmap, compression: PNGCompression, path: String, alwaysRGBA: Bool = false, cache: OpaquePointer? = nil,
        _ body: (_ bytes: UnsafeRawBufferPointer, _ repeated: Bool) throws(PNGError) -> Result
    ) throws(PNGError) -> Result {
        let libpngOptions = try compression.cOptions(path: path, writeSRGB: true)
        let rows = UnpremultipliedRows(bitmap)
        let width = UInt32(bitmap.width), height = UInt32(bitmap.height)
        let context = Unmanaged.passUnretained(rows).toOpaque()
        // An RGB attempt may turn out RGBA, so the fast encoder must hold 4 bytes a pixel either way.
        if let filter = compression.filters.singleFilterType, cfpng_fits(width, height, 4) != 0 {
            var options = cfpng_options(zlib_level: libpngOptions.zlib_level, filter: filter, strategy: libpngOptions.strategy,
                                        write_srgb: libpngOptions.write_srgb, compressor: compression.compressor.cValue)
            var buffer = cfpng_buffer()
            defer { cfpng_buffer_free(&buffer) }
            var error = cfpng_error()
            let code = withExtendedLifetime(rows) {
                bitmap.withUnsafeBytes { bytes in
                    var source = alwaysRGBA
                        ? cfpng_rgb8_source(width: width, height: height, channels: 4, bytes_per_pixel: 4, pixels: nil,
                                            row_stride: bitmap.rowBytes, row: unpremultipliedRow, ctx: context, alpha_fallback: 0)
                        : cfpng_rgb8_source(width: width, height: height, channels: 3, bytes_per_pixel: 4,
                                            pixels: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), row_stride: bitmap.rowBytes,
                                            row: unpremultipliedRow, ctx: context, alpha_fallback: 1)
                    return cfpng_encode(cache, &source, &options, &buffer, &error)
                }
            }
            guard code == CFPNG_OK else { throw PNGError(path: path, fastCode: code, error: error) }
            return try body(UnsafeRawBufferPointer(start: buffer.data, count: buffer.size), cfpng_cache_last_repeated(cache) != 0)
        }
        var options = libpngOptions
        var buffer = cpng_buffer()
        defer { cpng_buffer_free(&buffer) }
        var error = cpng_error()
        let code = withExtendedLifetime(rows) {
            bitmap.withUnsafeBytes { bytes in
                var source = alwaysRGBA
                    ? cpng_rgb8_source(width: width, height: height, channels: 4, bytes_per_pixel: 4, pixels: nil,
                                       row_stride: bitmap.rowBytes, row: unpremultipliedRow, ctx: context, alpha_fallback: 0)
                    : cpng_rgb8_source(width: width, height: height, channels: 3, bytes_per_pixel: 4,
                                       pixels: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), row_stride: bitmap.rowBytes,
                                       row: unpremultipliedRow, ctx: context, alpha_fallback: 1)
                return cpng_encode_rgb8(&source, &options, &buffer, &error)
            }
        }
        // The fast encoder's cache must not take its last image for the one before the next.
        cfpng_cache_forget(cache)
        guard code == CPNG_OK else { throw PNGError(path: path, code: code, error: error, encoding: true) }
        return try body(UnsafeRawBufferPointer(start: buffer.data, count: buffer.size), false)
    }
}

/// Supplies straight-alpha rows of a premultiplied bitmap, one at a time, in one row buffer (allocated
/// when the first row is asked for: opaque bitmaps never need it).
private final class UnpremultipliedRows {
    let bitmap: Bitmap
    var row: UnsafeMutablePointer<UInt32>?

    init(_ bitmap: Bitmap) { self.bitmap = bitmap }

    deinit { row?.deallocate() }

    func fill(_ y: Int) -> UnsafePointer<UInt8>? {
        guard y >= 0, y < bitmap.height else { return nil }
        let row = self.row ?? .allocate(capacity: bitmap.width)
        self.row = row
        bitmap.withUnsafeRow(y) { PNGCodec.unpremultiply($0, into: row) }
        return UnsafeRawPointer(row).assumingMemoryBound(to: UInt8.self)
    }
}

private let unpremultipliedRow: @convention(c) (UnsafeMutableRawPointer?, UInt32) -> UnsafePointer<UInt8>? = { context, y in
    guard let context else { return nil }
    return Unmanaged<UnpremultipliedRows>.fromOpaque(context).takeUnretainedValue().fill(Int(y))
}

// MARK: - Errors from the encoders and the shim

extension PNGError {
    /// Maps a shim error code and message.
    init(path: String, code: Int32, error: cpng_error, encoding: Bool) {
        var error = error
        let message = withUnsafeBytes(of: &error.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let kind: Kind
        switch code {
        case CPNG_ERR_NOT_PNG: kind = .notPNG
        case CPNG_ERR_TOO_LARGE: kind = .tooLarge
        case CPNG_ERR_NO_MEMORY: kind = .outOfMemory
        case CPNG_ERR_INVALID_ARGUMENT: kind = .invalidArgument
        case CPNG_ERR_TRUNCATED: kind = .corrupt
        default: kind = encoding ? .encodeFailed : .corrupt  // CPNG_ERR_LIBPNG, CPNG_ERR_CALLBACK
        }
        self.init(path: path, kind: kind, reason: message.isEmpty ? "libpng error \(code)" : message)
    }

    /// Maps an error code and message of the fast encoder (`CFastPNG`).
    init(path: String, fastCode code: Int32, error: cfpng_error) {
        var error = error
        let message = withUnsafeBytes(of: &error.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let kind: Kind
        switch code {
        case CFPNG_ERR_TOO_LARGE: kind = .tooLarge
        case CFPNG_ERR_NO_MEMORY: kind = .outOfMemory
        case CFPNG_ERR_INVALID_ARGUMENT: kind = .invalidArgument
        default: kind = .encodeFailed  // CFPNG_ERR_ZLIB, CFPNG_ERR_CALLBACK
        }
        self.init(path: path, kind: kind, reason: message.isEmpty ? "encoder error \(code)" : message)
    }

    /// Maps a failure to make the output bitmap.
    init(path: String, bitmapError: BitmapError) {
        switch bitmapError {
        case .tooLarge: self.init(path: path, kind: .tooLarge, reason: bitmapError.description)
        default: self.init(path: path, kind: .invalidArgument, reason: bitmapError.description)
        }
    }
}
