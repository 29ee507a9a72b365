extension Painter {
    /// Starts a transparency layer: until the matching ``endLayer(opacity:)`` everything is drawn into a
    /// transparent offscreen bitmap the size of the current clip bounds, with alpha reset to 1, which is
    /// then composited once. This is group opacity (UIKit's `allowsGroupOpacity`): overlapping children
    /// do not show through each other.
    public func beginLayer() {
        let box = state.clipBounds
        let scale = targetScale
        let bitmap = (try? Bitmap(width: max(1, box.width), height: max(1, box.height), scale: scale)) ?? Bitmap.placeholder
        layers.append(Layer(bitmap: bitmap, origin: (box.x, box.y), opacity: state.alpha, stateDepth: savedStates.count + 1))
        savedStates.append(state)
        state.transform = state.transform.concatenating(Transform2D(translationX: Double(-box.x), y: Double(-box.y)))
        state.clipBounds = PixelRect(x: 0, y: 0, width: box.width, height: box.height)
        // The clip's mask is applied once, when the layer is composited, not to each thing drawn in it:
        // overlapping children then share one anti-aliased edge, and the copy blend mode stays exact.
        state.mask = nil
        state.alpha = 1
        state.blendMode = .sourceOver
    }

    /// Ends the innermost layer and composites it into what is below with `opacity` (0…1, default 1)
    /// times the alpha that was current at ``beginLayer()``, in the blend mode and through the clip that
    /// were current then. Without an open layer it does nothing.
    public func endLayer(opacity: Double = 1) {
        guard let layer = layers.popLast() else { return }
        savedStates.removeSubrange(layer.stateDepth...)
        state = savedStates.removeLast()
        let o = (opacity.isNaN ? 0 : min(1, max(0, opacity))) * layer.opacity
        let opacity8 = UInt32(PixelMath.coverageByte(o))
        guard opacity8 > 0 else { return }
        // Blended like an image at a whole-pixel offset: through the clip bounds and mask, in the blend
        // mode that was current at `beginLayer` (restored with the state).
        copyPixels(of: layer.bitmap, at: layer.origin, opacity: opacity8)
    }

    /// Draws `body` as one group composited with `opacity`.
    public func withLayer(opacity: Double, _ body: () throws -> Void) rethrows {
        beginLayer()
        defer { endLayer(opacity: opacity) }
        try body()
    }
}
