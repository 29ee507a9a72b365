import CPNGShim

/// The zlib compression strategy used for the image data (`deflateInit2`'s `strategy`).
public enum PNGZlibStrategy: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `Z_DEFAULT_STRATEGY`: normal LZ77 + Huffman.
    case `default`
    /// `Z_FILTERED`: favours Huffman coding for filtered data with small values.
    case filtered
    /// `Z_HUFFMAN_ONLY`: no string matching at all (fastest, usually larger).
    case huffmanOnly
    /// `Z_RLE`: matches of distance 1 only (fast; good on flat UI images).
    case rle
    /// `Z_FIXED`: fixed Huffman codes only.
    case fixed

    var cValue: Int32 {
        switch self {
        case .default: CPNG_STRATEGY_DEFAULT
        case .filtered: CPNG_STRATEGY_FILTERED
        case .huffmanOnly: CPNG_STRATEGY_HUFFMAN_ONLY
        case .rle: CPNG_STRATEGY_RLE
        case .fixed: CPNG_STRATEGY_FIXED
        }
    }

    public var description: String {
        switch self {
        case .default: "default"
        case .filtered: "filtered"
        case .huffmanOnly: "huffman-only"
        case .rle: "rle"
        case .fixed: "fixed"
        }
    }
}
