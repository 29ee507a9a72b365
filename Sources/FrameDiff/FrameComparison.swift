import RasterCore

/// How two frames are compared: the per-pixel test, how many differing pixels are allowed, and how the
/// diff image is drawn.
///
/// Every test works on the straight (un-premultiplied) RGBA8 values a frame has in its PNG file, converted
/// exactly as the PNG writer converts them (`round(c * 255 / a)`, transparent pixels 0,0,0,0). So a
/// comparison of two bitmaps gives the same answer as a comparison of the PNG files they are written to.
///
/// Out-of-range values never trap: they are clamped where they are used (see each property).
public struct FrameComparison: Hashable, Sendable, CustomStringConvertible {
    /// The per-pixel test.
    public enum Mode: Hashable, Sendable {
        /// A pixel differs when any byte of it differs. Equal buffers are found with one `memcmp` and no
        /// per-pixel work.
        case exact
        /// A pixel differs when any channel (R, G, B or A, 0…255) differs by more than `perChannel`.
        /// Clamped to 0…255; 0 is the same as ``exact``.
        case tolerance(perChannel: Int)
        /// pixelmatch's test as in its 5.x releases: a pixel differs when the squared YIQ distance of the
        /// two colours, each blended onto white by its alpha, is over `35215 · threshold²`, and it is not
        /// taken for anti-aliasing (pixelmatch's `antialiased`/`hasManySiblings` test in either frame)
        /// unless `includeAA` is true. `threshold` is clamped to 0…1 (NaN means the default, 0.1);
        /// smaller is more sensitive.
        ///
        /// The tests compare counts (5 image pairs × 5 thresholds × includeAA on and off) and diff images
        /// with pixelmatch-py 0.4.0, a Python port of pixelmatch 5.x, run on the same PNG files
        /// (`Tests/FrameDiffTests/Fixtures`). pixelmatch 7 blends semi-transparent pixels onto a
        /// checkerboard instead of white, so its counts differ where alpha is below 255.
        case perceptual(threshold: Double, includeAA: Bool)
        /// swift-snapshot-testing's `precision` alone: a pixel differs when any byte of it differs (straight
        /// RGBA, as the PNG stores it), but the frames match when the differing *bytes* (R, G, B and A
        /// counted apart) are at most ``FrameComparison/maxDifferentFraction`` of all bytes.
        case bytes
        /// swift-snapshot-testing's `perceptualPrecision`: a pixel differs when the CIE ΔE 1994 distance
        /// of the two colours (graphic-arts weights, the expected pixel as the reference, each composited
        /// onto white) is over `maximum` (0…100; 2 is about what an eye notices). Core Image's
        /// `CILabDeltaE`, which swift-snapshot-testing uses on Apple's platforms, is documented as the same
        /// measure; its colour conversion may differ in the last decimals.
        case deltaE1994(maximum: Double)
    }

    /// The per-pixel test; default ``Mode/exact``.
    public var mode: Mode
    /// The fraction of a frame's pixels (0…1) that may differ while the frames still match; default 0 (any
    /// differing pixel is a mismatch). The frames match when `differentPixels <= fraction × pixelCount`.
    /// Clamped to 0…1; NaN means 0.
    public var maxDifferentFraction: Double
    /// How to draw the diff image of a mismatch; `nil` draws none (faster). Default `DiffImageStyle()`,
    /// pixelmatch's defaults.
    public var diffImage: DiffImageStyle?

    /// Creates a comparison.
    /// - Parameters:
    ///   - mode: the per-pixel test; default ``Mode/exact``.
    ///   - maxDifferentFraction: the fraction of pixels (0…1) allowed to differ; default 0.
    ///   - diffImage: the diff image style, or `nil` for no diff image; default pixelmatch's style.
    public init(mode: Mode = .exact, maxDifferentFraction: Double = 0, diffImage: DiffImageStyle? = DiffImageStyle()) {
        self.mode = mode
        self.maxDifferentFraction = maxDifferentFraction
        self.diffImage = diffImage
    }

    /// Byte-for-byte equality, no differing pixel allowed.
    public static let exact = FrameComparison()

    /// Per-channel tolerance: a pixel differs when a channel differs by more than `perChannel` (0…255).
    /// - Parameter perChannel: the largest channel difference (0…255) that still counts as equal.
    /// - Parameter maxDifferentFraction: fraction of pixels (0…1) allowed to differ; default 0.
    public static func tolerance(_ perChannel: Int, maxDifferentFraction: Double = 0) -> FrameComparison {
        FrameComparison(mode: .tolerance(perChannel: perChannel), maxDifferentFraction: maxDifferentFraction)
    }

    /// pixelmatch's perceptual test.
    /// - Parameters:
    ///   - threshold: 0…1, default 0.1 (pixelmatch's default).
    ///   - includeAA: count pixels taken for anti-aliasing too; default false.
    ///   - maxDifferentFraction: fraction of pixels (0…1) allowed to differ; default 0.
    public static func perceptual(threshold: Double = 0.1, includeAA: Bool = false, maxDifferentFraction: Double = 0) -> FrameComparison {
        FrameComparison(mode: .perceptual(threshold: threshold, includeAA: includeAA), maxDifferentFraction: maxDifferentFraction)
    }

