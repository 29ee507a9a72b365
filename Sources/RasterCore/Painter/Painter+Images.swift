import CRasterKernels

extension Painter {
    /// Draws `image` stretched into `rect` (user space), with bilinear filtering and `opacity` (0…1,
    /// default 1).
    public func draw(_ image: Bitmap, in rect: Rect, opacity: Double = 1) {
        let size = image.pointSize
        guard rect.isFinite, !rect.isEmpty else { return }
        let placement = Transform2D(scaleX: rect.size.width / size.width, y: rect.size.height / size.height)
            .concatenating(Transform2D(translationX: rect.origin.x, y: rect.origin.y))
        draw(image, transform: placement, opacity: opacity)
    }

    /// Draws `image` through `placement`, which maps the image's points (its pixels divided by its
    /// scale, origin at its top-left) into user space.
    ///
    /// The image's outline is anti-aliased by exact coverage; inside, each device pixel centre is mapped
    /// back into the image and sampled bilinearly on premultiplied pixels, clamping at the edges. When
    /// the whole mapping from image pixels to device pixels is an integer translation, pixels are copied
    /// exactly instead.
    public func draw(_ image: Bitmap, transform placement: Transform2D, opacity: Double = 1) {
        guard let (pixelToDevice, opacity8) = resampling(image, placement, opacity) else { return }
        // Resample for the sub-pixel placement, then place the result at the whole-pixel offset. A
        // placement drawn again within this painter (rows of thumbnails) gets a tile that later draws
        // copy; a first draw that keeps axes aligned resamples row by row straight into the target,
        // only inside the clip. Both give the pixels the tile would.
        let whole = (x: pixelToDevice.tx.rounded(.down), y: pixelToDevice.ty.rounded(.down))
        if abs(whole.x) < 1e9, abs(whole.y) < 1e9 {
            var local = pixelToDevice
            local.tx -= whole.x; local.ty -= whole.y
            let offset = (x: Int(whole.x), y: Int(whole.y))
            if let tile = cachedTile(for: image, placement: local) {
                copyPixels(of: tile.bitmap, at: (offset.x + tile.origin.x, offset.y + tile.origin.y), opacity: opacity8)
                return
            }
            if Painter.usesImageFastPaths, local.preservesAxisAlignment, state.blendMode == .sourceOver, !isRepeatedDraw(of: image, placement: local),
               drawAligned(image, placement: local, at: offset, opacity8: opacity8) {
                return
            }
            if let tile = imageTile(for: image, placement: local) {
                copyPixels(of: tile.bitmap, at: (offset.x + tile.origin.x, offset.y + tile.origin.y), opacity: opacity8)
                return
            }
        }
        drawResampled(image, pixelToDevice: pixelToDevice, opacity8: opacity8)
    }

    /// Draws `image` through `placement` as ``draw(_:transform:opacity:)`` does, pixel for pixel, but
    /// resamples only the pixels inside the clip and keeps no tile for identical draws: for a mesh whose
    /// pieces each show part of an image once (a page curl's strips), where a whole resampled tile per
    /// piece would cost the whole image each time.
    public func drawOnce(_ image: Bitmap, transform placement: Transform2D, opacity: Double = 1) {
        guard let (pixelToDevice, opacity8) = resampling(image, placement, opacity) else { return }
        drawResampled(image, pixelToDevice: pixelToDevice, opacity8: opacity8)
    }

    /// What both draws share: the opacity as a byte and the mapping from image pixels to device pixels;
    /// an integer translation is copied here and needs nothing more (nil), as does nothing to draw.
    private func resampling(_ image: Bitmap, _ placement: Transform2D, _ opacity: Double) -> (Transform2D, UInt32)? {
        let o = (opacity.isNaN ? 0 : min(1, max(0, opacity))) * state.alpha
        let opacity8 = UInt32(PixelMath.coverageByte(o))
        guard opacity8 > 0, placement.isFinite else { return nil }
        let pixelToDevice = Transform2D(scaleX: 1 / image.scale, y: 1 / image.scale)
            .concatenating(placement).concatenating(state.transform)
        if let offset = pixelToDevice.integerTranslation {
            copyPixels(of: image, at: offset, opacity: opacity8)
            return nil
        }
        // An image mapped to (nearly) nothing shows nothing; its inverse would overflow the sampler.
        guard let inverse = pixelToDevice.inverted(),
              [inverse.a, inverse.b, inverse.c, inverse.d].allSatisfy({ abs($0) < 1e9 }) else { return nil }
        return (pixelToDevice, opacity8)
    }

