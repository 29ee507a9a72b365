import CPNGShim

/// The set of PNG row filters the encoder may choose from, per row. With one filter every row uses it
/// (fast); with several libpng tries each and keeps the one with the smallest sum of absolute
/// differences (smaller files, slower). The raw values are libpng's `PNG_FILTER_*` bits.
public struct PNGFilters: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The bits of libpng's `PNG_FILTER_*` mask.
    public let rawValue: Int
    /// The filters whose bits are set in `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Filter type 0: bytes as they are.
    public static let none = PNGFilters(rawValue: Int(CPNG_FILTER_NONE))
    /// Filter type 1: difference to the pixel on the left.
    public static let sub = PNGFilters(rawValue: Int(CPNG_FILTER_SUB))
    /// Filter type 2: difference to the pixel above.
    public static let up = PNGFilters(rawValue: Int(CPNG_FILTER_UP))
    /// Filter type 3: difference to the average of left and above.
    public static let average = PNGFilters(rawValue: Int(CPNG_FILTER_AVG))
    /// Filter type 4: Paeth predictor.
    public static let paeth = PNGFilters(rawValue: Int(CPNG_FILTER_PAETH))
    /// All five filters.
    public static let all: PNGFilters = [.none, .sub, .up, .average, .paeth]

    /// The PNG filter type (0 none ... 4 Paeth) when the set holds exactly one filter, else nil.
    var singleFilterType: Int32? {
        switch self {
        case .none: 0
        case .sub: 1
        case .up: 2
        case .average: 3
        case .paeth: 4
        default: nil
        }
    }

    public var description: String {
        let names: [(PNGFilters, String)] = [(.none, "none"), (.sub, "sub"), (.up, "up"), (.average, "average"), (.paeth, "paeth")]
        if self == .all { return "all" }
        let parts = names.filter { contains($0.0) }.map(\.1)
        return parts.isEmpty ? "(empty)" : parts.joined(separator: "+")
    }
}
