import Foundation
import RasterCore

/// A 4x4 layer transform split into parts that interpolate as Core Animation interpolates transforms
/// between two matrices: translation, rotation, scale, skew and perspective, by the decomposition CSS
/// Transforms (level 2, "Decomposing a 3D matrix") publishes, in the same row-vector layout.
///
/// The rotation is kept as a rotation vector (the axis times the angle, 0…π) instead of a quaternion, so
/// that the parts form a vector space in which animations and springs add up: between two rotations
/// about one axis (a flip, a tilt) that is the quaternion's spherical interpolation exactly; between
/// rotations about different axes it takes a slightly different path with the same ends.
public struct Transform3DDecomposition: Hashable, Sendable {
    /// Points.
    public var translation: SIMD3<Double>
    /// Axis × angle (radians, 0…π).
    public var rotation: SIMD3<Double>
    public var scale: SIMD3<Double>
    /// Shears xy, xz, yz.
    public var skew: SIMD3<Double>
    /// The perspective row (m14, m24, m34, m44 of the perspective part).
    public var perspective: SIMD4<Double>

    public init(translation: SIMD3<Double> = .zero, rotation: SIMD3<Double> = .zero, scale: SIMD3<Double> = .one,
                skew: SIMD3<Double> = .zero, perspective: SIMD4<Double> = SIMD4(0, 0, 0, 1)) {
        self.translation = translation
        self.rotation = rotation
        self.scale = scale
        self.skew = skew
        self.perspective = perspective
    }

    /// The 16 numbers, in a fixed order (for animation lanes).
    public var lanes: [Double] {
        [translation.x, translation.y, translation.z, rotation.x, rotation.y, rotation.z, scale.x, scale.y, scale.z,
         skew.x, skew.y, skew.z, perspective.x, perspective.y, perspective.z, perspective.w]
    }

    /// From the 16 numbers of ``lanes``.
    public init(lanes l: [Double]) {
        self.init(translation: SIMD3(l[0], l[1], l[2]), rotation: SIMD3(l[3], l[4], l[5]), scale: SIMD3(l[6], l[7], l[8]),
                  skew: SIMD3(l[9], l[10], l[11]), perspective: SIMD4(l[12], l[13], l[14], l[15]))
    }