    /// The image resampled through `placement` (image pixels to device pixels, with a translation under
    /// one pixel), with its outline's coverage applied; nil when the tile would exceed
    /// ``Painter/maxTilePixels``, so that a huge magnification never allocates without bound.
    func imageTile(for image: Bitmap, placement: Transform2D) -> ImageTile? {
        if let tile = cachedTile(for: image, placement: placement) { return tile }
        let bounds = placement.apply(to: image.pixelFrame).integral
        guard bounds.isFinite, bounds.width * bounds.height <= Double(Painter.maxTilePixels),
              var tile = try? Bitmap(width: max(1, Int(bounds.width)), height: max(1, Int(bounds.height)), scale: targetScale)
        else { return nil }
        let origin = (x: Int(bounds.minX), y: Int(bounds.minY))
        let box = PixelRect(x: origin.x, y: origin.y, width: tile.width, height: tile.height)
        let width = tile.width
        tile.withUnsafeMutablePixels { px in
            let base = px.baseAddress!
            forEachOutlineRow(of: image, placement: placement, within: box) { row, sampler in
                let out = base + (row.y - box.minY) * width + (row.x0 - box.minX)
                sampler.sampleRow(y: row.y, x0: row.x0, count: row.coverage.count, coverage: row.coverage, into: out)
                for (i, c) in row.coverage.enumerated() where c != 255 { out[i] = PixelMath.scale(out[i], by: UInt32(c)) }
            }
        }
        let entry = ImageTile(source: image.storage, placement: placement, bitmap: tile, origin: origin)
        if imageTiles.count >= Painter.maxCachedTiles { imageTiles.removeFirst() }
        imageTiles.append(entry)
        return entry
    }

    /// The tile made earlier in this painter for `image` at `placement`, if any.
    private func cachedTile(for image: Bitmap, placement: Transform2D) -> ImageTile? {
        imageTiles.first { $0.source === image.storage && $0.placement == placement }
    }

    /// Whether `image` was drawn at `placement` (with a translation under one pixel) before in this
    /// painter; remembers the draw when not. The last ``maxCachedTiles`` draws are remembered.
    private func isRepeatedDraw(of image: Bitmap, placement: Transform2D) -> Bool {
        if recentDraws.contains(where: { $0.source === image.storage && $0.placement == placement }) { return true }
        if recentDraws.count >= Painter.maxCachedTiles { recentDraws.removeFirst() }
        recentDraws.append((image.storage, placement))
        return false
    }

