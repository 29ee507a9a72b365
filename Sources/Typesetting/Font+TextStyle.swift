extension Font {
    /// iOS's Dynamic Type text styles at the default content size (Large), with `UIFont.TextStyle`'s
    /// names: the size and weight of each, from Apple's Human Interface Guidelines (Typography, "Dynamic
    /// Type sizes"). ``Font/preferredFont(forTextStyle:)`` makes the system font for one.
    ///
    /// | style | size (pt) | weight |
    /// |---|---|---|
    /// | largeTitle | 34 | regular |
    /// | title1 | 28 | regular |
    /// | title2 | 22 | regular |
    /// | title3 | 20 | regular |
    /// | headline | 17 | semibold |
    /// | body | 17 | regular |
    /// | callout | 16 | regular |
    /// | subheadline | 15 | regular |
    /// | footnote | 13 | regular |
    /// | caption1 | 12 | regular |
    /// | caption2 | 11 | regular |
    public enum TextStyle: String, Hashable, Sendable, CaseIterable {
        case largeTitle, title1, title2, title3, headline, body, callout, subheadline, footnote, caption1, caption2

        /// The point size at the default content size.
        public var pointSize: Double {
            switch self {
            case .largeTitle: 34
            case .title1: 28
            case .title2: 22
            case .title3: 20
            case .headline, .body: 17
            case .callout: 16
            case .subheadline: 15
            case .footnote: 13
            case .caption1: 12
            case .caption2: 11
            }
        }

        /// The weight: semibold for ``headline``, regular for the others.
        public var weight: Weight { self == .headline ? .semibold : .regular }

        /// The point size at a Dynamic Type text size, from Apple's Human Interface Guidelines (Typography,
        /// "Dynamic Type sizes", iOS): a row per style, xSmall … xxxLarge then AX1 … AX5.
        public func pointSize(at size: ContentSize) -> Double {
            let row: [Double] = switch self {
            case .largeTitle: [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60]
            case .title1: [25, 26, 27, 28, 30, 32, 34, 38, 43, 48, 53, 58]
            case .title2: [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56]
            case .title3: [17, 18, 19, 20, 22, 24, 26, 31, 37, 43, 49, 55]
            case .headline, .body: [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]
            case .callout: [13, 14, 15, 16, 18, 20, 22, 26, 32, 38, 44, 51]
            case .subheadline: [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49]
            case .footnote: [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44]
            case .caption1: [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43]
            case .caption2: [11, 11, 11, 11, 13, 15, 17, 20, 24, 29, 34, 40]
            }
            return row[size.rawValue]
        }
    }

    /// Dynamic Type's text sizes, smallest first: seven standard sizes and five accessibility sizes.
    public enum ContentSize: Int, Hashable, Sendable, CaseIterable, Comparable {
        case extraSmall, small, medium, large, extraLarge, extraExtraLarge, extraExtraExtraLarge
        case accessibilityMedium, accessibilityLarge, accessibilityExtraLarge, accessibilityExtraExtraLarge, accessibilityExtraExtraExtraLarge
        public static func < (a: ContentSize, b: ContentSize) -> Bool { a.rawValue < b.rawValue }
    }

    /// The system font for a text style at a Dynamic Type text size.
    public static func preferredFont(forTextStyle style: TextStyle, contentSize: ContentSize) -> Font {
        system(size: style.pointSize(at: contentSize), weight: style.weight)
    }

    /// The system font for a text style, like `UIFont.preferredFont(forTextStyle:)` at the default
    /// content size: e.g. `.body` is Inter 17 pt regular, `.headline` Inter 17 pt semibold, with SF's
    /// tracking for the size.
    public static func preferredFont(forTextStyle style: TextStyle) -> Font {
        system(size: style.pointSize, weight: style.weight)
    }

    /// SF's tracking table (Apple Human Interface Guidelines, Typography, "Tracking values" for SF Pro),
    /// in thousandths of an em, by point size: (size, tracking). Between two sizes the tracking is
    /// interpolated linearly; below 6 pt it is that of 6 pt, from 80 pt it is 0.
    public static let systemTrackingTable: [(size: Double, tracking: Double)] = [
        (6, 41), (7, 34), (8, 26), (9, 19), (10, 12), (11, 6), (12, 0), (13, -6), (14, -11), (15, -16),
        (16, -20), (17, -26), (18, -25), (19, -25), (20, -23), (21, -18), (22, -12), (23, -4), (24, 3),
        (25, 6), (26, 8), (27, 11), (28, 14), (29, 14), (30, 14), (31, 13), (32, 13), (33, 12), (34, 12),
        (35, 11), (36, 10), (37, 10), (38, 10), (39, 10), (40, 10), (41, 9), (42, 9), (43, 9), (44, 8),
        (45, 8), (46, 8), (47, 7), (48, 8), (49, 7), (50, 7), (51, 7), (52, 6), (53, 6), (54, 6), (56, 6),
        (58, 5), (60, 4), (62, 4), (64, 4), (66, 3), (68, 2), (70, 2), (72, 2), (76, 1), (80, 0),
    ]

    /// The system font's tracking at `size` points, in thousandths of an em (from
    /// ``systemTrackingTable``): 17 pt gives −26 (−0.442 pt), 12 pt gives 0, 28 pt gives +14.
    public static func systemTracking(forSize size: Double) -> Double {
        let table = systemTrackingTable
        guard size.isFinite, size > table[0].size else { return table[0].tracking }
        guard size < table[table.count - 1].size else { return table[table.count - 1].tracking }
        var k = 1
        while table[k].size < size { k += 1 }
        let (s0, t0) = table[k - 1], (s1, t1) = table[k]
        return t0 + (t1 - t0) * (size - s0) / (s1 - s0)
    }
}
