import CPreviewShim
import PNGIO
import RasterCore

/// Animated PNG (APNG) from preview frames: libpng on Debian has no APNG API, so each frame is encoded
/// as an ordinary RGBA PNG by the PNG writer and its compressed data is moved into the animation's
/// chunks: `acTL` after `IHDR`, then for each frame an `fcTL` (its delay) and its data, as `IDAT` for
/// the first frame (which is also what a reader without APNG support shows) and `fdAT` for the rest.
///
/// Delays are the frame times' differences in milliseconds (the last frame: one frame interval); the
/// animation loops forever. The same frames give the same bytes.
///
/// Only what changes is stored, as APNG allows: a frame with the pixels of the one before adds its time
/// to that frame's delay, and every other frame after the first is the smallest rectangle holding the
/// pixels that changed, replacing those pixels (blend: source; disposal: none).
public enum AnimatedPNG {
    /// The APNG of `frames`, every frame compressed with `compression`.
    public static func encode(_ frames: PreviewFrames, compression: PNGCompression = .fast) throws -> [UInt8] {
        guard !frames.times.isEmpty else { throw PreviewError.failed("\(frames.name): no frames to animate") }
        // The frames stored, compressed: acTL, which comes first, counts them.
        var header: [Chunk] = [], data: [[Chunk]] = []
        let stored = try StoredFrames.walk(frames) { frame, _, rectangle in
            let part = rectangle == frame.bounds ? frame : try frame.cropped(to: rectangle)
            let chunks = try Self.chunks(of: try PNGCodec.encodeRGBA(part, compression: compression))
            if data.isEmpty {
                guard let ihdr = chunks.first(where: { $0.type == "IHDR" }) else { throw PreviewError.failed("the PNG writer wrote no IHDR") }
                header = [ihdr] + chunks.filter { $0.type == "sRGB" }
            }
            data.append(chunks.filter { $0.type == "IDAT" })
        }
        var output: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        append(chunk: "IHDR", header[0].data, to: &output)
        // acTL: number of frames, plays (0: forever).
        append(chunk: "acTL", be32(UInt32(stored.frames.count)) + be32(0), to: &output)
        for chunk in header.dropFirst() { append(chunk: chunk.type, chunk.data, to: &output) }
        var sequence: UInt32 = 0
        for (k, ((_, rectangle), duration)) in zip(stored.frames, stored.durations(of: frames)).enumerated() {
            // fcTL: sequence, size, offset, delay (ms / 1000), dispose none, blend source.
            // Clamped as a Double first: a delay of any size (even one no Int holds) is at most 65.535 s.
            let milliseconds = UInt16(min(65535, max(0, (duration * 1000).rounded())))
            let control = be32(sequence) + be32(UInt32(rectangle.width)) + be32(UInt32(rectangle.height))
                + be32(UInt32(rectangle.x)) + be32(UInt32(rectangle.y)) + be16(milliseconds) + be16(1000) + [0, 0]
            append(chunk: "fcTL", control, to: &output)
            sequence += 1
            for chunk in data[k] {
                if k == 0 {
                    append(chunk: "IDAT", chunk.data, to: &output)
                } else {
                    append(chunk: "fdAT", be32(sequence) + chunk.data, to: &output)
                    sequence += 1
                }
            }
        }
        append(chunk: "IEND", [], to: &output)
        return output
    }

    package struct Chunk {
        package let type: String
        package let data: [UInt8]
    }

    /// The chunks of a PNG the writer made (its structure is checked, not trusted blindly).
    package static func chunks(of png: [UInt8]) throws -> [Chunk] {
        var chunks: [Chunk] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            guard length >= 0, offset + 12 + length <= png.count else { throw PreviewError.failed("a frame's PNG has a chunk past its end") }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            chunks.append(Chunk(type: type, data: Array(png[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
        }
        return chunks
    }

    static func append(chunk type: String, _ data: [UInt8], to output: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        output += be32(UInt32(data.count)) + typeBytes + data
        var crc = typeBytes.withUnsafeBufferPointer { cprev_crc32(0, $0.baseAddress, $0.count) }
        crc = data.withUnsafeBufferPointer { cprev_crc32(crc, $0.baseAddress, $0.count) }
        output += be32(crc)
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
}