    /// Resamples `image` through `placement` (image pixels to device pixels, axes aligned, translation
    /// under one pixel) row by row into the target at the whole-pixel `offset`, only where the clip
    /// allows: the pixels ``imageTile(for:placement:)`` followed by ``copyPixels(of:at:opacity:)`` give,
    /// without the tile. False (nothing drawn) when the tile would be too large, for the caller's
    /// fallback.
    private func drawAligned(_ image: Bitmap, placement: Transform2D, at offset: (x: Int, y: Int), opacity8: UInt32) -> Bool {
        let bounds = placement.apply(to: image.pixelFrame).integral
        // Exactly the placements imageTile(for:placement:) could make a tile for; the rest keep the
        // fallback, which combines edge coverage with opacity in one rounding instead of two.
        guard bounds.isFinite, bounds.width * bounds.height <= Double(Painter.maxTilePixels),
              bounds.width <= Double(Bitmap.maxDimension), bounds.height <= Double(Bitmap.maxDimension) else { return false }
        let tileBox = PixelRect(x: Int(bounds.minX) + offset.x, y: Int(bounds.minY) + offset.y,
                                width: max(1, Int(bounds.width)), height: max(1, Int(bounds.height)))
        let area = state.clipBounds.intersection(tileBox)
        guard !area.isEmpty else { return true }
        let local = PixelRect(x: area.minX - offset.x, y: area.minY - offset.y, width: area.width, height: area.height)
        let mode = state.blendMode, mask = state.mask
        if rowScratch.count < area.width { rowScratch = [UInt32](repeating: 0, count: area.width) }
        withTargetPixels { pixels, width, _ in
            rowScratch.withUnsafeMutableBufferPointer { scratch in
                let out = scratch.baseAddress!
                func blendRows(_ maskValues: UnsafePointer<UInt8>?) {
                    forEachOutlineRow(of: image, placement: placement, within: local) { row, sampler in
                        let count = row.coverage.count
                        sampler.sampleRow(y: row.y, x0: row.x0, count: count, coverage: row.coverage, into: out)
                        // The outline's coverage, outside the run known to be fully covered.
                        let fullStart = min(max(row.full.lowerBound - row.x0, 0), count)
                        let fullEnd = max(min(row.full.upperBound - row.x0, count), fullStart)
                        for i in 0..<fullStart where row.coverage[i] != 255 { out[i] = PixelMath.scale(out[i], by: UInt32(row.coverage[i])) }
                        for i in fullEnd..<count where row.coverage[i] != 255 { out[i] = PixelMath.scale(out[i], by: UInt32(row.coverage[i])) }
                        let x = row.x0 + offset.x, y = row.y + offset.y
                        let maskRow = maskValues.map { $0 + (y - mask!.box.minY) * mask!.box.width + (x - mask!.box.minX) }
                        RowBlender.pixels(pixels + y * width + x, out, count: count, coverage: maskRow, opacity: opacity8, mode: mode)
                    }
                }
                guard let mask else { blendRows(nil); return }
                mask.values.withUnsafeBufferPointer { blendRows($0.baseAddress!) }
            }
        }
        return true
    }

    /// Resamples straight into the target, for placements too large for a tile.
    private func drawResampled(_ image: Bitmap, pixelToDevice: Transform2D, opacity8: UInt32) {
        let mode = state.blendMode, clip = state.clipBounds
        var shaded = [UInt32](repeating: 0, count: 0)
        withTargetPixels { pixels, width, _ in
            forEachOutlineRow(of: image, placement: pixelToDevice, within: clip) { row, sampler in
                withMaskedCoverage(row) { coverage, _ in
                    let count = coverage.count
                    if shaded.count < count { shaded = [UInt32](repeating: 0, count: count) }
                    shaded.withUnsafeMutableBufferPointer { out in
                        sampler.sampleRow(y: row.y, x0: row.x0, count: count, coverage: coverage, into: out.baseAddress!)
                        RowBlender.pixels(pixels + row.y * width + row.x0, out.baseAddress!, count: count,
                                          coverage: coverage.baseAddress!, opacity: opacity8, mode: mode)
                    }
                }
            }
        }
    }

    /// Hands out the coverage rows of the image's outline mapped through `placement` (image pixels to
    /// device pixels) within `box`, with a sampler for that placement: the direct rectangle path when
    /// axes stay aligned, the path rasterizer otherwise.
    private func forEachOutlineRow(of image: Bitmap, placement: Transform2D, within box: PixelRect,
                                   _ body: (CoverageRasterizer.Row, BilinearSampler) -> Void) {
        guard let deviceToPixel = placement.inverted() else { return }
        let imageRect = image.pixelFrame
        var sampler = BilinearSampler(image: image, deviceToPixel: deviceToPixel)
        if placement.preservesAxisAlignment {
            sampler.prepareColumns(box.minX..<box.maxX)
            rasterizer.rasterizeRect(placement.apply(to: imageRect), within: box) { body($0, sampler) }
        } else {
            rasterizer.rasterizePath(Path(rect: imageRect), transform: placement, within: box) { body($0, sampler) }
        }
    }

