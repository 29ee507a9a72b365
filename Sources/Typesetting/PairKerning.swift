/// Pair kerning from an OpenType `GPOS` table: the lookups of its `kern` feature, pair adjustment
/// (lookup type 2, also inside extension lookups, type 9), formats 1 (glyph pairs) and 2 (class pairs),
/// reading only the first glyph's x advance (what left-to-right text needs). FreeType reads only the
/// legacy `kern` table, which fonts such as Inter do not have.
///
/// The table is untrusted: every read is bounds-checked and a malformed part reads as "no kerning".
/// Immutable after parsing, so it is safe to share between threads.
struct PairKerning: Sendable {
    private let bytes: [UInt8]
    /// Absolute offsets of the pair-adjustment subtables, by lookup in lookup-list order.
    private let lookups: [[Int]]

    /// The most subtables read (a guard against absurd tables).
    static let maxSubtables = 4_096

    /// Parses `gpos`; nil when it has no `kern` feature with pair adjustments.
    init?(gpos: [UInt8]) {
        bytes = gpos
        let r = Reader(bytes: gpos)
        guard let major = r.u16(0), major == 1, let featureList = r.u16(6), let lookupList = r.u16(8),
              let featureCount = r.u16(featureList), let lookupCount = r.u16(lookupList) else { return nil }
        var indices = Set<Int>()
        for k in 0..<featureCount {
            let record = featureList + 2 + 6 * k
            guard let tag = r.tag(record), tag == "kern", let off = r.u16(record + 4) else { continue }
            let feature = featureList + off
            guard let count = r.u16(feature + 2) else { continue }
            for i in 0..<count { if let index = r.u16(feature + 4 + 2 * i), index < lookupCount { indices.insert(index) } }
        }
        var lookups: [[Int]] = []
        var total = 0
        for index in indices.sorted() {
            guard let off = r.u16(lookupList + 2 + 2 * index) else { continue }
            let lookup = lookupList + off
            guard let type = r.u16(lookup), let count = r.u16(lookup + 4) else { continue }
            var subtables: [Int] = []
            for s in 0..<count where total < Self.maxSubtables {
                guard let sub = r.u16(lookup + 6 + 2 * s) else { continue }
                var table = lookup + sub
                if type == 9 {
                    guard r.u16(table) == 1, r.u16(table + 2) == 2, let ext = r.u32(table + 4) else { continue }
                    table += ext
                } else if type != 2 {
                    continue
                }
                guard let format = r.u16(table), format == 1 || format == 2 else { continue }
                subtables.append(table)
                total += 1
            }
            if !subtables.isEmpty { lookups.append(subtables) }
        }
        guard !lookups.isEmpty else { return nil }
        self.lookups = lookups
    }

    /// The x-advance adjustment of `left` followed by `right`, in font units (negative: closer).
    func kerning(_ left: UInt32, _ right: UInt32) -> Int {
        guard left <= 0xFFFF, right <= 0xFFFF else { return 0 }
        let r = Reader(bytes: bytes)
        var sum = 0
        for subtables in lookups {
            // Within a lookup, the first subtable that covers the pair applies.
            for table in subtables {
                if let value = Self.adjustment(r, table: table, left: Int(left), right: Int(right)) {
                    sum += value
                    break
                }
            }
        }
        return sum
    }

    /// The subtable's adjustment for the pair, or nil when it does not apply.
    private static func adjustment(_ r: Reader, table: Int, left: Int, right: Int) -> Int? {
        guard let format = r.u16(table), let coverage = r.u16(table + 2), let vf1 = r.u16(table + 4), let vf2 = r.u16(table + 6),
              let index = coverageIndex(r, at: table + coverage, glyph: left) else { return nil }
        let size1 = 2 * (vf1 & 0xFF).nonzeroBitCount, size2 = 2 * (vf2 & 0xFF).nonzeroBitCount
        // Where x advance sits in the first value record, if it is there.
        let xAdvance: Int? = vf1 & 0x4 != 0 ? 2 * (vf1 & 0x3).nonzeroBitCount : nil
        if format == 1 {
            guard let setCount = r.u16(table + 8), index < setCount, let setOff = r.u16(table + 10 + 2 * index) else { return nil }
            let set = table + setOff
            guard let count = r.u16(set) else { return nil }
            let stride = 2 + size1 + size2
            var lo = 0, hi = count - 1
            while lo <= hi {
                let mid = (lo + hi) / 2
                let record = set + 2 + mid * stride
                guard let glyph = r.u16(record) else { return nil }
                if glyph == right {
                    guard let x = xAdvance else { return 0 }
                    return r.i16(record + 2 + x) ?? 0
                }
                if glyph < right { lo = mid + 1 } else { hi = mid - 1 }
            }
            return nil
        }
        guard let classDef1 = r.u16(table + 8), let classDef2 = r.u16(table + 10),
              let class1Count = r.u16(table + 12), let class2Count = r.u16(table + 14) else { return nil }
        let c1 = classOf(r, at: table + classDef1, glyph: left), c2 = classOf(r, at: table + classDef2, glyph: right)
        guard c1 < class1Count, c2 < class2Count else { return 0 }
        guard let x = xAdvance else { return 0 }
        let record = table + 16 + (c1 * class2Count + c2) * (size1 + size2)
        return r.i16(record + x) ?? 0
    }

    private static func coverageIndex(_ r: Reader, at c: Int, glyph: Int) -> Int? {
        guard let format = r.u16(c), let count = r.u16(c + 2) else { return nil }
        var lo = 0, hi = count - 1
        if format == 1 {
            while lo <= hi {
                let mid = (lo + hi) / 2
                guard let g = r.u16(c + 4 + 2 * mid) else { return nil }
                if g == glyph { return mid }
                if g < glyph { lo = mid + 1 } else { hi = mid - 1 }
            }
        } else if format == 2 {
            while lo <= hi {
                let mid = (lo + hi) / 2
                let rec = c + 4 + 6 * mid
                guard let start = r.u16(rec), let end = r.u16(rec + 2), let first = r.u16(rec + 4) else { return nil }
                if glyph < start { hi = mid - 1 } else if glyph > end { lo = mid + 1 } else { return first + glyph - start }
            }
        }
        return nil
    }

    private static func classOf(_ r: Reader, at c: Int, glyph: Int) -> Int {
        guard let format = r.u16(c) else { return 0 }
        if format == 1 {
            guard let start = r.u16(c + 2), let count = r.u16(c + 4), glyph >= start, glyph < start + count else { return 0 }
            return r.u16(c + 6 + 2 * (glyph - start)) ?? 0
        }
        guard format == 2, let count = r.u16(c + 2) else { return 0 }
        var lo = 0, hi = count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let rec = c + 4 + 6 * mid
            guard let start = r.u16(rec), let end = r.u16(rec + 2) else { return 0 }
            if glyph < start { hi = mid - 1 } else if glyph > end { lo = mid + 1 } else { return r.u16(rec + 4) ?? 0 }
        }
        return 0
    }

    /// Big-endian reads that return nil outside the table.
    private struct Reader {
        let bytes: [UInt8]
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= bytes.count else { return nil }
            return Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        func i16(_ at: Int) -> Int? { u16(at).map { Int(Int16(truncatingIfNeeded: $0)) } }
        func u32(_ at: Int) -> Int? {
            guard let hi = u16(at), let lo = u16(at + 2) else { return nil }
            return hi << 16 | lo
        }
        func tag(_ at: Int) -> String? {
            guard at >= 0, at + 4 <= bytes.count else { return nil }
            return String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
        }
    }
}
