import RasterCore

/// How two frames differ: the result of a comparison that did not match.
public struct FrameDifference: Sendable {
    /// Pixels counted as different. For frames of different pixel sizes, every pixel of the larger extent
    /// (the maximum width × the maximum height) counts.
    public var differentPixels: Int
    /// Pixels over the perceptual threshold that were taken for anti-aliasing and not counted (perceptual
    /// mode without `includeAA`); 0 in the other modes.
    public var antialiasedPixels: Int
    /// The largest difference (0…255) of any channel of the straight RGBA8 values among the counted pixels;
    /// 255 for frames of different pixel sizes.
    public var maxChannelDelta: Int
    /// The smallest pixel rectangle holding every counted pixel; `nil` when no pixel is counted (frames that
    /// differ only in scale).
    public var boundingBox: PixelRect?
    /// The pixels compared: width × height, or the larger extent for frames of different sizes.
    public var pixelCount: Int
    /// The diff image (see ``DiffImageStyle``), when the comparison asked for one. For frames of different
    /// sizes it covers the larger extent and is all ``DiffImageStyle/diffColor``.
    public var diffImage: Bitmap?
    /// Why the frames could not be compared as they are, e.g. `size differs: expected 4x4 px, actual 5x4 px`
    /// or `scale differs: expected @2x, actual @3x`; `nil` for an ordinary pixel difference. Frames whose
    /// pixel sizes agree but scales do not are still compared pixel by pixel, and always mismatch.
    public var reason: String?

    /// `differentPixels / pixelCount`, 0…1.
    public var differentFraction: Double { pixelCount > 0 ? Double(differentPixels) / Double(pixelCount) : 0 }

    /// A difference; counts in pixels, the bounding box in pixels or nil when nothing differs.
    public init(differentPixels: Int, antialiasedPixels: Int = 0, maxChannelDelta: Int, boundingBox: PixelRect?,
                pixelCount: Int, diffImage: Bitmap? = nil, reason: String? = nil) {
        self.differentPixels = differentPixels
        self.antialiasedPixels = antialiasedPixels
        self.maxChannelDelta = maxChannelDelta
        self.boundingBox = boundingBox
        self.pixelCount = pixelCount
        self.diffImage = diffImage
        self.reason = reason
    }

    /// One line for people, e.g. `12 of 1600 pixels differ (0.75%), max channel delta 200, in x 3 y 4 w 5 h 2`.
    public var summary: String {
        var parts: [String] = []
        if let reason { parts.append(reason) }
        if reason == nil || differentPixels > 0 {
            let percent = differentFraction * 100
            let shown = percent > 0 && percent < 0.01 ? "<0.01" : String(format2: percent)
            parts.append("\(differentPixels) of \(pixelCount) pixels differ (\(shown)%)")
            parts.append("max channel delta \(maxChannelDelta)")
        }
        if let box = boundingBox { parts.append("in x \(box.x) y \(box.y) w \(box.width) h \(box.height)") }
        if antialiasedPixels > 0 { parts.append("\(antialiasedPixels) anti-aliased pixels not counted") }
        return parts.joined(separator: ", ")
    }
}

extension String {
    /// `value` with two decimals, without Foundation's `String(format:)`.
    init(format2 value: Double) {
        guard value.isFinite else { self = "\(value)"; return }
        let hundredths = Int((value * 100).rounded())
        let whole = hundredths / 100, fraction = hundredths % 100
        self = "\(whole)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
