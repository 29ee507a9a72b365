import Foundation
import RasterCore
import SnapshotView
import Typesetting

/// The status bar of an iPhone without a notch (iPhone 8, SE), as iOS 17 draws it over the top 20
/// points of the screen: the cellular signal (four bars, full) and Wi-Fi (full) at the leading edge, the
/// time centred, the battery (full) at the trailing edge. It has no background: the screen's top shows
/// through, as on a device.
///
/// The glyphs are this project's own vector shapes in the style of iOS's (rounded bars and arcs, the
/// battery's outline at 35 % opacity), sized and placed from screenshots of iOS 17 on an iPhone SE; the
/// time is Apple's customary 9:41 AM, in the system font, semibold 12 pt. Geometry in points.
public final class StatusBar: View {
    /// The colour of the content, as `UIStatusBarStyle`.
    public enum Style: String, Hashable, Sendable {
        /// Black content, for light screens (`.darkContent`, the default on a light screen).
        case darkContent
        /// White content, for dark screens (`.lightContent`).
        case lightContent
    }

    /// 20 pt: the status bar of a phone without a notch.
    public static let height = 20.0
    /// The time shown: "9:41 AM".
    public static let time = "9:41 AM"

    /// The style the bar was made with.
    public let style: Style
    /// The time in the centre.
    public let timeLabel: Label

    /// A status bar `width` points wide (the screen's width), at the top of the screen.
    public init(width: Double, style: Style = .darkContent) {
        self.style = style
        let ink = style == .darkContent ? Color.black : Color.white
        timeLabel = Label(text: StatusBar.time, style: TextStyle(font: .system(size: 12, weight: .semibold), color: ink, alignment: .center),
                          frame: Rect(x: 0, y: 0, width: width, height: StatusBar.height), name: "time")
        super.init(frame: Rect(x: 0, y: 0, width: width, height: StatusBar.height), name: "statusBar")
        isOpaque = false
        let icons = StatusBarIconsView(frame: bounds, drawing: PreparedDrawing(StatusBarIcons(ink: ink), for: bounds), name: "statusBar icons")
        try? addSubview(icons)
        try? addSubview(timeLabel)
    }

    /// The status bar of a phone with a notch or the Dynamic Island, `height` points tall (its safe area's
    /// top: 44–59), as iOS 16 and 17 draw it: "9:41" in semibold 17 pt centred in the left ear, the signal,
    /// Wi-Fi and battery centred in the right one, both on the line 52 % down the bar. The ears are what
    /// the 126-pt cut-out in the middle leaves. Estimated: Apple publishes no figures.
    public init(width: Double, notchHeight height: Double, style: Style = .darkContent) {
        self.style = style
        let ink = style == .darkContent ? Color.black : Color.white
        let ear = max(0, (width - StatusBar.cutOutWidth) / 2), middle = (height * 0.52).rounded()
        timeLabel = Label(text: StatusBar.shortTime, style: TextStyle(font: .system(size: 17, weight: .semibold), color: ink, alignment: .center),
                          frame: Rect(x: 0, y: middle - 11, width: ear, height: 22), name: "time")
        super.init(frame: Rect(x: 0, y: 0, width: width, height: height), name: "statusBar")
        isOpaque = false
        let group = Rect(x: width - ear / 2 - 42, y: middle - 10, width: 84, height: 20)
        let icons = StatusBarIconsView(frame: group, drawing: PreparedDrawing(StatusBarIcons(ink: ink), for: Rect(origin: .zero, size: group.size)),
                                       name: "statusBar icons")
        try? addSubview(icons)
        try? addSubview(timeLabel)
    }

    /// "9:41", the time of a phone with a notch (no AM or PM).
    public static let shortTime = "9:41"
    /// 126 pt: the Dynamic Island's width (a notch is about as wide); the ears are either side of it.
    public static let cutOutWidth = 126.0

    /// The status bar of a screen `width` points wide whose safe area starts `top` points down: on a
    /// phone whose `top` is over 20, the notch's; otherwise (a phone with a home button, a pad) the 20-pt
    /// bar; nil when `top` is 0 (a screen that shows none).
    public static func forScreen(width: Double, safeAreaTop top: Double, isPhone: Bool = true, style: Style) -> StatusBar? {
        guard top > 0 else { return nil }
        return isPhone && top > 20 ? StatusBar(width: width, notchHeight: top, style: style) : StatusBar(width: width, style: style)
    }
}

/// The home indicator of a phone without a home button: a 134 × 5 pt capsule, 8 pt above the bottom of the
/// screen, centred, in black (white over dark screens). Estimated: Apple publishes no figures.
public final class HomeIndicator: View {
    /// 134 × 5 pt.
    public static let size = Size(width: 134, height: 5)
    /// 8 pt: from the capsule's bottom to the screen's.
    public static let bottomGap = 8.0

