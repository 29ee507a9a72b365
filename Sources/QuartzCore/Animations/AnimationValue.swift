import Foundation
internal import Motion
internal import RasterCore

/// The values Core Animation's animations carry (`Any`: numbers, points, sizes, rects, transforms,
/// colours, paths, and `NSValue`s and `NSNumber`s of them), read and mixed.
enum AnimationValue {
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let v as Double: v
        case let v as CGFloat: Double(v)
        case let v as Float: Double(v)
        case let v as Int: Double(v)
        case let v as NSNumber: v.doubleValue
        default: nil
        }
    }

    static func point(_ value: Any?) -> CGPoint? {
        switch value {
        case let v as CGPoint: v
        case let v as NSValue: GeometryValues.point(of: v)
        default: nil
        }
    }

    static func size(_ value: Any?) -> CGSize? {
        switch value {
        case let v as CGSize: v
        case let v as NSValue: GeometryValues.size(of: v)
        default: nil
        }
    }

    static func rect(_ value: Any?) -> CGRect? {
        switch value {
        case let v as CGRect: v
        case let v as NSValue: GeometryValues.rect(of: v)
        default: nil
        }
    }

    static func transform(_ value: Any?) -> CATransform3D? {
        switch value {
        case let v as CATransform3D: v
        case let v as CGAffineTransform: CATransform3DMakeAffineTransform(v)
        case let v as NSValue: GeometryValues.transform3D(of: v) ?? GeometryValues.affineTransform(of: v).map(CATransform3DMakeAffineTransform)
        default: nil
        }
    }

    static func color(_ value: Any?) -> CGColor? { value as? CGColor }

    /// Whether two model values are the same (a change to the same value runs no action).
    static func same(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x as CGFloat, let y as CGFloat): return x == y
        case (let x as CGPoint, let y as CGPoint): return x == y
        case (let x as CGSize, let y as CGSize): return x == y
        case (let x as CGRect, let y as CGRect): return x == y
        case (let x as CATransform3D, let y as CATransform3D): return x == y
        case (let x as CGColor, let y as CGColor): return x == y
        case (let x as CGPath, let y as CGPath): return x == y
        case (let x as [Any], let y as [Any]): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) || (number($0) != nil && number($0) == number($1)) }
        default: return false
        }
    }
    static func path(_ value: Any?) -> CGPath? { value as? CGPath }

    /// `a` and `b` mixed at `t` (0…1, may overshoot): numbers, points, sizes, rects, transforms (by
    /// their translation, rotation and scale), colours and paths with the same elements; other values
    /// jump half way.
    static func interpolate(_ a: Any?, _ b: Any?, _ t: Double) -> Any? {
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
        func mixf(_ x: CGFloat, _ y: CGFloat) -> CGFloat { x + (y - x) * CGFloat(t) }
        if let x = number(a), let y = number(b) { return CGFloat(mix(x, y)) }
        if let x = point(a), let y = point(b) { return CGPoint(x: mixf(x.x, y.x), y: mixf(x.y, y.y)) }
        if let x = rect(a), let y = rect(b) {
            return CGRect(x: mixf(x.minX, y.minX), y: mixf(x.minY, y.minY), width: mixf(x.width, y.width), height: mixf(x.height, y.height))
        }
        if let x = size(a), let y = size(b) { return CGSize(width: mixf(x.width, y.width), height: mixf(x.height, y.height)) }
        if let x = transform(a), let y = transform(b) {
            if CATransform3DIsAffine(x), CATransform3DIsAffine(y) { return Decomposed(x).mixed(with: Decomposed(y), t).transform }
            // In depth (perspective, rotations about x or y): part by part, as Core Animation mixes
            // matrices; one without a decomposition switches half way.
            guard let dx = Transform3DDecomposition(x.transform3D), var dy = Transform3DDecomposition(y.transform3D) else { return t < 0.5 ? x : y }
            dy.rotation = Transform3DDecomposition.rotation(dy.rotation, continuingFrom: dx.rotation)
            let mixed = zip(dx.lanes, dy.lanes).map { $0 + ($1 - $0) * t }
            return CATransform3D(Transform3DDecomposition(lanes: mixed).transform)
        }
        if let x = color(a), let y = color(b), let cx = x.components, let cy = y.components {
            return CGColor(red: mixf(cx[0], cy[0]), green: mixf(cx[1], cy[1]), blue: mixf(cx[2], cy[2]), alpha: mixf(cx[3], cy[3]))
        }
        if let x = path(a), let y = path(b) { return mixPaths(x, y, CGFloat(t)) }
        // Arrays of the same length (a gradient's colours or locations) mix element by element.
        if let x = a as? [Any], let y = b as? [Any], x.count == y.count, !x.isEmpty {
            return zip(x, y).map { interpolate($0, $1, t) ?? $1 }
        }
        return t < 0.5 ? a : b
    }

    static func add(_ a: Any?, _ b: Any?) -> Any? {
        if let x = number(a), let y = number(b) { return CGFloat(x + y) }
        if let x = point(a), let y = point(b) { return CGPoint(x: x.x + y.x, y: x.y + y.y) }
        if let x = size(a), let y = size(b) { return CGSize(width: x.width + y.width, height: x.height + y.height) }
        return b
    }

    static func subtract(_ a: Any?, _ b: Any?) -> Any? {
        if let x = number(a), let y = number(b) { return CGFloat(x - y) }
        if let x = point(a), let y = point(b) { return CGPoint(x: x.x - y.x, y: x.y - y.y) }
        if let x = size(a), let y = size(b) { return CGSize(width: x.width - y.width, height: x.height - y.height) }
        return a
    }

    /// Point by point when the elements match in kind; else the first until half way.
    static func mixPaths(_ a: CGPath, _ b: CGPath, _ t: CGFloat) -> CGPath {
        guard a.elements.count == b.elements.count else { return t < 0.5 ? a : b }
        func m(_ p: CGPoint, _ q: CGPoint) -> CGPoint { CGPoint(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t) }
        var out: [CGPath.Element] = []
        for (x, y) in zip(a.elements, b.elements) {
            switch (x, y) {
            case (.moveTo(let p), .moveTo(let q)): out.append(.moveTo(m(p, q)))
            case (.lineTo(let p), .lineTo(let q)): out.append(.lineTo(m(p, q)))
            case (.quadCurveTo(let p, let c), .quadCurveTo(let q, let d)): out.append(.quadCurveTo(m(p, q), control: m(c, d)))
            case (.curveTo(let p, let c1, let c2), .curveTo(let q, let d1, let d2)): out.append(.curveTo(m(p, q), control1: m(c1, d1), control2: m(c2, d2)))
            case (.closeSubpath, .closeSubpath): out.append(.closeSubpath)
            default: return t < 0.5 ? a : b
            }
        }
        return CGPath(elements: out)
    }

    /// An affine transform as translation, rotation and scale (the flattened part of a 3-D one).
    struct Decomposed {
        var tx: CGFloat, ty: CGFloat, angle: CGFloat, sx: CGFloat, sy: CGFloat

        init(_ t: CATransform3D) {
            let a = CATransform3DGetAffineTransform(t)
            tx = a.tx
            ty = a.ty
            sx = (a.a * a.a + a.b * a.b).squareRoot()
            sy = (a.c * a.c + a.d * a.d).squareRoot()
            if a.a * a.d - a.b * a.c < 0 { sy = -sy }
            angle = atan2(a.b, a.a)
        }

        func mixed(with o: Decomposed, _ t: Double) -> Decomposed {
            let f = CGFloat(t)
            var r = self
            r.tx += (o.tx - tx) * f
            r.ty += (o.ty - ty) * f
            r.sx += (o.sx - sx) * f
            r.sy += (o.sy - sy) * f
            var d = o.angle - angle
            while d > .pi { d -= 2 * .pi }
            while d < -.pi { d += 2 * .pi }
            r.angle += d * f
            return r
        }

        var transform: CATransform3D {
            var a = CGAffineTransform(translationX: tx, y: ty)
            a = a.rotated(by: angle)
            a = a.scaledBy(x: sx, y: sy)
            return CATransform3DMakeAffineTransform(a)
        }
    }
}

