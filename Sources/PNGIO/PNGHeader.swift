/// The header (IHDR) of a PNG as stored in the file, before any conversion.
public struct PNGHeader: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bits per sample: 1, 2, 4, 8 or 16 (for palette images, bits per palette index).
    public var bitDepth: Int
    /// The colour type.
    public var colorType: PNGColorType
    /// True for Adam7 interlacing.
    public var interlaced: Bool

    /// Creates a header.
    public init(width: Int, height: Int, bitDepth: Int, colorType: PNGColorType, interlaced: Bool) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colorType = colorType
        self.interlaced = interlaced
    }

    public var description: String {
        "\(width)x\(height), \(bitDepth)-bit \(colorType)\(interlaced ? ", Adam7 interlaced" : "")"
    }
}
