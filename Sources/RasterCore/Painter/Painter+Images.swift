extension Painter {
    /// Draws `image` stretched into `rect` (user space), with bilinear filtering and `opacity` (0…1,
    /// default 1).
    public func draw(_ image: Bitmap, in rect: Rect, opacity: Double = 1) {
        let size = image.pointSize
        guard rect.isFinite, !rect.isEmpty else { return }
        let placement = AffineTransform(scaleX: rect.size.width / size.width, y: rect.size.height / size.height)
            .concatenating(AffineTransform(translationX: rect.origin.x, y: rect.origin.y))
        draw(image, transform: placement, opacity: opacity)
    }

    /// Draws `image` through `placement`, which maps the image's points (its pixels divided by its
    /// scale, origin at its top-left) into user space.
    ///
    /// The image's outline is anti-aliased by exact coverage; inside, each device pixel centre is mapped
    /// back into the image and sampled bilinearly on premultiplied pixels, clamping at the edges. When
    /// the whole mapping from image pixels to device pixels is an integer translation, pixels are copied
    /// exactly instead.
    public func draw(_ image: Bitmap, transform placement: AffineTransform, opacity: Double = 1) {
        let o = (opacity.isNaN ? 0 : min(1, max(0, opacity))) * state.alpha
        let opacity8 = UInt32(PixelMath.coverageByte(o))
        guard opacity8 > 0, placement.isFinite else { return }
        let pixelToDevice = AffineTransform(scaleX: 1 / image.scale, y: 1 / image.scale)
            .concatenating(placement).concatenating(state.transform)
        let imageRect = Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        if let offset = pixelToDevice.integerTranslation {
            copyPixels(of: image, at: offset, opacity: opacity8)
            return
        }
        guard let deviceToPixel = pixelToDevice.inverted() else { return }
        let mode = state.blendMode, clip = state.clipBounds
        let sampler = BilinearSampler(image: image, deviceToPixel: deviceToPixel)
        var shaded = [UInt32](repeating: 0, count: 0)
        withTargetPixels { pixels, width, _ in
            func blendRow(_ row: CoverageRasterizer.Row) {
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
            if pixelToDevice.preservesAxisAlignment {
                rasterizer.rasterizeRect(pixelToDevice.apply(to: imageRect), within: clip, blendRow)
            } else {
                rasterizer.rasterizePath(Path(rect: imageRect), transform: pixelToDevice, within: clip, blendRow)
            }
        }
    }

    /// Blends an image placed at an integer pixel offset, through the clip.
    private func copyPixels(of image: Bitmap, at offset: (x: Int, y: Int), opacity: UInt32) {
        let area = state.clipBounds.intersection(PixelRect(x: offset.x, y: offset.y, width: image.width, height: image.height))
        guard !area.isEmpty else { return }
        let mode = state.blendMode, iw = image.width
        var coverage = [UInt8](repeating: 255, count: area.width)
        image.withUnsafePixels { src in
            withTargetPixels { pixels, width, _ in
                for y in area.minY..<area.maxY {
                    let s = src.baseAddress! + (y - offset.y) * iw + (area.minX - offset.x)
                    let d = pixels + y * width + area.minX
                    if state.mask == nil {
                        RowBlender.pixels(d, s, count: area.width, coverage: nil, opacity: opacity, mode: mode)
                    } else {
                        coverage.withUnsafeMutableBufferPointer { full in
                            full.update(repeating: 255)
                            let row = CoverageRasterizer.Row(y: y, x0: area.minX, coverage: UnsafeBufferPointer(full), full: area.minX..<area.maxX)
                            withMaskedCoverage(row) { masked, _ in
                                RowBlender.pixels(d, s, count: area.width, coverage: masked.baseAddress!, opacity: opacity, mode: mode)
                            }
                        }
                    }
                }
            }
        }
    }
}

extension AffineTransform {
    /// The offset when this is a translation by whole numbers (within 1e-9), else nil.
    var integerTranslation: (x: Int, y: Int)? {
        guard abs(a - 1) < 1e-9, abs(d - 1) < 1e-9, abs(b) < 1e-9, abs(c) < 1e-9 else { return nil }
        let x = tx.rounded(), y = ty.rounded()
        guard abs(tx - x) < 1e-9, abs(ty - y) < 1e-9, abs(x) < 1e9, abs(y) < 1e9 else { return nil }
        return (Int(x), Int(y))
    }
}

/// Bilinear sampling of a premultiplied image at device pixel centres.
struct BilinearSampler {
    let image: Bitmap
    let deviceToPixel: AffineTransform

    /// Writes the sampled premultiplied pixel for device pixels `x0 ..< x0 + count` of row `y`; pixels
    /// whose coverage is 0 are skipped (left as they are in `out`).
    func sampleRow(y: Int, x0: Int, count: Int, coverage: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt32>) {
        let t = deviceToPixel
        let w = image.width, h = image.height
        let maxX = Double(w - 1), maxY = Double(h - 1)
        // The sample point of device pixel (x, y) is its centre mapped into image pixels, less half a
        // pixel (texel centres sit at +0.5).
        let cx = Double(x0) + 0.5, cy = Double(y) + 0.5
        var u = t.a * cx + t.c * cy + t.tx - 0.5
        var v = t.b * cx + t.d * cy + t.ty - 0.5
        image.withUnsafePixels { px in
            let p = px.baseAddress!
            for i in 0..<count {
                defer { u += t.a; v += t.b }
                if coverage[i] == 0 { continue }
                let uc = min(max(u, 0), maxX), vc = min(max(v, 0), maxY)
                let fx = uc.rounded(.down), fy = vc.rounded(.down)
                let ix = Int(fx), iy = Int(fy)
                let ix1 = min(ix + 1, w - 1), iy1 = min(iy + 1, h - 1)
                let tx = Float(uc - fx), ty = Float(vc - fy)
                let p00 = p[iy * w + ix], p10 = p[iy * w + ix1], p01 = p[iy1 * w + ix], p11 = p[iy1 * w + ix1]
                let w00 = (1 - tx) * (1 - ty), w10 = tx * (1 - ty), w01 = (1 - tx) * ty, w11 = tx * ty
                var result: UInt32 = 0
                for shift in stride(from: UInt32(0), to: 32, by: 8) {
                    let c = Float((p00 >> shift) & 0xFF) * w00 + Float((p10 >> shift) & 0xFF) * w10
                        + Float((p01 >> shift) & 0xFF) * w01 + Float((p11 >> shift) & 0xFF) * w11
                    result |= UInt32(min(255, c + 0.5)) << shift
                }
                out[i] = result
            }
        }
    }
}
