import CRasterKernels

extension Painter {
    /// Fills a rectangle given in user space. Axis-aligned rectangles (after the transform) get exact
    /// area coverage directly; rotated or sheared ones go through the path rasterizer.
    public func fill(_ rect: Rect, color: Color) {
        let t = state.transform
        if t.preservesAxisAlignment {
            let device = t.apply(to: rect)
            fillCoverage(color: color) { raster, clip, emit in raster.rasterizeRect(device, within: clip, emit) }
        } else {
            fill(Path(rect: rect), color: color)
        }
    }

    /// Fills a path given in user space (subpaths are closed implicitly). `rule` defaults to non-zero.
    public func fill(_ path: Path, color: Color, rule: FillRule = .nonZero) {
        let t = state.transform
        fillCoverage(color: color) { raster, clip, emit in raster.rasterizePath(path, transform: t, within: clip, rule: rule, emit) }
    }

    /// Strokes a path given in user space with `style` (widths and dash lengths in points): its outline
    /// (``Path/strokeOutline(_:tolerance:)``, flattened to a tenth of a device pixel under the current
    /// transform, so a stretched transform stretches the line as Core Graphics does) filled non-zero.
    public func stroke(_ path: Path, style: StrokeStyle, color: Color) {
        guard style.strokesSomething else { return }
        let stretch = state.transform.largestStretch
        guard stretch > 0, stretch.isFinite else { return }
        fill(path.strokeOutline(style, tolerance: CoverageRasterizer.flatteningTolerance / stretch), color: color)
    }

    /// Fills a rounded rectangle; radii are fitted to the rectangle (see `CornerRadii.fitted(to:)`), the
    /// corners shaped by `curve` (default circular).
    public func fill(roundedRect rect: Rect, cornerRadii: CornerRadii, curve: CornerCurve = .circular, color: Color) {
        if cornerRadii.fitted(to: rect.size).isZero { fill(rect, color: color) } else {
            fill(Path(roundedRect: rect, cornerRadii: cornerRadii, curve: curve), color: color)
        }
    }

    /// Fills the ellipse inscribed in `rect`.
    public func fill(ellipseIn rect: Rect, color: Color) { fill(Path(ellipseIn: rect), color: color) }

    /// Strokes the border of a rectangle or rounded rectangle inside its bounds, as CALayer draws
    /// `borderWidth`: the band between the rectangle and the rectangle inset by `width` (points), whose
    /// corner radii are the outer radii less `width` (at least 0). A width of half the shorter side or
    /// more fills the shape. `curve` (default circular) shapes both the outer and the inner corners.
    public func strokeBorder(of rect: Rect, width: Double, cornerRadii: CornerRadii = .zero, curve: CornerCurve = .circular, color: Color) {
        guard width.isFinite, width > 0, !rect.isNull else { return }
        let outer = rect.standardized
        let radii = cornerRadii.fitted(to: outer.size)
        var path = Path(roundedRect: outer, cornerRadii: radii, curve: curve)
        let inner = outer.insetBy(dx: width, dy: width)
        if !inner.isEmpty {
            let innerRadii = CornerRadii(topLeft: max(0, radii.topLeft - width), topRight: max(0, radii.topRight - width),
                                         bottomRight: max(0, radii.bottomRight - width), bottomLeft: max(0, radii.bottomLeft - width))
            path.addRoundedRect(inner, cornerRadii: innerRadii, curve: curve, clockwise: false)
        }
        fill(path, color: color)
    }

    /// Blends a solid colour through the coverage rows a rasterizer produces inside the clip.
    func fillCoverage(color: Color, _ rasterize: (CoverageRasterizer, PixelRect, (CoverageRasterizer.Row) -> Void) -> Void) {
        let packed = fillPixel(color)
        if packed == 0 && state.blendMode == .sourceOver { return }
        let mode = state.blendMode, clip = state.clipBounds
        withTargetPixels { pixels, width, _ in
            rasterize(rasterizer, clip) { row in
                self.withMaskedCoverage(row) { coverage, full in
                    RowBlender.solid(pixels + row.y * width + row.x0, coverage: coverage, full: full, color: packed, mode: mode)
                }
            }
        }
    }

    /// The premultiplied pixel a fill of `color` blends at full coverage: the colour times the painter's alpha.
    private func fillPixel(_ color: Color) -> UInt32 {
        let packed = color.premultiplied.packed, a8 = alpha8
        return a8 < 255 ? PixelMath.scale(packed, by: a8) : packed
    }

