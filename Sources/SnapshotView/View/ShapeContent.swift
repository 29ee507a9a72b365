import RasterCore

/// A filled and stroked path, drawn in the view's bounds coordinates (points) over what is `below` it
/// (a layer's `contents` image, if any): a `CAShapeLayer`'s drawing, and a scene file's `shape` and
/// `mask`.
public struct ShapeContent: ViewContent {
    /// The path, in the view's bounds coordinates (points).
    public let path: Path
    /// The fill; nil for none.
    public let fill: Color?
    /// How the fill treats where the path crosses itself.
    public let rule: FillRule
    /// The stroke over the fill; nil for none.
    public let stroke: (color: Color, style: StrokeStyle)?
    /// Drawn first, under the shape. Default nil.
    public let below: (any ViewContent)?

    /// `path` filled with `fill` by `rule` (default non-zero), then stroked (widths in points), over `below`.
    public init(path: Path, fill: Color?, rule: FillRule = .nonZero, stroke: (color: Color, style: StrokeStyle)?, below: (any ViewContent)? = nil) {
        self.path = path
        self.fill = fill
        self.rule = rule
        self.stroke = stroke
        self.below = below
    }

    /// Draws `below`, the fill, then the stroke.
    public func draw(in painter: Painter, bounds: Rect) {
        below?.draw(in: painter, bounds: bounds)
        if let fill { painter.fill(path, color: fill, rule: rule) }
        if let stroke { painter.stroke(path, style: stroke.style, color: stroke.color) }
    }

    /// The path's control-point bounds, grown by what the stroke can reach past them, with `below`'s.
    public func extent(in bounds: Rect) -> Rect {
        var shape = path.controlPointBounds
        if let style = stroke?.style {
            // A miter reaches up to miterLimit half widths from its corner, a square cap √2.
            let reach = style.width / 2 * max(style.join == .miter ? max(1, style.miterLimit) : 1, style.cap == .square ? 2.0.squareRoot() : 1)
            if reach.isFinite { shape = shape.insetBy(dx: -reach, dy: -reach) }
        }
        return shape.union(below?.extent(in: bounds) ?? shape)
    }
}