/// What kind of geometry an `NSValue` holds, read by its `objCType` (Foundation's `pointValue` on an
/// `NSValue` of another kind traps, and an `NSNumber` is an `NSValue` too). A transform is held as an array
/// of doubles (`[16d]`, `[6d]`: Foundation's `NSValue` on Linux cannot hold a struct it does not know),
/// in the struct's order: m11 … m44, or a, b, c, d, tx, ty.
enum GeometryValues {
    static let pointType = String(cString: NSValue(point: .zero).objCType)
    static let sizeType = String(cString: NSValue(size: .zero).objCType)
    static let rectType = String(cString: NSValue(rect: .zero).objCType)
    static let transform3DType = "[16d]"
    static let affineTransformType = "[6d]"

    static func type(of value: NSValue) -> String { String(cString: value.objCType) }

    static func point(of value: NSValue) -> CGPoint? { type(of: value) == pointType ? value.pointValue : nil }
    static func size(of value: NSValue) -> CGSize? { type(of: value) == sizeType ? value.sizeValue : nil }
    static func rect(of value: NSValue) -> CGRect? { type(of: value) == rectType ? value.rectValue : nil }

    static func doubles(of value: NSValue, type: String, count: Int) -> [Double]? {
        guard self.type(of: value) == type else { return nil }
        var out = [Double](repeating: 0, count: count)
        out.withUnsafeMutableBufferPointer { value.getValue(UnsafeMutableRawPointer($0.baseAddress!)) }
        return out
    }

