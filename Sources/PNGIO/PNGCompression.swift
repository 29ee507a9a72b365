import CFastPNG
import CPNGShim

/// How hard the encoder compresses: zlib level, row filters and zlib strategy.
///
/// Use a preset (``fast``, the default; ``portable``; ``small``; ``balanced``; ``store``) or ``init(named:)`` for a
/// command-line option such as `--compression small`. All presets are defined in `presets`, the one
/// place to tune them, with the measurements that chose them.
public struct PNGCompression: Sendable, Hashable, CustomStringConvertible {
    /// zlib level, 0 (store, no compression) ... 9 (smallest, slowest). Encoding throws
    /// ``PNGError/Kind/invalidArgument`` for values outside 0...9.
    public var zlibLevel: Int
    /// The row filters the encoder may use; must not be empty.
    public var filters: PNGFilters
    /// The zlib strategy.
    public var strategy: PNGZlibStrategy
    /// What compresses the image data: zlib (the same bytes on every processor) or ISA-L (faster; its
    /// bytes may differ between processors, never its pixels). ISA-L needs a single filter, the default
    /// strategy and a level of 0...3 (ISA-L's own levels); encoding throws
    /// ``PNGError/Kind/invalidArgument`` otherwise.
    public var compressor: PNGCompressor

    /// Creates a compression setting. Defaults: zlib level 6, all filters, default strategy (libpng's own defaults), zlib.
    public init(zlibLevel: Int = 6, filters: PNGFilters = .all, strategy: PNGZlibStrategy = .default, compressor: PNGCompressor = .zlib) {
        self.zlibLevel = zlibLevel
        self.filters = filters
        self.strategy = strategy
        self.compressor = compressor
    }

    // MARK: Presets (tune them here and only here)

    /// The presets by name, in the order a CLI should list them. Chosen with `smokescreen bench --sweep`
    /// (release build) on the 30 frames of the reference scene at @2x (750x1334, opaque RGB), medians per
    /// frame through one reused ``PNGEncoder``; libpng's defaults (level 6, all filters, row by row through
    /// libpng) give 36 ms and 2,250,708 B for the 30 frames:
    ///   level 1 up/default     1.6 ms  1.10x   ← portable (and `fast` until ISA-L)
    ///   ISA-L level 1 up       see docs/performance.md   ← fast
    ///   level 2 up/default     1.6 ms  1.09x   (the same within noise)
    ///   level 6 up/default     4.2 ms  0.99x
    ///   level 1 none/default   4.0 ms  1.55x
    ///   paeth/rle (any level)  2.7 ms  0.95x   ← balanced: smaller than libpng's defaults, a 13th of the time
    ///   level 9 all/default   81 ms    0.98x   ← small
    ///   level 0 none           2.5 ms  40x     ← store (filtering, copying and checksums)
    /// A single filter goes through Smokescreen's own encoder (`CFastPNG`'s `cfpng_encode`): rows equal to
    /// the row above become runs of zero rows, compressed once per encoder (at level 9, or stored at level
    /// 0) and reused; equal segments between those runs are compressed once per image; the image data is
    /// one zlib stream, written as IDAT chunks. Several filters go row by row through libpng, which picks
    /// each row's filter (hence `small`'s time). Full-screen UI frames are long runs of identical pixels,
    /// which the RLE strategy (distance-1 matches only) catches after Paeth prediction at a fraction of a
    /// full search's time. It misses repeats at longer distances, though (on a 120x90 test image it loses
    /// to `fast`), so the preset that must be smallest everywhere stays a full search with every filter.
    ///
    /// `fast` compresses with ISA-L's igzip (level 1, SIMD code chosen at run time: 0.2-0.3x zlib level 1's
    /// time on frames, within a few percent of its size), so its bytes may differ between processors and
    /// ISA-L versions (on one machine they are the same for any number of jobs and from run to run);
    /// `portable` is the previous `fast`, zlib level 1, whose bytes are the same everywhere (for people who
    /// hash files across machines).
    static let presets: [(name: String, compression: PNGCompression)] = [
        // One cheap filter and ISA-L's lowest level: speed first.
        ("fast", PNGCompression(zlibLevel: 1, filters: .up, strategy: .default, compressor: .isal)),
        // One cheap filter and zlib's lowest level: the same bytes on every processor.
        ("portable", PNGCompression(zlibLevel: 1, filters: .up, strategy: .default)),
        // Every filter and the highest zlib level: size first, whatever the content.
        ("small", PNGCompression(zlibLevel: 9, filters: .all, strategy: .default)),
        // Paeth prediction with run-length matching: near-smallest full-screen UI frames, quickly.
        ("balanced", PNGCompression(zlibLevel: 9, filters: .paeth, strategy: .rle)),
        // No compression at all: for debugging and measuring the rest of a pipeline.
        ("store", PNGCompression(zlibLevel: 0, filters: .none, strategy: .default)),
    ]

