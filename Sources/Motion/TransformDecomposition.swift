import Foundation
import RasterCore

/// An affine transform split into parts that interpolate the way the eye expects: a rotation turns, a
/// scale grows, a translation slides.
///
/// The linear part is `rotation(θ) · scale(sx, sy) · shear(h)` (the shear `x += h·y` acts first), then
/// the translation. sx is the length of the transformed x axis; for a reflection (negative determinant)
/// the sign goes on x when a < d, else on y (the CSS rule), so a horizontal flip is a flip, not half a
/// turn. ``rotation`` is in −π…π (radians, positive turns +x towards +y: clockwise on a y-down screen).
public struct TransformDecomposition: Hashable, Sendable, CustomStringConvertible {
    /// Points (the transform's tx, ty).
    public var translation: Point
    /// Radians.
    public var rotation: Double
    /// Factors along x and y (x negative for a reflection).
    public var scale: Size
    /// Shear of x by y, applied before scaling.
    public var shear: Double

    /// Defaults: no translation, no rotation, scale 1, no shear (the identity).
    public init(translation: Point = .zero, rotation: Double = 0, scale: Size = Size(width: 1, height: 1), shear: Double = 0) {
        self.translation = translation
        self.rotation = rotation
        self.scale = scale
        self.shear = shear
    }

    /// The decomposition of `t`.
    public init(_ t: RasterCore.Transform2D) {
        translation = Point(x: t.tx, y: t.ty)
        var sx = (t.a * t.a + t.b * t.b).squareRoot()
        if t.determinant < 0 && t.a < t.d { sx = -sx }
        if sx != 0 {
            let theta = atan2(t.b / sx, t.a / sx)
            let cs = cos(theta), sn = sin(theta)
            rotation = theta
            shear = (cs * t.c + sn * t.d) / sx
            scale = Size(width: sx, height: -sn * t.c + cs * t.d)
        } else {
            // The x axis collapses to a point: the y axis alone gives the rotation.
            let sy = (t.c * t.c + t.d * t.d).squareRoot()
            rotation = sy == 0 ? 0 : atan2(-t.c, t.d)
            shear = 0
            scale = Size(width: 0, height: sy)
        }
    }

    /// The transform these parts make.
    public var transform: RasterCore.Transform2D {
        let cs = cos(rotation), sn = sin(rotation)
        let sx = scale.width, sy = scale.height
        let c: Double = sx * shear * cs - sy * sn
        let d: Double = sx * shear * sn + sy * cs
        return RasterCore.Transform2D(a: sx * cs, b: sx * sn, c: c, d: d, tx: translation.x, ty: translation.y)
    }

    public var description: String {
        "translate \(translation) rotate \(rotation) scale \(scale) shear \(shear)"
    }
}
