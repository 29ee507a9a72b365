internal import RasterCore
package import SnapshotView

/// A layer that draws a path: filled with `fillColor` (default black) by `fillRule`, then stroked with
/// `strokeColor` (default none), under its sublayers. `path`, `fillColor`, `strokeColor`, `lineWidth`,
/// `strokeStart`, `strokeEnd`, `lineDashPhase` and `miterLimit` animate, explicitly and (on a layer no
/// view owns) implicitly, as in Core Animation.
open class CAShapeLayer: CALayer {
    /// The path, in the layer's coordinates (points); nil draws nothing.
    open var path: CGPath? { didSet { contentChanged("path", from: oldValue) } }
    /// Default opaque black; nil fills nothing.
    open var fillColor: CGColor? = .black { didSet { contentChanged("fillColor", from: oldValue) } }
    /// Non-zero (default) or even-odd.
    open var fillRule = CAShapeLayerFillRule.nonZero
    /// Default nil: no stroke.
    open var strokeColor: CGColor? { didSet { contentChanged("strokeColor", from: oldValue) } }
    /// Points, centred on the path. Default 1; 0 or less strokes nothing.
    open var lineWidth: CGFloat = 1 { didSet { contentChanged("lineWidth", from: oldValue) } }
    /// Where the stroke begins, as a fraction 0…1 of the path's whole length (all subpaths). Default 0.
    open var strokeStart: CGFloat = 0 { didSet { contentChanged("strokeStart", from: oldValue) } }
    /// Where the stroke ends, as a fraction 0…1 of the path's whole length. Default 1. Nothing is stroked
    /// when it is not above `strokeStart`.
    open var strokeEnd: CGFloat = 1 { didSet { contentChanged("strokeEnd", from: oldValue) } }
    /// Default `.butt`.
    open var lineCap = CAShapeLayerLineCap.butt
    /// Default `.miter`.
    open var lineJoin = CAShapeLayerLineJoin.miter
    /// The longest miter join, as a multiple of `lineWidth`, before it is drawn bevelled. Default 10.
    open var miterLimit: CGFloat = 10 { didSet { contentChanged("miterLimit", from: oldValue) } }
    /// Alternating lengths (points) of dashes and gaps; nil (the default) strokes solid. Dashes stay
    /// where the whole path puts them while `strokeStart`/`strokeEnd` hide parts of it.
    open var lineDashPattern: [NSNumber]?
    /// How far into the dash pattern (points) each subpath starts. Default 0.
    open var lineDashPhase: CGFloat = 0 { didSet { contentChanged("lineDashPhase", from: oldValue) } }

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
            lineCap = other.lineCap
            lineJoin = other.lineJoin
            miterLimit = other.miterLimit
            lineDashPattern = other.lineDashPattern
            lineDashPhase = other.lineDashPhase
        }
    }

    open override class func makeForView() -> CALayer { CAShapeLayer() }
    override class func presentationCopy(of layer: CALayer) -> CALayer { CAShapeLayer(layer: layer) }

    /// A content property as shown now: an explicit animation's value, else the model's.
    private func shown(_ keyPath: String, _ model: CGFloat) -> Double {
        presentedContentValue(forKeyPath: keyPath).flatMap(AnimationValue.number) ?? Double(model)
    }

    package override func drawnContent() -> (any ViewContent)? {
        // An explicit animation of a content property shows its value now (Core Animation's presentation).
        let shownPath = presentedContentValue(forKeyPath: "path").flatMap(AnimationValue.path) ?? path
        let shownFill = presentedContentValue(forKeyPath: "fillColor").flatMap(AnimationValue.color) ?? fillColor
        let shownStroke = presentedContentValue(forKeyPath: "strokeColor").flatMap(AnimationValue.color) ?? strokeColor
        guard let shownPath, !shownPath.isEmpty else { return super.drawnContent() }
        let fill = shownFill.flatMap { $0.alpha > 0 ? $0.color : nil }
        var stroke: (Color, StrokeStyle)?
        if let shownStroke, shownStroke.alpha > 0 {
            let style = StrokeStyle(
                width: shown("lineWidth", lineWidth), cap: lineCap.strokeCap, join: lineJoin.strokeJoin,
                miterLimit: shown("miterLimit", miterLimit), dashes: (lineDashPattern ?? []).map(\.doubleValue),
                dashPhase: shown("lineDashPhase", lineDashPhase), start: shown("strokeStart", strokeStart), end: shown("strokeEnd", strokeEnd))
            if style.width > 0 { stroke = (shownStroke.color, style) }
        }
        guard fill != nil || stroke != nil else { return super.drawnContent() }
        return ShapeContent(path: shownPath.path, fill: fill, rule: fillRule == .evenOdd ? .evenOdd : .nonZero,
                            stroke: stroke, below: super.drawnContent())
    }

    override var contentKeyPaths: Set<String> {
        ["path", "fillColor", "strokeColor", "strokeStart", "strokeEnd", "lineWidth", "lineDashPhase", "miterLimit"]
    }

    override func contentModelValue(forKeyPath keyPath: String) -> Any? {
        switch keyPath {
        case "path": path
        case "fillColor": fillColor
        case "strokeColor": strokeColor
        case "strokeStart": strokeStart
        case "strokeEnd": strokeEnd
        case "lineWidth": lineWidth
        case "lineDashPhase": lineDashPhase
        case "miterLimit": miterLimit
        default: nil
        }
    }
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

extension CAShapeLayerLineCap {
    var strokeCap: StrokeStyle.LineCap {
        switch self {
        case .round: .round
        case .square: .square
        default: .butt
        }
    }
}

extension CAShapeLayerLineJoin {
    var strokeJoin: StrokeStyle.LineJoin {
        switch self {
        case .round: .round
        case .bevel: .bevel
        default: .miter
        }
    }
}
