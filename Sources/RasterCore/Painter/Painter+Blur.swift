import Foundation
import CRasterKernels

extension Painter {
    /// Fills `path` (user space) blurred by a Gaussian whose standard deviation is `sigma` in user-space
    /// units (the transform's scale turns it into pixels), in `color`: a shadow of a known shape. The
    /// coverage is blurred with `crk_blur_mask` (three box blurs each way, within about 3 % of a Gaussian's
    /// peak); a `sigma` under a pixel's worth fills the path sharp. The clip, alpha and blend mode apply.
    ///
    /// `excluding` (base device pixels; each row leaves out the widest rectangle that holds it) is left
    /// unfilled: the part something opaque drawn next covers (a card over its own shadow), which then
    /// costs nothing.
    public func fillBlurred(_ path: Path, sigma: Double, color: Color, excluding: [PixelRect] = []) {
        guard sigma.isFinite, sigma >= 0, color.alpha > 0 else { return }
        let t = state.transform
        let sigmaPixels = min(sigma * abs(t.determinant).squareRoot(), Painter.maxBlurSigma)
        guard sigmaPixels.isFinite else { return }
        guard crk_blur_box_size(sigmaPixels) >= 2 else { fill(path, color: color); return }
        let margin = Int((3 * sigmaPixels).rounded(.up)) + 1
        // The blurred shape over its whole reach, at the transform's whole-pixel offset, is kept between
        // draws: a shadow whose shape and size do not change is blurred once. From minShiftedBlurSigma up it
        // is blurred on its own pixel grid and moved to where it lands within a pixel (BlurredAlpha.shifted),
        // so a moving shadow is blurred once too; a smaller blur is kept for each place within a pixel.
        let wx = t.tx.rounded(.down), wy = t.ty.rounded(.down)
        if abs(wx) < 1e9, abs(wy) < 1e9 {
            var local = t
            local.tx -= wx; local.ty -= wy
            let fraction = sigmaPixels >= Painter.minShiftedBlurSigma ? (x: local.tx, y: local.ty) : (x: 0, y: 0)
            local.tx -= fraction.x; local.ty -= fraction.y
            if let shape = PixelRect(enclosing: local.apply(to: path.controlPointBounds)),
               case let region = shape.grown(by: margin), Painter.fitsBlurBuffer(region) {
                let key = BlurCache.Key(path: path, sigmaPixels: sigmaPixels, transform: local)
                let kept = BlurCache.shared.alpha(for: key) {
                    var mask = coverage(of: path, transform: local, over: region)
                    Painter.blur(&mask, width: region.width, height: region.height, sigmaPixels: sigmaPixels)
                    return BlurredAlpha(mask, covering: region)
                }
                // (In the current target's pixels, as `t` maps to them.)
                if let placed = kept.moved(x: Int(wx), y: Int(wy)), !placed.box.isEmpty {
                    fillMask(placed.bytes, region: placed.box, shiftedBy: fraction, color: color, excluding: excluding)
                }
                return
            }
        }
        // Too large to keep: only what can reach the clip, the shape grown by the blur and the clip grown by
        // it (so that the blur near the clip's edge sees the shape beyond it).
        guard let shape = PixelRect(enclosing: t.apply(to: path.controlPointBounds)) else { return }
        let clip = state.clipBounds
        let region = shape.grown(by: margin).intersection(clip.grown(by: margin))
        guard !region.isEmpty, Painter.fitsBlurBuffer(region) else { return }
        var mask = coverage(of: path, transform: t, over: region)
        fillBlurredMask(&mask, region: region, sigmaPixels: sigmaPixels, color: color)
    }