    /// Blends `image` pixel for pixel onto the device pixels from `origin` on (the base bitmap's device
    /// pixels, the space of ``transform`` and ``clipBoundingBox``, inside a layer too): for pixels computed
    /// elsewhere at device resolution. The transform does not apply; the clip (bounds and anti-aliased
    /// mask), alpha and blend mode do, as for any image drawn at a whole-pixel offset.
    public func draw(_ image: Bitmap, atDevicePixel origin: (x: Int, y: Int)) {
        guard let (x, y) = targetPixel(origin), x > -(1 << 40), x < 1 << 40, y > -(1 << 40), y < 1 << 40 else { return }
        let opacity = alpha8
        guard opacity > 0 else { return }
        copyPixels(of: image, at: (x, y), opacity: opacity)
    }

    /// Runs `body` over the current target's pixels in `rect` (the base bitmap's device pixels, the space
    /// of ``transform`` and ``clipBoundingBox``), cut to the clip bounds, for code that blends source-over
    /// into them itself, when that is all drawing there would do: no anti-aliased clip mask, alpha 1, blend
    /// mode source-over. `body` gets the pointer to the area's top-left pixel, the row stride in pixels,
    /// and the area in base device pixels; it is not called when the area is empty. False, without calling
    /// `body`, when the state asks for more (draw through ``draw(_:atDevicePixel:)`` then).
    public func withSourceOverPixels(in rect: PixelRect,
                                     _ body: (_ topLeft: UnsafeMutablePointer<UInt32>, _ rowStride: Int, _ area: PixelRect) -> Void) -> Bool {
        guard drawsOpaqueSourcesOpaquely else { return false }
        guard let (lx, ly) = targetPixel((rect.x, rect.y)) else { return true }
        let area = state.clipBounds.intersection(PixelRect(x: lx, y: ly, width: rect.width, height: rect.height))
        guard !area.isEmpty else { return true }
        // (The area back in base pixels: the layers' offset is what targetPixel took away.)
        let ox = rect.x - lx, oy = rect.y - ly
        withTargetPixels { pixels, width, _ in
            body(pixels + area.minY * width + area.minX, width, PixelRect(x: area.x + ox, y: area.y + oy, width: area.width, height: area.height))
        }
        return true
    }

    /// Blends an image placed at an integer pixel offset, through the clip.
    func copyPixels(of image: Bitmap, at offset: (x: Int, y: Int), opacity: UInt32) {
        let area = state.clipBounds.intersection(PixelRect(x: offset.x, y: offset.y, width: image.width, height: image.height))
        guard !area.isEmpty else { return }
        let mode = state.blendMode, iw = image.width
        // The clip bounds always lie inside the mask's box, so a mask row is the coverage as it is.
        let mask = state.mask
        image.withUnsafePixels { src in
            withTargetPixels { pixels, width, _ in
                func blend(_ coverage: UnsafePointer<UInt8>?) {
                    for y in area.minY..<area.maxY {
                        let s = src.baseAddress! + (y - offset.y) * iw + (area.minX - offset.x)
                        let rowCoverage = coverage.map { $0 + (y - area.minY) * (mask?.box.width ?? 0) }
                        RowBlender.pixels(pixels + y * width + area.minX, s, count: area.width,
                                          coverage: rowCoverage, opacity: opacity, mode: mode)
                    }
                }
                guard let mask else { blend(nil); return }
                mask.values.withUnsafeBufferPointer { values in
                    blend(values.baseAddress! + (area.minY - mask.box.minY) * mask.box.width + (area.minX - mask.box.minX))
                }
            }
        }
    }
}

extension Bitmap {
    /// The bitmap's extent in its own pixels, as a rectangle for transforming.
    var pixelFrame: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }
}

/// An image resampled for one sub-pixel placement, with the coverage of its outline applied.
struct ImageTile {
    /// The image's storage, held so that its identity cannot be reused while cached.
    let source: BitmapStorage
    let placement: Transform2D
    let bitmap: Bitmap
    /// Where the tile's top-left pixel sits relative to the whole-pixel offset of the draw.
    let origin: (x: Int, y: Int)
}