    /// Fast encoding, moderately sized files: the default for every encode and write.
    /// Its bytes may differ between processors and ISA-L versions, never the decoded pixels; on one
    /// machine they are the same for any number of threads and from run to run.
    public static let fast = presets[0].compression
    /// zlib level 1 over up-filtered rows: the same bytes on every processor (the `fast` of earlier
    /// versions, byte for byte), at several times `fast`'s encoding time.
    public static let portable = presets[1].compression
    /// Small files whatever the content, slow encoding (libpng's row-by-row path; about 50x the time of
    /// `portable` on full-screen UI frames).
    public static let small = presets[2].compression
    /// Paeth + RLE: on full-screen UI frames smaller than `small`, at about 1.7x the time of `portable`.
    public static let balanced = presets[3].compression
    /// No compression (zlib level 0, no filter): the largest files, the least CPU.
    public static let store = presets[4].compression

    /// Whether files written with this setting have the same bytes on every processor (zlib) or only the
    /// same pixels (ISA-L).
    public var sameBytesOnEveryProcessor: Bool { compressor == .zlib }

    /// The compressor's name, version and level as a manifest records it, e.g. `isa-l 2.30.0 level 1` or
    /// `zlib 1.2.13 level 1`.
    public var compressorDescription: String {
        var name = [CChar](repeating: 0, count: 64)
        _ = cfpng_compressor_name(compressor.cValue, &name, name.count)
        let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(text) level \(zlibLevel)"
    }

    /// Every preset with its name, for listing in help texts.
    public static var allPresets: [(name: String, compression: PNGCompression)] { presets }

    /// The preset called `name` (case-insensitive): `fast`, `portable`, `small`, `balanced` or `store`.
    /// - Throws: ``UnknownPresetError`` naming the presets that exist.
    public init(named name: String) throws(UnknownPresetError) {
        let key = name.lowercased()
        guard let preset = PNGCompression.presets.first(where: { $0.name == key }) else {
            throw UnknownPresetError(name: name, known: PNGCompression.presets.map(\.name))
        }
        self = preset.compression
    }

    /// The name of the preset equal to this setting, if there is one.
    public var presetName: String? { PNGCompression.presets.first { $0.compression == self }?.name }

    public var description: String {
        let values = compressor == .zlib
            ? "zlib level \(zlibLevel), filters \(filters), strategy \(strategy)"
            : "\(compressor) level \(zlibLevel), filters \(filters), strategy \(strategy)"
        return presetName.map { "\($0) (\(values))" } ?? values
    }

    /// An unknown preset name given to ``PNGCompression/init(named:)``.
    public struct UnknownPresetError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The name that was asked for.
        public let name: String
        /// The preset names that exist.
        public let known: [String]
        public var description: String {
            "unknown PNG compression '\(name)': expected one of \(known.joined(separator: ", "))"
        }
    }

    /// Checks the values and converts them for the C encoders (libpng's filter bits; the fast encoder takes
    /// ``PNGFilters/singleFilterType`` instead).
    func cOptions(path: String, writeSRGB: Bool) throws(PNGError) -> cpng_encode_options {
        guard (0...9).contains(zlibLevel) else {
            throw PNGError(path: path, kind: .invalidArgument, reason: "zlib level \(zlibLevel) is outside 0...9")
        }
        guard !filters.isEmpty, filters.isSubset(of: .all) else {
            throw PNGError(path: path, kind: .invalidArgument, reason: "the filter set must be a non-empty set of PNG filters")
        }
        if compressor == .isal {
            guard (0...3).contains(zlibLevel), filters.singleFilterType != nil, strategy == .default else {
                throw PNGError(path: path, kind: .invalidArgument,
                               reason: "isa-l needs a level of 0...3, a single filter and the default strategy")
            }
        }
        return cpng_encode_options(zlib_level: Int32(zlibLevel), filters: Int32(filters.rawValue),
                                   strategy: strategy.cValue, write_srgb: writeSRGB ? 1 : 0)
    }
}
