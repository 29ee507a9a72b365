#if _endian(big)
#error("Smokescreen packs RGBA8 pixels as little-endian UInt32 values")
#endif

/// One premultiplied pixel: each colour channel is already multiplied by alpha, so `r, g, b <= a`.
///
/// In memory the bytes are R, G, B, A; as a packed `UInt32` (little-endian) R is the low byte.
/// The initializer keeps the invariant by clamping colour channels to alpha, so an invalid
/// premultiplied value cannot be built through it.
@frozen
public struct PremultipliedRGBA8: Hashable, Sendable, CustomStringConvertible {
    /// Red, premultiplied by alpha, 0…255.
    public var r: UInt8
    /// Green, premultiplied by alpha, 0…255.
    public var g: UInt8
    /// Blue, premultiplied by alpha, 0…255.
    public var b: UInt8
    /// Alpha, 0 (transparent) … 255 (opaque).
    public var a: UInt8

    /// Creates a pixel; colour channels above `a` are clamped to `a`.
    @inlinable
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = min(r, a)
        self.g = min(g, a)
        self.b = min(b, a)
        self.a = a
    }

    /// Unpacks a little-endian packed pixel (R in the low byte). No clamping: the caller's bits are kept.
    @inlinable
    public init(packed: UInt32) {
        r = UInt8(truncatingIfNeeded: packed)
        g = UInt8(truncatingIfNeeded: packed >> 8)
        b = UInt8(truncatingIfNeeded: packed >> 16)
        a = UInt8(truncatingIfNeeded: packed >> 24)
    }

    /// The pixel packed into a `UInt32` with R in the low byte, as stored in a `Bitmap`.
    @inlinable
    public var packed: UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }

    /// Fully transparent black.
    public static let clear = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 0)
    /// Opaque black.
    public static let black = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255)
    /// Opaque white.
    public static let white = PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255)

    /// The straight-alpha colour this pixel represents, each component rounded to nearest:
    /// `round(c * 255 / a)`; transparent pixels give (0, 0, 0, 0).
    @inlinable
    public var unpremultiplied: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        if a == 255 || a == 0 { return a == 0 ? (0, 0, 0, 0) : (r, g, b, 255) }
        let alpha = UInt32(a), half = alpha / 2
        @inline(__always) func un(_ c: UInt8) -> UInt8 { UInt8(min(255, (UInt32(c) * 255 + half) / alpha)) }
        return (un(r), un(g), un(b), a)
    }

    public var description: String { "rgba(\(r), \(g), \(b), \(a)) premultiplied" }
}

extension PremultipliedRGBA8 {
    /// `table[a << 8 | c]` = `min(255, (c * 255 + a / 2) / a)`, and 0 for `a == 0`: un-premultiplying
    /// with rounding to nearest, exactly as ``unpremultiplied``, without a division per sample. The one
    /// table the PNG writer and frame comparison share, so both see the same straight bytes.
    public static let unpremultiplyTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256 * 256)
        for a in 1..<256 {
            for c in 0..<256 { table[a << 8 | c] = UInt8(min(255, (c * 255 + a / 2) / a)) }
        }
        return table
    }()

    /// The straight form of one packed premultiplied pixel (R in the low byte), through
    /// ``unpremultiplyTable`` (pass its base address). Opaque pixels come back unchanged.
    @inlinable @inline(__always)
    public static func unpremultiply(packed p: UInt32, table: UnsafePointer<UInt8>) -> UInt32 {
        let a = p >> 24
        if a == 255 { return p }
        let base = Int(a) << 8
        let r = UInt32(table[base | Int(p & 0xFF)])
        let g = UInt32(table[base | Int(p >> 8 & 0xFF)])
        let b = UInt32(table[base | Int(p >> 16 & 0xFF)])
        return r | g << 8 | b << 16 | a << 24
    }
}