extension Transform2D {
    /// The offset when this is a translation by whole numbers (within 1e-9), else nil.
    var integerTranslation: (x: Int, y: Int)? {
        guard abs(a - 1) < 1e-9, abs(d - 1) < 1e-9, abs(b) < 1e-9, abs(c) < 1e-9 else { return nil }
        let x = tx.rounded(), y = ty.rounded()
        guard abs(tx - x) < 1e-9, abs(ty - y) < 1e-9, abs(x) < 1e9, abs(y) < 1e9 else { return nil }
        return (Int(x), Int(y))
    }
}

/// Bilinear sampling of a premultiplied image at device pixel centres.
///
/// Sample positions are fixed point with 8 fractional bits (1/256 pixel); the four weights are products of
/// those fractions (16 bits), and each channel is `round(Σ weight·texel / 65536)`. The general path
/// (any affine mapping) computes two channels at a time in 32-bit lanes of a `UInt64`; a mapping that
/// keeps axes aligned (translations and scales) precomputes each device column's texel column and
/// weight once, and its rows go to `CRasterKernels` (SIMD where the processor has it): consecutive
/// columns with one weight, a translation's interior, through the two-tap shift kernel, the rest through
/// the column-table kernel. All paths give the same bytes (tested).
package struct BilinearSampler {
    let image: Bitmap
    let deviceToPixel: Transform2D
    /// For aligned mappings: each device column's left texel column and horizontal weight (0…256), for
    /// device x from `columnStart`. A right-edge column (weight 0 on the last texel) is stored as weight
    /// 256 on the texel before it, which gives the same pixel and keeps both texels inside the row.
    private var columnIndex: [Int32] = []
    private var columnWeight: [UInt16] = []
    private var columnStart = 0
    /// Entries of the column table whose texels are consecutive with one weight (`shiftWeight`).
    private var shiftRun = 0..<0
    private var shiftWeight: UInt32 = 0
    /// The last two source rows blended horizontally: consecutive device rows share source rows (one
    /// row each for a translation, more when magnifying), so each is blended once.
    private var horizontal: HorizontalRows?

    init(image: Bitmap, deviceToPixel: Transform2D) {
        self.image = image
        self.deviceToPixel = deviceToPixel
    }

    /// Precomputes texel columns for device columns `range` (only valid when `b` and `c` are 0). Images
    /// one pixel wide keep the general path.
    mutating func prepareColumns(_ range: Range<Int>) {
        let t = deviceToPixel, w = image.width, maxU = Double(w - 1) * 256
        guard w >= 2, w < Int(Int32.max), !range.isEmpty else { return }
        columnStart = range.lowerBound
        columnIndex = []; columnIndex.reserveCapacity(range.count)
        columnWeight = []; columnWeight.reserveCapacity(range.count)
        for x in range {
            let uf = PixelMath.samplePosition((t.a * (Double(x) + 0.5) + t.tx - 0.5) * 256, limit: maxU)
            var index = uf >> 8, weight = uf & 255
            if index == w - 1 { index = w - 2; weight = 256 }
            columnIndex.append(Int32(index))
            columnWeight.append(UInt16(weight))
        }
        // The longest run of consecutive texel columns with one weight.
        var best = 0..<0, start = 0
        for i in 1...columnIndex.count {
            if i < columnIndex.count, columnIndex[i] == columnIndex[i - 1] + 1, columnWeight[i] == columnWeight[i - 1] { continue }
            if i - start > best.count { best = start..<i }
            start = i
        }
        if best.count >= 8 { shiftRun = best; shiftWeight = UInt32(columnWeight[best.lowerBound]) }
        horizontal = HorizontalRows()
    }

    /// Source row `iy` blended horizontally for device columns `first ..< first + count` of the column
    /// table: four `UInt16` a pixel, from the cache when the last rows asked for it.
    private func horizontalRow(_ iy: Int, first: Int, count: Int, pixels: UnsafePointer<UInt32>) -> UnsafePointer<UInt16> {
        let cache = horizontal!
        if let hit = cache.lookup(row: iy, first: first, count: count) { return hit }
        let out = cache.slot(row: iy, first: first, count: count)
        let row = pixels + iy * image.width
        columnIndex.withUnsafeBufferPointer { indices in
            columnWeight.withUnsafeBufferPointer { weights in
                let end = first + count
                func table(_ range: Range<Int>) {
                    guard !range.isEmpty else { return }
                    crk_horizontal_columns(row, indices.baseAddress! + range.lowerBound, weights.baseAddress! + range.lowerBound,
                                           Int32(range.count), out + 4 * (range.lowerBound - first))
                }
                let shift = shiftRun.clamped(to: first..<end)
                guard !shift.isEmpty else { table(first..<end); return }
                table(first..<shift.lowerBound)
                crk_horizontal_shift(row + Int(indices[shift.lowerBound]), shiftWeight, Int32(shift.count), out + 4 * (shift.lowerBound - first))
                table(shift.upperBound..<end)
            }
        }
        return UnsafePointer(out)
    }

    @inline(__always)
    private static func lanes(_ q: UInt32) -> (UInt64, UInt64) {
        let rb = UInt64(q & 0x00FF_00FF), ga = UInt64((q >> 8) & 0x00FF_00FF)
        return ((rb & 0xFF) | (rb >> 16) << 32, (ga & 0xFF) | (ga >> 16) << 32)
    }

    /// `round(Σ wᵢ·texelᵢ / 65536)` per channel, for weights that add up to 65536.
    @inline(__always)
    package static func blend(_ p00: UInt32, _ p10: UInt32, _ p01: UInt32, _ p11: UInt32, fx: UInt64, fy: UInt64) -> UInt32 {
        let w11 = fx * fy, w10 = fx * 256 - w11, w01 = fy * 256 - w11, w00 = 65536 - w10 - w01 - w11
        let a = lanes(p00), b = lanes(p10), c = lanes(p01), d = lanes(p11)
        let rb = (a.0 &* w00 &+ b.0 &* w10 &+ c.0 &* w01 &+ d.0 &* w11 &+ 0x0000_8000_0000_8000) >> 16
        let ga = (a.1 &* w00 &+ b.1 &* w10 &+ c.1 &* w01 &+ d.1 &* w11 &+ 0x0000_8000_0000_8000) >> 16
        let r = UInt32(truncatingIfNeeded: rb & 0xFF), bl = UInt32(truncatingIfNeeded: (rb >> 32) & 0xFF)
        let g = UInt32(truncatingIfNeeded: ga & 0xFF), al = UInt32(truncatingIfNeeded: (ga >> 32) & 0xFF)
        return r | g << 8 | bl << 16 | al << 24
    }

    /// Writes the sampled premultiplied pixel for device pixels `x0 ..< x0 + count` of row `y`. On the
    /// general path pixels whose coverage is 0 are skipped (left as they are in `out`); on the aligned
    /// path every pixel is written. Callers scale by coverage afterwards, so either is the same to them.
    func sampleRow(y: Int, x0: Int, count: Int, coverage: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt32>) {
        let t = deviceToPixel
        let w = image.width, h = image.height
        let maxU = Double(w - 1) * 256, maxV = Double(h - 1) * 256
        // The sample point of device pixel (x, y) is its centre mapped into image pixels, less half a
        // pixel (texel centres sit at +0.5), in 1/256 pixel.
        let cx = Double(x0) + 0.5, cy = Double(y) + 0.5
        var u = (t.a * cx + t.c * cy + t.tx - 0.5) * 256
        var v = (t.b * cx + t.d * cy + t.ty - 0.5) * 256
        guard count > 0 else { return }
        let du = t.a * 256, dv = t.b * 256
        image.withUnsafePixels { px in
            let p = px.baseAddress!
            if !columnIndex.isEmpty, x0 >= columnStart, x0 + count <= columnStart + columnIndex.count {
                // Separable: each source row blended horizontally once (cached across device rows), then
                // the two rows blended vertically: the same integer sum as the four-weight formula.
                let vf = PixelMath.samplePosition(v, limit: maxV)
                guard Painter.usesImageFastPaths else {
                    // The reference: each column's position computed from the mapping, one pixel at a time.
                    let fy = UInt64(vf & 255), row0 = p + (vf >> 8) * w, row1 = fy == 0 ? row0 : row0 + w
                    for i in 0..<count where coverage[i] != 0 {
                        let uf = PixelMath.samplePosition((t.a * (Double(x0 + i) + 0.5) + t.tx - 0.5) * 256, limit: maxU)
                        let ix = uf >> 8, fx = UInt64(uf & 255), ix1 = fx == 0 ? ix : ix + 1
                        out[i] = BilinearSampler.blend(row0[ix], row0[ix1], row1[ix], row1[ix1], fx: fx, fy: fy)
                    }
                    return
                }
                let fy = UInt32(vf & 255), iy = vf >> 8, first = x0 - columnStart
                // Walking up the image (a flipped placement), the lower row is the one kept from the
                // device row before: look it up first so the upper row does not take its slot.
                if fy != 0 { _ = horizontal!.lookup(row: iy + 1, first: first, count: count) }
                let top = horizontalRow(iy, first: first, count: count, pixels: p)
                let bottom = fy == 0 ? top : horizontalRow(iy + 1, first: first, count: count, pixels: p)
                crk_vertical(top, bottom, fy, Int32(count), out)
                return
            }
            guard Painter.usesImageFastPaths else {
                for i in 0..<count {
                    defer { u += du; v += dv }
                    if coverage[i] == 0 { continue }
                    let uf = PixelMath.samplePosition(u, limit: maxU), vf = PixelMath.samplePosition(v, limit: maxV)
                    let ix = uf >> 8, iy = vf >> 8
                    let fx = UInt64(uf & 255), fy = UInt64(vf & 255)
                    let row0 = p + iy * w, row1 = fy == 0 ? row0 : row0 + w
                    let ix1 = fx == 0 ? ix : ix + 1
                    out[i] = BilinearSampler.blend(row0[ix], row0[ix1], row1[ix], row1[ix1], fx: fx, fy: fy)
                }
                return
            }
            // The same positions, added pixel by pixel in the same order, and the same blend, in C.
            crk_bilinear_affine(p, Int32(w), Int32(h), u, v, du, dv, coverage.baseAddress!, Int32(count), out)
        }
    }
}

