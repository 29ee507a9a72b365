import CRasterKernels

extension Painter {
    /// Intersects the clip with a rectangle in user space. A pixel-aligned rectangle (after the
    /// transform) just narrows the clip bounds; anything else makes an anti-aliased mask.
    public func clip(to rect: Rect) {
        let t = state.transform
        if t.preservesAxisAlignment {
            let device = t.apply(to: rect)
            guard device.isFinite, !device.isEmpty else { state.clipBounds = .init(x: 0, y: 0, width: 0, height: 0); return }
            if device.integral == device.standardized, let box = PixelRect(enclosing: device) {
                state.clipBounds = state.clipBounds.intersection(box)
                if var mask = state.mask { mask = mask.restricted(to: state.clipBounds); state.mask = mask }
                return
            }
            intersectMask(shapeBounds: device) { raster, clip, emit in raster.rasterizeRect(device, within: clip, emit) }
        } else {
            clip(to: Path(rect: rect))
        }
    }

    /// Intersects the clip with whole device pixels of the base bitmap (the space of
    /// ``clipBoundingBox``). Exact and cheap: no mask is made. Useful to bound a transparency layer to
    /// what will be drawn in it.
    public func clip(toPixels rect: PixelRect) {
        var local = rect
        for layer in layers { local.x = local.x &- layer.origin.x; local.y = local.y &- layer.origin.y }
        state.clipBounds = state.clipBounds.intersection(local)
        if let mask = state.mask { state.mask = mask.restricted(to: state.clipBounds) }
    }

    /// Intersects the clip with a path in user space (non-zero winding), anti-aliased.
    public func clip(to path: Path) {
        let t = state.transform
        intersectMask(shapeBounds: t.apply(to: path.controlPointBounds)) { raster, clip, emit in
            raster.rasterizePath(path, transform: t, within: clip, emit)
        }
    }

    /// Intersects the clip with the alpha of `image` placed with its top-left pixel at device pixel `origin`
    /// of the base bitmap (the space of ``transform`` and ``clipBoundingBox``, inside a layer too): what is
    /// drawn afterwards is multiplied by that alpha, 0 outside the image (Core Animation's layer mask). The
    /// current transform does not apply. Image and clip alpha combine with the same rounding as two
    /// anti-aliased clips.
    public func clip(toAlphaOf image: Bitmap, atDevicePixel origin: (x: Int, y: Int)) {
        guard let (x, y) = targetPixel(origin), abs(x) < 1 << 40, abs(y) < 1 << 40 else {
            state.clipBounds = PixelRect(x: state.clipBounds.x, y: state.clipBounds.y, width: 0, height: 0)
            state.mask = nil
            return
        }
        let placed = Rect(x: Double(x), y: Double(y), width: Double(image.width), height: Double(image.height))
        let width = image.width
        image.withUnsafePixels { pixels in
            intersectMask(shapeBounds: placed) { _, clip, emit in
                let area = clip.intersection(PixelRect(x: x, y: y, width: image.width, height: image.height))
                guard !area.isEmpty else { return }
                var alpha = [UInt8](repeating: 0, count: area.width)
                for row in area.minY..<area.maxY {
                    let source = pixels.baseAddress! + (row - y) * width + (area.minX - x)
                    for i in 0..<area.width { alpha[i] = UInt8(truncatingIfNeeded: source[i] >> 24) }
                    alpha.withUnsafeBufferPointer { a in
                        emit(CoverageRasterizer.Row(y: row, x0: area.minX, coverage: a, full: area.minX..<area.minX))
                    }
                }
            }
        }
    }

    /// Replaces the mask by (old mask or bounds) × the new shape's coverage, and shrinks the bounds to
    /// the rows and columns the shape reaches. `shapeBounds` (device pixels) contains the shape; the new
    /// mask never extends past it.
    private func intersectMask(shapeBounds: Rect, _ rasterize: (CoverageRasterizer, PixelRect, (CoverageRasterizer.Row) -> Void) -> Void) {
        var bounds = state.clipBounds
        if let shape = PixelRect(enclosing: shapeBounds) { bounds = bounds.intersection(shape) }
        guard !bounds.isEmpty else {
            state.clipBounds = PixelRect(x: state.clipBounds.x, y: state.clipBounds.y, width: 0, height: 0)
            state.mask = nil
            return
        }
        var mask = ClipMask(box: bounds)
        var reached = (minX: Int.max, minY: Int.max, maxX: Int.min, maxY: Int.min)
        let old = state.mask
        mask.values.withUnsafeMutableBufferPointer { values in
            rasterize(rasterizer, bounds) { row in
                let out = values.baseAddress! + (row.y - bounds.minY) * bounds.width + (row.x0 - bounds.minX)
                let count = row.coverage.count
                if let old {
                    // The coverage times the old mask (PixelMath.div255), where the old mask's box holds the
                    // row: outside it the old mask is 0, and so is the new one, which starts zeroed.
                    let y = row.y - old.box.minY
                    let lo = max(row.x0, old.box.minX), hi = min(row.x0 + count, old.box.maxX)
                    if y >= 0, y < old.box.height, lo < hi {
                        old.values.withUnsafeBufferPointer { previous in
                            crk_multiply_coverage(out + (lo - row.x0), row.coverage.baseAddress! + (lo - row.x0),
                                                  previous.baseAddress! + y * old.box.width + (lo - old.box.minX), Int32(hi - lo))
                        }
                    }
                } else if count > 0 {
                    // The mask starts zeroed, so the row's coverage is the mask row as it is.
                    out.update(from: row.coverage.baseAddress!, count: count)
                }
                // The first and last pixels left covered.
                var first = 0, last = count - 1
                while first < count, out[first] == 0 { first += 1 }
                while last > first, out[last] == 0 { last -= 1 }
                if first < count {
                    reached = (min(reached.minX, row.x0 + first), min(reached.minY, row.y),
                               max(reached.maxX, row.x0 + last + 1), max(reached.maxY, row.y + 1))
                }
            }
        }
        guard reached.minX < reached.maxX else {
            state.clipBounds = PixelRect(x: bounds.x, y: bounds.y, width: 0, height: 0)
            state.mask = nil
            return
        }
        let box = PixelRect(x: reached.minX, y: reached.minY, width: reached.maxX - reached.minX, height: reached.maxY - reached.minY)
        state.clipBounds = box
        state.mask = mask.restricted(to: box)
    }
}

extension ClipMask {
    /// The same mask over a smaller box (pixels outside the new box are dropped).
    func restricted(to newBox: PixelRect) -> ClipMask {
        let b = newBox.intersection(box)
        if b == box { return self }
        var out = ClipMask(box: b)
        values.withUnsafeBufferPointer { src in
            out.values.withUnsafeMutableBufferPointer { dst in
                for y in 0..<b.height {
                    let from = src.baseAddress! + (b.minY + y - box.minY) * box.width + (b.minX - box.minX)
                    (dst.baseAddress! + y * b.width).update(from: from, count: b.width)
                }
            }
        }
        return out
    }
}
