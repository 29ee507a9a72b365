import Motion
import RasterCore
import SnapshotView
import Typesetting

/// A row of a table, as UIKit's `UITableViewCell`: a background, a selected background, a content view
/// holding an image and one or two labels, and an accessory at the right.
///
/// Layered back to front, as UIKit's: ``backgroundView`` (white; in a grouped table, its piece of the
/// section's rounded rectangle, and the separator under it), ``selectedBackgroundView`` (shown while the
/// row is selected), ``contentView`` (``imageView``, ``textLabel``, ``detailTextLabel``, and whatever is
/// added there), then the accessory. Geometry in points; the table sets the cell's frame.
open class TableViewCell: View {
    /// The kinds of built-in layout, as `UITableViewCell.CellStyle`.
    public enum CellStyle: String, Hashable, Sendable {
        /// A text label (and an image) on the left; no detail label.
        case `default`
        /// The detail label in grey at the right, level with the text label.
        case value1
        /// The detail label in smaller text under the text label.
        case subtitle
    }

    /// What the cell shows at its right edge, as `UITableViewCell.AccessoryType`.
    public enum AccessoryType: String, Hashable, Sendable {
        /// Nothing.
        case none
        /// A grey chevron: the row leads somewhere.
        case disclosureIndicator
        /// A checkmark in the tint colour: the row is chosen.
        case checkmark
    }

    /// The identifier the cell was registered and dequeued with; nil for a cell made by hand.
    public let reuseIdentifier: String?
    /// The cell's layout. Default `.default`.
    public let style: CellStyle

    /// Fills the cell behind everything (white, or the section's piece in a grouped table).
    public let backgroundView: DrawingView
    /// Shown over the background while the row is selected (`systemGray4`); alpha 0 otherwise.
    public let selectedBackgroundView: DrawingView
    /// Where the cell's content goes; custom cells add their subviews here. Laid out to the width left
    /// of the accessory.
    public let contentView: View
    /// The main text: 17 pt, black.
    public let textLabel: Label
    /// Secondary text, placed by ``style``; nil for `.default`.
    public let detailTextLabel: Label?
    /// An image at the left of the text; hidden when it has no image.
    public let imageView: ImageView

    private let accessoryHolder: DrawingView

    /// What is drawn at the right edge. Default `.none`.
    public var accessoryType: AccessoryType = .none {
        didSet { layoutSubviews() }
    }

    /// Whether the row is selected (the selected background shows). Set it with
    /// ``setSelected(_:animated:)`` to animate.
    public private(set) var isSelected = false

    /// Where the cell sits in its section, which sets the corners of a grouped cell's background. The
    /// table sets it.
    public internal(set) var sectionPosition = CellSectionPosition.middle {
        didSet { if oldValue != sectionPosition { updateBackgrounds() } }
    }
    /// Whether the cell draws a separator under itself. The table sets it.
    public internal(set) var drawsSeparator = true {
        didSet { if oldValue != drawsSeparator { updateBackgrounds() } }
    }
    var corneredStyle = false { didSet { if oldValue != corneredStyle { updateBackgrounds() } } }
    /// The appearance the cell draws in: its backgrounds, separator, accessory and its labels' system
    /// colours (`label`, `secondaryLabel`; a label given another colour keeps it, as a fixed `UIColor`
    /// does). The table sets it to its own. Default `.light`.
    public var appearance = Appearance.light {
        didSet {
            guard oldValue != appearance else { return }
            applyLabelColors(replacing: SystemPalette.of(oldValue))
            updateBackgrounds()
            layoutSubviews()
        }
    }
    /// The Dynamic Type text size the labels draw at: the text in the body style (17 pt at Large), a
    /// value-1 detail in the body style too, a subtitle in the caption style (12 pt); a label given
    /// another font keeps it. The table sets it to its own. Default `.large`.
    public var textSize = Font.ContentSize.large {
        didSet {
            guard oldValue != textSize else { return }
            applyFonts(replacing: oldValue)
            layoutSubviews()
        }
    }
    /// The engine the table animates on; selection changes animate on it.
    weak var animationEngine: AnimationEngine?

    /// How long an animated selection or deselection fades (seconds), when it does not run inside an
    /// enclosing animation block (whose duration it then takes). 0.25 s. UIKit does not document the
    /// figure; a quarter second matches the highlight fade seen on iOS.
    public static let selectionFadeDuration = 0.25

