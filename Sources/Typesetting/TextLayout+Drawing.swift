import RasterCore

extension TextLayout {
    /// Text up to this many device pixels per em is drawn from cached glyph masks (17 pt at @3x is 51);
    /// larger text is filled as outlines, so no mask grows without bound.
    public static let maxMaskPixelsPerEm = 256.0

    /// Draws the lines with the top-left of the layout box at `origin` (user space of `painter`, points).
    ///
    /// Lines are aligned in ``width``. `color` defaults to the style's colour. Drawing goes through the
    /// painter's transform, clip, alpha and blend mode, and composites coverage × colour exactly as the
    /// painter's own fills (source-over on premultiplied pixels, rounded division by 255).
    ///
    /// When the transform is an axis-aligned uniform scale (the bitmap's scale, possibly times a view's
    /// scale; differences below 1e-9 of the scale are ignored) plus any translation, glyphs are blitted from cached FreeType masks rendered at
    /// `pointSize × scale` pixels per em: each glyph's x in device pixels is rounded to the nearest 1/4
    /// pixel (one of four cached phases), and each baseline is snapped down to a whole pixel (so all
    /// glyphs of a line share one pixel row and descenders never move down). Under rotation, skew,
    /// unequal or negative scales, or above ``maxMaskPixelsPerEm``, each line's glyph outlines are
    /// filled as one path through the transform instead, at exact positions.
    public func draw(in painter: Painter, at origin: Point, color: Color? = nil) {
        draw(in: painter, origin: origin, boxWidth: width, color: color ?? style.color)
    }

    /// Draws the text in `rect` as a `UILabel` does: lines aligned in `rect`'s width, the block centred
    /// vertically (rounded ``size`` against `rect`'s height; taller text overflows equally above and
    /// below). Lay out with `rect`'s width and height for the breaks and truncation a label would show.
    public func draw(in painter: Painter, rect: Rect, color: Color? = nil) {
        guard rect.isFinite, !rect.isNull else { return }
        let r = rect.standardized
        let origin = Point(x: r.minX, y: r.minY + (r.height - size.height) / 2)
        draw(in: painter, origin: origin, boxWidth: r.width, color: color ?? style.color)
    }

    private func draw(in painter: Painter, origin: Point, boxWidth: Double, color: Color) {
        guard origin.isFinite, boxWidth.isFinite, !lines.isEmpty else { return }
        let t = painter.transform
        let scale = t.a
        let pixelsPerEm = style.font.pointSize * scale
        // Float noise from composed view transforms (a scale of 2 · 0.1 · 5) still counts as uniform:
        // 1e-9 of a 256 px em is far below anything visible.
        let noise = 1e-9 * abs(scale)
        let maskable = t.isFinite && scale > 0 && abs(t.b) <= noise && abs(t.c) <= noise && abs(t.a - t.d) <= noise
            && pixelsPerEm <= Self.maxMaskPixelsPerEm && pixelsPerEm * 64 >= 1
        for line in lines {
            let lineX = origin.x + Self.offset(for: style.alignment, lineWidth: line.width, in: boxWidth, rightToLeft: line.isRightToLeft)
            if line.isClipped {
                painter.save()
                painter.clip(to: Rect(x: origin.x, y: origin.y + line.top - line.height, width: boxWidth, height: 3 * line.height))
            }
            if maskable {
                drawMasked(line, in: painter, lineX: lineX, baselineY: origin.y + line.baseline, transform: t, color: color)
            } else {
                fillOutlines(line, in: painter, lineX: lineX, baselineY: origin.y + line.baseline, color: color)
            }
            if line.isClipped { painter.restore() }
        }
    }

