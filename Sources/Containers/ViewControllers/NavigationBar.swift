import RasterCore
import SnapshotView
import Typesetting

/// The bar at the top of a navigation controller: for the top item a centred title, a back button
/// ("‹" and the previous item's title) at the left, and bar button items at the right. 64 pt tall: 20
/// for the status bar, 44 for the bar. Each item is drawn as one ``NavigationBarContent`` view, so a
/// transition can slide and cross-fade two of them.
///
/// As iOS 15 and later draw a bar: with the content under it at its top (``isAtScrollEdge``, the
/// default) the bar has no background and no hairline, and what is behind it shows; once content has
/// scrolled under it, the standard appearance: the chrome material (`Backdrop.material(.chrome)`) with a
/// hairline (black at 30 %, white at 15 % dark) just under its bottom edge, over the content's top.
public final class NavigationBar: View {
    /// 64 pt.
    public static let height = 64.0

    /// The appearance the bar draws in (its navigation controller gives its items the same).
    public var appearance: Appearance {
        didSet {
            guard oldValue != appearance else { return }
            hairline.backgroundColor = SystemPalette.of(appearance).barHairline
            showBackground()
        }
    }
    /// The content shown now (the top item's).
    public internal(set) var content: NavigationBarContent?
    /// The hairline along the bottom, shown with the standard appearance.
    public let hairline: View
    /// True (the default): the content under the bar is at its top, and the bar shows nothing behind its
    /// items (the scroll-edge appearance); false: the standard appearance. Changes show at once.
    public var isAtScrollEdge = true {
        didSet { if oldValue != isAtScrollEdge { showBackground() } }
    }

    /// A bar `width` points wide.
    public init(width: Double, appearance: Appearance = .light) {
        self.appearance = appearance
        hairline = View(frame: Rect(x: 0, y: NavigationBar.height, width: width, height: 0.5), name: "hairline")
        hairline.backgroundColor = SystemPalette.of(appearance).barHairline
        super.init(frame: Rect(x: 0, y: 0, width: width, height: NavigationBar.height), name: "navigationBar")
        isOpaque = false
        try? addSubview(hairline)
        showBackground()
    }

    private func showBackground() {
        ViewChangeObservation.withoutObserver {
            backdrop = isAtScrollEdge ? .none : Backdrop.material(.chrome, dark: appearance == .dark)
            hairline.isHidden = isAtScrollEdge
        }
    }
}

/// One navigation item drawn in a bar: its title, its back button (titled after the item below it, if
/// any) and its right items. Positions in the bar's coordinates (points).
///
/// The title and the back label are each sized to their text plus ``textInset`` on both sides, with
/// the text centred, so a label's glyph origin (the left end of its baseline) is its frame's minX +
/// ``textInset`` (× the label's horizontal scale while a transition scales it): a transition can put
/// one label's glyphs exactly where another's are.
public final class NavigationBarContent: View {
    /// The centred title.
    public let titleLabel: Label
    /// "‹ Previous", or nil at the root.
    public let backButton: View?
    /// The back button's chevron, at the leading edge.
    public let chevron: View?
    /// The back button's title label.
    public let backLabel: Label?
    /// The bar button items (right, then left).
    public private(set) var itemLabels: [Label] = []

    /// Points on each side of a title's or back label's text inside its frame (room for ink that
    /// overhangs the advance width).
    public static let textInset = 4.0
    /// How far the old back label slides left as it leaves (points).
    public static let backLabelExit = 100.0

    /// The resting frames.
    private let titleRest: Rect
    private let backLabelRest: Rect?
    /// The width of each text (points, its advance width).
    private let titleTextWidth: Double
    private let backTextWidth: Double?

    /// Where a label's glyph origin is (bar coordinates, points) when it shows `frame` at horizontal
    /// scale `scale` (1 unless a transition scales it). `inButton` labels are inside the back button.
    public func glyphOriginX(of label: Label, presentedFrame frame: Rect, scale: Double = 1) -> Double {
        let offset = label === backLabel ? (backButton?.frame.minX ?? 0) : 0
        return offset + frame.minX + NavigationBarContent.textInset * scale
    }

