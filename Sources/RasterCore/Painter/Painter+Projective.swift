import CRasterKernels

extension Painter {
    /// Draws `image` through `projection`, which maps the image's points (its pixels divided by its scale,
    /// origin at its top-left) into user space with perspective: a layer turned in 3-D, seen flat.
    ///
    /// The outline is the image's rectangle mapped through the whole transform, cut where it passes behind
    /// the eye, and anti-aliased by exact coverage, as every other edge. Inside, each device pixel is the mean
    /// of a grid of bilinear samples over its square as seen in the image (`crk_bilinear_projective`): one
    /// sample where the image is magnified, more where it is shrunk, so the far side of a turning layer does
    /// not shimmer. An affine `projection` is drawn by ``draw(_:transform:opacity:)``, pixel for pixel.
    /// `opacity` is 0…1, default 1. Nothing is drawn for a mapping that collapses the image (a layer seen
    /// edge-on) or that is not finite.
    public func draw(_ image: Bitmap, projection: Projective2D, opacity: Double = 1) {
        if let affine = projection.affine {
            draw(image, transform: affine, opacity: opacity)
            return
        }
        let o = (opacity.isNaN ? 0 : min(1, max(0, opacity))) * state.alpha
        let opacity8 = UInt32(PixelMath.coverageByte(o))
        guard opacity8 > 0, projection.isFinite, image.width > 0, image.height > 0 else { return }
        let pixelToDevice = Projective2D(Transform2D(scaleX: 1 / image.scale, y: 1 / image.scale))
            .concatenating(projection).concatenating(state.transform)
        guard let inverse = pixelToDevice.inverted() else { return }
        let clip = state.clipBounds
        guard !clip.isEmpty else { return }
        // The outline within the clip (two pixels more, so that its anti-aliased edge is whole).
        let window = Rect(x: Double(clip.minX - 2), y: Double(clip.minY - 2), width: Double(clip.width + 4), height: Double(clip.height + 4))
        let outline = pixelToDevice.outline(of: image.pixelFrame, within: window)
        guard outline.count >= 3 else { return }
        var path = Path()
        path.move(to: outline[0])
        for p in outline.dropFirst() { path.addLine(to: p) }
        path.closeSubpath()
        let m = [inverse.m11, inverse.m12, inverse.m13, inverse.m21, inverse.m22, inverse.m23, inverse.m31, inverse.m32, inverse.m33]
        let mode = state.blendMode, iw = Int32(image.width), ih = Int32(image.height)
        var shaded = [UInt32]()
        image.withUnsafePixels { src in
            withTargetPixels { pixels, width, _ in
                m.withUnsafeBufferPointer { matrix in
                    rasterizer.rasterizePath(path, transform: .identity, within: clip) { row in
                        withMaskedCoverage(row) { coverage, _ in
                            let count = coverage.count
                            if shaded.count < count { shaded = [UInt32](repeating: 0, count: count) }
                            shaded.withUnsafeMutableBufferPointer { out in
                                crk_bilinear_projective(src.baseAddress!, iw, ih, matrix.baseAddress!, Int32(row.y), Int32(row.x0),
                                                        coverage.baseAddress!, Int32(count), out.baseAddress!)
                                RowBlender.pixels(pixels + row.y * width + row.x0, out.baseAddress!, count: count,
                                                  coverage: coverage.baseAddress!, opacity: opacity8, mode: mode)
                            }
                        }
                    }
                }
            }
        }
    }
}