    /// The coverage of `path` through `transform` (to the current target's pixels) over `region`, row by row.
    private func coverage(of path: Path, transform: Transform2D, over region: PixelRect) -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: region.width * region.height)
        mask.withUnsafeMutableBufferPointer { values in
            rasterizer.rasterizePath(path, transform: transform, within: region) { row in
                let out = values.baseAddress! + (row.y - region.minY) * region.width + (row.x0 - region.minX)
                out.update(from: row.coverage.baseAddress!, count: row.coverage.count)
            }
        }
        return mask
    }

    /// Fills the alpha of `image`, placed with its top-left pixel at device pixel `origin` of the base bitmap
    /// (the space of ``transform`` and ``clipBoundingBox``), blurred by a Gaussian of standard deviation
    /// `sigmaPixels`, in `color`: the shadow of something drawn (its content's alpha). The image is taken
    /// as it is: give it a margin of 3·sigma where the blur should spread. The clip, alpha and blend mode
    /// apply; the transform does not.
    public func fillBlurred(alphaOf image: Bitmap, atDevicePixel origin: (x: Int, y: Int), sigmaPixels: Double, color: Color) {
        guard color.alpha > 0, let alpha = Painter.blurredAlpha(of: image, atDevicePixel: origin, sigmaPixels: sigmaPixels) else { return }
        fill(alpha, color: color)
    }

    /// The alpha of `image`, placed with its top-left pixel at device pixel `origin` of the base bitmap,
    /// blurred by a Gaussian of standard deviation `sigmaPixels` (at most ``maxBlurSigma``): what
    /// ``fillBlurred(alphaOf:atDevicePixel:sigmaPixels:color:)`` fills, made apart so that it can be kept
    /// (``fill(_:color:excluding:)``). Nil when `sigmaPixels` is negative or not finite, or `origin` is
    /// 2⁴⁰ pixels away or more.
    public static func blurredAlpha(of image: Bitmap, atDevicePixel origin: (x: Int, y: Int), sigmaPixels: Double) -> BlurredAlpha? {
        guard sigmaPixels.isFinite, sigmaPixels >= 0, abs(origin.x) < 1 << 40, abs(origin.y) < 1 << 40 else { return nil }
        var mask = [UInt8](repeating: 0, count: image.width * image.height)
        image.withUnsafePixels { pixels in
            for i in 0..<mask.count { mask[i] = UInt8(truncatingIfNeeded: pixels[i] >> 24) }
        }
        blur(&mask, width: image.width, height: image.height, sigmaPixels: min(sigmaPixels, maxBlurSigma))
        return BlurredAlpha(mask, covering: PixelRect(x: origin.x, y: origin.y, width: image.width, height: image.height))
    }

    /// Fills `alpha` in `color`, as coverage, leaving out the device pixels `excluding` (base device pixels;
    /// default none; each row leaves out the widest of the rectangles that hold it): what something opaque
    /// drawn next covers anyway. The clip, alpha and blend mode apply; the transform does not.
    public func fill(_ alpha: BlurredAlpha, color: Color, excluding: [PixelRect] = []) {
        fill(alpha, shiftedBy: 0, 0, color: color, excluding: excluding)
    }

    /// ``fill(_:color:excluding:)`` of `alpha` ``BlurredAlpha/shifted(x:y:)`` by `dx` and `dy` of a pixel: the
    /// same pixels, without the moved alpha. Only what the fill reaches (the clip, less `excluding`) is
    /// moved, a row at a time: a moving shadow is moved every frame, and the opaque card that casts it
    /// leaves most of its box unfilled.
    public func fill(_ alpha: BlurredAlpha, shiftedBy dx: Double, _ dy: Double, color: Color, excluding: [PixelRect] = []) {
        guard color.alpha > 0, !alpha.box.isEmpty, let (x, y) = targetPixel((alpha.box.x, alpha.box.y)),
              abs(x) < 1 << 40, abs(y) < 1 << 40 else { return }
        fillMask(alpha.bytes, region: PixelRect(x: x, y: y, width: alpha.box.width, height: alpha.box.height),
                 shiftedBy: (dx, dy), color: color, excluding: excluding)
    }

    /// The least blur (standard deviation, pixels) whose shadow is blurred once on its own pixel grid and
    /// moved to where it lands within a pixel by bilinear interpolation: 3. From there up a path's shadow is
    /// within 2 levels (of 255) of the shadow blurred where it lands, for sharp shapes too (`ShadowGridTests`:
    /// stars, bars under a pixel wide); a shadow of text within 4 (where it lands its glyphs are placed at
    /// quarter pixels, which the move does not follow). Below it, where edges are sharper (4 levels at 2 px,
    /// 7 at 1 px), a shadow is blurred for each place within a pixel.
    public static let minShiftedBlurSigma = 3.0

    /// The largest blur, pixels: the box blur's widest box (4096) is reached at about this σ.
    public static let maxBlurSigma = 2000.0

    /// The most pixels a blurred mask may have (the backing store's limit: 16 Mi).
    static let maxBlurPixels = 16 << 20

    /// Whether `region` is small enough to blur, without overflow.
    static func fitsBlurBuffer(_ region: PixelRect) -> Bool {
        let (area, overflow) = region.width.multipliedReportingOverflow(by: region.height)
        return !overflow && area <= maxBlurPixels
    }

    /// Blurs `mask` (covering `region` of the current target's pixels) and fills it in `color`.
    private func fillBlurredMask(_ mask: inout [UInt8], region: PixelRect, sigmaPixels: Double, color: Color) {
        Painter.blur(&mask, width: region.width, height: region.height, sigmaPixels: sigmaPixels)
        fillMask(mask, region: region, color: color)
    }

    /// `crk_blur_mask` over a whole mask.
    static func blur(_ mask: inout [UInt8], width: Int, height: Int, sigmaPixels: Double) {
        guard crk_blur_box_size(sigmaPixels) >= 2 else { return }
        var scratch = [UInt8](repeating: 0, count: 2 * max(width, height) + 2)
        mask.withUnsafeMutableBufferPointer { m in
            scratch.withUnsafeMutableBufferPointer { s in
                crk_blur_mask(m.baseAddress!, Int32(width), Int32(height), sigmaPixels, s.baseAddress!)
            }
        }
    }

    /// Fills `mask` (covering `region` of the current target's pixels) moved by a fraction of a pixel in
    /// `color`: ``BlurredAlpha/shifted(x:y:)``'s bytes, made only for the spans the fill reaches.
    private func fillMask(_ mask: [UInt8], region: PixelRect, shiftedBy fraction: (x: Double, y: Double), color: Color,
                          excluding: [PixelRect]) {
        let wx = BlurredAlpha.shiftWeight(fraction.x), wy = BlurredAlpha.shiftWeight(fraction.y)
        guard wx != 0 || wy != 0 else { fillMask(mask, region: region, color: color, excluding: excluding); return }
        let width = region.width, height = region.height
        guard width > 0, height > 0, mask.count >= width * height else { return }
        let box = PixelRect(x: region.x, y: region.y, width: width + 1, height: height + 1)
        mask.withUnsafeBufferPointer { m in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: width + 1) { span in
                fillSpans(of: box, from: baseOrigin(of: region), color: color, excluding: excluding) { row, column, count in
                    crk_shift_span(m.baseAddress!, Int32(width), Int32(height), Int32(row), Int32(column), Int32(column + count), wx, wy, span.baseAddress!)
                    return UnsafeBufferPointer(start: span.baseAddress!, count: count)
                }
            }
        }
    }

    /// Fills `mask` (covering `region` of the current target's pixels) in `color`.
    private func fillMask(_ mask: [UInt8], region: PixelRect, color: Color, excluding: [PixelRect] = []) {
        mask.withUnsafeBufferPointer { m in
            fill(coverageMask: m, width: region.width, height: region.height, atDevicePixel: baseOrigin(of: region), color: color,
                 excluding: excluding)
        }
    }

    /// `region`'s top-left (the current target's pixels) in base device pixels, where a placed fill takes
    /// it (inside a layer the target is offset).
    private func baseOrigin(of region: PixelRect) -> (x: Int, y: Int) {
        let base = clipBoundingBox, target = state.clipBounds
        return (region.x + base.x - target.x, region.y + base.y - target.y)
    }
}

