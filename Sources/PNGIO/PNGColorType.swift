/// A PNG colour type; the raw value is the number stored in IHDR.
public enum PNGColorType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Grey (type 0): 1, 2, 4, 8 or 16 bits.
    case grayscale = 0
    /// RGB (type 2): 8 or 16 bits per sample.
    case rgb = 2
    /// Palette indices (type 3): 1, 2, 4 or 8 bits, with a PLTE chunk.
    case palette = 3
    /// Grey and alpha (type 4): 8 or 16 bits per sample.
    case grayscaleAlpha = 4
    /// RGB and alpha (type 6): 8 or 16 bits per sample.
    case rgba = 6

    /// Samples per pixel in the PNG data (1 for palette indices).
    public var channels: Int {
        switch self {
        case .grayscale, .palette: 1
        case .grayscaleAlpha: 2
        case .rgb: 3
        case .rgba: 4
        }
    }

    /// True when the pixels carry an alpha sample (types 4 and 6; tRNS is not counted).
    public var hasAlpha: Bool { self == .grayscaleAlpha || self == .rgba }

    public var description: String {
        switch self {
        case .grayscale: "greyscale"
        case .rgb: "RGB"
        case .palette: "palette"
        case .grayscaleAlpha: "greyscale+alpha"
        case .rgba: "RGBA"
        }
    }
}