    /// A cell of `style`, to be dequeued with `reuseIdentifier`, as `init(style:reuseIdentifier:)`.
    /// Its frame is set by the table (default 320x44 pt until then).
    public required init(style: CellStyle = .default, reuseIdentifier: String?) {
        self.reuseIdentifier = reuseIdentifier
        self.style = style
        backgroundView = DrawingView(frame: .zero, drawing: nil, name: "background")
        selectedBackgroundView = DrawingView(frame: .zero, drawing: nil, name: "selectedBackground")
        contentView = View(frame: .zero, name: "contentView")
        contentView.isOpaque = false
        textLabel = Label(text: "", style: TextStyle(font: .system(size: 17)), name: "textLabel")
        switch style {
        case .default: detailTextLabel = nil
        case .value1: detailTextLabel = Label(text: "", style: TextStyle(font: .system(size: 17), alignment: .right), name: "detailTextLabel")
        case .subtitle: detailTextLabel = Label(text: "", style: TextStyle(font: .system(size: 12)), name: "detailTextLabel")
        }
        imageView = ImageView(image: nil, frame: .zero, contentMode: .scaleAspectFit, name: "imageView")
        accessoryHolder = DrawingView(frame: .zero, drawing: nil, name: "accessory")
        super.init(frame: Rect(x: 0, y: 0, width: 320, height: TableViewMetrics.defaultRowHeight), name: reuseIdentifier)
        ViewChangeObservation.withoutObserver {
            selectedBackgroundView.alpha = 0
        }
        for view in [backgroundView, selectedBackgroundView, contentView, accessoryHolder] as [View] { try? addSubview(view) }
        for view in [imageView, textLabel] as [View] { try? contentView.addSubview(view) }
        if let detailTextLabel { try? contentView.addSubview(detailTextLabel) }
        // Building a cell is not a change to animate, even inside an update's animation block.
        ViewChangeObservation.withoutObserver {
            applyLabelColors(replacing: nil)
            updateBackgrounds()
            layoutSubviews()
        }
    }

    /// The detail's text style.
    private var detailStyle: Font.TextStyle { style == .subtitle ? .caption1 : .body }

    /// The labels' fonts at ``textSize``, where they have the system's fonts at `old` (or always, with nil).
    private func applyFonts(replacing old: Font.ContentSize?) {
        func font(_ style: Font.TextStyle, _ size: Font.ContentSize) -> Font { .system(size: style.pointSize(at: size)) }
        if old.map({ textLabel.style.font == font(.body, $0) }) ?? true { textLabel.style.font = font(.body, textSize) }
        if let detailTextLabel, old.map({ detailTextLabel.style.font == font(detailStyle, $0) }) ?? true {
            detailTextLabel.style.font = font(detailStyle, textSize)
        }
    }

    /// The text label in `label`, the detail in `secondaryLabel`, where they have the system's colours of
    /// `old` (or always, with nil).
    private func applyLabelColors(replacing old: SystemPalette?) {
        let palette = SystemPalette.of(appearance)
        if old.map({ textLabel.style.color == $0.label }) ?? true { textLabel.style.color = palette.label }
        if let detailTextLabel, old.map({ detailTextLabel.style.color == $0.secondaryLabel }) ?? true {
            detailTextLabel.style.color = palette.secondaryLabel
        }
    }

    /// Resets what a row sets before the cell is reused: text, detail, image, accessory, selection.
    /// Subclasses that keep more state override it and call `super`.
    open func prepareForReuse() {
        textLabel.text = ""
        detailTextLabel?.text = ""
        imageView.image = nil
        accessoryType = .none
        ViewChangeObservation.withoutObserver {
            alpha = 1
            transform = .identity
            selectedBackgroundView.alpha = 0
        }
        isSelected = false
    }

    /// Shows or hides the selected background; animated, it fades on the enclosing animation block
    /// (taking its duration and curve, so inside a transition it follows the transition) or, outside
    /// one, over ``selectionFadeDuration`` seconds.
    open func setSelected(_ selected: Bool, animated: Bool) {
        isSelected = selected
        let change = { self.selectedBackgroundView.alpha = selected ? 1 : 0 }
        if animated, let engine = animationEngine {
            engine.animate(duration: TableViewCell.selectionFadeDuration, animations: change)
        } else {
            ViewChangeObservation.withoutObserver(change)
        }
    }

