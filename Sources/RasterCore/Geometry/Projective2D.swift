import Foundation

/// A plane-to-plane projective transform (a homography): what a layer turned in 3-D with perspective
/// does to its own flat drawing, seen on the screen.
///
/// Points are row vectors, as in ``Transform2D`` and Core Animation: `(X, Y, W) = (x, y, 1)·M` and the
/// mapped point is `(X/W, Y/W)`. `W` is the depth term: positive in front of the eye; a point with
/// `W ≤ 0` is behind it and is not drawn. `t1.concatenating(t2)` applies `t1` first.
public struct Projective2D: Hashable, Sendable, CustomStringConvertible {
    /// The matrix `[m11 m12 m13; m21 m22 m23; m31 m32 m33]`; an affine transform has `m13 = m23 = 0`.
    public var m11: Double, m12: Double, m13: Double
    public var m21: Double, m22: Double, m23: Double
    public var m31: Double, m32: Double, m33: Double

    public init(m11: Double, m12: Double, m13: Double, m21: Double, m22: Double, m23: Double,
                m31: Double, m32: Double, m33: Double) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13
        self.m21 = m21; self.m22 = m22; self.m23 = m23
        self.m31 = m31; self.m32 = m32; self.m33 = m33
    }

    /// The affine transform `t` as a homography (`W` always 1).
    public init(_ t: Transform2D) {
        self.init(m11: t.a, m12: t.b, m13: 0, m21: t.c, m22: t.d, m23: 0, m31: t.tx, m32: t.ty, m33: 1)
    }

    public static let identity = Projective2D(.identity)

    /// True when no entry is NaN or infinite.
    public var isFinite: Bool { [m11, m12, m13, m21, m22, m23, m31, m32, m33].allSatisfy(\.isFinite) }

    /// The same mapping as an affine transform, when it is one (no perspective terms), else nil.
    public var affine: Transform2D? {
        // (With m33 < 0 every point is behind the eye: not an affine drawing.)
        guard m13 == 0, m23 == 0, m33 > 0, isFinite else { return nil }
        return Transform2D(a: m11 / m33, b: m12 / m33, c: m21 / m33, d: m22 / m33, tx: m31 / m33, ty: m32 / m33)
    }

    /// `self` followed by `other`.
    public func concatenating(_ o: Projective2D) -> Projective2D {
        Projective2D(
            m11: m11 * o.m11 + m12 * o.m21 + m13 * o.m31, m12: m11 * o.m12 + m12 * o.m22 + m13 * o.m32, m13: m11 * o.m13 + m12 * o.m23 + m13 * o.m33,
            m21: m21 * o.m11 + m22 * o.m21 + m23 * o.m31, m22: m21 * o.m12 + m22 * o.m22 + m23 * o.m32, m23: m21 * o.m13 + m22 * o.m23 + m23 * o.m33,
            m31: m31 * o.m11 + m32 * o.m21 + m33 * o.m31, m32: m31 * o.m12 + m32 * o.m22 + m33 * o.m32, m33: m31 * o.m13 + m32 * o.m23 + m33 * o.m33)
    }

    /// `self` followed by the affine `t`.
    public func concatenating(_ t: Transform2D) -> Projective2D { concatenating(Projective2D(t)) }

    /// The determinant: 0 for a mapping that collapses the plane (a layer seen edge-on).
    public var determinant: Double {
        m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31) + m13 * (m21 * m32 - m22 * m31)
    }

    /// The exact inverse (the adjugate over the determinant), or nil when singular or not finite. With the
    /// exact inverse, a point in front of the eye maps back with a positive `W` (1/W of the forward map).
    /// A determinant below 1e-10 of the product of the rows' lengths (its largest possible size) counts as
    /// singular: a plane turned a quarter (cos(π/2) is 6e-17, not 0) is seen edge-on.
    public func inverted() -> Projective2D? {
        let det = determinant
        let bound = (m11 * m11 + m12 * m12 + m13 * m13).squareRoot() * (m21 * m21 + m22 * m22 + m23 * m23).squareRoot()
            * (m31 * m31 + m32 * m32 + m33 * m33).squareRoot()
        guard det.isFinite, isFinite, abs(det) > 1e-10 * bound else { return nil }
        let r = 1 / det
        let inverse = Projective2D(
            m11: (m22 * m33 - m23 * m32) * r, m12: (m13 * m32 - m12 * m33) * r, m13: (m12 * m23 - m13 * m22) * r,
            m21: (m23 * m31 - m21 * m33) * r, m22: (m11 * m33 - m13 * m31) * r, m23: (m13 * m21 - m11 * m23) * r,
            m31: (m21 * m32 - m22 * m31) * r, m32: (m12 * m31 - m11 * m32) * r, m33: (m11 * m22 - m12 * m21) * r)
        return inverse.isFinite ? inverse : nil
    }

    /// The homogeneous image of `p`: `(X, Y, W)`.
    public func homogeneous(_ p: Point) -> (x: Double, y: Double, w: Double) {
        (p.x * m11 + p.y * m21 + m31, p.x * m12 + p.y * m22 + m32, p.x * m13 + p.y * m23 + m33)
    }

    /// The mapped point, or nil when `p` is not in front of the eye (`W ≤ 0`).
    public func apply(to p: Point) -> Point? {
        let (x, y, w) = homogeneous(p)
        guard w > 0 else { return nil }
        return Point(x: x / w, y: y / w)
    }

    /// The outline of `rect` mapped through the transform, cut where it passes behind the eye (`W` below
    /// `minimumW`) and to `window` (whose edges bound huge coordinates near the eye's plane): a convex
    /// polygon, empty when nothing of the rectangle is in front of the eye inside the window.
    public func outline(of rect: Rect, within window: Rect, minimumW: Double = 1e-6) -> [Point] {
        let s = rect.standardized
        var polygon = [Point(x: s.minX, y: s.minY), Point(x: s.maxX, y: s.minY), Point(x: s.maxX, y: s.maxY), Point(x: s.minX, y: s.maxY)]
            .map { homogeneous($0) }
        // Sutherland–Hodgman in homogeneous coordinates: every plane is linear there, so cutting before the
        // division never divides by a W near zero.
        func cut(_ distance: ((x: Double, y: Double, w: Double)) -> Double) {
            guard !polygon.isEmpty else { return }
            var result: [(x: Double, y: Double, w: Double)] = []
            for i in polygon.indices {
                let a = polygon[i], b = polygon[(i + 1) % polygon.count]
                let da = distance(a), db = distance(b)
                if da >= 0 { result.append(a) }
                if (da >= 0) != (db >= 0) {
                    let t = da / (da - db)
                    result.append((a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.w + (b.w - a.w) * t))
                }
            }
            polygon = result
        }
        cut { $0.w - minimumW }
        cut { $0.x - window.minX * $0.w }
        cut { window.maxX * $0.w - $0.x }
        cut { $0.y - window.minY * $0.w }
        cut { window.maxY * $0.w - $0.y }
        return polygon.compactMap { $0.w > 0 ? Point(x: $0.x / $0.w, y: $0.y / $0.w) : nil }
    }

    /// The bounding box of `rect`'s outline within `window` (``outline(of:within:minimumW:)``); null when
    /// none of it is in front of the eye there.
    public func boundingBox(of rect: Rect, within window: Rect) -> Rect {
        let points = outline(of: rect, within: window)
        guard let first = points.first else { return .null }
        var x0 = first.x, x1 = first.x, y0 = first.y, y1 = first.y
        for p in points.dropFirst() {
            x0 = min(x0, p.x); x1 = max(x1, p.x); y0 = min(y0, p.y); y1 = max(y1, p.y)
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The largest factor by which the mapping stretches a length anywhere on `rect` (the largest singular
    /// value of its derivative, at the corners, where a homography's stretch is extreme along any line),
    /// over corners in front of the eye; nil when none is.
    public func largestStretch(over rect: Rect) -> Double? {
        let s = rect.standardized
        var best: Double?
        for p in [Point(x: s.minX, y: s.minY), Point(x: s.maxX, y: s.minY), Point(x: s.maxX, y: s.maxY), Point(x: s.minX, y: s.maxY)] {
            let (x, y, w) = homogeneous(p)
            guard w > 0 else { continue }
            let u = x / w, v = y / w
            // d(u, v)/d(p.x, p.y), by the quotient rule.
            let ux = (m11 - u * m13) / w, vx = (m12 - v * m13) / w
            let uy = (m21 - u * m23) / w, vy = (m22 - v * m23) / w
            // The largest singular value of [ux uy; vx vy].
            let e = (ux * ux + vx * vx + uy * uy + vy * vy) / 2
            let det = ux * vy - uy * vx
            let sigma = (e + (max(0, e * e - det * det)).squareRoot()).squareRoot()
            if sigma.isFinite { best = max(best ?? 0, sigma) }
        }
        return best
    }

    /// Whether the plane faces the viewer: the mapping keeps the orientation of its outline (on a y-down
    /// screen a layer seen from the back is mirrored). Measured at `p`, a point in front of the eye.
    public func facesViewer(at p: Point) -> Bool {
        // The sign of the Jacobian's determinant, which is det(M) / W³.
        let w = homogeneous(p).w
        return determinant * w > 0
    }

    public var description: String { "[\(m11), \(m12), \(m13); \(m21), \(m22), \(m23); \(m31), \(m32), \(m33)]" }
}
