package import RasterCore

/// A drawing context as Core Graphics has it, recording what is drawn (fills and strokes of paths, in
/// the context's current transform) for Smokescreen's renderer to draw: UIKit's `draw(_:)`,
/// `UIGraphicsImageRenderer` and `UIBezierPath.fill()` draw through one. Fills (non-zero and even-odd),
/// strokes (width, caps, joins, miter limit, dashes) and images are drawn.
open class CGContext: @unchecked Sendable {
    /// One recorded drawing operation, in the context's device space (points).
    package enum Operation: Sendable {
        case fill(Path, color: Color, evenOdd: Bool)
        /// A path in device space stroked in `transform`'s user space (Core Graphics computes a stroke in
        /// the user space current when it is drawn: a scaled context draws a wider line).
        case stroke(Path, color: Color, style: StrokeStyle, transform: Transform2D)
        case image(Bitmap, rect: Rect, transform: Transform2D, alpha: Double)
    }

    private struct State {
        var fill = CGColor.black
        var stroke = CGColor.black
        var lineWidth: CGFloat = 1
        var lineCap = CGLineCap.butt
        var lineJoin = CGLineJoin.miter
        var miterLimit: CGFloat = 10
        var dashes: [CGFloat] = []
        var dashPhase: CGFloat = 0
        var alpha: CGFloat = 1
        var ctm = CGAffineTransform.identity
    }

    private var state = State()
    private var saved: [State] = []
    private var current = CGMutablePath()
    /// What was drawn, in order.
    package private(set) var operations: [Operation] = []
    /// The size of what the context draws into (points).
    package let size: CGSize

    package init(size: CGSize) { self.size = size }

    // State.
    public func saveGState() { saved.append(state) }
    public func restoreGState() { if let last = saved.popLast() { state = last } }
    public func setFillColor(_ color: CGColor) { state.fill = color }
    public func setStrokeColor(_ color: CGColor) { state.stroke = color }
    public func setLineWidth(_ width: CGFloat) { if width.isFinite { state.lineWidth = max(0, width) } }
    public func setLineCap(_ cap: CGLineCap) { state.lineCap = cap }
    public func setLineJoin(_ join: CGLineJoin) { state.lineJoin = join }
    /// The longest miter join, as a multiple of the line width, before it is drawn bevelled. Default 10.
    public func setMiterLimit(_ limit: CGFloat) { if limit.isFinite { state.miterLimit = limit } }
    /// Dashes: alternating lengths (user-space points) of dashes and gaps, each subpath starting `phase`
    /// into the pattern. An empty `lengths` strokes solid again.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) { state.dashPhase = phase; state.dashes = lengths }
    public func setAlpha(_ alpha: CGFloat) { if alpha.isFinite { state.alpha = min(1, max(0, alpha)) } }

    // The current transform.
    public var ctm: CGAffineTransform { state.ctm }
    public func translateBy(x: CGFloat, y: CGFloat) { state.ctm = CGAffineTransform(translationX: x, y: y).concatenating(state.ctm) }
    public func scaleBy(x: CGFloat, y: CGFloat) { state.ctm = CGAffineTransform(scaleX: x, y: y).concatenating(state.ctm) }
    public func rotate(by angle: CGFloat) { state.ctm = CGAffineTransform(rotationAngle: angle).concatenating(state.ctm) }
    public func concatenate(_ t: CGAffineTransform) { state.ctm = t.concatenating(state.ctm) }

    // Building the current path (in user space, mapped by the current transform).
    public func beginPath() { current = CGMutablePath() }
    public func move(to point: CGPoint) { current.move(to: point, transform: state.ctm) }
    public func addLine(to point: CGPoint) { current.addLine(to: point, transform: state.ctm) }
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        current.addCurve(to: end, control1: control1, control2: control2, transform: state.ctm)
    }
    public func addQuadCurve(to end: CGPoint, control: CGPoint) { current.addQuadCurve(to: end, control: control, transform: state.ctm) }
    public func closePath() { current.closeSubpath() }
    public func addRect(_ rect: CGRect) { current.addRect(rect, transform: state.ctm) }
    public func addEllipse(in rect: CGRect) { current.addEllipse(in: rect, transform: state.ctm) }
    public func addPath(_ path: CGPath) { current.addPath(path, transform: state.ctm) }
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        current.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise, transform: state.ctm)
    }

    private var strokeStyle: StrokeStyle {
        StrokeStyle(width: Double(state.lineWidth), cap: state.lineCap.strokeCap, join: state.lineJoin.strokeJoin,
                    miterLimit: Double(state.miterLimit), dashes: state.dashes.map(Double.init), dashPhase: Double(state.dashPhase))
    }

    private func recordStroke(_ path: Path) {
        operations.append(.stroke(path, color: faded(state.stroke), style: strokeStyle, transform: state.ctm.transform2D))
    }

    private func faded(_ color: CGColor) -> Color {
        var c = color.color
        c = Color(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha * Double(state.alpha))
        return c
    }

    // Drawing.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        operations.append(.fill(current.path, color: faded(state.fill), evenOdd: rule == .evenOdd))
        current = CGMutablePath()
    }

    public func strokePath() {
        recordStroke(current.path)
        current = CGMutablePath()
    }

    public func drawPath(using mode: CGPathDrawingMode) {
        let path = current.path
        if mode == .fill || mode == .fillStroke || mode == .eoFill || mode == .eoFillStroke {
            operations.append(.fill(path, color: faded(state.fill), evenOdd: mode == .eoFill || mode == .eoFillStroke))
        }
        if mode == .stroke || mode == .fillStroke || mode == .eoFillStroke {
            recordStroke(path)
        }
        current = CGMutablePath()
    }

    public func fill(_ rect: CGRect) {
        let path = CGMutablePath()
        path.addRect(rect, transform: state.ctm)
        operations.append(.fill(path.path, color: faded(state.fill), evenOdd: false))
    }

    public func fillEllipse(in rect: CGRect) {
        let path = CGMutablePath()
        path.addEllipse(in: rect, transform: state.ctm)
        operations.append(.fill(path.path, color: faded(state.fill), evenOdd: false))
    }

    public func stroke(_ rect: CGRect) {
        let path = CGMutablePath()
        path.addRect(rect, transform: state.ctm)
        recordStroke(path.path)
    }

    public func strokeEllipse(in rect: CGRect) {
        let path = CGMutablePath()
        path.addEllipse(in: rect, transform: state.ctm)
        recordStroke(path.path)
    }

    /// Draws `image` stretched over `rect` (points, user space).
    public func draw(_ image: CGImage, in rect: CGRect) {
        operations.append(.image(image.bitmap, rect: rect.rect, transform: state.ctm.transform2D, alpha: Double(state.alpha)))
    }

    /// Whether anything was drawn.
    package var isEmpty: Bool { operations.isEmpty }
}

/// How ``CGContext/drawPath(using:)`` paints the current path.
public enum CGPathDrawingMode: Int32, Sendable {
    case fill, eoFill, stroke, fillStroke, eoFillStroke
}

extension CGLineCap {
    package var strokeCap: StrokeStyle.LineCap {
        switch self {
        case .butt: .butt
        case .round: .round
        case .square: .square
        }
    }
}

extension CGLineJoin {
    package var strokeJoin: StrokeStyle.LineJoin {
        switch self {
        case .miter: .miter
        case .round: .round
        case .bevel: .bevel
        }
    }
}
