/// A timing curve: maps elapsed time fraction (0…1) to progress, as Core Animation's
/// `CAMediaTimingFunction` does with a cubic Bézier from (0, 0) to (1, 1) through two control points.
public struct TimingCurve: Hashable, Sendable, CustomStringConvertible {
    /// First control point (x in 0…1).
    public let c1: (x: Double, y: Double)
    /// Second control point (x in 0…1).
    public let c2: (x: Double, y: Double)

    /// A custom curve; control point x values are clamped to 0…1 so the curve stays a function of time.
    /// y values may leave 0…1 (the curve then overshoots); NaN counts as 0 and y is clamped to ±1000 so
    /// progress is always finite.
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        c1 = (min(1, max(0, x1)), TimingCurve.finiteY(y1))
        c2 = (min(1, max(0, x2)), TimingCurve.finiteY(y2))
    }

    private static func finiteY(_ y: Double) -> Double { y.isNaN ? 0 : min(1000, max(-1000, y)) }

    /// Constant speed.
    public static let linear = TimingCurve(0, 0, 1, 1)
    /// Slow start: (0.42, 0, 1, 1).
    public static let easeIn = TimingCurve(0.42, 0, 1, 1)
    /// Slow end: (0, 0, 0.58, 1).
    public static let easeOut = TimingCurve(0, 0, 0.58, 1)
    /// Ease in and out: what `UIView.animate` uses when no curve option is given.
    public static let easeInEaseOut = TimingCurve(0.42, 0, 0.58, 1)
    /// Core Animation's `kCAMediaTimingFunctionDefault` (a layer animation's default), not UIView's;
    /// UIView's default is ``easeInEaseOut``.
    public static let `default` = TimingCurve(0.25, 0.1, 0.25, 1)

    /// Progress at time fraction `t` (clamped to 0…1). The Bézier is solved for x to within 1e-6 by
    /// Newton's method, falling back to bisection where the slope is too flat.
    public func progress(at t: Double) -> Double {
        let x = t.isNaN ? 0 : min(1, max(0, t))
        if x == 0 || x == 1 { return x }
        if c1.x == c1.y && c2.x == c2.y { return x }  // a straight line: linear
        return sampleY(solveParameter(forX: x))
    }

    // Polynomial coefficients of B(s) = ((a·s + b)·s + c)·s for each axis.
    private func coefficients(_ p1: Double, _ p2: Double) -> (a: Double, b: Double, c: Double) {
        let c = 3 * p1, b = 3 * (p2 - p1) - c
        return (1 - c - b, b, c)
    }

    private func sampleX(_ s: Double) -> Double { let k = coefficients(c1.x, c2.x); return ((k.a * s + k.b) * s + k.c) * s }
    private func sampleY(_ s: Double) -> Double { let k = coefficients(c1.y, c2.y); return ((k.a * s + k.b) * s + k.c) * s }
    private func slopeX(_ s: Double) -> Double { let k = coefficients(c1.x, c2.x); return (3 * k.a * s + 2 * k.b) * s + k.c }

    /// The curve parameter s with x(s) = x. x(s) is monotonic because control x values are in 0…1.
    func solveParameter(forX x: Double) -> Double {
        let epsilon = 1e-7
        var s = x
        for _ in 0..<8 {
            let error = sampleX(s) - x
            if abs(error) < epsilon { return s }
            let d = slopeX(s)
            if abs(d) < 1e-6 { break }
            s -= error / d
        }
        var lo = 0.0, hi = 1.0
        s = x
        while hi - lo > epsilon {
            let value = sampleX(s)
            if abs(value - x) < epsilon { return s }
            if value < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }

    public static func == (l: TimingCurve, r: TimingCurve) -> Bool {
        l.c1 == r.c1 && l.c2 == r.c2
    }

    public func hash(into h: inout Hasher) { h.combine(c1.x); h.combine(c1.y); h.combine(c2.x); h.combine(c2.y) }

    /// The name of a standard curve (`linear`, `easeIn`, `easeOut`, `easeInEaseOut`, `default`), nil for
    /// custom control points.
    public var name: String? {
        switch self {
        case .linear: "linear"
        case .easeIn: "easeIn"
        case .easeOut: "easeOut"
        case .easeInEaseOut: "easeInEaseOut"
        case .default: "default"
        default: nil
        }
    }

    public var description: String { name ?? "cubic-bezier(\(c1.x), \(c1.y), \(c2.x), \(c2.y))" }
}
