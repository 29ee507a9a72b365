/// A vector path: subpaths of lines and quadratic and cubic Bézier curves, in the caller's units
/// (points in user space when given to a `Painter`).
///
/// Filling closes every subpath implicitly. A line or curve without a current point starts a subpath
/// at its start, so no sequence of calls is an error.
public struct Path: Hashable, Sendable {
    /// One drawing instruction, in user space (points).
    public enum Element: Hashable, Sendable {
        /// Starts a subpath.
        case move(to: Point)
        /// A straight line.
        case line(to: Point)
        /// A quadratic Bézier.
        case quadCurve(to: Point, control: Point)
        /// A cubic Bézier.
        case curve(to: Point, control1: Point, control2: Point)
        /// A line back to the subpath's start.
        case close
    }

    /// The instructions, in order.
    public private(set) var elements: [Element] = []

    /// An empty path.
    public init() {}

    /// Whether the path has no instructions.
    public var isEmpty: Bool { elements.isEmpty }

    /// Starts a subpath at `p`.
    public mutating func move(to p: Point) { elements.append(.move(to: p)) }
    /// A straight line from the current point to `p`.
    public mutating func addLine(to p: Point) { elements.append(.line(to: p)) }
    /// A quadratic Bézier from the current point to `p`.
    public mutating func addQuadCurve(to p: Point, control: Point) { elements.append(.quadCurve(to: p, control: control)) }
    /// A cubic Bézier from the current point to `p`.
    public mutating func addCurve(to p: Point, control1: Point, control2: Point) {
        elements.append(.curve(to: p, control1: control1, control2: control2))
    }
    /// Closes the subpath with a line back to its start.
    public mutating func closeSubpath() { elements.append(.close) }

    /// Appends all subpaths of `other`.
    public mutating func addPath(_ other: Path) { elements += other.elements }

    /// The path with every point mapped through `t`.
    public func applying(_ t: Transform2D) -> Path {
        var out = Path()
        out.elements = elements.map {
            switch $0 {
            case .move(let p): .move(to: t.apply(to: p))
            case .line(let p): .line(to: t.apply(to: p))
            case .quadCurve(let p, let c): .quadCurve(to: t.apply(to: p), control: t.apply(to: c))
            case .curve(let p, let c1, let c2): .curve(to: t.apply(to: p), control1: t.apply(to: c1), control2: t.apply(to: c2))
            case .close: .close
            }
        }
        return out
    }

    /// The bounding box of all points including curve control points (so it contains the path);
    /// null for an empty path.
    public var controlPointBounds: Rect {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        func add(_ p: Point) { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
        for e in elements {
            switch e {
            case .move(let p), .line(let p): add(p)
            case .quadCurve(let p, let c): add(p); add(c)
            case .curve(let p, let c1, let c2): add(p); add(c1); add(c2)
            case .close: break
            }
        }
        return x0 > x1 ? .null : Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// True when every coordinate is finite.
    public var isFinite: Bool {
        elements.allSatisfy {
            switch $0 {
            case .move(let p), .line(let p): p.isFinite
            case .quadCurve(let p, let c): p.isFinite && c.isFinite
            case .curve(let p, let c1, let c2): p.isFinite && c1.isFinite && c2.isFinite
            case .close: true
            }
        }
    }
}

/// Which points a filled path covers where its subpaths overlap or it crosses itself.
public enum FillRule: Hashable, Sendable {
    /// Covered where the path winds round a point any number of times but zero (Core Graphics' default).
    case nonZero
    /// Covered where the path winds round a point an odd number of times.
    case evenOdd
}
