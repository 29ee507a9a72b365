internal import RasterCore
internal import SnapshotView

/// A layer whose sublayers keep their depth: they are not flattened into its plane but projected straight
/// into its superlayer's space through its transform (and `sublayerTransform`), drawn from the farthest to
/// the nearest by the depth of their centres — the six faces of a turning cube, the two faces of a card
/// that flips. As Core Animation's, it draws nothing of its own: `backgroundColor`, `contents`, borders,
/// shadows, `mask` and `masksToBounds` are ignored (its `opacity` applies to the whole). Planes that cross
/// are not split (neither does Core Animation split them); a transform layer inside another adds its
/// sublayers to the outer one's depth order (unless its opacity is below 1: then it is one piece).
open class CATransformLayer: CALayer {
    public override init() {
        super.init()
        backing.preservesDepth = true
    }

    public override init(layer: Any) {
        super.init(layer: layer)
        backing.preservesDepth = true
    }

    open override class func makeForView() -> CALayer { CATransformLayer() }
    override class func presentationCopy(of layer: CALayer) -> CALayer { CATransformLayer(layer: layer) }
}
