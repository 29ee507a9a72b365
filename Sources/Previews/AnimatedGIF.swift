import CPreviewShim
import RasterCore

/// An animated GIF from preview frames, through giflib, with one palette of at most 256 colours chosen
/// by libimagequant from every frame (so colours do not shift from frame to frame) and dithered.
///
/// GIF has no partial transparency: frames are composited onto white. Delays are in hundredths of a
/// second, rounded so that the total matches the frame times, and at least 2 (browsers play anything
/// shorter at 10): a 60 fps render plays at 50 fps. The animation loops forever. The same frames give the
/// same bytes.
///
/// Only what changes is stored, as GIF allows: a frame with the pixels of the one before adds its time to
/// that frame's delay, and every other frame after the first is the smallest rectangle holding the pixels
/// that changed, drawn over the frames before it (disposal: none). The palette is chosen from the first
/// frame and those rectangles. A still stretch of a transition (a held pose, a pause between two
/// animations) then costs nothing to quantize or store. Stored frames are drawn twice (colours, then
/// pixels), one at a time.
public enum AnimatedGIF {
    /// The GIF of `frames`; `dithering` 0…1 (default 1), `speed` libimagequant's 1 (best) … 10 (fastest),
    /// default 4.
    public static func encode(_ frames: PreviewFrames, dithering: Double = 1, speed: Int = 4) throws -> [UInt8] {
        guard !frames.times.isEmpty else { throw PreviewError.failed("\(frames.name): no frames to animate") }
        guard frames.pixelWidth <= 65535, frames.pixelHeight <= 65535 else {
            throw PreviewError.failed("\(frames.name): \(frames.pixelWidth)x\(frames.pixelHeight) px is larger than a GIF can be (65535)")
        }
        var loadError = [CChar](repeating: 0, count: 512)
        guard cprev_load(&loadError, loadError.count) == 0 else {
            throw PreviewError.failed("\(frames.name): \(String(decoding: loadError.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        guard let gif = cprev_gif_create(Int32(frames.pixelWidth), Int32(frames.pixelHeight)) else {
            throw PreviewError.failed("\(frames.name): out of memory for the GIF encoder")
        }
        defer { cprev_gif_destroy(gif) }
        var message = [CChar](repeating: 0, count: 256)
        func check(_ code: Int32, _ what: String) throws {
            guard code == 0 else { throw PreviewError.failed("\(frames.name): \(what): \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))") }
        }
        // First pass: which frames are stored, and the colours of what they store.
        let stored = try StoredFrames.walk(frames) { frame, index, rectangle in
            let rgba = straightOnWhite(frame)
            try check(rgba.withUnsafeBufferPointer {
                cprev_gif_add_colors(gif, $0.baseAddress, Int32(rectangle.x), Int32(rectangle.y), Int32(rectangle.width), Int32(rectangle.height),
                                     &message, message.count)
            }, "frame \(index)")
        }
        try check(cprev_gif_choose_palette(gif, Int32(speed), Float(min(1, max(0, dithering))), &message, message.count), "palette")
        let delays = centiseconds(stored.durations(of: frames))
        for ((index, rectangle), delay) in zip(stored.frames, delays) {
            let rgba = try straightOnWhite(frames.frame(index))
            try check(rgba.withUnsafeBufferPointer {
                cprev_gif_add_frame(gif, $0.baseAddress, Int32(rectangle.x), Int32(rectangle.y), Int32(rectangle.width), Int32(rectangle.height),
                                    Int32(delay), &message, message.count)
            }, "frame \(index)")
        }
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        try check(cprev_gif_finish(gif, &data, &size, &message, message.count), "finishing")
        defer { cprev_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Durations (seconds) as GIF delays: the running total rounded to hundredths, each at least 2.
    package static func centiseconds(_ durations: [Double]) -> [Int] {
        // GIF delays are 16-bit: each is at most 655.35 s, and the totals stay far from Int's range.
        var elapsed = 0.0, shown = 0
        return durations.map { d in
            elapsed += d.isFinite ? min(max(0, d), 655.35) : 0
            let target = Int((elapsed * 100).rounded())
            let delay = min(65535, max(2, target - shown))
            shown += delay
            return delay
        }
    }

    /// Straight RGBA8 of `bitmap` composited onto opaque white.
    static func straightOnWhite(_ bitmap: Bitmap) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bitmap.width * bitmap.height * 4) { out, count in
            bitmap.withUnsafePixels { pixels in
                for (i, packed) in pixels.enumerated() {
                    let p = PremultipliedRGBA8(packed: packed)
                    // Premultiplied over white: c + 255 − a (at most 255, as c ≤ a).
                    let cover = 255 - Int(p.a)
                    out[4 * i] = UInt8(min(255, Int(p.r) + cover))
                    out[4 * i + 1] = UInt8(min(255, Int(p.g) + cover))
                    out[4 * i + 2] = UInt8(min(255, Int(p.b) + cover))
                    out[4 * i + 3] = 255
                }
            }
            count = bitmap.width * bitmap.height * 4
        }
    }
}
