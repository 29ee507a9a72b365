/// A point in a 2-D coordinate space (points or pixels, as the caller's space says), y pointing down.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) { self.x = x; self.y = y }

    public static let zero = Point(x: 0, y: 0)

    /// True when both coordinates are finite (not NaN or infinite).
    public var isFinite: Bool { x.isFinite && y.isFinite }

    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }

    public var description: String { "(\(x), \(y))" }
}

/// A width and height. Negative values are allowed (as in CGSize) and are normalized by `Rect`.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) { self.width = width; self.height = height }

    public static let zero = Size(width: 0, height: 0)

    /// True when both dimensions are finite.
    public var isFinite: Bool { width.isFinite && height.isFinite }

    public static func * (a: Size, s: Double) -> Size { Size(width: a.width * s, height: a.height * s) }

    public var description: String { "\(width)x\(height)" }
}

/// Distances to inset a rectangle by, per edge (UIEdgeInsets). Positive values shrink the rectangle.
public struct EdgeInsets: Hashable, Sendable, CustomStringConvertible {
    public var top: Double, left: Double, bottom: Double, right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }

    /// The same inset on every edge.
    public init(all inset: Double) { self.init(top: inset, left: inset, bottom: inset, right: inset) }

    public static let zero = EdgeInsets()

    public var description: String { "(top \(top), left \(left), bottom \(bottom), right \(right))" }
}