    /// Blits cached masks at device pixels (see ``draw(in:at:color:)``).
    ///
    /// Baselines snap to the pixel grid of the space drawn in (a label's own layer, whose origin is the
    /// transform's translation), not to the device's: when that origin sits between device rows, as a
    /// moving view's does in mid-animation, the snapped text is moved down by the fraction the way Core
    /// Animation moves a layer's contents, each row blended linearly with the one above. So a moving
    /// label keeps its distance to everything drawn at exact positions beside it (a cell's separator),
    /// and an origin on a whole row (within 1/64 px) draws the very pixels a device-snapped baseline does.
    private func drawMasked(_ line: Line, in painter: Painter, lineX: Double, baselineY: Double, transform t: Transform2D, color: Color) {
        let scale = t.a
        let ppem64 = Int32(clamping: Int((style.font.pointSize * scale * 64).rounded()))
        let clip = painter.clipBoundingBox
        guard !clip.isEmpty, abs(t.ty) < 1e9 else { return }
        let gridTop = t.ty.rounded(.down)
        let shift = t.ty - gridTop
        // Snapped down; the 1/64 px allowance keeps a baseline computed a hair below a whole pixel on it.
        let deviceBaseline: Double
        let shiftWeight: Int  // the row above's share of each blended row, in 256ths
        if shift * 64 < 1 || (1 - shift) * 64 < 1 {
            // On the nearest row's grid: the same baseline a whole-row origin gives, so text coming to rest
            // does not step at the edge of this allowance.
            deviceBaseline = t.ty.rounded() + (scale * baselineY + 1.0 / 64).rounded(.down)
            shiftWeight = 0
        } else {
            deviceBaseline = gridTop + (scale * baselineY + 1.0 / 64).rounded(.down)
            shiftWeight = Int((shift * 256).rounded())
        }
        guard abs(deviceBaseline) < 1e9 else { return }
        let baseline = Int(deviceBaseline)
        var shifted: [UInt8] = []
        for g in line.glyphs {
            let face = faces[Int(g.font)]
            let unit = style.font.pointSize * scale / Double(face.unitsPerEm)
            // Cull with the font's overall glyph box, before any glyph is rendered.
            if deviceBaseline - Double(face.inkBounds.yMax) * unit > Double(clip.maxY)
                || deviceBaseline + 1 - Double(face.inkBounds.yMin) * unit < Double(clip.minY) { continue }
            let x = t.tx + scale * (lineX + g.x)
            guard abs(x) < 1e9 else { continue }
            if x + Double(face.inkBounds.xMin) * unit > Double(clip.maxX) + 1
                || x + Double(face.inkBounds.xMax) * unit < Double(clip.minX) - 1 { continue }
            // A mark's offset above the baseline, in whole device pixels (the baseline stays snapped).
            let rise = g.y == 0 ? 0 : Int((g.y * scale).rounded())
            let quarters = Int((x * 4).rounded())
            let whole = quarters >> 2, phase = UInt8(quarters & 3)  // floor division, also for negative x
            guard let mask = GlyphCache.shared.mask(face: face, glyph: g.id, ppem64: ppem64, phase: phase) else {
                // No mask (too large): fill the outline where the blended mask would have been.
                let penY = (deviceBaseline + (shiftWeight > 0 ? shift : 0) - t.ty) / scale - g.y
                fillOutline(of: g, face: face, in: painter, at: Point(x: lineX + g.x, y: penY), color: color)
                continue
            }
            guard mask.width > 0 else { continue }
            let origin = (x: whole + mask.left, y: baseline - rise - mask.top)
            if shiftWeight == 0 {
                mask.bytes.withUnsafeBufferPointer { bytes in
                    painter.fill(coverageMask: bytes, width: mask.width, height: mask.height, atDevicePixel: origin, color: color)
                }
            } else {
                Self.shiftDown(mask.bytes, width: mask.width, height: mask.height, weight: shiftWeight, into: &shifted)
                shifted.withUnsafeBufferPointer { bytes in
                    painter.fill(coverageMask: bytes, width: mask.width, height: mask.height + 1, atDevicePixel: origin, color: color)
                }
            }
        }
    }

    /// `mask` (`width × height` coverage bytes) moved down by `weight`/256 of a row: `height + 1` rows in
    /// `out`, each the rounded blend `(row · (256 − weight) + row above · weight) / 256` (bilinear
    /// filtering of a pure vertical shift; full coverage stays 255).
    package static func shiftDown(_ mask: [UInt8], width: Int, height: Int, weight: Int, into out: inout [UInt8]) {
        precondition(weight > 0 && weight < 256 && mask.count >= width * height)
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: repeatElement(0, count: width * (height + 1)))
        guard width > 0, height > 0 else { return }
        let keep = 256 - weight, area = width * height
        @inline(__always) func blend(_ row: UInt8, _ above: UInt8) -> UInt8 {
            UInt8(truncatingIfNeeded: (Int(row) * keep + Int(above) * weight + 128) >> 8)
        }
        mask.withUnsafeBufferPointer { m in
            out.withUnsafeMutableBufferPointer { o in
                // The first row has nothing above it, the added last one only the mask's last row above;
                // every row between, its own byte and the one a row up.
                for i in 0..<width { o[i] = blend(m[i], 0) }
                for i in width..<area { o[i] = blend(m[i], m[i - width]) }
                for i in 0..<width { o[area + i] = blend(0, m[area - width + i]) }
            }
        }
    }

    /// Fills the line's glyph outlines as one path in user space.
    private func fillOutlines(_ line: Line, in painter: Painter, lineX: Double, baselineY: Double, color: Color) {
        var path = Path()
        for g in line.glyphs {
            appendOutline(of: g, face: faces[Int(g.font)], to: &path, at: Point(x: lineX + g.x, y: baselineY - g.y))
        }
        if !path.isEmpty { painter.fill(path, color: color) }
    }

    private func fillOutline(of g: PlacedGlyph, face: FontFace, in painter: Painter, at pen: Point, color: Color) {
        var path = Path()
        appendOutline(of: g, face: face, to: &path, at: pen)
        if !path.isEmpty { painter.fill(path, color: color) }
    }

    /// Appends the glyph's outline (font units, y up) scaled to the point size with its origin at `pen`
    /// (user space, y down).
    private func appendOutline(of g: PlacedGlyph, face: FontFace, to path: inout Path, at pen: Point) {
        guard let outline = GlyphCache.shared.outline(face: face, glyph: g.id) else { return }
        let unit = style.font.pointSize / Double(face.unitsPerEm)
        func p(_ v: SIMD2<Double>) -> Point { Point(x: pen.x + v.x * unit, y: pen.y - v.y * unit) }
        for e in outline.elements {
            switch e {
            case .move(let to): path.move(to: p(to))
            case .line(let to): path.addLine(to: p(to))
            case .quad(let to, let c): path.addQuadCurve(to: p(to), control: p(c))
            case .cubic(let to, let c1, let c2): path.addCurve(to: p(to), control1: p(c1), control2: p(c2))
            }
        }
    }

    /// The shared glyph cache's counters (for measuring; the cache is process-wide).
    public static var glyphCacheStatistics: GlyphCacheStatistics { GlyphCache.shared.statistics }

    /// Empties the shared glyph cache (to measure cold drawing). Drawing results do not change.
    public static func removeCachedGlyphs() { GlyphCache.shared.removeAll() }
}