/// Two source rows blended horizontally (see `BilinearSampler`), each remembered with the row and the
/// span of device columns it was made for; the older one is replaced.
final class HorizontalRows {
    private struct Slot {
        var row = -1, first = 0, count = 0
        var capacity = 0
        var data: UnsafeMutablePointer<UInt16>?
    }
    // (One sampler's, used by its own methods only: no runtime exclusivity checks, as the rasterizer's.)
    @exclusivity(unchecked) private var slots = [Slot(), Slot()]
    @exclusivity(unchecked) private var newest = 0

    func lookup(row: Int, first: Int, count: Int) -> UnsafePointer<UInt16>? {
        for i in 0..<2 where slots[i].row == row && slots[i].first == first && slots[i].count == count {
            newest = i  // so that the next miss replaces the other slot, never the row just handed out
            return UnsafePointer(slots[i].data!)
        }
        return nil
    }

    /// Storage for `row`, in the slot not handed out last (which stays valid).
    func slot(row: Int, first: Int, count: Int) -> UnsafeMutablePointer<UInt16> {
        let i = 1 - newest
        newest = i
        if slots[i].capacity < 4 * count {
            slots[i].data?.deallocate()
            slots[i].data = .allocate(capacity: 4 * count)
            slots[i].capacity = 4 * count
        }
        slots[i].row = row; slots[i].first = first; slots[i].count = count
        return slots[i].data!
    }

    deinit { for s in slots { s.data?.deallocate() } }
}