    /// Places the background, content view, labels, image and accessory in the bounds. The table calls
    /// it when it sizes the cell (inside an update's animation block, so the content moves with the
    /// cell); subclasses with their own subviews override it and call `super`.
    open func layoutSubviews() {
        let size = bounds.size
        backgroundView.frame = Rect(origin: .zero, size: size)
        selectedBackgroundView.frame = Rect(origin: .zero, size: size)
        let accessory: Size
        switch accessoryType {
        case .none: accessory = .zero
        case .disclosureIndicator: accessory = Size(width: 8, height: 13)
        case .checkmark: accessory = Size(width: 14, height: 11)
        }
        let accessoryRight = TableViewMetrics.contentInset
        let contentWidth = accessoryType == .none ? size.width : max(0, size.width - accessory.width - accessoryRight - 8)
        contentView.frame = Rect(x: 0, y: 0, width: contentWidth, height: size.height)
        accessoryHolder.frame = Rect(x: size.width - accessoryRight - accessory.width, y: (size.height - accessory.height) / 2,
                                     width: accessory.width, height: accessory.height)
        accessoryHolder.drawing = PreparedDrawing(AccessoryDrawing(type: accessoryType, palette: SystemPalette.of(appearance)), for: accessoryHolder.bounds)

        var x = TableViewMetrics.contentInset
        if let image = imageView.image {
            let side = min(size.height - 8, ImageView.pointSize(of: image).height)
            imageView.frame = Rect(x: x, y: (size.height - side) / 2, width: side, height: side)
            x += side + 12
        } else {
            imageView.frame = Rect(x: x, y: size.height / 2, width: 0, height: 0)
        }
        let textWidth = max(0, contentWidth - x - TableViewMetrics.contentInset)
        switch style {
        case .default:
            textLabel.frame = Rect(x: x, y: 0, width: textWidth, height: size.height)
        case .value1:
            textLabel.frame = Rect(x: x, y: 0, width: textWidth * 0.6, height: size.height)
            detailTextLabel?.frame = Rect(x: x + textWidth * 0.6, y: 0, width: textWidth * 0.4, height: size.height)
        case .subtitle:
            // 22 and 16 pt at Large, each growing with its font.
            let textHeight = 22 + TableViewMetrics.lineGrowth(.body, at: textSize)
            let detailHeight = 16 + TableViewMetrics.lineGrowth(.caption1, at: textSize)
            let top = max(0, (size.height - textHeight - detailHeight) / 2)
            textLabel.frame = Rect(x: x, y: top, width: textWidth, height: textHeight)
            detailTextLabel?.frame = Rect(x: x, y: top + textHeight, width: textWidth, height: detailHeight)
        }
    }

    func updateBackgrounds() {
        let corners = corneredStyle ? sectionPosition : .middle
        let palette = SystemPalette.of(appearance)
        let color = corneredStyle ? palette.groupedCellBackground : palette.background
        backgroundView.drawing = CellPieceDrawing(color: color, position: corners, separator: drawsSeparator ? palette.separator : nil)
        selectedBackgroundView.drawing = CellPieceDrawing(color: palette.selectedCellBackground, position: corners, separator: nil)
    }

    /// The view's summary with the text and selection.
    open override var summary: String {
        super.summary + (isSelected ? " selected" : "")
    }
}

/// A cell's piece of its section: a rectangle with the section's rounded corners where the cell is at
/// the top or bottom of a grouped section, and a separator along the bottom (inset from the left).
struct CellPieceDrawing: OperationContent {
    let color: Color
    let position: CellSectionPosition
    let separator: Color?

    /// Without a device, the hairline is snapped to whole points.
    func operations(in bounds: Rect) -> [DrawingOperation] { operations(in: bounds, device: .identity) }

