internal import RasterCore
package import SnapshotView

/// A layer that draws a path: filled with `fillColor` (default black), under its sublayers. Strokes
/// (`strokeColor`, `lineWidth`, `strokeStart`/`strokeEnd`, dashes) are accepted but not drawn yet
/// (noted when set to something that would show).
open class CAShapeLayer: CALayer {
    /// The path, in the layer's coordinates (points); nil draws nothing.
    open var path: CGPath? { didSet { contentChanged("path", from: oldValue) } }
    /// Default opaque black; nil fills nothing.
    open var fillColor: CGColor? = .black { didSet { contentChanged("fillColor", from: oldValue) } }
    /// Non-zero (default) or even-odd; even-odd is drawn with the non-zero rule (noted).
    open var fillRule = CAShapeLayerFillRule.nonZero { didSet { if fillRule == .evenOdd { NotDrawn.note("CAShapeLayer.fillRule .evenOdd (drawn non-zero)") } } }
    /// Default nil: no stroke. Strokes are not drawn yet (noted).
    open var strokeColor: CGColor? { didSet { noteStroke() } }
    /// Points. Default 1.
    open var lineWidth: CGFloat = 1 { didSet { noteStroke() } }
    /// The part of the path stroked, 0…1. Defaults 0 and 1.
    open var strokeStart: CGFloat = 0
    open var strokeEnd: CGFloat = 1
    open var lineCap = CAShapeLayerLineCap.butt
    open var lineJoin = CAShapeLayerLineJoin.miter
    open var miterLimit: CGFloat = 10
    open var lineDashPattern: [NSNumber]?
    open var lineDashPhase: CGFloat = 0

    public override init() { super.init() }
    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAShapeLayer {
            path = other.path
            fillColor = other.fillColor
            fillRule = other.fillRule
            strokeColor = other.strokeColor
            lineWidth = other.lineWidth
            strokeStart = other.strokeStart
            strokeEnd = other.strokeEnd
        }
    }

    open override class func makeForView() -> CALayer { CAShapeLayer() }
    override class func presentationCopy(of layer: CALayer) -> CALayer { CAShapeLayer(layer: layer) }

    private func noteStroke() {
        if let strokeColor, strokeColor.alpha > 0, lineWidth > 0 { NotDrawn.note("CAShapeLayer strokes") }
    }

    package override func drawnContent() -> (any ViewContent)? {
        // An explicit animation of the path or the fill shows its value now (Core Animation's presentation).
        let shownPath = presentedContentValue(forKeyPath: "path").flatMap(AnimationValue.path) ?? path
        let shownFill = presentedContentValue(forKeyPath: "fillColor").flatMap(AnimationValue.color) ?? fillColor
        guard let shownPath, let shownFill, shownFill.alpha > 0, !shownPath.isEmpty else { return super.drawnContent() }
        return ShapeContent(path: shownPath.path, color: shownFill.color, below: super.drawnContent())
    }

    override var contentKeyPaths: Set<String> { ["path", "fillColor", "strokeColor", "strokeStart", "strokeEnd", "lineWidth"] }

    override func contentModelValue(forKeyPath keyPath: String) -> Any? {
        switch keyPath {
        case "path": path
        case "fillColor": fillColor
        case "strokeColor": strokeColor
        case "strokeStart": strokeStart
        case "strokeEnd": strokeEnd
        case "lineWidth": lineWidth
        default: nil
        }
    }
}

/// A shape layer's filled path (over its `contents` image, if any).
struct ShapeContent: ViewContent {
    let path: Path
    let color: Color
    let below: (any ViewContent)?

    func draw(in painter: Painter, bounds: Rect) {
        below?.draw(in: painter, bounds: bounds)
        painter.fill(path, color: color)
    }

    func extent(in bounds: Rect) -> Rect { path.controlPointBounds.union(below?.extent(in: bounds) ?? path.controlPointBounds) }
}

/// How a shape layer fills where its path crosses itself.
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let nonZero = CAShapeLayerFillRule(rawValue: "non-zero")
    public static let evenOdd = CAShapeLayerFillRule(rawValue: "even-odd")
}

/// How a shape layer's stroke ends.
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let butt = CAShapeLayerLineCap(rawValue: "butt")
    public static let round = CAShapeLayerLineCap(rawValue: "round")
    public static let square = CAShapeLayerLineCap(rawValue: "square")
}

/// How a shape layer's stroke turns corners.
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let miter = CAShapeLayerLineJoin(rawValue: "miter")
    public static let round = CAShapeLayerLineJoin(rawValue: "round")
    public static let bevel = CAShapeLayerLineJoin(rawValue: "bevel")
}
