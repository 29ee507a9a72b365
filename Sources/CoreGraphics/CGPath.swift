/// A path as Core Graphics has it: subpaths of lines and Bézier curves, in points. Immutable; build one
/// with ``CGMutablePath``. Two paths with the same elements interpolate point by point (Core Animation's
/// rule for animating `CAShapeLayer.path`).
open class CGPath: Equatable, Hashable, @unchecked Sendable, CustomStringConvertible {
    /// One element of a path, in points.
    public enum Element: Equatable, Hashable, Sendable {
        case moveTo(CGPoint)
        case lineTo(CGPoint)
        case quadCurveTo(CGPoint, control: CGPoint)
        case curveTo(CGPoint, control1: CGPoint, control2: CGPoint)
        case closeSubpath
    }

    /// The path's elements, in order.
    public internal(set) var elements: [Element]

    package init(elements: [Element]) { self.elements = elements }

    /// A rectangle.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addRect(rect, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements)
    }

    /// The ellipse inscribed in `rect`.
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addEllipse(in: rect, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements)
    }

    /// A rectangle with rounded corners.
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements)
    }

    /// Whether the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// The last point of the path (zero when empty).
    public var currentPoint: CGPoint {
        var start = CGPoint.zero, point = CGPoint.zero
        for element in elements {
            switch element {
            case .moveTo(let p): start = p; point = p
            case .lineTo(let p), .quadCurveTo(let p, _), .curveTo(let p, _, _): point = p
            case .closeSubpath: point = start
            }
        }
        return point
    }

    /// The smallest rectangle holding every point of the path, control points included (as Core
    /// Graphics' `boundingBox`); `.null` when empty.
    public var boundingBox: CGRect {
        var points: [CGPoint] = []
        for element in elements {
            switch element {
            case .moveTo(let p), .lineTo(let p): points.append(p)
            case .quadCurveTo(let p, let c): points += [p, c]
            case .curveTo(let p, let c1, let c2): points += [p, c1, c2]
            case .closeSubpath: break
            }
        }
        guard let first = points.first else { return .null }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points { minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y) }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The smallest rectangle holding every point the path passes through, control points left out (as
    /// Core Graphics' `boundingBoxOfPath`): curves counted by their extremes; `.null` when empty.
    public var boundingBoxOfPath: CGRect {
        var minX = CGFloat.infinity, minY = CGFloat.infinity, maxX = -CGFloat.infinity, maxY = -CGFloat.infinity
        func add(_ p: CGPoint) { minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y) }
        var start = CGPoint.zero, point = CGPoint.zero, any = false
        for element in elements {
            any = true
            switch element {
            case .moveTo(let p):
                start = p; point = p; add(p)
            case .lineTo(let p):
                add(p); point = p
            case .quadCurveTo(let p, let c):
                add(p)
                // Where the derivative of each coordinate is zero: t = (p0 − c) / (p0 − 2c + p1).
                for (a, b, e) in [(point.x, c.x, p.x), (point.y, c.y, p.y)] {
                    let d = a - 2 * b + e
                    guard d != 0 else { continue }
                    let t = (a - b) / d
                    if t > 0, t < 1 { add(Self.quadPoint(point, c, p, t)) }
                }
                point = p
            case .curveTo(let p, let c1, let c2):
                add(p)
                // The derivative's roots per coordinate: a t² + b t + c with a = 3(−p0 + 3c1 − 3c2 + p1),
                // b = 6(p0 − 2c1 + c2), c = 3(c1 − p0).
                for (p0, q1, q2, p1) in [(point.x, c1.x, c2.x, p.x), (point.y, c1.y, c2.y, p.y)] {
                    let a = 3 * (-p0 + 3 * q1 - 3 * q2 + p1), b = 6 * (p0 - 2 * q1 + q2), c = 3 * (q1 - p0)
                    // The roots in the stable form (q = −½(b + sign(b)·√D), roots q/a and c/q), so that a
                    // cubic that is nearly a quadratic (a tiny from rounding) keeps its real extreme.
                    var roots: [CGFloat] = []
                    if a == 0 {
                        if b != 0 { roots.append(-c / b) }
                    } else {
                        let discriminant = b * b - 4 * a * c
                        if discriminant >= 0 {
                            let r = discriminant.squareRoot()
                            let q = -0.5 * (b + (b < 0 ? -r : r))
                            // (q = 0 only for a double root at t = 0, which is an end, not an extreme.)
                            if q != 0 { roots += [q / a, c / q] }
                        }
                    }
                    for t in roots where t > 0 && t < 1 { add(Self.cubicPoint(point, c1, c2, p, t)) }
                }
                point = p
            case .closeSubpath:
                point = start
            }
        }
        guard any, minX.isFinite else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    private static func quadPoint(_ p0: CGPoint, _ c: CGPoint, _ p1: CGPoint, _ t: CGFloat) -> CGPoint {
        let u = 1 - t
        return CGPoint(x: u * u * p0.x + 2 * u * t * c.x + t * t * p1.x, y: u * u * p0.y + 2 * u * t * c.y + t * t * p1.y)
    }

    private static func cubicPoint(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p1: CGPoint, _ t: CGFloat) -> CGPoint {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return CGPoint(x: a * p0.x + b * c1.x + c * c2.x + d * p1.x, y: a * p0.y + b * c1.y + c * c2.y + d * p1.y)
    }

    /// A mutable copy.
    public func mutableCopy() -> CGMutablePath? { CGMutablePath(elements: elements) }
    /// An immutable copy.
    public func copy() -> CGPath? { CGPath(elements: elements) }

    /// Whether `point` is inside the filled path (by `rule`), flattening curves to lines.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding, transform: CGAffineTransform = .identity) -> Bool {
        var winding = 0, crossings = 0
        for (a, b) in flattenedSegments().map({ ($0.0.applying(transform), $0.1.applying(transform)) }) {
            if (a.y <= point.y) != (b.y <= point.y) {
                let x = a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x)
                if x > point.x {
                    crossings += 1
                    winding += b.y > a.y ? 1 : -1
                }
            }
        }
        return rule == .winding ? winding != 0 : crossings % 2 == 1
    }

    /// The path as line segments (curves cut into 16 pieces), every subpath closed.
    func flattenedSegments() -> [(CGPoint, CGPoint)] {
        var segments: [(CGPoint, CGPoint)] = []
        var start = CGPoint.zero, point = CGPoint.zero
        func close() { if point != start { segments.append((point, start)) } }
        for element in elements {
            switch element {
            case .moveTo(let p):
                close()
                start = p; point = p
            case .lineTo(let p):
                segments.append((point, p)); point = p
            case .quadCurveTo(let p, let c):
                var previous = point
                for i in 1...16 {
                    let t = CGFloat(i) / 16, u = 1 - t
                    let q = CGPoint(x: u * u * point.x + 2 * u * t * c.x + t * t * p.x, y: u * u * point.y + 2 * u * t * c.y + t * t * p.y)
                    segments.append((previous, q)); previous = q
                }
                point = p
            case .curveTo(let p, let c1, let c2):
                var previous = point
                for i in 1...16 {
                    let t = CGFloat(i) / 16, u = 1 - t
                    let q = CGPoint(x: u * u * u * point.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * p.x,
                                    y: u * u * u * point.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * p.y)
                    segments.append((previous, q)); previous = q
                }
                point = p
            case .closeSubpath:
                close()
                point = start
            }
        }
        close()
        return segments
    }

    public static func == (lhs: CGPath, rhs: CGPath) -> Bool { lhs.elements == rhs.elements }
    public func hash(into hasher: inout Hasher) { hasher.combine(elements) }
    public var description: String { "CGPath(\(elements.count) elements, \(boundingBox))" }
}