    /// The resting glyph origin of the title (bar coordinates).
    public var titleOriginX: Double { titleRest.minX + NavigationBarContent.textInset }
    /// The resting glyph origin of the back label (bar coordinates), or nil without a back button.
    public var backOriginX: Double? { backLabelRest.map { (backButton?.frame.minX ?? 0) + $0.minX + NavigationBarContent.textInset } }

    /// What this content does in a transition: comes in or goes out, pushed or popped.
    enum Role {
        /// Pushed: this item comes in over `other` (the item below, nil at none).
        case pushedIn
        /// Pushed under a new item: goes out.
        case pushedOut
        /// Popped to: comes back from under the item that goes.
        case poppedIn
        /// Popped away.
        case poppedOut
    }

    /// Puts every part at rest, fully shown (nil), or where it stands when this content is offstage in
    /// `role` next to `other` (the other item of the transition): a title that becomes the other's back
    /// label stands on its glyphs, scaled to its width, transparent; a back label that becomes the
    /// other's title likewise; the other parts slide and fade as iOS does. Inside an animation block it
    /// animates, and every pair of labels that trade places is in register at every moment: their
    /// glyph origins and widths interpolate between the same two values.
    func arrange(_ role: Role?, other: NavigationBarContent?, width: Double) {
        func place(_ label: Label, rest: Rect, restTextWidth: Double, originX: Double, textWidth: Double, inButton: Bool) {
            // The label's text scaled to textWidth, its glyph origin at originX (bar coordinates).
            let sx = restTextWidth > 0 ? textWidth / restTextWidth : 1
            let base = inButton ? (backButton?.frame.minX ?? 0) : 0
            let left = originX - base - NavigationBarContent.textInset * sx
            label.center = Point(x: left + sx * rest.width / 2, y: rest.midY)
            label.transform = Transform2D(a: sx, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        }
        guard let role else {
            titleLabel.center = Point(x: titleRest.midX, y: titleRest.midY)
            titleLabel.transform = .identity
            titleLabel.alpha = 1
            if let backLabel, let backLabelRest {
                backLabel.center = Point(x: backLabelRest.midX, y: backLabelRest.midY)
                backLabel.transform = .identity
                backLabel.alpha = 1
            }
            chevron?.alpha = 1
            for label in itemLabels { label.alpha = 1 }
            return
        }
        for label in itemLabels { label.alpha = 0 }
        titleLabel.alpha = 0
        backLabel?.alpha = 0
        switch role {
        case .pushedIn, .poppedOut:
            // The title comes from the right (pushed in) or leaves to it (popped out); the back label
            // comes from, or goes onto, where the other item's title glyphs are.
            titleLabel.center = Point(x: titleRest.midX + width / 2, y: titleRest.midY)
            if let backLabel, let backLabelRest, let backTextWidth {
                if let other {
                    place(backLabel, rest: backLabelRest, restTextWidth: backTextWidth, originX: other.titleOriginX,
                          textWidth: other.titleTextWidth, inButton: true)
                } else {
                    backLabel.center = Point(x: backLabelRest.midX + width / 2, y: backLabelRest.midY)
                }
            }
            // Pushed in, the chevron fades in where it stands, unless one is already there; popped out,
            // it fades out where it stands.
            chevron?.alpha = role == .pushedIn && other?.chevron != nil ? 1 : 0
        case .pushedOut, .poppedIn:
            // The title goes onto (pushed out) or comes from (popped in) the other item's back label
            // glyphs; the back label slides out to, or in from, the left.
            if let other, let origin = other.backOriginX, let w = other.backTextWidth {
                place(titleLabel, rest: titleRest, restTextWidth: titleTextWidth, originX: origin, textWidth: w, inButton: false)
            } else {
                titleLabel.center = Point(x: titleRest.midX - width / 2, y: titleRest.midY)
            }
            if let backLabel, let backLabelRest {
                backLabel.center = Point(x: backLabelRest.midX - NavigationBarContent.backLabelExit, y: backLabelRest.midY)
            }
            chevron?.alpha = role == .poppedIn && other?.chevron != nil ? 1 : 0
        }
    }

    /// A one-line label for `text`, `textInset` wider than the text on each side (at most `maxWidth`
    /// wide), its text centred; and the text's width.
    private static func fitted(_ text: String, style: TextStyle, maxWidth: Double, height: Double, name: String) -> (Label, Double) {
        var centred = style
        centred.alignment = .center
        let label = Label(text: text, style: centred, frame: Rect(x: 0, y: 0, width: maxWidth, height: height), name: name)
        let textWidth: Double = (try? TextLayout(text, style: centred, width: .infinity, height: .infinity))?.lines.first?.width ?? 0
        let w = min(maxWidth, textWidth + 2 * textInset)
        label.frame = Rect(x: 0, y: 0, width: w, height: height)
        return (label, max(0, min(textWidth, w - 2 * textInset)))
    }

    init(item: NavigationItem, backTitle: String?, width: Double, appearance: Appearance = .light) {
        let palette = SystemPalette.of(appearance)
        let barTop = 20.0, barHeight = 44.0
        let (title, titleWidth) = NavigationBarContent.fitted(item.title ?? "", style: TextStyle(font: .system(size: 17, weight: .semibold), color: palette.label),
                                                             maxWidth: max(0, width - 180), height: barHeight, name: "title")
        title.frame = Rect(x: (width - title.bounds.width) / 2, y: barTop, width: title.bounds.width, height: barHeight)
        titleLabel = title
        titleRest = title.frame
        titleTextWidth = titleWidth
        if let backTitle, item.leftBarButtonItems.isEmpty {
            let button = View(frame: Rect(x: 0, y: barTop, width: 110, height: barHeight), name: "backButton")
            let chevronFrame = Rect(x: 9, y: 11, width: 12, height: 21)
            let chevron = DrawingView(frame: chevronFrame, drawing: PreparedDrawing(BackChevron(color: palette.tint), for: Rect(origin: .zero, size: chevronFrame.size)),
                                      name: "chevron")
            let (label, textWidth) = NavigationBarContent.fitted(backTitle, style: TextStyle(font: .system(size: 17), color: palette.tint),
                                                                 maxWidth: 84 + 2 * NavigationBarContent.textInset, height: barHeight,
                                                                 name: "backTitle")
            label.frame = Rect(x: 26 - NavigationBarContent.textInset, y: 0, width: label.bounds.width, height: barHeight)
            try? button.addSubview(chevron)
            try? button.addSubview(label)
            backButton = button
            self.chevron = chevron
            backLabel = label
            backLabelRest = label.frame
            backTextWidth = textWidth
        } else {
            backButton = nil
            chevron = nil
            backLabel = nil
            backLabelRest = nil
            backTextWidth = nil
        }
        super.init(frame: Rect(x: 0, y: 0, width: width, height: NavigationBar.height), name: "barContent \(item.title ?? "")")
        isOpaque = false
        try? addSubview(titleLabel)
        if let backButton { try? addSubview(backButton) }
        var x = width - 8
        for button in item.rightBarButtonItems {
            let label = Label(text: button.title, style: TextStyle(font: button.isProminent ? .system(size: 17, weight: .semibold) : .system(size: 17),
                                                                  color: palette.tint, alignment: .right),
                              frame: Rect(x: x - 80, y: barTop, width: 80, height: barHeight), name: "barButton \(button.title)")
            try? addSubview(label)
            itemLabels.append(label)
            x -= 88
        }
        for (i, button) in item.leftBarButtonItems.enumerated() {
            let label = Label(text: button.title, style: TextStyle(font: .system(size: 17), color: palette.tint),
                              frame: Rect(x: 8 + Double(i) * 88, y: barTop, width: 80, height: barHeight), name: "barButton \(button.title)")
            try? addSubview(label)
            itemLabels.append(label)
        }
    }
}

/// iOS's back chevron: two strokes meeting at a point on the left.
struct BackChevron: OperationContent {
    /// The tint.
    let color: Color

    func operations(in b: Rect) -> [DrawingOperation] {
        [.path(AccessoryDrawing.stroke([Point(x: b.maxX - 1.5, y: b.minY + 1.5), Point(x: b.minX + 2, y: b.midY),
                                        Point(x: b.maxX - 1.5, y: b.maxY - 1.5)], width: 2.8), color)]
    }
    func extent(in bounds: Rect) -> Rect { bounds }
    var isSingleShape: Bool { true }
}
