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
