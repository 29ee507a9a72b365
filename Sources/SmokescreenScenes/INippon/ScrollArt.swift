import Containers
import RasterCore
import SnapshotView
import Typesetting

/// Sizes and colours of iNippon's History page (an iPhone 4 screen, 320x480 pt).
package enum HistoryMetrics {
    package static let screen = Size(width: 320, height: 480)
    /// Status bar and navigation bar.
    package static let barHeight = 64.0
    /// The visible height below the bar.
    package static var viewportHeight: Double { screen.height - barHeight }
    /// A rolled scroll: its height as a row of the page (points).
    package static let scrollHeight = 56.0
    /// The paper's left edge and width (the rolls and their knobs are wider).
    static let paperX = 18.0
    package static var paperWidth: Double { screen.width - 2 * paperX }
    /// A roll's body (the knobs reach 12 pt further on each side).
    static let rollX = paperX - 4
    static var rollWidth: Double { screen.width - 2 * rollX }
    /// The roll at the bottom of an open sheet.
    package static let bottomRollHeight = 16.0
    /// Padding around an event's text in its row.
    package static let eventInsets = (top: 10.0, left: 14.0, bottom: 10.0, right: 14.0)
    static let eventFont = Font.system(size: 15)
    /// Open, close and one step of a switch (seconds, ease-in-ease-out): the seed gives no figure; a
    /// little longer than a table update, as an unrolling sheet travels further.
    package static let openDuration = 0.4

    static let backdrop = Color(red8: 0x3A, green8: 0x27, blue8: 0x1C)
    static let paper = Color(red8: 0xF4, green8: 0xE9, blue8: 0xCF)
    static let paperShade = Color(red8: 0x8A, green8: 0x6A, blue8: 0x3E)
    static let wood = Color(red8: 0x9A, green8: 0x62, blue8: 0x32)
    static let bar = Color(red8: 0x5C, green8: 0x3A, blue8: 0x21)
    static let ink = Color(red8: 0x2B, green8: 0x1D, blue8: 0x12)
    static let seal = Color(red8: 0xB2, green8: 0x22, blue8: 0x22)
}

/// Paper: a warm ground with faint horizontal fibres at fixed places, so that every frame and every
/// scale draws the same texture, and the edges a little darker.
struct PaperDrawing: OperationContent {
    func operations(in bounds: Rect) -> [DrawingOperation] {
        var ops: [DrawingOperation] = [.rect(bounds, HistoryMetrics.paper)]
        // Fibres every 3 pt, their strength from a hash of the row (not of the frame: the texture moves
        // with the paper).
        var y = (bounds.minY / 3).rounded(.down) * 3
        while y < bounds.maxY {
            var h = UInt32(truncatingIfNeeded: Int(y / 3)) &* 2_654_435_761
            h ^= h >> 15
            let strength = Double(h % 7) / 6
            if strength > 0.3 {
                let inset = Double((h >> 8) % 40)
                ops.append(.rect(Rect(x: bounds.minX + inset, y: y, width: max(0, bounds.width - 2 * inset), height: 0.5),
                                 HistoryMetrics.paperShade.withAlpha(0.05 * strength)))
            }
            y += 3
        }
        for (x, alpha) in [(0.0, 0.12), (2.0, 0.06)] {
            ops.append(.rect(Rect(x: bounds.minX + x, y: bounds.minY, width: 2, height: bounds.height), HistoryMetrics.paperShade.withAlpha(alpha)))
            ops.append(.rect(Rect(x: bounds.maxX - x - 2, y: bounds.minY, width: 2, height: bounds.height), HistoryMetrics.paperShade.withAlpha(alpha)))
        }
        return ops
    }
    func extent(in bounds: Rect) -> Rect { bounds }
    var isSingleShape: Bool { false }
}

/// A roll of paper seen from the front: a cylinder across `bodyInset`…width − `bodyInset`, lit from
/// above (light at the top, darker below, in 1-pt bands), with wooden knobs at both ends.
struct RollDrawing: OperationContent {
    /// Where the cylinder is, inside the bounds (points).
    var body: Rect
    func operations(in bounds: Rect) -> [DrawingOperation] {
        let knob = Rect(x: body.minX - 12, y: body.minY + body.height * 0.2, width: 12, height: body.height * 0.6)
        var ops: [DrawingOperation] = [
            .roundedRect(knob, CornerRadii(all: 3), HistoryMetrics.wood),
            .roundedRect(Rect(x: body.maxX, y: knob.minY, width: 12, height: knob.height), CornerRadii(all: 3), HistoryMetrics.wood),
        ]
        let bands = max(1, Int(body.height.rounded(.up)))
        for i in 0..<bands {
            // The cylinder's normal at this height: −1 at the top edge, 1 at the bottom.
            let t = (Double(i) + 0.5) / Double(bands) * 2 - 1
            let shade = 0.08 + 0.32 * max(0, t) * max(0, t) + 0.1 * max(0, -t) * max(0, -t)
            let band = Rect(x: body.minX, y: body.minY + Double(i) * body.height / Double(bands),
                            width: body.width, height: body.height / Double(bands))
            ops.append(.rect(band, HistoryMetrics.paper))
            ops.append(.rect(band, HistoryMetrics.paperShade.withAlpha(shade)))
        }
        return ops
    }
    /// The knobs reach past the body.
    func extent(in bounds: Rect) -> Rect {
        bounds.union(Rect(x: body.minX - 12, y: body.minY, width: body.width + 24, height: body.height))
    }
    var isSingleShape: Bool { false }
}

