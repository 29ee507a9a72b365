import RasterCore
import SnapshotView
import Typesetting

/// The bar at the top of a navigation controller: for the top item a centred title, a back button
/// ("‹" and the previous item's title) at the left, and bar button items at the right, on a light bar
/// with a hairline. 64 pt tall: 20 for the status bar, 44 for the bar. Each item is drawn as one
/// ``NavigationBarContent`` view, so a transition can slide and cross-fade two of them.
public final class NavigationBar: View {
    /// 64 pt.
    public static let height = 64.0
    /// #F9F9F9, iOS's bar background (opaque).
    public static let background = Color(red8: 249, green8: 249, blue8: 249)

    /// The content shown now (the top item's).
    public internal(set) var content: NavigationBarContent?

    /// A bar `width` points wide.
    public init(width: Double) {
        super.init(frame: Rect(x: 0, y: 0, width: width, height: NavigationBar.height), name: "navigationBar")
        backgroundColor = NavigationBar.background
        let line = View(frame: Rect(x: 0, y: NavigationBar.height - 0.5, width: width, height: 0.5), name: "hairline")
        line.backgroundColor = Color(red8: 200, green8: 199, blue8: 204)
        try? addSubview(line)
    }
}

/// One navigation item drawn in a bar: its title, its back button (titled after the item below it, if
/// any) and its right items. Positions in the bar's coordinates (points).
public final class NavigationBarContent: View {
    /// The centred title.
    public let titleLabel: Label
    /// "‹ Previous", or nil at the root.
    public let backButton: View?
    /// The back button's title label.
    public let backLabel: Label?

    /// The resting centre of the title (points, bar coordinates).
    let titleCenter: Point
    /// The resting centre of the back button.
    let backCenter: Point?
    /// Where the back button's text is centred at rest (bar coordinates, points): a title that becomes
    /// the back button slides its text here.
    let backTextCenterX: Double?

    /// Moves the title and back button to where they stand when this content is `offstage` (`.left`:
    /// pushed under a new item, so its title stands where the new back button's text is; `.right`:
    /// popped away, its title off to the right, its back text where the lower title stands), or back to
    /// rest (nil). Inside an animation block it animates.
    func arrange(_ offstage: Offstage?, other: NavigationBarContent?, width: Double) {
        switch offstage {
        case nil:
            titleLabel.center = titleCenter
            if let backButton, let backCenter { backButton.center = backCenter }
        case .left:
            // The title slides onto the other item's back button text.
            let target = other?.backTextCenterX ?? (titleCenter.x - width / 2)
            titleLabel.center = Point(x: target, y: titleCenter.y)
            if let backButton, let backCenter { backButton.center = Point(x: backCenter.x - width / 3, y: backCenter.y) }
        case .right:
            titleLabel.center = Point(x: titleCenter.x + width / 2, y: titleCenter.y)
            // The back text slides onto the lower item's title.
            if let backButton, let backCenter, let text = backTextCenterX {
                let target = other?.titleCenter.x ?? titleCenter.x
                backButton.center = Point(x: backCenter.x + (target - text), y: backCenter.y)
            }
        }
    }

    enum Offstage { case left, right }

    init(item: NavigationItem, backTitle: String?, width: Double) {
        let barTop = 20.0, barHeight = 44.0
        titleLabel = Label(text: item.title ?? "", style: TextStyle(font: .boldSystem(size: 17), alignment: .center),
                           frame: Rect(x: 90, y: barTop, width: width - 180, height: barHeight), name: "title")
        titleCenter = titleLabel.center
        if let backTitle, item.leftBarButtonItems.isEmpty {
            let button = View(frame: Rect(x: 0, y: barTop, width: 110, height: barHeight), name: "backButton")
            let chevron = DrawingView(frame: Rect(x: 9, y: 11, width: 12, height: 21), drawing: BackChevron(), name: "chevron")
            let label = Label(text: backTitle, style: TextStyle(font: .system(size: 17), color: TableViewMetrics.tint),
                              frame: Rect(x: 26, y: 0, width: 84, height: barHeight), name: "backTitle")
            try? button.addSubview(chevron)
            try? button.addSubview(label)
            backButton = button
            backLabel = label
            backCenter = button.center
            let textWidth = min(label.bounds.width, (try? label.sizeThatFits(Size(width: .infinity, height: barHeight)).width) ?? 0)
            backTextCenterX = button.frame.minX + label.frame.minX + textWidth / 2
        } else {
            backButton = nil
            backLabel = nil
            backCenter = nil
            backTextCenterX = nil
        }
        super.init(frame: Rect(x: 0, y: 0, width: width, height: NavigationBar.height), name: "barContent \(item.title ?? "")")
        isOpaque = false
        try? addSubview(titleLabel)
        if let backButton { try? addSubview(backButton) }
        var x = width - 8
        for button in item.rightBarButtonItems {
            let label = Label(text: button.title, style: TextStyle(font: button.isProminent ? .boldSystem(size: 17) : .system(size: 17),
                                                                  color: TableViewMetrics.tint, alignment: .right),
                              frame: Rect(x: x - 80, y: barTop, width: 80, height: barHeight), name: "barButton \(button.title)")
            try? addSubview(label)
            x -= 88
        }
        for (i, button) in item.leftBarButtonItems.enumerated() {
            let label = Label(text: button.title, style: TextStyle(font: .system(size: 17), color: TableViewMetrics.tint),
                              frame: Rect(x: 8 + Double(i) * 88, y: barTop, width: 80, height: barHeight), name: "barButton \(button.title)")
            try? addSubview(label)
        }
    }
}

/// iOS's back chevron: two strokes meeting at a point on the left.
struct BackChevron: OperationContent {
    func operations(in b: Rect) -> [DrawingOperation] {
        [.path(AccessoryDrawing.stroke([Point(x: b.maxX - 1.5, y: b.minY + 1.5), Point(x: b.minX + 2, y: b.midY),
                                        Point(x: b.maxX - 1.5, y: b.maxY - 1.5)], width: 2.8), TableViewMetrics.tint)]
    }
    func extent(in bounds: Rect) -> Rect { bounds }
    var isSingleShape: Bool { true }
}
