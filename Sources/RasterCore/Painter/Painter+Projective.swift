import CRasterKernels

extension Painter {
    /// Draws `image` through `projection`, which maps the image's points (its pixels divided by its scale,
    /// origin at its top-left) into user space with perspective: a layer turned in 3-D, seen flat.
    ///
    /// The outline is the image's rectangle mapped through the whole transform, cut where it passes behind
    /// the eye, and anti-aliased by exact coverage, as every other edge. Inside, each device pixel filters
    /// its square as seen in the image, so the far side of a turning layer does not shimmer:
    /// - Turned about an axis parallel to one of the image's sides (a card flip about y or x), each device
    ///   column (or row) sees one column (row) of the image, and the pixel is the box its square spans along
    ///   each of the image's two axes (at least a texel each way, so a magnified pixel is a bilinear sample),
    ///   in two passes along them (`crk_turn_make`): the image filtered along one axis for the drawing's
    ///   columns (about y: as many pixels as the image's rows times the drawing's columns, at most the
    ///   image's size), then along the other. Not where a box would be longer than 62 texels (nearly
    ///   edge-on): there, as for any other turn, the general sampler.
    /// - Any other turn: the mean of bilinear samples (`crk_bilinear_projective`): one where the image is
    ///   magnified; where it is shrunk, up to four along the square's longer side in a halved copy of the image
    ///   (a mipmap level) whose texels span its shorter side. The halvings a draw needs are made for it (a
    ///   third of the image's pixels at most).
    ///
    /// An affine `projection` is drawn by ``draw(_:transform:opacity:)``, pixel for pixel.
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
        let mode = state.blendMode
        var shaded = [UInt32]()
        /// Rasterizes the outline, shades each row's covered pixels with `shade` (device row, first column,
        /// coverage, count, out) and blends them.
        func drawRows(_ shade: (Int, Int, UnsafeBufferPointer<UInt8>, UnsafeMutablePointer<UInt32>) -> Void) {
            withTargetPixels { pixels, width, _ in
                rasterizer.rasterizePath(path, transform: .identity, within: clip) { row in
                    withMaskedCoverage(row) { coverage, _ in
                        let count = coverage.count
                        if shaded.count < count { shaded = [UInt32](repeating: 0, count: count) }
                        shaded.withUnsafeMutableBufferPointer { out in
                            shade(row.y, row.x0, coverage, out.baseAddress!)
                            RowBlender.pixels(pixels + row.y * width + row.x0, out.baseAddress!, count: count,
                                              coverage: coverage.baseAddress!, opacity: opacity8, mode: mode)
                        }
                    }
                }
            }
        }
        // A turn about an axis parallel to one of the image's sides (a card flip): two passes along the
        // image's axes, no halvings (`crk_turn_make`), over the pixels the outline can reach.
        let xs = outline.map(\.x), ys = outline.map(\.y)
        let minX = Int(xs.min()!.rounded(.down)) - 1, minY = Int(ys.min()!.rounded(.down)) - 1
        let reach = PixelRect(x: minX, y: minY, width: Int(xs.max()!.rounded(.up)) + 1 - minX,
                              height: Int(ys.max()!.rounded(.up)) + 1 - minY).intersection(clip)
        if !reach.isEmpty {
            let drawn = image.withUnsafePixels { src -> Bool in
                let made = m.withUnsafeBufferPointer { matrix in
                    crk_turn_make(src.baseAddress!, Int32(image.width), Int32(image.height), matrix.baseAddress!,
                                  Int32(reach.minX), Int32(reach.minY), Int32(reach.maxX), Int32(reach.maxY))
                }
                guard let turn = made else { return false }
                defer { crk_turn_free(turn) }
                drawRows { y, x0, coverage, out in
                    crk_turn_row(turn, Int32(y), Int32(x0), coverage.baseAddress!, Int32(coverage.count), out)
                }
                return true
            }
            if drawn { return }
        }
        // The halvings the farthest corner needs, and one more for the pixels between (none where no corner
        // is shrunk: a slight turn), down to a 1-pixel side.
        var deepest = 0
        m.withUnsafeBufferPointer { matrix in
            for p in outline { deepest = max(deepest, Int(crk_projective_level(matrix.baseAddress!, p.x, p.y))) }
        }
        let levels = deepest == 0 ? 1 : deepest + 2
        var sizes = [(width: image.width, height: image.height)]
        while sizes.count < min(levels, Int(CRK_PROJECTIVE_LEVELS)), let last = sizes.last, last.width > 1 || last.height > 1 {
            sizes.append(((last.width + 1) / 2, (last.height + 1) / 2))
        }
        var offsets = [0]
        for size in sizes.dropFirst() { offsets.append(offsets[offsets.count - 1] + size.width * size.height) }
        var halvings = [UInt32](repeating: 0, count: offsets[offsets.count - 1])
        image.withUnsafePixels { src in
            halvings.withUnsafeMutableBufferPointer { halved in
                var source = crk_projective_source()
                withUnsafeMutableBytes(of: &source.pixels) { slots in
                    let pointers = slots.bindMemory(to: UnsafePointer<UInt32>?.self)
                    pointers[0] = src.baseAddress!
                    for k in 1..<sizes.count {
                        let into = halved.baseAddress! + offsets[k - 1]
                        let from = k == 1 ? src.baseAddress! : UnsafePointer(halved.baseAddress! + offsets[k - 2])
                        crk_mip_halve(from, Int32(sizes[k - 1].width), Int32(sizes[k - 1].height), into)
                        pointers[k] = UnsafePointer(into)
                    }
                }
                withUnsafeMutableBytes(of: &source.width) { widths in
                    withUnsafeMutableBytes(of: &source.height) { heights in
                        for (k, size) in sizes.enumerated() {
                            widths.storeBytes(of: Int32(size.width), toByteOffset: 4 * k, as: Int32.self)
                            heights.storeBytes(of: Int32(size.height), toByteOffset: 4 * k, as: Int32.self)
                        }
                    }
                }
                source.levels = Int32(sizes.count)
                m.withUnsafeBufferPointer { matrix in
                    drawRows { y, x0, coverage, out in
                        crk_bilinear_projective(&source, matrix.baseAddress!, Int32(y), Int32(x0), coverage.baseAddress!, Int32(coverage.count), out)
                    }
                }
            }
        }
    }
}