/// A path that can be added to.
public final class CGMutablePath: CGPath, @unchecked Sendable {
    public init() { super.init(elements: []) }
    override package init(elements: [Element]) { super.init(elements: elements) }

    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        elements.append(.moveTo(point.applying(transform)))
    }

    /// A line from the current point; starts a subpath at `point` when there is none.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        if elements.isEmpty { move(to: point, transform: transform); return }
        elements.append(.lineTo(point.applying(transform)))
    }

    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first, transform: transform)
        for p in points.dropFirst() { addLine(to: p, transform: transform) }
    }

    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        if elements.isEmpty { move(to: control, transform: transform) }
        elements.append(.quadCurveTo(end.applying(transform), control: control.applying(transform)))
    }

    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint, transform: CGAffineTransform = .identity) {
        if elements.isEmpty { move(to: control1, transform: transform) }
        elements.append(.curveTo(end.applying(transform), control1: control1.applying(transform), control2: control2.applying(transform)))
    }

    public func closeSubpath() {
        guard !elements.isEmpty else { return }
        elements.append(.closeSubpath)
    }

    /// A closed rectangle, clockwise from its top-left corner (on UIKit's y-down screen).
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        move(to: CGPoint(x: r.minX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.maxY), transform: transform)
        addLine(to: CGPoint(x: r.minX, y: r.maxY), transform: transform)
        closeSubpath()
    }

    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for r in rects { addRect(r, transform: transform) }
    }

    /// The ellipse inscribed in `rect`: four cubic arcs (the standard 0.5523 control length).
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let k: CGFloat = 0.552_284_749_830_793_4
        let cx = r.midX, cy = r.midY, rx = r.width / 2, ry = r.height / 2
        move(to: CGPoint(x: cx + rx, y: cy), transform: transform)
        addCurve(to: CGPoint(x: cx, y: cy + ry), control1: CGPoint(x: cx + rx, y: cy + k * ry), control2: CGPoint(x: cx + k * rx, y: cy + ry), transform: transform)
        addCurve(to: CGPoint(x: cx - rx, y: cy), control1: CGPoint(x: cx - k * rx, y: cy + ry), control2: CGPoint(x: cx - rx, y: cy + k * ry), transform: transform)
        addCurve(to: CGPoint(x: cx, y: cy - ry), control1: CGPoint(x: cx - rx, y: cy - k * ry), control2: CGPoint(x: cx - k * rx, y: cy - ry), transform: transform)
        addCurve(to: CGPoint(x: cx + rx, y: cy), control1: CGPoint(x: cx + k * rx, y: cy - ry), control2: CGPoint(x: cx + rx, y: cy - k * ry), transform: transform)
        closeSubpath()
    }

    /// A rectangle with elliptical corners of `cornerWidth` × `cornerHeight` (each at most half a side).
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let w = min(max(0, cornerWidth), r.width / 2), h = min(max(0, cornerHeight), r.height / 2)
        guard w > 0, h > 0 else { addRect(r, transform: transform); return }
        let k: CGFloat = 0.552_284_749_830_793_4
        move(to: CGPoint(x: r.minX + w, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX - w, y: r.minY), transform: transform)
        addCurve(to: CGPoint(x: r.maxX, y: r.minY + h), control1: CGPoint(x: r.maxX - w + k * w, y: r.minY),
                 control2: CGPoint(x: r.maxX, y: r.minY + h - k * h), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.maxY - h), transform: transform)
        addCurve(to: CGPoint(x: r.maxX - w, y: r.maxY), control1: CGPoint(x: r.maxX, y: r.maxY - h + k * h),
                 control2: CGPoint(x: r.maxX - w + k * w, y: r.maxY), transform: transform)
        addLine(to: CGPoint(x: r.minX + w, y: r.maxY), transform: transform)
        addCurve(to: CGPoint(x: r.minX, y: r.maxY - h), control1: CGPoint(x: r.minX + w - k * w, y: r.maxY),
                 control2: CGPoint(x: r.minX, y: r.maxY - h + k * h), transform: transform)
        addLine(to: CGPoint(x: r.minX, y: r.minY + h), transform: transform)
        addCurve(to: CGPoint(x: r.minX + w, y: r.minY), control1: CGPoint(x: r.minX, y: r.minY + h - k * h),
                 control2: CGPoint(x: r.minX + w - k * w, y: r.minY), transform: transform)
        closeSubpath()
    }

    /// An arc of a circle from `startAngle` to `endAngle` (radians, 0 along +x, positive towards +y),
    /// `clockwise` as Core Graphics means it in its own y-up space (so the opposite on UIKit's y-down
    /// screen: UIKit's `UIBezierPath` flips it back). A line joins the current point to the arc's start.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
                       transform: CGAffineTransform = .identity) {
        var sweep = endAngle - startAngle
        let full = 2 * CGFloat.pi
        if clockwise {
            // Decreasing angle in Core Graphics' y-up terms: a sweep in −2π…0.
            if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: full) - full }
            if sweep < -full { sweep = -full }
        } else {
            if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: full) + full }
            if sweep > full { sweep = full }
        }
        let start = CGPoint(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
        if elements.isEmpty { move(to: start, transform: transform) } else { addLine(to: start, transform: transform) }
        let pieces = max(1, Int((abs(sweep) / (CGFloat.pi / 2)).rounded(.up)))
        let step = sweep / CGFloat(pieces)
        let k = 4.0 / 3.0 * tan(step / 4)
        var angle = startAngle
        for _ in 0..<pieces {
            let next = angle + step
            let p0 = CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
            let p3 = CGPoint(x: center.x + radius * cos(next), y: center.y + radius * sin(next))
            let c1 = CGPoint(x: p0.x - k * radius * sin(angle), y: p0.y + k * radius * cos(angle))
            let c2 = CGPoint(x: p3.x + k * radius * sin(next), y: p3.y - k * radius * cos(next))
            addCurve(to: p3, control1: c1, control2: c2, transform: transform)
            angle = next
        }
    }

    /// Another path's elements, mapped by `transform`.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        for element in path.elements {
            switch element {
            case .moveTo(let p): elements.append(.moveTo(p.applying(transform)))
            case .lineTo(let p): elements.append(.lineTo(p.applying(transform)))
            case .quadCurveTo(let p, let c): elements.append(.quadCurveTo(p.applying(transform), control: c.applying(transform)))
            case .curveTo(let p, let c1, let c2):
                elements.append(.curveTo(p.applying(transform), control1: c1.applying(transform), control2: c2.applying(transform)))
            case .closeSubpath: elements.append(.closeSubpath)
            }
        }
    }
}