    /// swift-snapshot-testing's image comparison, with its parameters' meanings: `precision` is the share
    /// of pixels (0…1) that must match, `perceptualPrecision` how close (0…1) a pixel's colour must be to
    /// match, as `1 − ΔE₁₉₉₄ / 100`. Both 1 (the default): exact. `perceptualPrecision` 1 with a lower
    /// `precision`: at most `1 − precision` of the *bytes* may differ (``Mode/bytes``), as there. Otherwise
    /// a pixel matches when ΔE ≤ `(1 − perceptualPrecision) × 100` (``Mode/deltaE1994(maximum:)``) and at
    /// most `1 − precision` of the pixels may fail. Values are clamped to 0…1.
    public static func snapshotTesting(precision: Float = 1, perceptualPrecision: Float = 1) -> FrameComparison {
        // As the decimals written (0.99 is 0.99, not Float's 0.99000001), the results rounded to 10⁻⁹, so
        // that `precision: 0.99` allows exactly 1 % and `perceptualPrecision: 0.98` a ΔE of exactly 2.
        func decimal(_ value: Float) -> Double { value.isNaN ? 1 : min(1, max(0, Double("\(value)") ?? Double(value))) }
        func rounded(_ value: Double) -> Double { (value * 1e9).rounded() / 1e9 }
        let precision = decimal(precision), perceptual = decimal(perceptualPrecision)
        if precision >= 1, perceptual >= 1 { return .exact }
        if perceptual >= 1 { return FrameComparison(mode: .bytes, maxDifferentFraction: rounded(1 - precision)) }
        return FrameComparison(mode: .deltaE1994(maximum: rounded((1 - perceptual) * 100)), maxDifferentFraction: rounded(1 - precision))
    }

    /// `maxDifferentFraction` clamped to 0…1 (NaN → 0).
    var allowedFraction: Double {
        maxDifferentFraction.isNaN ? 0 : min(1, max(0, maxDifferentFraction))
    }

    public var description: String {
        var text: String
        switch mode {
        case .exact: text = "exact"
        case .tolerance(let n): text = "tolerance \(Mode.clampedTolerance(n)) per channel"
        case .perceptual(let t, let aa):
            text = "perceptual, threshold \(Mode.clampedThreshold(t))" + (aa ? ", anti-aliased pixels included" : "")
        case .bytes: text = "any differing byte"
        case .deltaE1994(let maximum): text = "ΔE 1994 over \(Mode.clampedDeltaE(maximum))"
        }
        if allowedFraction > 0 { text += ", up to \(allowedFraction * 100)% of \(mode == .bytes ? "bytes" : "pixels") may differ" }
        return text
    }
}

extension FrameComparison.Mode {
    static func clampedTolerance(_ n: Int) -> Int { min(255, max(0, n)) }
    static func clampedThreshold(_ t: Double) -> Double { t.isNaN ? 0.1 : min(1, max(0, t)) }
    static func clampedDeltaE(_ d: Double) -> Double { d.isNaN ? 0 : min(100, max(0, d)) }
}

/// An opaque 8-bit sRGB colour used to mark pixels in a diff image.
public struct DiffColor: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0…255.
    public var red: UInt8
    /// Green, 0…255.
    public var green: UInt8
    /// Blue, 0…255.
    public var blue: UInt8

    /// An opaque colour.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red; self.green = green; self.blue = blue
    }

    /// (255, 0, 0): pixelmatch's `diffColor`.
    public static let red = DiffColor(red: 255, green: 0, blue: 0)
    /// (255, 255, 0): pixelmatch's `aaColor`.
    public static let yellow = DiffColor(red: 255, green: 255, blue: 0)

    /// The colour as an opaque packed pixel (R in the low byte).
    var packed: UInt32 { UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | 0xFF00_0000 }

    public var description: String { "rgb(\(red), \(green), \(blue))" }
}

/// How a diff image is drawn; the options and defaults are pixelmatch's.
///
/// The diff image has the frames' size. Pixels counted as different are painted ``diffColor`` (or
/// ``diffColorAlt`` where the actual frame is darker); pixels taken for anti-aliasing (perceptual mode) are
/// painted ``aaColor``; every other pixel is the expected frame's brightness, faded towards white:
/// `255 + (Y − 255) · alpha · a / 255` with Y = 0.29889531 R + 0.58662247 G + 0.11448223 B of the
/// straight colour, truncated to a byte like pixelmatch writing into a Node `Buffer`. All of these are opaque.
public struct DiffImageStyle: Hashable, Sendable {
    /// Opacity (0…1) of the faded grayscale copy of the expected frame; default 0.1. Clamped; NaN → 0.1.
    public var alpha: Double
    /// Colour of pixels taken for anti-aliasing; default (255, 255, 0).
    public var aaColor: DiffColor
    /// Colour of differing pixels; default (255, 0, 0).
    public var diffColor: DiffColor
    /// pixelmatch 6's alternative colour for differing pixels that are darker in the actual frame (lower Y
    /// after blending onto white); `nil` (default) uses ``diffColor`` for all.
    public var diffColorAlt: DiffColor?
    /// Draw only the differing pixels, on a transparent background (no grayscale copy, no anti-aliasing
    /// marks); default false.
    public var diffMask: Bool

    /// pixelmatch's defaults: the expected image faded to 10%, anti-aliased pixels yellow, differing ones red.
    public init(alpha: Double = 0.1, aaColor: DiffColor = .yellow, diffColor: DiffColor = .red,
                diffColorAlt: DiffColor? = nil, diffMask: Bool = false) {
        self.alpha = alpha
        self.aaColor = aaColor
        self.diffColor = diffColor
        self.diffColorAlt = diffColorAlt
        self.diffMask = diffMask
    }

    /// `alpha` clamped to 0…1 (NaN → 0.1).
    var clampedAlpha: Double { alpha.isNaN ? 0.1 : min(1, max(0, alpha)) }
}
