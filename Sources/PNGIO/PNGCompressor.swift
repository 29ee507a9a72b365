import CFastPNG

/// What deflates a PNG's image data.
public enum PNGCompressor: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The system zlib: the same bytes on every processor and every run.
    case zlib
    /// ISA-L's igzip (Debian's `libisal-dev`), SIMD code chosen at run time: several times faster than
    /// zlib on frames, within a few percent of its size. Its bytes are the same on every run of one
    /// machine, but may differ between processors (SSE, AVX2, AVX-512, NEON) and ISA-L versions; they
    /// always decode to the same pixels. Single-filter encodes only (Smokescreen's own encoder).
    case isal = "isa-l"

    public var description: String { rawValue }

    var cValue: Int32 { self == .zlib ? CFPNG_COMPRESSOR_ZLIB : CFPNG_COMPRESSOR_ISAL }
}
