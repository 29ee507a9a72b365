internal import RasterCore

/// UIKit's path: lines, curves and arcs in points (UIKit's y-down space, where `clockwise` means
/// clockwise on the screen), filled or stroked into the current context.
///
/// `init(roundedRect:cornerRadius:)` has UIKit's continuous corners; the corners of
/// `init(roundedRect:byRoundingCorners:cornerRadii:)` are circular arcs here (under a point from a
/// continuous corner for radii below about 20 pt).
open class UIBezierPath: NSObject, @unchecked Sendable {
    private var path = CGMutablePath()

    /// The stroke width (points). Default 1.
    open var lineWidth: CGFloat = 1
    open var lineCapStyle = CGLineCap.butt
    open var lineJoinStyle = CGLineJoin.miter
    /// The longest miter join, as a multiple of `lineWidth`, before it is drawn bevelled. Default 10.
    open var miterLimit: CGFloat = 10
    /// Accepted; curves are always flattened to a tenth of a device pixel here.
    open var flatness: CGFloat = 0.6
    /// Fill with the even-odd rule. Default false (non-zero).
    open var usesEvenOddFillRule = false
    private var dashPattern: [CGFloat] = []
    private var dashPhase: CGFloat = 0

    public override init() { super.init() }

    public convenience init(rect: CGRect) {
        self.init()
        path.addRect(rect)
    }

    public convenience init(ovalIn rect: CGRect) {
        self.init()
        path.addEllipse(in: rect)
    }

