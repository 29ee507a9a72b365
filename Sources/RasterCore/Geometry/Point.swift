/// A point in a 2-D coordinate space (points or pixels, as the caller's space says), y pointing down.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// Points (or pixels, where a pixel API says so), rightwards.
    public var x: Double
    /// Points (or pixels, where a pixel API says so), downwards.
    public var y: Double

    /// The point (`x`, `y`).
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    /// The origin.
    public static let zero = Point(x: 0, y: 0)

    /// True when both coordinates are finite (not NaN or infinite).
    public var isFinite: Bool { x.isFinite && y.isFinite }

    /// The component-wise sum.
    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    /// The component-wise difference.
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    /// Both coordinates multiplied by `s`.
    public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }

    public var description: String { "(\(x), \(y))" }
}

/// A width and height. Negative values are allowed (as in CGSize) and are normalized by `Rect`.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Points; may be negative in a non-standardized rect.
    public var width: Double
    /// Points; may be negative in a non-standardized rect.
    public var height: Double

    /// A size of `width` by `height`.
    public init(width: Double, height: Double) { self.width = width; self.height = height }

    /// No width and no height.
    public static let zero = Size(width: 0, height: 0)

    /// True when both dimensions are finite.
    public var isFinite: Bool { width.isFinite && height.isFinite }

    /// Both dimensions multiplied by `s`.
    public static func * (a: Size, s: Double) -> Size { Size(width: a.width * s, height: a.height * s) }

    public var description: String { "\(width)x\(height)" }
}

/// Distances to inset a rectangle by, per edge (UIEdgeInsets). Positive values shrink the rectangle.
public struct EdgeInsets: Hashable, Sendable, CustomStringConvertible {
    /// Distances from each edge, in points.
    public var top: Double, left: Double, bottom: Double, right: Double

    /// Insets; each defaults to 0.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }

    /// The same inset on every edge.
    public init(all inset: Double) { self.init(top: inset, left: inset, bottom: inset, right: inset) }

    /// No inset on any edge.
    public static let zero = EdgeInsets()

    public var description: String { "(top \(top), left \(left), bottom \(bottom), right \(right))" }
}