    static func transform3D(of value: NSValue) -> CATransform3D? {
        guard let m = doubles(of: value, type: transform3DType, count: 16) else { return nil }
        let c = m.map { CGFloat($0) }
        return CATransform3D(m11: c[0], m12: c[1], m13: c[2], m14: c[3], m21: c[4], m22: c[5], m23: c[6], m24: c[7],
                             m31: c[8], m32: c[9], m33: c[10], m34: c[11], m41: c[12], m42: c[13], m43: c[14], m44: c[15])
    }

    static func affineTransform(of value: NSValue) -> CGAffineTransform? {
        guard let m = doubles(of: value, type: affineTransformType, count: 6) else { return nil }
        return CGAffineTransform(a: CGFloat(m[0]), b: CGFloat(m[1]), c: CGFloat(m[2]), d: CGFloat(m[3]), tx: CGFloat(m[4]), ty: CGFloat(m[5]))
    }
}

extension NSValue {
    /// Apple's names for the geometry values animations carry. Reading a value of another kind gives
    /// zero (or the identity) rather than trapping, as Foundation's own accessors do on Linux.
    public convenience init(cgPoint point: CGPoint) { self.init(point: point) }
    public convenience init(cgSize size: CGSize) { self.init(size: size) }
    public convenience init(cgRect rect: CGRect) { self.init(rect: rect) }
    public var cgPointValue: CGPoint { GeometryValues.point(of: self) ?? .zero }
    public var cgSizeValue: CGSize { GeometryValues.size(of: self) ?? .zero }
    public var cgRectValue: CGRect { GeometryValues.rect(of: self) ?? .zero }

    /// A 3-D transform as a value (an animation's `fromValue`, `toValue` or keyframe `values`).
    public convenience init(caTransform3D t: CATransform3D) {
        let m = [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
        self.init(bytes: m.map { Double($0) }, objCType: GeometryValues.transform3DType)
    }

    /// The 3-D transform held; the identity for a value of another kind.
    public var caTransform3DValue: CATransform3D { GeometryValues.transform3D(of: self) ?? CATransform3DIdentity }

    /// An affine transform as a value.
    public convenience init(cgAffineTransform t: CGAffineTransform) {
        self.init(bytes: [t.a, t.b, t.c, t.d, t.tx, t.ty].map { Double($0) }, objCType: GeometryValues.affineTransformType)
    }

    /// The affine transform held; the identity for a value of another kind.
    public var cgAffineTransformValue: CGAffineTransform { GeometryValues.affineTransform(of: self) ?? .identity }
}
