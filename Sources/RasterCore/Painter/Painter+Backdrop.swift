import CRasterKernels
import Foundation

extension Painter {
    /// Draws a material over what is already drawn under `path` (user space): those pixels blurred by a
    /// Gaussian of `sigma` points, their saturation scaled by `saturation` (1 keeps it), then `tint`
    /// drawn over them, all through the path's anti-aliased coverage and the clip: a
    /// `UIVisualEffectView`'s blur. What is behind is what the current target holds (inside a layer, only
    /// what the layer has drawn). Beyond the target's edges its edge pixels extend, so a bar at the top of
    /// the screen does not darken there. The blur is three box blurs each way (as `fillBlurred`), taken at a
    /// half to an eighth of the resolution for σ of 6 pixels and more (averaged down, scaled back
    /// bilinearly); σ above
    /// ``maxBackdropSigma`` pixels is taken as that much. Nothing is drawn for an empty or non-finite
    /// shape; with `sigma` at most 0 only the saturation and tint apply.
    public func drawBackdrop(under path: Path, sigma: Double, saturation: Double = 1, tint: Color = .clear) {
        // (The state's transform is to the current target's pixels, a layer's own when one is open.)
        let t = state.transform
        guard t.isFinite, path.isFinite, !path.isEmpty, saturation.isFinite,
              let box = PixelRect(enclosing: t.apply(to: path.controlPointBounds)) else { return }
        let saturation = min(saturation, Painter.maxBackdropSaturation)
        let sigmaPixels = sigma.isFinite ? min(max(0, sigma) * t.largestStretch, Painter.maxBackdropSigma) : 0
        let tintPixel = tint.alpha > 0 ? tint.premultiplied.packed : 0
        guard sigmaPixels >= 0.5 || saturation != 1 || tintPixel != 0 else { return }
        // A wide blur is taken at a fraction of the resolution (as Core Animation's backdrop layers are):
        // averaged over f × f blocks straight from the target, blurred by σ/f, scaled back bilinearly; at
        // least 3 of the small pixels to a σ, so the scaling does not show.
        let factor = sigmaPixels >= 6 ? min(8, 1 << Int(log2(sigmaPixels / 3))) : 1
        var region = PixelRect(x: 0, y: 0, width: 0, height: 0)
        var material: Bitmap?
        // (Read before the target's pixels are held: the painter's storage is exclusively theirs then.)
        let scale = targetScale, clipBounds = state.clipBounds
        withTargetPixels { pixels, width, height in
            let target = PixelRect(x: 0, y: 0, width: width, height: height)
            region = box.intersection(clipBounds).intersection(target)
            guard !region.isEmpty, var drawn = try? Bitmap(width: region.width, height: region.height, scale: scale) else { return }
            defer { material = drawn }
            // What the blur reaches: three σ around the region, within the target (its edges extend).
            let source = region.grown(by: Int((3 * sigmaPixels).rounded(.up))).intersection(target)
            let ox = region.minX - source.minX, oy = region.minY - source.minY
            let origin = pixels + source.minY * width + source.minX
            drawn.withUnsafeMutablePixels { out in
                if factor > 1 {
                    let sw = (source.width + factor - 1) / factor, sh = (source.height + factor - 1) / factor
                    var small = [UInt32](unsafeUninitializedCapacity: sw * sh) { _, count in count = sw * sh }
                    // The blur's lines (two at a time: four words a position), then the scaling's column table
                    // (two indices and a weight per column, as 32-bit words) and one mixed row and a word more
                    // (64-bit lanes, two words a pixel).
                    let scratchCount = max(4 * max(sw, sh), 3 * region.width + 3 + 2 * sw)
                    var scratch = [UInt32](unsafeUninitializedCapacity: scratchCount) { _, count in count = scratchCount }
                    small.withUnsafeMutableBufferPointer { small in
                        scratch.withUnsafeMutableBufferPointer { scratch in
                            crk_downsample_box(origin, Int32(source.width), Int32(source.height), width, Int32(factor), small.baseAddress!)
                            crk_blur_rgba(small.baseAddress!, Int32(sw), Int32(sh), sigmaPixels / Double(factor), scratch.baseAddress!)
                            // The material's colour matrix and tint mix linearly, so they commute with the scaling
                            // (to the rounding): applied to the small image, a sixteenth of the pixels or fewer.
                            crk_saturate_tint(small.baseAddress!, Int32(sw * sh), Float(saturation), tintPixel)
                            crk_upsample_bilinear(small.baseAddress!, Int32(sw), Int32(sh), Int32(factor), Int32(ox), Int32(oy),
                                                  out.baseAddress!, Int32(region.width), Int32(region.height), scratch.baseAddress!)
                        }
                    }
                } else if sigmaPixels >= 0.5 {
                    var buffer = [UInt32](unsafeUninitializedCapacity: source.width * source.height) { _, count in count = source.width * source.height }
                    var scratch = [UInt32](unsafeUninitializedCapacity: 4 * max(source.width, source.height)) { _, count in count = 4 * max(source.width, source.height) }
                    buffer.withUnsafeMutableBufferPointer { b in
                        for row in 0..<source.height {
                            (b.baseAddress! + row * source.width).update(from: origin + row * width, count: source.width)
                        }
                        scratch.withUnsafeMutableBufferPointer { crk_blur_rgba(b.baseAddress!, Int32(source.width), Int32(source.height), sigmaPixels, $0.baseAddress!) }
                        for row in 0..<region.height {
                            (out.baseAddress! + row * region.width).update(from: b.baseAddress! + (oy + row) * source.width + ox, count: region.width)
                        }
                    }
                } else {
                    for row in 0..<region.height {
                        (out.baseAddress! + row * region.width).update(from: origin + (oy + row) * width + ox, count: region.width)
                    }
                }
                if factor == 1 { crk_saturate_tint(out.baseAddress!, Int32(region.width * region.height), Float(saturation), tintPixel) }
            }
        }
        guard let material else { return }
        // Back in base device pixels (a layer's offset added back), through the shape.
        let base = clipBoundingBox, local = state.clipBounds
        let dx = base.x - local.x, dy = base.y - local.y
        withSavedState {
            // A rectangle on whole device pixels (a bar) clips by pixels; any other shape by its coverage.
            let device = t.apply(to: path.controlPointBounds)
            if t.preservesAxisAlignment, device.integral == device.standardized, path == Path(rect: path.controlPointBounds),
               let pixels = PixelRect(enclosing: device) {
                clip(toPixels: PixelRect(x: pixels.x + dx, y: pixels.y + dy, width: pixels.width, height: pixels.height))
            } else {
                clip(to: path)
            }
            draw(material, atDevicePixel: (region.minX + dx, region.minY + dy))
        }
    }

    /// The largest backdrop blur, in device pixels: a blur this wide already shows only the average colour
    /// of a screen's worth of content, and its margin bounds the pixels read.
    public static let maxBackdropSigma = 256.0

    /// The largest saturation factor: far past anything visible (64 already turns a grey of one level off
    /// into black or white), and it keeps the fixed-point colour matrix within 32 bits.
    public static let maxBackdropSaturation = 64.0
}
