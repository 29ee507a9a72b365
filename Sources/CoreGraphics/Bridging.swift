package import RasterCore

// Conversions between Apple's value types and Smokescreen's, for CoreGraphics, QuartzCore and UIKit only
// (package access: a user of UIKit never sees Smokescreen's names).

extension CGRect {
    package var rect: Rect { Rect(x: Double(origin.x), y: Double(origin.y), width: Double(size.width), height: Double(size.height)) }
    package init(_ rect: Rect) { self.init(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height) }
}

extension CGPoint {
    package var point: Point { Point(x: Double(x), y: Double(y)) }
    package init(_ point: Point) { self.init(x: point.x, y: point.y) }
}

extension CGSize {
    package var size: Size { Size(width: Double(width), height: Double(height)) }
    package init(_ size: Size) { self.init(width: size.width, height: size.height) }
}

extension CGAffineTransform {
    package var transform2D: Transform2D { Transform2D(a: Double(a), b: Double(b), c: Double(c), d: Double(d), tx: Double(tx), ty: Double(ty)) }
    package init(_ t: Transform2D) { self.init(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty) }
}

extension CGColor {
    package var color: Color {
        let c = components ?? [0, 0, 0, 1]
        return Color(red: Double(c[0]), green: Double(c[1]), blue: Double(c[2]), alpha: Double(c[3]))
    }
    package convenience init(_ color: Color) { self.init(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha) }
}

extension CGPath {
    /// The path in Smokescreen's form.
    /// The elements of a Smokescreen path.
    package static func elements(of path: Path) -> [CGPath.Element] {
        path.elements.map {
            switch $0 {
            case .move(let p): .moveTo(CGPoint(x: p.x, y: p.y))
            case .line(let p): .lineTo(CGPoint(x: p.x, y: p.y))
            case .quadCurve(let p, let c): .quadCurveTo(CGPoint(x: p.x, y: p.y), control: CGPoint(x: c.x, y: c.y))
            case .curve(let p, let c1, let c2): .curveTo(CGPoint(x: p.x, y: p.y), control1: CGPoint(x: c1.x, y: c1.y), control2: CGPoint(x: c2.x, y: c2.y))
            case .close: .closeSubpath
            }
        }
    }

    package var path: Path {
        var path = Path()
        for element in elements {
            switch element {
            case .moveTo(let p): path.move(to: p.point)
            case .lineTo(let p): path.addLine(to: p.point)
            case .quadCurveTo(let p, let c): path.addQuadCurve(to: p.point, control: c.point)
            case .curveTo(let p, let c1, let c2): path.addCurve(to: p.point, control1: c1.point, control2: c2.point)
            case .closeSubpath: path.closeSubpath()
            }
        }
        return path
    }
}