    /// Multiplies a row's coverage by the clip mask, if there is one. `full` in the body is relative to
    /// the row's first pixel.
    func withMaskedCoverage(_ row: CoverageRasterizer.Row, _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Void) {
        guard let mask = state.mask else {
            let lo = row.full.lowerBound - row.x0, hi = row.full.upperBound - row.x0
            body(row.coverage, max(0, lo)..<max(max(0, lo), hi))
            return
        }
        let count = row.coverage.count
        if maskedCoverage.count < count { maskedCoverage = [UInt8](repeating: 0, count: count) }
        maskedCoverage.withUnsafeMutableBufferPointer { out in
            let o = out.baseAddress!
            // Only the span inside the mask's box can be non-zero.
            let y = row.y - mask.box.minY
            let lo = max(row.x0, mask.box.minX), hi = min(row.x0 + count, mask.box.maxX)
            guard y >= 0, y < mask.box.height, lo < hi else {
                o.update(repeating: 0, count: count)
                body(UnsafeBufferPointer(start: o, count: count), 0..<0)
                return
            }
            o.update(repeating: 0, count: lo - row.x0)
            (o + (hi - row.x0)).update(repeating: 0, count: row.x0 + count - hi)
            mask.values.withUnsafeBufferPointer { values in
                let m = values.baseAddress! + y * mask.box.width + (lo - mask.box.minX)
                let c = row.coverage.baseAddress! + (lo - row.x0), d = o + (lo - row.x0)
                crk_multiply_coverage(d, c, m, Int32(hi - lo))
            }
            body(UnsafeBufferPointer(rebasing: out[0..<count]), 0..<0)
        }
    }
}

// MARK: Folding a translucent fill into the fills under it

extension Painter {
    /// ``fill(_:color:)`` of a rectangle the transform keeps axis-aligned, everywhere but the pixels of
    /// `excluded` (base bitmap pixels), which are left as they are; every other pixel gets exactly what the
    /// whole fill gives it (the coverage of a pixel does not depend on its neighbours). Returns false,
    /// drawing nothing, when the transform turns the rectangle.
    package func fill(_ rect: Rect, color: Color, excluding excluded: PixelRegion) -> Bool {
        let t = state.transform
        guard t.preservesAxisAlignment else { return false }
        guard !excluded.isEmpty, let (lx, ly) = targetPixel((0, 0)) else { fill(rect, color: color); return true }
        let device = t.apply(to: rect)
        let packed = fillPixel(color)
        if packed == 0 && state.blendMode == .sourceOver { return true }
        let mode = state.blendMode, clip = state.clipBounds
        // The bands flattened once (rows arrive top to bottom, so a cursor finds each row's band), so that
        // no row copies an array.
        let bands = excluded.bands
        let bandRows = bands.map { ($0.minY + ly, $0.maxY + ly) }
        var spanStart = [0], spanEdges: [Int] = []
        for band in bands {
            for span in band.spans { spanEdges.append(span.lowerBound + lx); spanEdges.append(span.upperBound + lx) }
            spanStart.append(spanEdges.count / 2)
        }
        var band = 0
        withTargetPixels { pixels, width, _ in
            rasterizer.rasterizeRect(device, within: clip) { row in
                while band < bandRows.count && bandRows[band].1 <= row.y { band += 1 }
                let spans = band < bandRows.count && bandRows[band].0 <= row.y ? spanStart[band]..<spanStart[band + 1] : 0..<0
                self.withMaskedCoverage(row) { coverage, full in
                    let line = pixels + row.y * width
                    // The row's pixels outside the excluded spans, in runs.
                    var x = row.x0
                    let end = row.x0 + coverage.count
                    func blend(_ a: Int, _ b: Int) {
                        guard a < b else { return }
                        let offset = a - row.x0
                        RowBlender.solid(line + a, coverage: UnsafeBufferPointer(rebasing: coverage[offset..<(b - row.x0)]),
                                         full: (full.lowerBound - offset)..<(full.upperBound - offset), color: packed, mode: mode)
                    }
                    for k in spans {
                        let a = spanEdges[2 * k], b = spanEdges[2 * k + 1]
                        if b <= x { continue }
                        if a >= end { break }
                        blend(x, min(a, end))
                        x = max(x, b)
                    }
                    blend(x, end)
                }
            }
        }
        return true
    }

    /// Stores `pixel` (premultiplied, packed) into every pixel of `region` (base bitmap pixels) inside the
    /// clip's bounds: no coverage, no blending, no alpha. For pixels a caller knows the value of.
    package func store(_ pixel: UInt32, in region: PixelRegion) {
        guard !region.isEmpty, let (lx, ly) = targetPixel((0, 0)) else { return }
        let clip = state.clipBounds
        withTargetPixels { pixels, width, _ in
            for band in region.bands {
                let y0 = max(band.minY + ly, clip.minY), y1 = min(band.maxY + ly, clip.maxY)
                guard y0 < y1 else { continue }
                for span in band.spans {
                    let x0 = max(span.lowerBound + lx, clip.minX), x1 = min(span.upperBound + lx, clip.maxX)
                    guard x0 < x1 else { continue }
                    for y in y0..<y1 { (pixels + y * width + x0).update(repeating: pixel, count: x1 - x0) }
                }
            }
        }
    }

    /// What ``fill(_:color:)`` leaves at a fully covered pixel holding `pixel`, with the painter as it is:
    /// the same arithmetic, on one pixel.
    package func filled(_ pixel: UInt32, with color: Color) -> UInt32 {
        let packed = fillPixel(color)
        var result = pixel
        if packed == 0 && state.blendMode == .sourceOver { return result }
        RowBlender.solidRun(&result, count: 1, color: packed, mode: state.blendMode)
        return result
    }
}