/// A closed scroll, the page's row for one period: the roll, a red seal with the period's first
/// character, the Japanese name and the English name with its years. Opaque (the page's backdrop at
/// its corners), so nothing behind it shows through.
package final class ScrollHeaderView: View {
    let period: HistoryPeriod

    init(period: HistoryPeriod, index: Int, width: Double = HistoryMetrics.screen.width) {
        self.period = period
        super.init(frame: Rect(x: 0, y: 0, width: width, height: HistoryMetrics.scrollHeight), name: "scroll-\(index)")
        backgroundColor = HistoryMetrics.backdrop
        // The roll's bottom is the view's bottom: an open sheet comes out from under it.
        let bodyRect = Rect(x: HistoryMetrics.rollX, y: 8, width: width - 2 * HistoryMetrics.rollX, height: HistoryMetrics.scrollHeight - 8)
        let roll = DrawingView(frame: Rect(x: 0, y: 0, width: width, height: HistoryMetrics.scrollHeight), drawing: RollDrawing(body: bodyRect), name: "roll")
        let seal = View(frame: Rect(x: bodyRect.minX + 12, y: 20, width: 24, height: 24), name: "seal")
        seal.backgroundColor = HistoryMetrics.seal
        seal.cornerRadius = 3
        let sealText = Label(text: String(period.japanese.prefix(1)), style: TextStyle(font: .boldSystem(size: 15), color: .white, alignment: .center),
                             frame: Rect(x: 0, y: 0, width: 24, height: 24), name: "sealText")
        let japanese = Label(text: period.japanese, style: TextStyle(font: .boldSystem(size: 17), color: HistoryMetrics.ink),
                             frame: Rect(x: bodyRect.minX + 46, y: 12, width: 120, height: 40), name: "japaneseName")
        let english = Label(text: "\(period.english)\n\(period.years)",
                            style: TextStyle(font: .system(size: 11), color: HistoryMetrics.ink.withAlpha(0.75), alignment: .right, numberOfLines: 2),
                            frame: Rect(x: bodyRect.maxX - 150, y: 12, width: 138, height: 40), name: "englishName")
        ViewChangeObservation.withoutObserver {
            try? addSubview(roll)
            try? addSubview(seal)
            try? seal.addSubview(sealText)
            try? addSubview(japanese)
            try? addSubview(english)
        }
    }
}

/// A row of events: the text on the paper, wrapped, in the event's current language.
package final class EventCell: TableViewCell {
    let paper = DrawingView(frame: .zero, drawing: PaperDrawing(), name: "paper")
    let rule = View(frame: .zero, name: "rule")

    required init(style: CellStyle = .default, reuseIdentifier: String?) {
        super.init(style: style, reuseIdentifier: reuseIdentifier)
        ViewChangeObservation.withoutObserver {
            backgroundView.isHidden = true
            selectedBackgroundView.isHidden = true
            backgroundColor = HistoryMetrics.paper
            textLabel.style = EventCell.textStyle
            // New text shows as the row grows, not over the row below.
            clipsToBounds = true
            rule.backgroundColor = HistoryMetrics.paperShade.withAlpha(0.25)
            try? contentView.insertSubview(paper, at: 0)
            try? contentView.addSubview(rule)
            layoutSubviews()
        }
    }

    static let textStyle = TextStyle(font: HistoryMetrics.eventFont, color: HistoryMetrics.ink, numberOfLines: 0, lineBreakMode: .byWordWrapping)

    /// The text's width in a row of `width` points.
    static func textWidth(rowWidth width: Double) -> Double {
        max(1, width - HistoryMetrics.eventInsets.left - HistoryMetrics.eventInsets.right)
    }

    /// The height (points) of a row of `width` showing `text`: the measured height of the wrapped text
    /// plus the padding, as the seed measured its text view's content height.
    package static func height(of text: String, rowWidth width: Double) throws -> Double {
        let size = try TextLayout.size(of: text, style: textStyle, fitting: Size(width: textWidth(rowWidth: width), height: .infinity))
        return size.height + HistoryMetrics.eventInsets.top + HistoryMetrics.eventInsets.bottom
    }

    /// Lays out without `super`: the base class would move the label to its own place inside the
    /// update's animation block, an animation that setting the place again cannot take back.
    package override func layoutSubviews() {
        let size = bounds.size
        contentView.frame = Rect(origin: .zero, size: size)
        paper.frame = Rect(origin: .zero, size: size)
        rule.frame = Rect(x: HistoryMetrics.eventInsets.left, y: size.height - 0.5, width: max(0, size.width - 2 * HistoryMetrics.eventInsets.left), height: 0.5)
        // The text sits at the top at its own height whatever the row's height while it animates (a
        // label centres its text): the new text is revealed as the row grows, it does not slide.
        let i = HistoryMetrics.eventInsets
        let width = EventCell.textWidth(rowWidth: size.width)
        let height = (try? TextLayout.size(of: textLabel.text, style: EventCell.textStyle, fitting: Size(width: width, height: .infinity)).height) ?? 0
        ViewChangeObservation.withoutObserver {
            textLabel.frame = Rect(x: i.left, y: i.top, width: width, height: height)
        }
    }
}