    /// The piece and its hairline, snapped to the pixels of `device` (bounds coordinates to the pixels
    /// drawn into: the frame, or the view's backing store).
    func operations(in bounds: Rect, device: Transform2D) -> [DrawingOperation] {
        let r = TableViewMetrics.groupedCornerRadius
        let radii = CornerRadii(topLeft: position.roundsTop ? r : 0, topRight: position.roundsTop ? r : 0,
                                bottomRight: position.roundsBottom ? r : 0, bottomLeft: position.roundsBottom ? r : 0)
        var ops: [DrawingOperation] = [.roundedRect(bounds, radii, color)]
        if let separator {
            let scale = device.isFinite ? abs(device.determinant).squareRoot() : 1
            ops.append(.rect(Self.hairline(under: bounds, inset: TableViewMetrics.contentInset, transform: device, scale: scale), separator))
        }
        return ops
    }

    /// The separator's rect in user space: one device pixel tall, its bottom on the last pixel boundary
    /// at or above `bounds.maxY` and its ends on the nearest pixel boundaries, as UIKit draws hairlines
    /// (1 / scale points, snapped to the pixel grid). `transform` maps user space to the pixels drawn
    /// into (the device, or a view's backing store, whose grid is then the one snapped to). Under a
    /// rotation or skew the line is 1 / `scale` points tall, unsnapped.
    static func hairline(under bounds: Rect, inset: Double, transform t: Transform2D, scale: Double) -> Rect {
        let left = bounds.minX + inset, right = max(left, bounds.maxX)
        guard t.b == 0, t.c == 0, t.a > 0, t.d > 0, t.isFinite else {
            let h = scale > 0 && scale.isFinite ? 1 / scale : TableViewMetrics.separatorThickness
            return Rect(x: left, y: bounds.maxY - h, width: right - left, height: h)
        }
        // Device coordinates of the edges, snapped, and back to user space. The bottom goes to the pixel
        // boundary at or above the row's bottom, so the line stays inside the row (the next row, which
        // starts there, would cover part of a line that reached into it).
        let bottom = (t.d * bounds.maxY + t.ty + 1e-6).rounded(.down)
        let x0 = (t.a * left + t.tx).rounded(), x1 = (t.a * right + t.tx).rounded()
        let y0 = ((bottom - 1) - t.ty) / t.d, y1 = (bottom - t.ty) / t.d
        let u0 = (x0 - t.tx) / t.a, u1 = (x1 - t.tx) / t.a
        return Rect(x: u0, y: y0, width: max(0, u1 - u0), height: y1 - y0)
    }
    func extent(in bounds: Rect) -> Rect { bounds }
    var isSingleShape: Bool { separator == nil }
}

/// A checkmark or a disclosure chevron: strokes with round caps and joins, in the accessory's bounds.
package struct AccessoryDrawing: OperationContent {
    let type: TableViewCell.AccessoryType
    /// The checkmark is drawn in the tint, the chevron in `tertiaryLabel`.
    let palette: SystemPalette

    package func operations(in b: Rect) -> [DrawingOperation] {
        switch type {
        case .none: return []
        case .checkmark:
            // Two strokes 2 pt thick: down-right to the foot, then up-right to the corner.
            return [.path(Self.stroke([Point(x: b.minX + 1, y: b.minY + b.height * 0.55), Point(x: b.minX + b.width * 0.36, y: b.maxY - 1),
                                       Point(x: b.maxX - 1, y: b.minY + 1)], width: 2), palette.tint)]
        case .disclosureIndicator:
            return [.path(Self.stroke([Point(x: b.minX + 1.5, y: b.minY + 1), Point(x: b.maxX - 1.5, y: b.midY),
                                       Point(x: b.minX + 1.5, y: b.maxY - 1)], width: 2), palette.tertiaryLabel)]
        }
    }
    package func extent(in bounds: Rect) -> Rect { bounds }
    package var isSingleShape: Bool { true }

    /// A polyline stroked `width` points wide with round caps and joins, as SF Symbols draws the chevrons
    /// and checkmarks of standard chrome: the outline, to fill under the non-zero rule.
    package static func stroke(_ points: [Point], width: Double) -> Path {
        var line = Path()
        guard let first = points.first else { return line }
        line.move(to: first)
        for p in points.dropFirst() { line.addLine(to: p) }
        // A fiftieth of a point: a tenth of a device pixel at @3x keeps the flattened caps invisible.
        return line.strokeOutline(StrokeStyle(width: width, cap: .round, join: .round), tolerance: 0.02)
    }
}