/// A blurred alpha (a shadow's coverage) apart from its fill, so that it can be kept: one byte per pixel of
/// ``box`` (base device pixels), row by row, trimmed to the rows and columns where anything is left (the
/// rest would fill nothing; a ``shifted(x:y:)`` one may keep a last row or column of 0). Made by
/// ``Painter/blurredAlpha(of:atDevicePixel:sigmaPixels:)``, filled by ``Painter/fill(_:color:excluding:)``.
public struct BlurredAlpha: Sendable, Equatable {
    /// The device pixels the bytes cover; empty when nothing is left.
    public let box: PixelRect
    /// One byte per pixel of ``box``, row by row.
    public let bytes: [UInt8]

    private init(box: PixelRect, bytes: [UInt8]) {
        self.box = box
        self.bytes = bytes
    }

    /// The same bytes `x` pixels right and `y` down (nil when the box would leave ±2⁴⁰).
    public func moved(x: Int, y: Int) -> BlurredAlpha? {
        guard abs(x) < 1 << 40, abs(y) < 1 << 40, abs(box.x + x) < 1 << 41, abs(box.y + y) < 1 << 41 else { return nil }
        return BlurredAlpha(box: PixelRect(x: box.x + x, y: box.y + y, width: box.width, height: box.height), bytes: bytes)
    }

