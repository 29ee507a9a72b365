extension Painter {
    /// Blends `color` through an 8-bit coverage mask placed at whole device pixels, as a solid fill whose
    /// coverage is given instead of rasterized (for glyphs rendered elsewhere).
    ///
    /// The mask is `width × height` bytes, rows top to bottom `rowStride` bytes apart (default `width`);
    /// 0 is uncovered, 255 fully covered. Its top-left byte lands on device pixel `origin` of the base
    /// bitmap, the pixel space of ``transform`` and ``clipBoundingBox`` (inside a layer too). The current
    /// transform does not apply; the clip (bounds and anti-aliased mask), alpha and blend mode do, with the
    /// same exact rounding as every other fill. Draws nothing when the buffer is smaller than the
    /// dimensions say or a dimension is not positive.
    public func fill(coverageMask mask: UnsafeBufferPointer<UInt8>, width: Int, height: Int, rowStride: Int? = nil,
                     atDevicePixel origin: (x: Int, y: Int), color: Color) {
        fill(coverageMask: mask, width: width, height: height, rowStride: rowStride, atDevicePixel: origin, color: color, excluding: [])
    }

    /// ``fill(coverageMask:width:height:rowStride:atDevicePixel:color:)`` leaving out the device pixels
    /// `excluded` (base device pixels): what something opaque drawn next will cover anyway. Each row leaves
    /// out the widest of the rectangles that hold it (the bars of a cross: a rounded card's inside).
    func fill(coverageMask mask: UnsafeBufferPointer<UInt8>, width: Int, height: Int, rowStride: Int? = nil,
              atDevicePixel origin: (x: Int, y: Int), color: Color, excluding excluded: [PixelRect]) {
        guard let (base, stride, box) = placedMask(mask, width: width, height: height, rowStride: rowStride, at: origin) else { return }
        fillSpans(of: box, from: origin, color: color, excluding: excluded) { row, column, count in
            UnsafeBufferPointer(start: base + row * stride + column, count: count)
        }
    }

    /// Fills `box` (the current target's pixels, placed from `origin` in base device pixels) in `color`, each
    /// span of a row that the clip and `excluded` leave with the coverage `coverage` returns for the span's
    /// row and first column within `box` and its length: that many bytes, read before the next call.
    func fillSpans(of box: PixelRect, from origin: (x: Int, y: Int), color: Color, excluding excluded: [PixelRect],
                   coverage: (_ row: Int, _ column: Int, _ count: Int) -> UnsafeBufferPointer<UInt8>) {
        let x = box.x, y = box.y
        // The excluded pixels in the target's pixels (a layer's offset taken away, as for the mask).
        let skips = excluded.map { PixelRect(x: $0.x + x - origin.x, y: $0.y + y - origin.y, width: $0.width, height: $0.height) }
        fillCoverage(color: color) { _, clip, emit in
            let area = clip.intersection(box)
            guard !area.isEmpty else { return }
            func emitSpan(_ row: Int, _ from: Int, _ to: Int) {
                guard from < to else { return }
                // No run is declared fully covered: glyph masks have few, and the blender stores opaque
                // colour at coverage 255 directly anyway.
                emit(CoverageRasterizer.Row(y: row, x0: from, coverage: coverage(row - y, from - x, to - from), full: from..<from))
            }
            for row in area.minY..<area.maxY {
                // (A loop rather than filter and max: this runs for every row of a shadow.)
                var skip: PixelRect?
                for r in skips where row >= r.minY && row < r.maxY && r.width > (skip?.width ?? 0) { skip = r }
                if let skip, skip.minX < area.maxX, skip.maxX > area.minX {
                    emitSpan(row, area.minX, max(area.minX, skip.minX))
                    emitSpan(row, min(area.maxX, skip.maxX), area.maxX)
                } else {
                    emitSpan(row, area.minX, area.maxX)
                }
            }
        }
    }
}

extension Painter {
    /// Darkens what is already drawn towards black through an 8-bit mask placed at whole device pixels,
    /// keeping every pixel's alpha: Porter-Duff source-atop with black at the mask's coverage, so each
    /// pixel's colour is multiplied by 1 − coverage (rounded to nearest). Shading applied this way lands
    /// only where something is drawn and never changes coverage, so a shape's anti-aliased edge stays as
    /// it was (a black fill over it would darken the pixels outside the shape too).
    ///
    /// The mask is laid out as for ``fill(coverageMask:width:height:rowStride:atDevicePixel:color:)``;
    /// the clip (bounds and anti-aliased mask) and the painter's alpha scale the coverage; the blend mode
    /// does not apply. Draws nothing when the buffer is smaller than the dimensions say.
    public func darken(coverageMask mask: UnsafeBufferPointer<UInt8>, width: Int, height: Int, rowStride: Int? = nil,
                       atDevicePixel origin: (x: Int, y: Int)) {
        guard let (base, stride, box) = placedMask(mask, width: width, height: height, rowStride: rowStride, at: origin) else { return }
        let x = box.x, y = box.y
        let area = state.clipBounds.intersection(box)
        guard !area.isEmpty else { return }
        let a8 = UInt32(alpha8)
        withTargetPixels { pixels, targetWidth, _ in
            for row in area.minY..<area.maxY {
                let start = base + (row - y) * stride + (area.minX - x)
                let source = CoverageRasterizer.Row(y: row, x0: area.minX, coverage: UnsafeBufferPointer(start: start, count: area.width),
                                                    full: area.minX..<area.minX)
                withMaskedCoverage(source) { coverage, _ in
                    let line = pixels + row * targetWidth + area.minX
                    for i in 0..<coverage.count {
                        var c = UInt32(coverage[i])
                        if a8 < 255 { c = PixelMath.div255(c * a8) }
                        guard c > 0 else { continue }
                        let p = line[i]
                        line[i] = (PixelMath.scale(p, by: 255 - c) & 0x00FF_FFFF) | (p & 0xFF00_0000)
                    }
                }
            }
        }
    }
}

extension Painter {
    /// A mask's first byte, its row stride and where it lands in the current target's pixels (the
    /// innermost layer's), from `origin` in the base bitmap's; nil when the buffer is smaller than the
    /// dimensions say, a dimension is not positive, or the arithmetic would overflow.
    func placedMask(_ mask: UnsafeBufferPointer<UInt8>, width: Int, height: Int, rowStride: Int?,
                    at origin: (x: Int, y: Int)) -> (UnsafePointer<UInt8>, Int, PixelRect)? {
        let stride = rowStride ?? width
        guard width > 0, height > 0, stride >= width, let base = mask.baseAddress else { return nil }
        let (last, overflow) = (height - 1).multipliedReportingOverflow(by: stride)
        guard !overflow, last <= mask.count - width else { return nil }
        guard let (x, y) = targetPixel(origin) else { return nil }
        return (base, stride, PixelRect(x: x, y: y, width: width, height: height))
    }

    /// Device pixel `origin` of the base bitmap (the space of ``transform`` and ``clipBoundingBox``) in the
    /// current target's pixels (the innermost layer's); nil when the arithmetic would overflow.
    func targetPixel(_ origin: (x: Int, y: Int)) -> (x: Int, y: Int)? {
        var x = origin.x, y = origin.y
        for layer in layers {
            let (nx, o1) = x.subtractingReportingOverflow(layer.origin.x)
            let (ny, o2) = y.subtractingReportingOverflow(layer.origin.y)
            guard !o1, !o2 else { return nil }
            x = nx; y = ny
        }
        return (x, y)
    }
}