    /// A rounded rectangle with UIKit's continuous corners (iOS 7's construction, as
    /// `CALayer.cornerCurve = .continuous` draws them; docs/uikit.md's "Continuous corners"), starting on
    /// the top edge just past the top-left corner and running clockwise on the screen, as UIKit's does.
    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        self.init()
        let shape = Path(roundedRect: rect.rect, cornerRadii: CornerRadii(all: cornerRadius.isFinite ? Double(cornerRadius) : 0), curve: .continuous)
        var elements = CGPath.elements(of: shape)
        // Path builds it from the top-left corner's start on the left side; UIKit's starts after that
        // corner: move the first corner's curves to the end.
        if case .moveTo(let start)? = elements.first, let firstLine = elements.firstIndex(where: { if case .lineTo = $0 { true } else { false } }),
           firstLine > 1, case .curveTo(let afterCorner, _, _) = elements[firstLine - 1], elements.last == .closeSubpath {
            let corner = Array(elements[1..<firstLine])
            let rest = Array(elements[firstLine..<(elements.count - 1)])
            elements = [.moveTo(afterCorner)] + rest + [.lineTo(start)] + corner + [.closeSubpath]
        }
        path = CGMutablePath(elements: elements)
    }

    /// A rectangle with `corners` rounded by `cornerRadii` (the width is used for both axes, as UIKit
    /// does), the others square.
    public convenience init(roundedRect rect: CGRect, byRoundingCorners corners: UIRectCorner, cornerRadii: CGSize) {
        self.init()
        let r = rect.standardized
        let radius = min(max(0, cornerRadii.width), r.width / 2, r.height / 2)
        func radiusAt(_ corner: UIRectCorner) -> CGFloat { corners.contains(corner) ? radius : 0 }
        let tl = radiusAt(.topLeft), tr = radiusAt(.topRight), br = radiusAt(.bottomRight), bl = radiusAt(.bottomLeft)
        move(to: CGPoint(x: r.minX + tl, y: r.minY))
        addLine(to: CGPoint(x: r.maxX - tr, y: r.minY))
        if tr > 0 { addArc(withCenter: CGPoint(x: r.maxX - tr, y: r.minY + tr), radius: tr, startAngle: -.pi / 2, endAngle: 0, clockwise: true) }
        addLine(to: CGPoint(x: r.maxX, y: r.maxY - br))
        if br > 0 { addArc(withCenter: CGPoint(x: r.maxX - br, y: r.maxY - br), radius: br, startAngle: 0, endAngle: .pi / 2, clockwise: true) }
        addLine(to: CGPoint(x: r.minX + bl, y: r.maxY))
        if bl > 0 { addArc(withCenter: CGPoint(x: r.minX + bl, y: r.maxY - bl), radius: bl, startAngle: .pi / 2, endAngle: .pi, clockwise: true) }
        addLine(to: CGPoint(x: r.minX, y: r.minY + tl))
        if tl > 0 { addArc(withCenter: CGPoint(x: r.minX + tl, y: r.minY + tl), radius: tl, startAngle: .pi, endAngle: 3 * .pi / 2, clockwise: true) }
        close()
    }

    /// An arc from `startAngle` to `endAngle` (radians, 0 along +x, increasing towards +y: clockwise on
    /// the screen).
    public convenience init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        self.init()
        addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }

    public convenience init(cgPath: CGPath) {
        self.init()
        path = cgPath.mutableCopy() ?? CGMutablePath()
    }

    // MARK: Building

    open func move(to point: CGPoint) { path.move(to: point) }
    open func addLine(to point: CGPoint) { path.addLine(to: point) }
    open func addCurve(to endPoint: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        path.addCurve(to: endPoint, control1: controlPoint1, control2: controlPoint2)
    }
    open func addQuadCurve(to endPoint: CGPoint, controlPoint: CGPoint) { path.addQuadCurve(to: endPoint, control: controlPoint) }

    /// An arc, joined to the current point by a line; `clockwise` on the screen (y down).
    open func addArc(withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        // Core Graphics' `clockwise` is in y-up terms: the opposite of the screen's.
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: !clockwise)
    }

    open func close() { path.closeSubpath() }
    open func removeAllPoints() { path = CGMutablePath() }
    open func append(_ bezierPath: UIBezierPath) { path.addPath(bezierPath.path) }

    /// Maps every point through `transform`.
    open func apply(_ transform: CGAffineTransform) {
        let mapped = CGMutablePath()
        mapped.addPath(path, transform: transform)
        path = mapped
    }

    /// The same path drawn the other way round (each subpath's points in reverse order).
    open func reversing() -> UIBezierPath {
        let reversed = UIBezierPath()
        reversed.path = path.reversed()
        reversed.lineWidth = lineWidth
        return reversed
    }

    // MARK: Reading

    /// The path as Core Graphics has it (a copy; setting replaces the path).
    open var cgPath: CGPath {
        get { path.copy() ?? CGMutablePath() }
        set { path = newValue.mutableCopy() ?? CGMutablePath() }
    }

    open var isEmpty: Bool { path.isEmpty }
    open var bounds: CGRect { path.boundingBox }
    open var currentPoint: CGPoint { path.currentPoint }

    open func contains(_ point: CGPoint) -> Bool { path.contains(point, using: usesEvenOddFillRule ? .evenOdd : .winding) }

    // MARK: Drawing into the current context

    /// Fills the path with the current fill colour.
    open func fill() {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.addPath(path)
        context.fillPath(using: usesEvenOddFillRule ? .evenOdd : .winding)
    }

    open func fill(with blendMode: CGBlendMode, alpha: CGFloat) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.saveGState()
        context.setAlpha(alpha)
        fill()
        context.restoreGState()
    }

    /// Strokes the path with the current stroke colour and this path's line settings.
    open func stroke() {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.saveGState()
        context.setLineWidth(lineWidth)
        context.setLineCap(lineCapStyle)
        context.setLineJoin(lineJoinStyle)
        context.setMiterLimit(miterLimit)
        context.setLineDash(phase: dashPhase, lengths: dashPattern)
        context.addPath(path)
        context.strokePath()
        context.restoreGState()
    }

    open func stroke(with blendMode: CGBlendMode, alpha: CGFloat) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.saveGState()
        context.setAlpha(alpha)
        stroke()
        context.restoreGState()
    }

    /// Clipping to a path is not drawn (noted).
    open func addClip() { NotDrawn.note("UIBezierPath.addClip") }

    /// Dashes for `stroke()`: `count` alternating lengths (points) of dashes and gaps from `pattern`,
    /// each subpath starting `phase` points into the pattern. A nil pattern or a count of 0 strokes solid.
    open func setLineDash(_ pattern: UnsafePointer<CGFloat>?, count: Int, phase: CGFloat) {
        if let pattern, count > 0 {
            dashPattern = Array(UnsafeBufferPointer(start: pattern, count: count))
        } else {
            dashPattern = []
        }
        dashPhase = phase
    }

    /// Copies the dash pattern into `pattern` (which must hold `count` values when it is not nil) and
    /// gives its length and phase.
    open func getLineDash(_ pattern: UnsafeMutablePointer<CGFloat>?, count: UnsafeMutablePointer<Int>?, phase: UnsafeMutablePointer<CGFloat>?) {
        if let pattern { for (i, length) in dashPattern.enumerated() { pattern[i] = length } }
        count?.pointee = dashPattern.count
        phase?.pointee = dashPhase
    }
}