    /// The alpha moved right by `dx` and down by `dy` of a pixel (each 0…1, rounded to 1/256; others
    /// clamped, one that is not a number taken as 0) by bilinear interpolation (`crk_shift_mask`): where a
    /// shadow blurred on its layer's own pixel grid lands between device pixels. Itself when both round to 0;
    /// else a pixel wider and taller (an edge row or column may then hold only 0).
    public func shifted(x dx: Double, y dy: Double) -> BlurredAlpha {
        let wx = Self.shiftWeight(dx), wy = Self.shiftWeight(dy)
        guard wx != 0 || wy != 0, !box.isEmpty else { return self }
        let width = box.width + 1, height = box.height + 1
        // (Uninitialized: the kernel writes every byte of `out`, and each scratch row before it reads it. A
        // moving shadow is moved every frame.)
        let out = [UInt8](unsafeUninitializedCapacity: width * height) { o, initialized in
            withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 2 * width) { scratch in
                bytes.withUnsafeBufferPointer { m in
                    crk_shift_mask(m.baseAddress!, Int32(box.width), Int32(box.height), wx, wy, o.baseAddress!, scratch.baseAddress!)
                }
            }
            initialized = width * height
        }
        // (Not trimmed again: an edge row or column the weights round to 0 fills nothing.)
        return BlurredAlpha(box: PixelRect(x: box.x, y: box.y, width: width, height: height), bytes: out)
    }

    /// A move's fraction of a pixel in 1/256 (0…256): clamped to 0…1, rounded, 0 for one that is not a number.
    static func shiftWeight(_ fraction: Double) -> Int32 {
        fraction.isNaN ? 0 : Int32((min(max(fraction, 0), 1) * 256).rounded())
    }

    /// `mask` over `region`, trimmed to its bytes other than 0.
    init(_ mask: [UInt8], covering region: PixelRect) {
        let width = region.width
        var top = region.height, bottom = 0, left = width, right = 0
        mask.withUnsafeBufferPointer { m in
            for row in 0..<region.height {
                let start = row * width
                // (The first and last byte other than 0 in the row.)
                guard let first = (start..<start + width).first(where: { m[$0] != 0 }) else { continue }
                let last = (first..<start + width).last(where: { m[$0] != 0 })!
                top = min(top, row); bottom = row + 1
                left = min(left, first - start); right = max(right, last - start + 1)
            }
        }
        guard top < bottom else {
            box = PixelRect(x: region.x, y: region.y, width: 0, height: 0)
            bytes = []
            return
        }
        box = PixelRect(x: region.x + left, y: region.y + top, width: right - left, height: bottom - top)
        if box == region { bytes = mask; return }
        var trimmed = [UInt8](repeating: 0, count: box.width * box.height)
        for row in 0..<box.height {
            let from = (top + row) * width + left
            trimmed.replaceSubrange(row * box.width..<(row + 1) * box.width, with: mask[from..<from + box.width])
        }
        bytes = trimmed
    }
}

/// Blurred coverage of paths, kept between draws and frames (shadows whose shape does not change), shared
/// by every painter: the last 32, at most 64 MiB together, made once however many threads ask.
final class BlurCache: @unchecked Sendable {
    static let shared = BlurCache()

    struct Key: Hashable {
        var path: Path
        var sigmaPixels: Double
        /// The transform to pixels, with a translation under one pixel (none from
        /// ``Painter/minShiftedBlurSigma`` up).
        var transform: Transform2D
    }

    private let lock = NSLock()
    private var alphas: [Key: BlurredAlpha] = [:]
    private var order: [Key] = []
    private var bytes = 0
    static let maxEntries = 32
    static let maxBytes = 64 << 20

    /// The blurred alpha for `key`, made by `make` (outside the lock) when it is not kept.
    func alpha(for key: Key, make: () -> BlurredAlpha) -> BlurredAlpha {
        if let kept = lock.withLock({ alphas[key] }) { return kept }
        let made = make()
        lock.withLock {
            guard alphas[key] == nil, made.bytes.count <= Self.maxBytes else { return }
            alphas[key] = made
            order.append(key)
            bytes += made.bytes.count
            while order.count > Self.maxEntries || bytes > Self.maxBytes, let oldest = order.first {
                order.removeFirst()
                bytes -= alphas.removeValue(forKey: oldest)?.bytes.count ?? 0
            }
        }
        return made
    }
}
