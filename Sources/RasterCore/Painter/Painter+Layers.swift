extension Painter {
    /// Starts a transparency layer: until the matching ``endLayer(opacity:)`` everything is drawn into a
    /// transparent offscreen bitmap the size of the current clip bounds, with alpha reset to 1, which is
    /// then composited once. This is group opacity (UIKit's `allowsGroupOpacity`): overlapping children
    /// do not show through each other.
    public func beginLayer() {
        let box = state.clipBounds
        let scale = targetScale
        let bitmap = (try? Bitmap(width: max(1, box.width), height: max(1, box.height), scale: scale)) ?? Bitmap.placeholder
        layers.append(Layer(bitmap: bitmap, origin: (box.x, box.y), opacity: state.alpha,
                            blendMode: state.blendMode, stateDepth: savedStates.count + 1))
        savedStates.append(state)
        state.transform = state.transform.concatenating(AffineTransform(translationX: Double(-box.x), y: Double(-box.y)))
        state.clipBounds = PixelRect(x: 0, y: 0, width: box.width, height: box.height)
        state.mask?.offset(dx: -box.x, dy: -box.y)
        state.alpha = 1
        state.blendMode = .sourceOver
    }

    /// Ends the innermost layer and composites it into what is below with `opacity` (0…1, default 1)
    /// times the alpha that was current at ``beginLayer()``, in the blend mode current then. Without an
    /// open layer it does nothing.
    public func endLayer(opacity: Double = 1) {
        guard let layer = layers.popLast() else { return }
        savedStates.removeSubrange(layer.stateDepth...)
        state = savedStates.removeLast()
        let o = (opacity.isNaN ? 0 : min(1, max(0, opacity))) * layer.opacity
        let opacity8 = UInt32(PixelMath.coverageByte(o))
        guard opacity8 > 0 else { return }
        // The layer's content was already clipped while it was drawn, so the clip is not applied again.
        let mode = layer.blendMode
        let source = layer.bitmap, sw = source.width
        let rows = min(state.clipBounds.height, source.height), cols = min(state.clipBounds.width, sw)
        guard rows > 0, cols > 0 else { return }
        source.withUnsafePixels { src in
            withTargetPixels { dst, width, _ in
                for y in 0..<rows {
                    RowBlender.pixels(dst + (layer.origin.y + y) * width + layer.origin.x, src.baseAddress! + y * sw,
                                      count: cols, coverage: nil, opacity: opacity8, mode: mode)
                }
            }
        }
    }

    /// Draws `body` as one group composited with `opacity`.
    public func withLayer(opacity: Double, _ body: () throws -> Void) rethrows {
        beginLayer()
        defer { endLayer(opacity: opacity) }
        try body()
    }
}
