/// A colour as Core Graphics has it: red, green, blue and alpha components in 0…1, sRGB-encoded and not
/// premultiplied (the device RGB space UIKit's colours use). Immutable, as Core Graphics' is.
public final class CGColor: Equatable, Hashable, @unchecked Sendable, CustomStringConvertible {
    /// Red, green, blue, alpha.
    public let components: [CGFloat]?
    /// `components[3]`.
    public let alpha: CGFloat
    /// 4: red, green, blue and alpha.
    public var numberOfComponents: Int { 4 }

    /// A colour from its components, each clamped to 0…1 (NaN becomes 0).
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        func clamp(_ v: CGFloat) -> CGFloat { v.isNaN ? 0 : min(1, max(0, v)) }
        components = [clamp(red), clamp(green), clamp(blue), clamp(alpha)]
        self.alpha = clamp(alpha)
    }

    /// A grey of `gray` (0 black, 1 white).
    public convenience init(gray: CGFloat, alpha: CGFloat) { self.init(red: gray, green: gray, blue: gray, alpha: alpha) }

    /// The same colour with `alpha`.
    public func copy(alpha: CGFloat) -> CGColor? {
        let c = components ?? [0, 0, 0, 1]
        return CGColor(red: c[0], green: c[1], blue: c[2], alpha: alpha)
    }

    public static let black = CGColor(gray: 0, alpha: 1)
    public static let white = CGColor(gray: 1, alpha: 1)
    public static let clear = CGColor(gray: 0, alpha: 0)

    public static func == (lhs: CGColor, rhs: CGColor) -> Bool { lhs.components == rhs.components }
    public func hash(into hasher: inout Hasher) { hasher.combine(components) }
    public var description: String { "CGColor(\((components ?? []).map { String(format: "%.3f", Double($0)) }.joined(separator: ", ")))" }
}

/// How a stroke's open ends are drawn.
public enum CGLineCap: Int32, Sendable {
    case butt, round, square
}

/// How a stroke's corners are drawn.
public enum CGLineJoin: Int32, Sendable {
    case miter, round, bevel
}

/// Which points a filled path covers where it crosses itself.
public enum CGPathFillRule: Int, Sendable {
    case winding, evenOdd
}

/// How drawing combines with what is under it; only `.normal` is drawn (others draw as normal).
public enum CGBlendMode: Int32, Sendable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight, difference, exclusion
    case hue, saturation, color, luminosity, clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn
    case destinationOut, destinationAtop, xor, plusDarker, plusLighter
}
