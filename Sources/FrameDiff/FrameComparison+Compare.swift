import RasterCore

extension FrameComparison {
    /// The largest diff image drawn for frames of different sizes, in pixels (larger ones get none).
    public static let maxMismatchDiffImagePixels = 1 << 24

    /// Compares `actual` with `expected`.
    ///
    /// - Returns: `nil` when the frames match: the same pixel size and scale, and at most
    ///   ``maxDifferentFraction`` of the pixels differ under ``mode``. Otherwise how they differ, with a diff
    ///   image when ``diffImage`` is set. Frames of different pixel sizes or scales never match; the result
    ///   then says why in ``FrameDifference/reason``. Never traps.
    public func compare(_ expected: Bitmap, _ actual: Bitmap) -> FrameDifference? {
        guard expected.width == actual.width, expected.height == actual.height else {
            return sizeMismatch(expected, actual)
        }
        let scaleReason = expected.scale == actual.scale ? nil
            : "scale differs: expected @\(Self.format(expected.scale))x, actual @\(Self.format(actual.scale))x"
        let w = expected.width, h = expected.height, count = w * h

        // Equal buffers: one memcmp, no per-pixel work.
        let identical = expected.withUnsafePixels { e in
            actual.withUnsafePixels { a in PixelKernel.equal(e.baseAddress!, a.baseAddress!, count: count) }
        }
        if identical {
            guard let scaleReason else { return nil }
            return FrameDifference(differentPixels: 0, maxChannelDelta: 0, boundingBox: nil, pixelCount: count, reason: scaleReason)
        }

        let marks: UnsafeMutablePointer<UInt8>? = diffImage == nil ? nil : .allocate(capacity: count)
        marks?.initialize(repeating: PixelMark.same, count: count)
        defer { marks?.deallocate() }

        var differentBytes = 0
        let stats: PixelStats = expected.withUnsafePixels { eb in
            actual.withUnsafePixels { ab in
                let e = eb.baseAddress!, a = ab.baseAddress!
                switch mode {
                case .exact, .tolerance:
                    let tolerance: Int
                    if case .tolerance(let n) = mode { tolerance = Mode.clampedTolerance(n) } else { tolerance = 0 }
                    return PixelKernel.compareChannels(e, a, width: w, height: h, tolerance: tolerance,
                                                       marks: marks, markDarker: diffImage?.diffColorAlt != nil)
                case .perceptual(let threshold, let includeAA):
                    return StraightPixels.with(expected) { se in
                        StraightPixels.with(actual) { sa in
                            PixelKernel.comparePerceptual(e, a, straight: se, sa, width: w, height: h,
                                                          threshold: Mode.clampedThreshold(threshold), includeAA: includeAA, marks: marks)
                        }
                    }
                case .bytes:
                    return PixelKernel.compareChannels(e, a, width: w, height: h, tolerance: 0, marks: marks, markDarker: false,
                                                       differentBytes: &differentBytes)
                case .deltaE1994(let maximum):
                    return PixelKernel.compareDeltaE(e, a, width: w, height: h, maximum: Mode.clampedDeltaE(maximum), marks: marks)
                }
            }
        }

        let (counted, of) = mode == .bytes ? (differentBytes, 4 * count) : (stats.different, count)
        if scaleReason == nil && Double(counted) <= allowedFraction * Double(of) { return nil }

        var image: Bitmap?
        if let style = diffImage, let marks, var canvas = try? Bitmap(width: w, height: h, scale: actual.scale) {
            expected.withUnsafePixels { e in
                canvas.withUnsafeMutablePixels { out in
                    PixelKernel.renderDiff(expected: e.baseAddress!, marks: marks, into: out.baseAddress!, count: count, style: style)
                }
            }
            image = canvas
        }
        return FrameDifference(differentPixels: stats.different, antialiasedPixels: stats.antialiased,
                               maxChannelDelta: stats.maxChannelDelta, boundingBox: stats.boundingBox,
                               pixelCount: count, diffImage: image, reason: scaleReason)
    }

    /// Frames of different pixel sizes: every pixel of the larger extent counts as different.
    private func sizeMismatch(_ expected: Bitmap, _ actual: Bitmap) -> FrameDifference {
        let w = max(expected.width, actual.width), h = max(expected.height, actual.height)
        var reason = "size differs: expected \(expected.width)x\(expected.height) px, actual \(actual.width)x\(actual.height) px"
        if expected.scale != actual.scale {
            reason += "; scale differs: expected @\(Self.format(expected.scale))x, actual @\(Self.format(actual.scale))x"
        }
        var image: Bitmap?
        if let style = diffImage, w * h <= Self.maxMismatchDiffImagePixels {
            image = try? Bitmap(width: w, height: h, scale: actual.scale, fill: PremultipliedRGBA8(packed: style.diffColor.packed))
        }
        return FrameDifference(differentPixels: w * h, maxChannelDelta: 255, boundingBox: PixelRect(x: 0, y: 0, width: w, height: h),
                               pixelCount: w * h, diffImage: image, reason: reason)
    }

    /// `2` for 2.0, `1.5` for 1.5.
    static func format(_ scale: Double) -> String {
        scale == scale.rounded() && abs(scale) < 1e9 ? String(Int(scale)) : String(scale)
    }
}
