import CRasterKernels

/// The inner loops: blend one row of coverage with a solid colour or with source pixels.
///
/// Each loop splits its row into the part with per-pixel coverage and the run known to be fully
/// covered, so flat interiors take the cheapest path: a plain store for opaque colour. The blending
/// itself runs in `CRasterKernels`, four pixels at a time where the processor allows; copy mode stays
/// here.
enum RowBlender {
    /// Blends `color` (premultiplied, packed) into `dst[0..<coverage.count]`. `full` is the sub-range of
    /// indices whose coverage is 255.
    static func solid(_ dst: UnsafeMutablePointer<UInt32>, coverage: UnsafeBufferPointer<UInt8>, full: Range<Int>,
                      color: UInt32, mode: BlendMode) {
        let count = coverage.count
        let fullStart = min(max(full.lowerBound, 0), count), fullEnd = max(min(full.upperBound, count), fullStart)
        partial(dst, coverage, 0..<fullStart, color, mode)
        if fullStart < fullEnd { solidRun(dst + fullStart, count: fullEnd - fullStart, color: color, mode: mode) }
        partial(dst, coverage, fullEnd..<count, color, mode)
    }

    @inline(__always)
    private static func partial(_ dst: UnsafeMutablePointer<UInt32>, _ coverage: UnsafeBufferPointer<UInt8>,
                                _ range: Range<Int>, _ color: UInt32, _ mode: BlendMode) {
        switch mode {
        case .sourceOver:
            guard !range.isEmpty else { return }
            // The colour scaled by each pixel's coverage, then source-over, four pixels at a time.
            crk_solid_over_coverage(dst + range.lowerBound, color, coverage.baseAddress! + range.lowerBound, Int32(range.count))
        case .copy:
            for i in range {
                let c = UInt32(coverage[i])
                if c == 0 { continue }
                dst[i] = c == 255 ? color : PixelMath.lerp(color, dst[i], c)
            }
        }
    }

    /// A fully covered run of one colour.
    static func solidRun(_ dst: UnsafeMutablePointer<UInt32>, count: Int, color: UInt32, mode: BlendMode) {
        if mode == .copy || color >> 24 == 255 {
            dst.update(repeating: color, count: count)
            return
        }
        if color == 0 { return }
        // Four pixels at a time (the portable version remembers the last result, as flat UI repeats
        // destination pixels).
        crk_solid_over(dst, color, Int32(count))
    }

    /// Blends source pixels `src[0..<count]` into `dst`, each scaled by `coverage[i]` (nil: 255) times
    /// `opacity / 255`.
    static func pixels(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, count: Int,
                       coverage: UnsafePointer<UInt8>?, opacity: UInt32, mode: BlendMode) {
        switch mode {
        case .sourceOver:
            if coverage == nil && opacity == 255 {
                // Opaque groups stored, empty groups skipped, the rest blended four at a time.
                crk_source_over(dst, src, Int32(count))
                return
            }
            // f = coverage × opacity; s = src × f; then source-over, four pixels at a time.
            crk_source_over_scaled(dst, src, coverage, opacity, Int32(count))
        case .copy:
            for i in 0..<count {
                var f = opacity
                if let coverage { f = PixelMath.div255(UInt32(coverage[i]) &* opacity) }
                if f == 0 { continue }
                dst[i] = f == 255 ? src[i] : PixelMath.lerp(src[i], dst[i], f)
            }
        }
    }
}
