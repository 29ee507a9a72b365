import RasterCore
import SnapshotView

/// An animatable value as a vector, the space in which animations add up.
///
/// Lanes: a number in 0; a point in 0–1; a rect as x, y, width, height; a colour as red, green, blue,
/// alpha; a transform as tx, ty, rotation, sx, sy, shear; a 4x4 transform as the 16 numbers of its
/// ``Transform3DDecomposition`` (one that has none, as the identity's); a backdrop as σ, saturation and its
/// tint's red, green, blue, alpha.
struct ValueComponents {
    enum Kind { case double, point, rect, color, transform, transform3D, backdrop }

    let kind: Kind
    let vector: SIMD16<Double>

    static let rotationLane = 2

    init(kind: Kind, vector: SIMD16<Double>) {
        self.kind = kind
        self.vector = vector
    }

    init(_ value: AnimatableValue) {
        switch value {
        case .double(let v):
            self.init(kind: .double, vector: SIMD16(v, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case .point(let p):
            self.init(kind: .point, vector: SIMD16(p.x, p.y, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case .rect(let r):
            self.init(kind: .rect, vector: SIMD16(r.origin.x, r.origin.y, r.size.width, r.size.height, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case .color(let c):
            self.init(kind: .color, vector: SIMD16(c.red, c.green, c.blue, c.alpha, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case .transform(let t):
            let d = TransformDecomposition(t)
            self.init(kind: .transform, vector: SIMD16(d.translation.x, d.translation.y, d.rotation,
                                                       d.scale.width, d.scale.height, d.shear, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case .transform3D(let t):
            let lanes = (Transform3DDecomposition(t) ?? Transform3DDecomposition()).lanes
            var v = SIMD16<Double>()
            for i in 0..<16 { v[i] = lanes[i] }
            self.init(kind: .transform3D, vector: v)
        case .backdrop(let b):
            self.init(kind: .backdrop, vector: SIMD16(b.sigma, b.saturation, b.tint.red, b.tint.green, b.tint.blue, b.tint.alpha, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        }
    }

    /// The value at `vector + delta`. Non-finite results (only from absurd input) fall back to `self`.
    func adding(_ delta: SIMD16<Double>) -> AnimatableValue {
        let v = vector + delta
        for i in 0..<16 where !v[i].isFinite { return value(of: vector) }
        return value(of: v)
    }

    var value: AnimatableValue { value(of: vector) }

    private func value(of v: SIMD16<Double>) -> AnimatableValue {
        switch kind {
        case .double: .double(v[0])
        case .point: .point(Point(x: v[0], y: v[1]))
        case .rect: .rect(Rect(x: v[0], y: v[1], width: v[2], height: v[3]))
        case .color: .color(Color(red: v[0], green: v[1], blue: v[2], alpha: v[3]))
        case .transform:
            .transform(TransformDecomposition(translation: Point(x: v[0], y: v[1]), rotation: v[2],
                                              scale: Size(width: v[3], height: v[4]), shear: v[5]).transform)
        case .transform3D:
            .transform3D(Transform3DDecomposition(lanes: (0..<16).map { v[$0] }).transform)
        case .backdrop:
            .backdrop(Backdrop(sigma: max(0, v[0]), saturation: max(0, v[1]), tint: Color(red: v[2], green: v[3], blue: v[4], alpha: v[5])))
        }
    }

    /// `self − other`, with a rotation difference taken the shorter way round: the offset that, added
    /// to `other`, gives `self`, for an animation from `self` to `other`. A difference of exactly half a
    /// turn keeps its sign.
    func offset(from other: ValueComponents) -> SIMD16<Double> {
        var d = vector - other.vector
        if kind == .transform3D {
            // The rotation the shorter way round (lanes 3–5: the rotation vector).
            let mine = SIMD3(vector[3], vector[4], vector[5]), theirs = SIMD3(other.vector[3], other.vector[4], other.vector[5])
            let near = Transform3DDecomposition.rotation(mine, continuingFrom: theirs)
            d[3] = near.x - theirs.x; d[4] = near.y - theirs.y; d[5] = near.z - theirs.z
        }
        if kind == .transform {
            var turn = d[Self.rotationLane]
            if turn > .pi { turn -= 2 * .pi } else if turn < -.pi { turn += 2 * .pi }
            d[Self.rotationLane] = turn
        }
        return d
    }
}