    /// The decomposition of `t`, or nil when it has none (`m44` is 0, or the matrix without its perspective
    /// is singular: a layer flattened to a line). Core Animation then switches from one value to the other.
    public init?(_ t: Transform3D) {
        guard t.isFinite, t.m44 != 0 else { return nil }
        var m = t.entries.map { $0 / t.m44 }
        // The perspective part: solve (m14, m24, m34, m44) = p · (the matrix with its last column 0 0 0 1).
        var p = m
        p[3] = 0; p[7] = 0; p[11] = 0; p[15] = 1
        let pm = Transform3D(entries: p)
        guard let inverse = pm.inverted() else { return nil }
        if m[3] != 0 || m[7] != 0 || m[11] != 0 {
            let rhs = SIMD4(m[3], m[7], m[11], m[15])
            // The matrix is pm × P, P the identity with the perspective as its last column: that column is
            // pm⁻¹ × (m14, m24, m34, m44).
            let i = inverse.entries
            perspective = SIMD4(
                i[0] * rhs.x + i[1] * rhs.y + i[2] * rhs.z + i[3] * rhs.w,
                i[4] * rhs.x + i[5] * rhs.y + i[6] * rhs.z + i[7] * rhs.w,
                i[8] * rhs.x + i[9] * rhs.y + i[10] * rhs.z + i[11] * rhs.w,
                i[12] * rhs.x + i[13] * rhs.y + i[14] * rhs.z + i[15] * rhs.w)
            m[3] = 0; m[7] = 0; m[11] = 0; m[15] = 1
        } else {
            perspective = SIMD4(0, 0, 0, 1)
        }
        translation = SIMD3(m[12], m[13], m[14])
        var row0 = SIMD3(m[0], m[1], m[2]), row1 = SIMD3(m[4], m[5], m[6]), row2 = SIMD3(m[8], m[9], m[10])
        func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
        func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
        func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        }
        var s = SIMD3<Double>(length(row0), 0, 0)
        guard s.x > 0 else { return nil }
        row0 /= s.x
        var k = SIMD3<Double>(dot(row0, row1), 0, 0)
        row1 -= k.x * row0
        s.y = length(row1)
        guard s.y > 0 else { return nil }
        row1 /= s.y
        k.x /= s.y
        k.y = dot(row0, row2)
        row2 -= k.y * row0
        k.z = dot(row1, row2)
        row2 -= k.z * row1
        s.z = length(row2)
        guard s.z > 0 else { return nil }
        row2 /= s.z
        k.y /= s.z
        k.z /= s.z
        // A reflection: the coordinate system flips; negate the scale and the rows.
        if dot(row0, cross(row1, row2)) < 0 {
            s = -s
            row0 = -row0; row1 = -row1; row2 = -row2
        }
        scale = s
        skew = k
        // The rotation matrix's quaternion, from its largest term (Shepperd's method: no square root of a
        // difference near zero, so a turn about one axis has exactly zero on the others).
        let trace = row0.x + row1.y + row2.z
        var q: SIMD4<Double>
        if trace > 0 {
            let w = (1 + trace).squareRoot() / 2
            q = SIMD4((row1.z - row2.y) / (4 * w), (row2.x - row0.z) / (4 * w), (row0.y - row1.x) / (4 * w), w)
        } else if row0.x >= row1.y, row0.x >= row2.z {
            let x = (1 + row0.x - row1.y - row2.z).squareRoot() / 2
            q = SIMD4(x, (row0.y + row1.x) / (4 * x), (row2.x + row0.z) / (4 * x), (row1.z - row2.y) / (4 * x))
        } else if row1.y >= row2.z {
            let y = (1 + row1.y - row0.x - row2.z).squareRoot() / 2
            q = SIMD4((row0.y + row1.x) / (4 * y), y, (row1.z + row2.y) / (4 * y), (row2.x - row0.z) / (4 * y))
        } else {
            let z = (1 + row2.z - row0.x - row1.y).squareRoot() / 2
            q = SIMD4((row2.x + row0.z) / (4 * z), (row1.z + row2.y) / (4 * z), z, (row0.y - row1.x) / (4 * z))
        }
        rotation = Self.rotationVector(q)
        guard lanes.allSatisfy(\.isFinite) else { return nil }
    }

    /// The transform these parts make (CSS's recomposition).
    public var transform: Transform3D {
        var m = Transform3D.identity
        m.m14 = perspective.x; m.m24 = perspective.y; m.m34 = perspective.z; m.m44 = perspective.w
        // Translate: m[3][i] += Σ translation[j] · m[j][i].
        var e = m.entries
        for i in 0..<4 {
            e[12 + i] += translation.x * e[i] + translation.y * e[4 + i] + translation.z * e[8 + i]
        }
        m = Transform3D(entries: e)
        // Rotate: m = rotation × m.
        let q = Self.quaternion(rotation)
        let (x, y, z, w) = (q.x, q.y, q.z, q.w)
        // The rotation matrix of the quaternion for row vectors (the transpose of CSS's printed one, which
        // would turn the other way from the rotation the decomposition read): a rotation vector (0, θ, 0)
        // is `CATransform3DMakeRotation(θ, 0, 1, 0)`.
        let rotationMatrix = Transform3D(
            m11: 1 - 2 * (y * y + z * z), m12: 2 * (x * y + z * w), m13: 2 * (x * z - y * w), m14: 0,
            m21: 2 * (x * y - z * w), m22: 1 - 2 * (x * x + z * z), m23: 2 * (y * z + x * w), m24: 0,
            m31: 2 * (x * z + y * w), m32: 2 * (y * z - x * w), m33: 1 - 2 * (x * x + y * y), m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
        m = rotationMatrix.concatenating(m)
        // Skew: yz, then xz, then xy, each multiplied in front.
        if skew.z != 0 { var t = Transform3D.identity; t.m32 = skew.z; m = t.concatenating(m) }
        if skew.y != 0 { var t = Transform3D.identity; t.m31 = skew.y; m = t.concatenating(m) }
        if skew.x != 0 { var t = Transform3D.identity; t.m21 = skew.x; m = t.concatenating(m) }
        // Scale rows 0…2.
        var r = m.entries
        for i in 0..<3 { for j in 0..<4 { r[i * 4 + j] *= scale[i] } }
        return Transform3D(entries: r)
    }

    /// `rotation`, or the rotation vector of the same turn taken the other way round (an angle up to 2π)
    /// when that is nearer `reference` on the quaternions' sphere: mixing from `reference` to the result
    /// then turns the shorter way, as Core Animation's spherical interpolation does (from a half turn to a
    /// quarter turn beyond it goes a quarter turn on, not three quarters back).
    public static func rotation(_ rotation: SIMD3<Double>, continuingFrom reference: SIMD3<Double>) -> SIMD3<Double> {
        let q = quaternion(rotation), r = quaternion(reference)
        guard (q * r).sum() < 0 else { return rotation }
        let other = -q
        let half = acos(max(-1, min(1, other.w))), s = sin(half)
        guard s > 1e-12 else { return rotation }
        return SIMD3(other.x, other.y, other.z) * (2 * half / s)
    }

    /// The rotation vector of a unit quaternion (x, y, z, w): the axis times the angle, angle 0…π.
    static func rotationVector(_ q: SIMD4<Double>) -> SIMD3<Double> {
        var q = q
        let norm = (q * q).sum().squareRoot()
        guard norm > 0 else { return .zero }
        q /= norm
        if q.w < 0 { q = -q }
        let half = acos(min(1, q.w)), s = sin(half)
        guard s > 1e-12 else { return .zero }
        return SIMD3(q.x, q.y, q.z) * (2 * half / s)
    }

    /// The unit quaternion of a rotation vector.
    static func quaternion(_ v: SIMD3<Double>) -> SIMD4<Double> {
        let angle = (v * v).sum().squareRoot()
        guard angle > 1e-12 else { return SIMD4(0, 0, 0, 1) }
        let axis = v / angle, s = sin(angle / 2)
        return SIMD4(axis.x * s, axis.y * s, axis.z * s, cos(angle / 2))
    }
}
