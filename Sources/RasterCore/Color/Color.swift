/// A colour in sRGB with straight (not premultiplied) components from 0 to 1.
///
/// Components are clamped to 0…1 on creation; NaN becomes 0. Bitmaps store the ``premultiplied`` form.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0…1, sRGB-encoded and not premultiplied.
    public let red: Double
    /// Green, 0…1, sRGB-encoded and not premultiplied.
    public let green: Double
    /// Blue, 0…1, sRGB-encoded and not premultiplied.
    public let blue: Double
    /// Alpha, 0 (transparent) … 1 (opaque).
    public let alpha: Double

    /// Creates a colour from straight sRGB components, each clamped to 0…1; default alpha 1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Color.clamp(red); self.green = Color.clamp(green)
        self.blue = Color.clamp(blue); self.alpha = Color.clamp(alpha)
    }

    /// A grey with `white` in every colour channel.
    public init(white: Double, alpha: Double = 1) { self.init(red: white, green: white, blue: white, alpha: alpha) }

    /// From 8-bit sRGB components, as in `rgb(0, 122, 255)`.
    public init(red8 r: UInt8, green8 g: UInt8, blue8 b: UInt8, alpha: Double = 1) {
        self.init(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: alpha)
    }

    /// From a hex literal `0xRRGGBB`, e.g. `Color(hex: 0x007AFF)`.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(red8: UInt8(truncatingIfNeeded: hex >> 16), green8: UInt8(truncatingIfNeeded: hex >> 8),
                  blue8: UInt8(truncatingIfNeeded: hex), alpha: alpha)
    }

    /// From a hex literal with alpha, `0xRRGGBBAA`.
    public init(rgbaHex: UInt32) {
        self.init(hex: rgbaHex >> 8, alpha: Double(rgbaHex & 0xFF) / 255)
    }

    /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA` (the `#` is optional, case-insensitive).
    public init(parsing text: String) throws(ColorParseError) {
        var digits = Substring(text)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { throw ColorParseError(text: text) }
        switch digits.count {
        case 3:
            let r = (value >> 8) & 0xF, g = (value >> 4) & 0xF, b = value & 0xF
            self.init(hex: (r * 17) << 16 | (g * 17) << 8 | b * 17)
        case 6: self.init(hex: value)
        case 8: self.init(rgbaHex: value)
        default: throw ColorParseError(text: text)
        }
    }

    /// Transparent.
    public static let clear = Color(white: 0, alpha: 0)
    /// Opaque black.
    public static let black = Color(white: 0)
    /// Opaque white.
    public static let white = Color(white: 1)

    /// The same colour with another alpha.
    public func withAlpha(_ alpha: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: alpha) }

    /// The 8-bit premultiplied pixel: `a = round(alpha·255)`, `c = round(component·alpha·255)`,
    /// rounding halves up.
    public var premultiplied: PremultipliedRGBA8 {
        @inline(__always) func byte(_ v: Double) -> UInt8 { UInt8((v * 255).rounded(.toNearestOrAwayFromZero)) }
        return PremultipliedRGBA8(r: byte(red * alpha), g: byte(green * alpha), b: byte(blue * alpha), a: byte(alpha))
    }

    /// The straight colour of a premultiplied pixel (transparent pixels give `clear`).
    public init(_ pixel: PremultipliedRGBA8) {
        let s = pixel.unpremultiplied
        self.init(red8: s.r, green8: s.g, blue8: s.b, alpha: Double(s.a) / 255)
    }

    private static func clamp(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }

    public var description: String { "Color(r: \(red), g: \(green), b: \(blue), a: \(alpha))" }
}

/// A colour string that is not `#RGB`, `#RRGGBB` or `#RRGGBBAA`.
public struct ColorParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text that could not be parsed.
    public let text: String
    public var description: String { "'\(text)' is not a colour: expected #RGB, #RRGGBB or #RRGGBBAA" }
}