    /// The indicator of a screen `width` × `height` points, black (`.darkContent`) or white.
    public init(screenWidth width: Double, screenHeight height: Double, style: StatusBar.Style) {
        let size = HomeIndicator.size
        super.init(frame: Rect(x: (width - size.width) / 2, y: height - HomeIndicator.bottomGap - size.height, width: size.width, height: size.height),
                   name: "homeIndicator")
        backgroundColor = style == .darkContent ? .black : .white
        cornerRadius = size.height / 2
    }
}

/// The icons' view: drawn straight into the frame (the bar never moves), not through a backing store.
final class StatusBarIconsView: DrawingView {
    override var drawsContentIntoBackingStore: Bool { false }
}

/// The signal bars, Wi-Fi and battery of ``StatusBar``, in the bar's bounds (points).
struct StatusBarIcons: OperationContent {
    let ink: Color

    /// The icons for bounds `b` (points), centred on its vertical middle, in ``ink``.
    func operations(in b: Rect) -> [DrawingOperation] {
        let middle = b.midY
        var ops: [DrawingOperation] = []
        // Four bars, 3 pt wide, 1.5 pt apart, rising from 3.6 to 10.5 pt, bottoms level.
        let bottom = middle + 5.25
        for (i, height) in [3.6, 5.9, 8.2, 10.5].enumerated() {
            let bar = Rect(x: b.minX + 6 + Double(i) * 4.5, y: bottom - height, width: 3, height: height)
            ops.append(.roundedRect(bar, CornerRadii(all: 1), ink))
        }
        // Wi-Fi: a sector and two bands about a point at the bottom, 90° wide, pointing up, round-ended.
        let centre = Point(x: b.minX + 6 + 4 * 4.5 + 4 + 7.7, y: bottom + 0.4)
        let wedge = Self.sector(about: centre, radius: 3.6)
        ops.append(.path(wedge, ink))
        // Its corners softened: a thin round stroke along its edge (drawn on its own, so the stroke's inner
        // loop, traced the other way round, does not cancel the fill).
        ops.append(.path(wedge.strokeOutline(StrokeStyle(width: 0.8, join: .round), tolerance: 0.02), ink))
        for radius in [6.9, 10.3] {
            ops.append(.path(Self.arc(about: centre, radius: radius).strokeOutline(StrokeStyle(width: 2.3, cap: .round), tolerance: 0.02), ink))
        }
        // The battery: its outline at 35 %, the charge inside, the cap at the right.
        let capWidth = 1.3, body = Rect(x: b.maxX - 6 - capWidth - 1 - 22.5, y: middle - 5.75, width: 22.5, height: 11.5)
        var outline = Path(roundedRect: body, cornerRadius: 3.3)
        outline.addRoundedRect(body.insetBy(dx: 1, dy: 1), cornerRadii: CornerRadii(all: 2.3), clockwise: false)
        ops.append(.path(outline, ink.withAlpha(0.35)))
        ops.append(.roundedRect(body.insetBy(dx: 2, dy: 2), CornerRadii(all: 1.4), ink))
        let cap = Rect(x: body.maxX + 1, y: middle - 2, width: capWidth, height: 4)
        ops.append(.roundedRect(cap, CornerRadii(topLeft: 0, topRight: 0.65, bottomRight: 0.65, bottomLeft: 0), ink.withAlpha(0.4)))
        return ops
    }

    /// The points of a circle's arc about `centre`, from 45° left of straight up to 45° right of it.
    static func arcPoints(about centre: Point, radius: Double) -> [Point] {
        let steps = 24
        return (0...steps).map { i in
            let angle = -0.75 * Double.pi + Double(i) / Double(steps) * 0.5 * Double.pi
            return Point(x: centre.x + radius * cos(angle), y: centre.y + radius * sin(angle))
        }
    }

    static func arc(about centre: Point, radius: Double) -> Path {
        var path = Path()
        let points = arcPoints(about: centre, radius: radius)
        path.move(to: points[0])
        for p in points.dropFirst() { path.addLine(to: p) }
        return path
    }

    /// The sector at the bottom of the Wi-Fi glyph, 0.4 pt inside `radius` (its softening stroke reaches it).
    static func sector(about centre: Point, radius: Double) -> Path {
        var wedge = Path()
        wedge.move(to: centre)
        for p in arcPoints(about: centre, radius: radius - 0.4) { wedge.addLine(to: p) }
        wedge.closeSubpath()
        return wedge
    }

    func extent(in bounds: Rect) -> Rect { bounds }
    var isSingleShape: Bool { false }
}
