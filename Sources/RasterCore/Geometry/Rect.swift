/// A rectangle with CGRect semantics: an origin and a size that may be negative; `minX`…`maxY` and every
/// operation work on the standardized form. ``null`` is the empty set (the result of intersecting
/// disjoint rectangles) and is distinct from a zero-size rectangle at a position.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The corner the size is measured from (the top-left once standardized).
    public var origin: Point
    /// Width and height; negative values extend left or up, as in Core Graphics.
    public var size: Size

    /// A rectangle at `origin` of `size`.
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }

    /// A rectangle from its origin and size, in points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The null rectangle: no position, no area. Union with it is the identity.
    public static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)

    /// Whether this is ``null`` (the result of intersecting rectangles that do not meet).
    public var isNull: Bool { origin.x == .infinity || origin.y == .infinity }
    /// True for the null rectangle and for zero width or height.
    public var isEmpty: Bool { isNull || size.width == 0 || size.height == 0 }
    /// True when origin and size are finite (the null rectangle is not).
    public var isFinite: Bool { origin.isFinite && size.isFinite }

    /// The smallest x, whatever the sign of the width.
    public var minX: Double { min(origin.x, origin.x + size.width) }
    /// The smallest y, whatever the sign of the height.
    public var minY: Double { min(origin.y, origin.y + size.height) }
    /// The largest x.
    public var maxX: Double { max(origin.x, origin.x + size.width) }
    /// The largest y.
    public var maxY: Double { max(origin.y, origin.y + size.height) }
    /// The x of the centre.
    public var midX: Double { origin.x + size.width / 2 }
    /// The y of the centre.
    public var midY: Double { origin.y + size.height / 2 }
    /// The width, never negative.
    public var width: Double { abs(size.width) }
    /// The height, never negative.
    public var height: Double { abs(size.height) }

    /// The same rectangle with a non-negative size.
    public var standardized: Rect {
        if isNull { return self }
        return Rect(x: minX, y: minY, width: width, height: height)
    }

    /// Moves the rectangle.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        if isNull { return self }
        return Rect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
    }

    /// Shrinks (positive) or grows (negative) each side; null when the result would have negative size.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        if isNull { return self }
        let r = standardized
        let w = r.size.width - 2 * dx, h = r.size.height - 2 * dy
        if w < 0 || h < 0 { return .null }
        return Rect(x: r.origin.x + dx, y: r.origin.y + dy, width: w, height: h)
    }

    /// Applies edge insets (UIEdgeInsetsInsetRect): plain arithmetic on the standardized rectangle; the
    /// result may have a negative size when the insets exceed it.
    public func inset(by insets: EdgeInsets) -> Rect {
        if isNull { return self }
        let r = standardized
        return Rect(x: r.minX + insets.left, y: r.minY + insets.top,
                    width: r.size.width - insets.left - insets.right,
                    height: r.size.height - insets.top - insets.bottom)
    }

    /// The smallest rectangle containing both; null is the identity.
    public func union(_ other: Rect) -> Rect {
        if isNull { return other.standardized }
        if other.isNull { return standardized }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The overlap; null when the rectangles do not meet. Rectangles that only touch give a zero-size
    /// rectangle on the shared edge, as CGRectIntersection does.
    public func intersection(_ other: Rect) -> Rect {
        if isNull || other.isNull { return .null }
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        if x1 < x0 || y1 < y0 { return .null }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// True when the overlap has area.
    public func intersects(_ other: Rect) -> Bool { !intersection(other).isEmpty }

    /// The smallest rectangle with integer edges that contains this one (null stays null).
    public var integral: Rect {
        if isNull { return self }
        let x0 = minX.rounded(.down), y0 = minY.rounded(.down)
        return Rect(x: x0, y: y0, width: maxX.rounded(.up) - x0, height: maxY.rounded(.up) - y0)
    }

    /// True when `p` lies inside: the minimum edges are included, the maximum edges are not.
    public func contains(_ p: Point) -> Bool {
        !isNull && p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// True when `other` lies wholly inside (edges included). Nothing contains the null rectangle.
    public func contains(_ other: Rect) -> Bool {
        !isNull && !other.isNull && other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    public var description: String { isNull ? "Rect.null" : "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }
}