extension CGPath {
    /// The same path with each subpath drawn the other way round (UIKit's `reversing()`): it starts at
    /// the subpath's last point and visits its points backwards; a closed subpath stays closed.
    package func reversed() -> CGMutablePath {
        let out = CGMutablePath()
        // Each subpath: its start, its segments (end point and controls), whether it closes.
        var start: CGPoint?
        var segments: [(from: CGPoint, element: Element)] = []
        var current = CGPoint.zero
        func flush(closed: Bool) {
            guard let s = start else { return }
            out.move(to: segments.last.map { end(of: $0.element) } ?? s)
            for segment in segments.reversed() {
                switch segment.element {
                case .lineTo: out.addLine(to: segment.from)
                case .quadCurveTo(_, let c): out.addQuadCurve(to: segment.from, control: c)
                case .curveTo(_, let c1, let c2): out.addCurve(to: segment.from, control1: c2, control2: c1)
                case .moveTo, .closeSubpath: break
                }
            }
            if closed { out.closeSubpath() }
            start = nil
            segments = []
        }
        func end(of element: Element) -> CGPoint {
            switch element {
            case .moveTo(let p), .lineTo(let p), .quadCurveTo(let p, _), .curveTo(let p, _, _): p
            case .closeSubpath: .zero
            }
        }
        for element in elements {
            switch element {
            case .moveTo(let p):
                flush(closed: false)
                start = p
                current = p
            case .lineTo(let p), .quadCurveTo(let p, _), .curveTo(let p, _, _):
                if start == nil { start = current }
                segments.append((current, element))
                current = p
            case .closeSubpath:
                let s = start ?? current
                flush(closed: true)
                current = s
            }
        }
        flush(closed: false)
        return out
    }
}
