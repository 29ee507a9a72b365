import Foundation

/// A 2-D affine transform with CGAffineTransform's layout and semantics:
/// `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
///
/// `t1.concatenating(t2)` applies `t1` first, then `t2`. The `translatedBy`, `scaledBy` and `rotated`
/// methods prepend their operation (it acts first, in the current user space), as in Core Graphics.
public struct Transform2D: Hashable, Sendable, CustomStringConvertible {
    /// The matrix `[a b 0; c d 0; tx ty 1]`: a point maps to `(a·x + c·y + tx, b·x + d·y + ty)`.
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    /// A transform from its six matrix entries.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// The transform that changes nothing.
    public static let identity = Transform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation by `x`, `y`.
    public init(translationX x: Double, y: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    /// A scale by `sx` horizontally and `sy` vertically.
    public init(scaleX sx: Double, y sy: Double) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    /// A rotation by `angle` radians; positive turns +x towards +y (clockwise on a y-down screen).
    public init(rotationAngle angle: Double) {
        let s = sin(angle), co = cos(angle)
        self.init(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }

    /// Whether this is exactly ``identity``.
    public var isIdentity: Bool { self == .identity }
    /// `a·d − b·c`: 0 for a transform that cannot be inverted.
    public var determinant: Double { a * d - b * c }
    /// The most the transform stretches any length (its larger singular value): 1 for a rotation, the
    /// larger factor of a scale.
    public var largestStretch: Double {
        let sum = a * a + b * b + c * c + d * d
        let p = a * a + b * b - c * c - d * d, q = a * c + b * d
        return ((sum + (p * p + 4 * q * q).squareRoot()) / 2).squareRoot()
    }
    /// True when no component is NaN or infinite.
    public var isFinite: Bool { [a, b, c, d, tx, ty].allSatisfy(\.isFinite) }
    /// True when axis-aligned rectangles stay axis-aligned (no rotation other than 180°, no shear).
    public var preservesAxisAlignment: Bool { b == 0 && c == 0 }

    /// `self` followed by `other`.
    public func concatenating(_ t: Transform2D) -> Transform2D {
        Transform2D(a: a * t.a + b * t.c, b: a * t.b + b * t.d,
                        c: c * t.a + d * t.c, d: c * t.b + d * t.d,
                        tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }

    /// A translation by `x`, `y` applied before this transform, as `CGAffineTransformTranslate`.
    public func translatedBy(x: Double, y: Double) -> Transform2D {
        Transform2D(translationX: x, y: y).concatenating(self)
    }
    /// A scale applied before this transform, as `CGAffineTransformScale`.
    public func scaledBy(x: Double, y: Double) -> Transform2D {
        Transform2D(scaleX: x, y: y).concatenating(self)
    }
    /// A rotation by `angle` radians (clockwise on screen, y down) applied before this transform, as `CGAffineTransformRotate`.
    public func rotated(by angle: Double) -> Transform2D {
        Transform2D(rotationAngle: angle).concatenating(self)
    }

    /// The inverse, or nil when the transform is singular (determinant 0) or not finite.
    public func inverted() -> Transform2D? {
        let det = determinant
        guard det != 0, det.isFinite, isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return Transform2D(a: ia, b: ib, c: ic, d: id, tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
    }

    /// The point mapped through the transform.
    public func apply(to p: Point) -> Point {
        Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }

    /// The size mapped through the linear part (no translation), as CGSizeApplyAffineTransform.
    public func apply(to s: Size) -> Size {
        Size(width: a * s.width + c * s.height, height: b * s.width + d * s.height)
    }

    /// The bounding box of the rectangle's four mapped corners; null stays null.
    public func apply(to r: Rect) -> Rect {
        if r.isNull { return r }
        let s = r.standardized
        // The corners in the order (minX, minY), (maxX, minY), (minX, maxY), (maxX, maxY), each extreme kept
        // only when strictly beyond the one before (as Array.min()/max() would), without arrays: this runs
        // for every rectangle filled.
        let p0 = apply(to: Point(x: s.minX, y: s.minY)), p1 = apply(to: Point(x: s.maxX, y: s.minY))
        let p2 = apply(to: Point(x: s.minX, y: s.maxY)), p3 = apply(to: Point(x: s.maxX, y: s.maxY))
        var x0 = p0.x, x1 = p0.x, y0 = p0.y, y1 = p0.y
        func extend(_ p: Point) {
            if p.x < x0 { x0 = p.x }
            if p.x > x1 { x1 = p.x }
            if p.y < y0 { y0 = p.y }
            if p.y > y1 { y1 = p.y }
        }
        extend(p1); extend(p2); extend(p3)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }
}
