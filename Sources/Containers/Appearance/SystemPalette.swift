import RasterCore
import SnapshotView

/// iOS's system colours for one ``Appearance``, the ones Containers' views draw with (tables, bars,
/// the status bar). Values from Apple's Human Interface Guidelines (the colours' published light and
/// dark values); where a colour is translucent and the light screen always draws it over white, the
/// light value is the opaque colour it makes there (as the table's metrics were measured against iOS's
/// pictures), the dark one keeps its alpha.
public struct SystemPalette: Hashable, Sendable {
    /// Which appearance these are the values of.
    public let appearance: Appearance
    /// `systemBackground`: white / black. A plain table, a controller's view.
    public let background: Color
    /// `systemGroupedBackground`: #F2F2F7 / black. Behind a grouped table's sections.
    public let groupedBackground: Color
    /// `secondarySystemGroupedBackground`: white / #1C1C1E. A grouped table's cells.
    public let groupedCellBackground: Color
    /// `label`: black / white.
    public let label: Color
    /// `secondaryLabel`: #3C3C43 at 60 % (on white #8A8A8E) / #EBEBF5 at 60 %. Detail text, header titles.
    public let secondaryLabel: Color
    /// `tertiaryLabel`: #3C3C43 at 30 % (on white #C4C4C7) / #EBEBF5 at 30 %. The disclosure chevron.
    public let tertiaryLabel: Color
    /// A table's separators: `opaqueSeparator` #C6C6C8 in light; `separator` #545458 at 60 % in dark.
    public let separator: Color
    /// `systemGray4`: #D1D1D6 / #3A3A3C. A selected row's background.
    public let selectedCellBackground: Color
    /// A plain table's section header bar: #F7F7F7 / #1C1C1E (the dark value is estimated:
    /// `secondarySystemBackground`).
    public let plainHeaderBackground: Color
    /// `systemBlue`, the tint: #007AFF / #0A84FF.
    public let tint: Color
    /// The hairline under a bar's standard appearance: black at 30 % / white at 15 % (the dark value is
    /// estimated from iOS 17's screenshots).
    public let barHairline: Color
    /// The status bar's content over this appearance's screens.
    public let statusBarStyle: StatusBar.Style

    /// The light values.
    public static let light = SystemPalette(
        appearance: .light, background: .white, groupedBackground: Color(red8: 0xF2, green8: 0xF2, blue8: 0xF7),
        groupedCellBackground: .white, label: .black, secondaryLabel: Color(red8: 0x8A, green8: 0x8A, blue8: 0x8E),
        tertiaryLabel: Color(red8: 0xC4, green8: 0xC4, blue8: 0xC7), separator: Color(red8: 0xC6, green8: 0xC6, blue8: 0xC8),
        selectedCellBackground: Color(red8: 0xD1, green8: 0xD1, blue8: 0xD6), plainHeaderBackground: Color(red8: 0xF7, green8: 0xF7, blue8: 0xF7),
        tint: Color(red8: 0x00, green8: 0x7A, blue8: 0xFF), barHairline: Color(white: 0, alpha: 0.3), statusBarStyle: .darkContent)

    /// The dark values.
    public static let dark = SystemPalette(
        appearance: .dark, background: .black, groupedBackground: .black,
        groupedCellBackground: Color(red8: 0x1C, green8: 0x1C, blue8: 0x1E), label: .white,
        secondaryLabel: Color(red8: 0xEB, green8: 0xEB, blue8: 0xF5, alpha: 0.6), tertiaryLabel: Color(red8: 0xEB, green8: 0xEB, blue8: 0xF5, alpha: 0.3),
        separator: Color(red8: 0x54, green8: 0x54, blue8: 0x58, alpha: 0.6), selectedCellBackground: Color(red8: 0x3A, green8: 0x3A, blue8: 0x3C),
        plainHeaderBackground: Color(red8: 0x1C, green8: 0x1C, blue8: 0x1E), tint: Color(red8: 0x0A, green8: 0x84, blue8: 0xFF),
        barHairline: Color(white: 1, alpha: 0.15), statusBarStyle: .lightContent)

    /// The values of `appearance`.
    public static func of(_ appearance: Appearance) -> SystemPalette {
        switch appearance {
        case .light: light
        case .dark: dark
        }
    }
}
