import RasterCore
import Typesetting

/// How a table draws its sections, as `UITableView.Style`.
public enum TableViewStyle: String, Hashable, Sendable {
    /// Rows edge to edge, separated by hairlines; section headers stay at the top while their section
    /// scrolls under them.
    case plain
    /// Each section's rows drawn as one rounded rectangle inset from the edges, on a grey background, with
    /// space between sections (the look of iOS's grouped tables; `insetGrouped` today).
    case grouped
}

/// How rows and sections come and go in a batch update, as `UITableView.RowAnimation`.
///
/// For an inserted row, with `h` its height and `W` the table's width (a deleted row does the reverse:
/// it ends where an inserted row starts):
///
/// | style | start frame | start alpha |
/// |---|---|---|
/// | `fade` | its final frame | 0 |
/// | `right` | its final frame moved +W in x | 0 |
/// | `left` | its final frame moved −W in x | 0 |
/// | `top` | its bottom edge where its slot opens (under the row above): final −h when nothing above it moves | 1 |
/// | `bottom` | its top edge h below where its slot opens (under the rows below): final +h when nothing above it moves | 1 |
/// | `middle` | centred where its slot opens, so it stays centred in the gap as it widens: final −h/2 | 0 |
/// | `none` | its final frame, at once | 1 |
///
/// "Where its slot opens" is the edge between its neighbours in the layout before the update (after it,
/// for a delete), so a row slides from under its real neighbour even when rows above it move too.
/// `automatic` picks: see ``TableView/resolvedAnimation(_:forRowAt:inSectionOfCount:)``.
public enum TableViewRowAnimation: String, Hashable, Sendable, CaseIterable {
    /// Fades in or out in place.
    case fade
    /// Slides in from the right, or out to the right, fading.
    case right
    /// Slides in from the left, or out to the left, fading.
    case left
    /// Slides down from under the row above, or up under it.
    case top
    /// Slides up from under the rows below, or down under them.
    case bottom
    /// Appears or disappears at once.
    case none
    /// Stays centred in the gap as it opens or closes, fading.
    case middle
    /// The table picks a style for where the row is (iOS 5's `UITableViewRowAnimationAutomatic`).
    case automatic
}

/// Where a row ends up when the table scrolls to it, as `UITableView.ScrollPosition`.
public enum TableViewScrollPosition: String, Hashable, Sendable {
    /// As little as possible: not at all when the row is fully visible, else to the nearer edge.
    case none
    /// The row's top at the top of the table.
    case top
    /// The row centred.
    case middle
    /// The row's bottom at the bottom of the table.
    case bottom
}

/// Where a grouped section's rounded rectangle has its corners on one row, and whether the row draws a
/// separator under it.
public struct CellSectionPosition: Hashable, Sendable {
    /// The row rounds its top corners (it is the first of its section in a grouped table).
    public var roundsTop: Bool
    /// The row rounds its bottom corners (the last of its section in a grouped table).
    public var roundsBottom: Bool

    /// A position.
    public init(roundsTop: Bool, roundsBottom: Bool) {
        self.roundsTop = roundsTop
        self.roundsBottom = roundsBottom
    }

    /// Neither top nor bottom: a row in the middle of a section, or any row of a plain table.
    public static let middle = CellSectionPosition(roundsTop: false, roundsBottom: false)

    /// Rounded wherever either position is: what a row shows while an update moves it from one to the
    /// other, so no square corner shows against the background while its neighbours slide.
    public func union(_ other: CellSectionPosition) -> CellSectionPosition {
        CellSectionPosition(roundsTop: roundsTop || other.roundsTop, roundsBottom: roundsBottom || other.roundsBottom)
    }
}

/// The colours and metrics tables are drawn with (points). Sources: iOS's system colours as published
/// in Apple's Human Interface Guidelines (light appearance) and the grouped metrics of iOS 13's
/// `insetGrouped` style.
public enum TableViewMetrics {
    /// 44 pt: UITableView's default `rowHeight`.
    public static let defaultRowHeight = 44.0

    /// How much taller a line of the system font in `style` is at the Dynamic Type size `size` than at
    /// Large, the default (points; negative below it): the growth of the font's line height.
    public static func lineGrowth(_ style: Font.TextStyle, at size: Font.ContentSize) -> Double {
        guard size != .large else { return 0 }
        let at = (try? Font.preferredFont(forTextStyle: style, contentSize: size).metrics().lineHeight) ?? 0
        let large = (try? Font.preferredFont(forTextStyle: style).metrics().lineHeight) ?? 0
        return at - large
    }

    /// A row's height at the Dynamic Type size `size` (points): 44 up to Large, and above it 44 plus the
    /// body font's growth, rounded up to a whole point, as a self-sizing standard cell grows with its
    /// text (the cell's margins stay). UIKit computes it from SF's metrics; here Inter's.
    public static func rowHeight(at size: Font.ContentSize) -> Double {
        max(defaultRowHeight, (defaultRowHeight + lineGrowth(.body, at: size)).rounded(.up))
    }
    /// 16 pt: the left inset of separators and of a cell's content.
    public static let contentInset = 16.0
    /// 16 pt: how far a grouped section's rounded rectangle is inset from each side.
    public static let groupedSideInset = 16.0
    /// 10 pt: the corner radius of a grouped section.
    public static let groupedCornerRadius = 10.0
    /// 0.5 pt: a separator line at @2x. Separators are hairlines: drawn one device pixel tall at every
    /// scale (``hairlineThickness(scale:)``), snapped to the pixel grid.
    public static let separatorThickness = 0.5
    /// A hairline's thickness at `scale` pixels per point: 1 / scale points (one device pixel), as
    /// UIKit draws table separators.
    public static func hairlineThickness(scale: Double) -> Double { 1 / scale }
    /// `systemGray4` (#D1D1D6): a selected row's background (light; ``SystemPalette`` has both appearances).
    public static var selectedBackground: Color { SystemPalette.light.selectedCellBackground }
    /// `opaqueSeparator` (#C6C6C8), the colour of UITableView's separators since iOS 13 (light
    /// appearance); iOS 7–12 drew #C8C7CC. The newer one matches the rest of these metrics (iOS 13's
    /// system colours and `insetGrouped` sections).
    public static var separator: Color { SystemPalette.light.separator }
    /// `systemGroupedBackground` (#F2F2F7): behind a grouped table's sections (light).
    public static var groupedBackground: Color { SystemPalette.light.groupedBackground }
    /// #F7F7F7: a plain table's section header bar (light).
    public static var plainHeaderBackground: Color { SystemPalette.light.plainHeaderBackground }
    /// `secondaryLabel` on white, opaque (#8A8A8E): header and footer titles of grouped tables, detail text (light).
    public static var secondaryText: Color { SystemPalette.light.secondaryLabel }
    /// `systemBlue` (#007AFF): checkmarks, the tint (light).
    public static var tint: Color { SystemPalette.light.tint }
    /// `tertiaryLabel`, opaque (#C4C4C7): the disclosure chevron (light).
    public static var chevron: Color { SystemPalette.light.tertiaryLabel }
}
