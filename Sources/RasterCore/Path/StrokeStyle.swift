/// How a path is stroked: Core Graphics' line settings plus Core Animation's `strokeStart`/`strokeEnd`.
/// Lengths are in the path's units (points in user space when given to a `Painter`).
public struct StrokeStyle: Hashable, Sendable {
    /// How an open end of a stroke (a subpath's, a dash's or a trimmed end) is finished.
    public enum LineCap: Hashable, Sendable {
        /// Square, at the end point (Core Graphics' default).
        case butt
        /// A half circle of the line's half width beyond the end point.
        case round
        /// A half square of the line's half width beyond the end point.
        case square
    }

    /// How two segments of a stroke meet at a corner.
    public enum LineJoin: Hashable, Sendable {
        /// The outer edges extended to their meeting point, unless that is farther than `miterLimit` (then a
        /// bevel). Core Graphics' default.
        case miter
        /// A circular arc about the corner.
        case round
        /// The outer corners joined by a straight line.
        case bevel
    }

    /// The line's width (points); it is centred on the path. Default 1. A width of 0 or less (or not
    /// finite) strokes nothing: Core Graphics' one-device-pixel hairline for 0 is not drawn.
    public var width: Double
    /// Default `.butt`.
    public var cap: LineCap
    /// Default `.miter`.
    public var join: LineJoin
    /// The longest miter, as a multiple of the line width, before a miter join becomes a bevel (Core
    /// Graphics' rule: the ratio is 1 / sin(α/2) for an angle α between the segments). Default 10.
    public var miterLimit: Double
    /// Alternating lengths (points) of dashes and gaps, starting with a dash; empty (the default) strokes
    /// solid. An odd count is repeated once to make it even (SVG's rule). A pattern with a negative or
    /// non-finite length, or whose lengths add up to 0, strokes solid (Core Graphics ignores it).
    public var dashes: [Double]
    /// How far into the dash pattern (points) each subpath starts. Default 0.
    public var dashPhase: Double
    /// The part of the path stroked, as fractions 0…1 of its whole length (all subpaths, in order):
    /// Core Animation's `strokeStart` and `strokeEnd`. Defaults 0 and 1. Nothing is stroked when `start`
    /// is not below `end`. Dashes stay where the whole path puts them; trimming only hides them.
    public var start: Double
    /// See ``start``.
    public var end: Double

    /// A stroke style; every argument defaults to Core Graphics' default.
    public init(width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 10,
                dashes: [Double] = [], dashPhase: Double = 0, start: Double = 0, end: Double = 1) {
        self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
        self.dashes = dashes; self.dashPhase = dashPhase; self.start = start; self.end = end
    }

    /// Above this many dashes in one stroke the stroke is drawn solid: a pattern far below a pixel looks
    /// solid anyway, and the bound keeps a tiny pattern on a long path from making work without end.
    public static let maxDashCount = 100_000

    /// Whether anything would be stroked at all.
    var strokesSomething: Bool { width.isFinite && width > 0 && !(end.clamped01 <= start.clamped01) }

    /// The dash pattern to use (even count), or nil to stroke solid.
    var usableDashes: [Double]? {
        guard !dashes.isEmpty, dashes.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        let pattern = dashes.count % 2 == 0 ? dashes : dashes + dashes
        let sum = pattern.reduce(0, +)
        return sum > 0 && sum.isFinite ? pattern : nil
    }
}

extension Double {
    /// The value clamped to 0…1 (NaN becomes 0).
    var clamped01: Double { isNaN ? 0 : Swift.min(1, Swift.max(0, self)) }
}
