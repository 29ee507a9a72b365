import Foundation
import Motion
import RasterCore
import SnapshotView
import Typesetting

/// A scrolling list of rows in sections, as UIKit's `UITableView`: a data source says how many rows
/// there are and makes their cells, a delegate sizes them and hears of selection and scrolling, and
/// batch updates animate rows and sections in, out and around on the ``animationEngine``.
///
/// Only the rows on screen (and the ones animating) have cells; cells that leave the screen go to a
/// reuse queue by identifier (``dequeueReusableCell(withIdentifier:for:)``), so memory grows with what is
/// visible, not with the data. Geometry is in points in the table's content coordinates (its bounds
/// coordinates: `contentOffset` is the bounds origin).
///
/// Z-order, back to front: ``backgroundView`` (kept filling the visible bounds), rows being inserted or
/// deleted, the other rows, rows being moved, section footers and headers, then any view added with
/// `addSubview` (a floating view stays on top of the rows).
///
/// Where UIKit's behaviour is not documented this table chooses, and says so: the update duration
/// (``updateAnimationDuration``), the `automatic` row animation
/// (``resolvedAnimation(_:forRowAt:inSectionOfCount:)``), the scroll animation
/// (``scrollAnimationDuration``), header and footer heights (``automaticHeaderHeight(title:header:)``).
open class TableView: ScrollView {
    /// Returned by the delegate's height methods: use the table's own figure (`rowHeight`, or the
    /// height the style gives a header or footer), as `UITableView.automaticDimension`.
    public static let automaticDimension = -1.0
    /// The most sections a table holds; a data source reporting more is refused (an update throws).
    public static let maximumNumberOfSections = 100_000
    /// The most rows a table holds in all.
    public static let maximumNumberOfRows = 10_000_000

    /// `.plain` or `.grouped`; fixed at creation, as in UIKit.
    public let style: TableViewStyle
    /// The engine updates, selection fades and animated scrolls run on; nil: every change applies at once.
    public weak var animationEngine: AnimationEngine?

    /// Supplies rows and cells. Not retained. Set it, then call ``reloadData()``.
    public weak var dataSource: (any TableViewDataSource)?
    /// The delegate, when it is a ``TableViewDelegate``: set `delegate`, as in UIKit.
    public var tableDelegate: (any TableViewDelegate)? { delegate as? any TableViewDelegate }

    /// The height of rows whose delegate returns ``automaticDimension`` (or with no delegate), points.
    /// Default 44, UIKit's.
    public var rowHeight = TableViewMetrics.defaultRowHeight
    /// How long a batch update animates (seconds), ease-in-ease-out, unless it runs inside an enclosing
    /// animation block, whose duration and curve it then takes. Default 0.3 s: UIKit does not document
    /// the figure; 0.3 s is the duration commonly measured and quoted for `UITableView` row animations.
    public var updateAnimationDuration = 0.3
    /// How long `setContentOffset(_:animated:)` and `scrollToRow(at:at:animated:)` take (seconds),
    /// ease-in-ease-out, the offset set afresh at every frame. Default 0.3 s: UIKit does not document its
    /// scroll animation; 0.3 s is the figure commonly measured.
    public var scrollAnimationDuration = 0.3

    /// Whether a tap selects a row. Default true.
    public var allowsSelection = true
    /// Whether several rows can be selected: a tap on a selected row deselects it. Default false.
    public var allowsMultipleSelection = false

    /// Behind every row, kept filling the visible bounds as the table scrolls (UIKit's
    /// `backgroundView`). Default nil: the table's background colour shows.
    public var backgroundView: View? {
        didSet {
            oldValue?.removeFromSuperview()
            layoutVisibleContent()
        }
    }

    // Layout and cells.
    var layout: TableLayout
    var visibleCells: [IndexPath: TableViewCell] = [:]
    var headerViews: [Int: View] = [:]
    var footerViews: [Int: View] = [:]
    /// The header and footer views the table drew from titles (a delegate's own views keep their colours).
    var drawnTitles: Set<ObjectIdentifier> = []
    /// Views leaving in an update, removed when it completes.
    var leavingViews: [View] = []
    /// Which views an update draws behind or in front of the others, until it completes.
    var layerOf: [ObjectIdentifier: (layer: ZLayer, token: Int)] = [:]
    /// Numbers updates (for their layers) and counts reloads (an update's completion after a reload
    /// has nothing left to tidy).
    var updateCounter = 0
    var updateGeneration = 0
    var reusePool: [String: [TableViewCell]] = [:]
    var registered: [String: (TableViewCell.CellStyle, TableViewCell.Type)] = [:]
    var selected: Set<IndexPath> = []
    /// Updates whose animation has not ended: cells stay while they run.
    var updatesInFlight = 0
    var isLayingOut = false
    var pendingUpdate: TableUpdate?
    var nestedCompletions: [(Bool) -> Void] = []
    var updateNesting = 0
    var scrollLink: DisplayLink?
    var hasLoaded = false

    enum ZLayer: Int { case behind = 0, normal = 1, front = 2 }

    /// Cells made by ``dequeueReusableCell(withIdentifier:for:)`` since the table was created (not ones
    /// taken from the reuse queue): with reuse it stays near the number of rows on screen.
    public private(set) var numberOfCellsCreated = 0

    /// The appearance the table, its cells and its section titles draw in (iOS's system colours for it,
    /// ``SystemPalette``). Setting it recolours the background (when it is the system's), the cells on
    /// screen and in the reuse queue, and the titles the table drew; cells made later take it as the
    /// table places them. Default `.light`.
    public var appearance: Appearance {
        didSet {
            guard appearance != oldValue else { return }
            if backgroundColor == Self.systemBackground(style, oldValue) { backgroundColor = Self.systemBackground(style, appearance) }
            for cell in visibleCells.values { cell.appearance = appearance }
            for cell in reusePool.values.joined() { cell.appearance = appearance }
            for view in Array(headerViews.values) + Array(footerViews.values) { recolorSupplementaryView(view) }
        }
    }

    /// The Dynamic Type text size the table's text draws at (`UIContentSizeCategory`): cells' text in
    /// the body style, their detail and the section titles in theirs, rows taller with the body font
    /// (``TableViewMetrics/rowHeight(at:)``, set as ``rowHeight`` when that was the old size's) and titles'
    /// bands with theirs. Cells take it when they are dequeued, as they take ``appearance``; rows already
    /// laid out keep their heights until the next `reloadData()`. Default `.large`.
    public var textSize: Font.ContentSize {
        didSet {
            guard textSize != oldValue else { return }
            if rowHeight == TableViewMetrics.rowHeight(at: oldValue) { rowHeight = TableViewMetrics.rowHeight(at: textSize) }
            for cell in Array(visibleCells.values) + Array(reusePool.values.joined()) { cell.textSize = textSize }
            for view in Array(headerViews.values) + Array(footerViews.values) { recolorSupplementaryView(view) }
        }
    }

    /// A table of `style` with its frame in points. `engine` animates its updates (see
    /// ``animationEngine``). The background is the appearance's system background (grouped tables: the
    /// grouped background); text is drawn at `textSize`.
    public init(frame: Rect = .zero, style: TableViewStyle = .plain, engine: AnimationEngine? = nil, name: String? = nil,
                appearance: Appearance = .light, textSize: Font.ContentSize = .large) {
        self.style = style
        self.appearance = appearance
        self.textSize = textSize
        animationEngine = engine
        layout = TableLayout(style: style, width: frame.width)
        super.init(frame: frame, name: name)
        backgroundColor = Self.systemBackground(style, appearance)
        rowHeight = TableViewMetrics.rowHeight(at: textSize)
    }

    /// The background a table of `style` has in `appearance`.
    static func systemBackground(_ style: TableViewStyle, _ appearance: Appearance) -> Color {
        let palette = SystemPalette.of(appearance)
        return style == .grouped ? palette.groupedBackground : palette.background
    }

    // MARK: Cells

    /// Makes cells of `cellClass` (in `style`) for `identifier`, as `register(_:forCellReuseIdentifier:)`.
    public func register(_ cellClass: TableViewCell.Type = TableViewCell.self, style: TableViewCell.CellStyle = .default,
                         forCellReuseIdentifier identifier: String) {
        registered[identifier] = (style, cellClass)
    }

    /// A cell for `indexPath`: one from the reuse queue of `identifier` (after its `prepareForReuse()`),
    /// or a new one of the registered class (a `.default` `TableViewCell` when nothing is registered).
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> TableViewCell {
        if var pool = reusePool[identifier], let cell = pool.popLast() {
            reusePool[identifier] = pool
            animationEngine?.removeAnimations(of: cell, includingSubviews: true)
            cell.prepareForReuse()
            cell.appearance = appearance
            cell.textSize = textSize
            return cell
        }
        numberOfCellsCreated += 1
        let (style, cellClass) = registered[identifier] ?? (.default, TableViewCell.self)
        let cell = cellClass.init(style: style, reuseIdentifier: identifier)
        // Before the data source configures it (colours and fonts it sets stay in any case).
        cell.appearance = appearance
        cell.textSize = textSize
        return cell
    }

    /// The cell on screen for `indexPath`, or nil when the row has none (off screen), as `cellForRow(at:)`.
    public func cellForRow(at indexPath: IndexPath) -> TableViewCell? { visibleCells[indexPath] }

    /// The cells on screen, top to bottom.
    public var visibleCellsInOrder: [TableViewCell] { visibleCells.sorted { $0.key < $1.key }.map(\.value) }

    /// The index paths of the rows with cells (on screen), in order, as `indexPathsForVisibleRows`.
    public var indexPathsForVisibleRows: [IndexPath] { visibleCells.keys.sorted() }

    /// The index path of the row whose cell this is, or nil.
    public func indexPath(for cell: TableViewCell) -> IndexPath? {
        visibleCells.first { $0.value === cell }?.key
    }

    /// Every cell the table holds (on screen, leaving, queued for reuse): what its memory grows with.
    public var numberOfCellsHeld: Int {
        visibleCells.count + leavingViews.filter { $0 is TableViewCell }.count + reusePool.values.reduce(0) { $0 + $1.count }
    }

    // MARK: Geometry

    /// The number of sections, as the data source last reported it.
    public var numberOfSections: Int { layout.numberOfSections }
    /// The number of rows in `section`, as last reported (0 for a section that does not exist).
    public func numberOfRows(inSection section: Int) -> Int {
        layout.sections.indices.contains(section) ? layout.numberOfRows(inSection: section) : 0
    }

    /// Where the row is, in the table's content coordinates (points); `.null` for a row that does not exist.
    public func rectForRow(at indexPath: IndexPath) -> Rect {
        layout.contains(indexPath) ? layout.rectForRow(at: indexPath) : .null
    }
    /// Where the section's header is (points); `.null` for a section that does not exist.
    public func rectForHeader(inSection section: Int) -> Rect {
        layout.sections.indices.contains(section) ? layout.rectForHeader(inSection: section) : .null
    }
    /// Where the section's footer is (points); `.null` for a section that does not exist.
    public func rectForFooter(inSection section: Int) -> Rect {
        layout.sections.indices.contains(section) ? layout.rectForFooter(inSection: section) : .null
    }
    /// The whole section, header to footer (points); `.null` for a section that does not exist.
    public func rect(forSection section: Int) -> Rect {
        layout.sections.indices.contains(section) ? layout.rect(ofSection: section) : .null
    }

    /// The row under `point` (content coordinates, points), or nil.
    public func indexPathForRow(at point: Point) -> IndexPath? {
        layout.indexPathsForRows(overlapping: point.y, point.y.nextUp).first { layout.rectForRow(at: $0).contains(point) }
    }

    // MARK: Loading

    /// Asks the data source and delegate for everything again and shows the rows on screen, without
    /// animation, as `reloadData()`. Selection is cleared, as UIKit does. Throws when the data source
    /// reports more than ``maximumNumberOfSections`` or ``maximumNumberOfRows``.
    public func reloadData() throws {
        let counts = try currentCounts()
        // Updates still animating are over: their views come back here, their completions tidy nothing.
        if updatesInFlight > 0 {
            updateGeneration += 1
            updatesInFlight = 0
            animationEngine?.removeAnimations(of: self, includingSubviews: true)
        }
        layout = makeLayout(counts: counts)
        for (_, cell) in visibleCells {
            cell.removeFromSuperview()
            enqueue(cell)
        }
        visibleCells = [:]
        for view in Array(headerViews.values) + Array(footerViews.values) + leavingViews { view.removeFromSuperview() }
        for case let cell as TableViewCell in leavingViews { enqueue(cell) }
        headerViews = [:]
        footerViews = [:]
        drawnTitles = []
        leavingViews = []
        layerOf = [:]
        selected = []
        hasLoaded = true
        layoutVisibleContent()
    }

    /// The data source's section and row counts, bounded.
    func currentCounts() throws(TableViewError) -> [Int] {
        guard let dataSource else { return [] }
        let sections = dataSource.numberOfSections(in: self)
        guard sections >= 0 && sections <= TableView.maximumNumberOfSections else {
            throw .tooLarge("the data source reports \(sections) sections; a table holds 0…\(TableView.maximumNumberOfSections)")
        }
        var total = 0
        var counts: [Int] = []
        counts.reserveCapacity(sections)
        for s in 0..<sections {
            let rows = dataSource.tableView(self, numberOfRowsInSection: s)
            guard rows >= 0 else { throw .tooLarge("the data source reports \(rows) rows in section \(s)") }
            total += rows
            guard total <= TableView.maximumNumberOfRows else {
                throw .tooLarge("the data source reports more than \(TableView.maximumNumberOfRows) rows (at section \(s))")
            }
            counts.append(rows)
        }
        return counts
    }

    func makeLayout(counts: [Int]) -> TableLayout {
        var layout = TableLayout(style: style, width: bounds.width)
        let delegate = tableDelegate
        for (s, rows) in counts.enumerated() {
            var heights = [Double](repeating: rowHeight, count: rows)
            if let delegate {
                for r in 0..<rows {
                    let h = delegate.tableView(self, heightForRowAt: IndexPath(row: r, section: s))
                    heights[r] = Self.sanitized(h, automatic: rowHeight)
                }
            }
            let header = Self.sanitized(delegate?.tableView(self, heightForHeaderInSection: s) ?? TableView.automaticDimension,
                                        automatic: automaticHeaderHeight(section: s, header: true))
            let footer = Self.sanitized(delegate?.tableView(self, heightForFooterInSection: s) ?? TableView.automaticDimension,
                                        automatic: automaticHeaderHeight(section: s, header: false))
            layout.appendSection(header: header, rowHeights: heights, footer: footer)
        }
        contentSize = Size(width: bounds.width, height: layout.contentHeight)
        return layout
    }

    /// A height from a delegate: `automaticDimension` (or anything negative, NaN or infinite) is the
    /// table's own; heights are capped at 100,000 pt.
    static func sanitized(_ height: Double, automatic: Double) -> Double {
        height.isFinite && height >= 0 ? min(height, 100_000) : automatic
    }

    func automaticHeaderHeight(section: Int, header: Bool) -> Double {
        let title = header ? dataSource?.tableView(self, titleForHeaderInSection: section) : dataSource?.tableView(self, titleForFooterInSection: section)
        let custom = header ? tableDelegate?.tableView(self, viewForHeaderInSection: section) : tableDelegate?.tableView(self, viewForFooterInSection: section)
        if let custom, custom.bounds.height > 0 { return custom.bounds.height }
        return automaticHeaderHeight(title: title, header: header)
    }

    /// The height a header (or footer) gets when its delegate gives none (points): in a plain table 28
    /// with a title and 0 without; in a grouped table 38 with a header title, 34 with a footer title and
    /// 18 without (the space between sections). Chosen to match iOS's metrics by eye; UIKit computes
    /// them from the font.
    public func automaticHeaderHeight(title: String?, header: Bool = true) -> Double {
        let hasTitle = !(title ?? "").isEmpty
        // Above Large, a title's band grows with its font (rounded up to a whole point).
        let growth = max(0, TableViewMetrics.lineGrowth(style == .plain ? .subheadline : .footnote, at: textSize)).rounded(.up)
        switch style {
        case .plain: return hasTitle ? 28 + growth : 0
        case .grouped: return hasTitle ? (header ? 38 : 34) + growth : 18
        }
    }

    // MARK: Laying out what is visible

    /// A new size lays the rows out again for it (at once: a resize is not an update).
    open override func boundsDidChange(from old: Rect) {
        if old.size != bounds.size, hasLoaded {
            let counts = (0..<layout.numberOfSections).map { layout.numberOfRows(inSection: $0) }
            layout = makeLayout(counts: counts)
            ViewChangeObservation.withoutObserver {
                for (ip, cell) in visibleCells where layout.contains(ip) {
                    cell.frame = layout.rectForRow(at: ip)
                    cell.layoutSubviews()
                }
                for (s, view) in headerViews where s < layout.numberOfSections { view.frame = headerFrame(section: s, in: layout) }
                for (s, view) in footerViews where s < layout.numberOfSections { view.frame = layout.rectForFooter(inSection: s) }
            }
            layoutVisibleContent()
        }
        super.boundsDidChange(from: old)
    }

    /// Scrolling shows other rows: lays them out, then tells the delegate.
    open override func didScroll() {
        layoutVisibleContent()
        super.didScroll()
    }

    /// Makes sure every row and header overlapping the bounds has its view at its place, and (when no
    /// update is animating) that no other row keeps one; keeps the background view filling the bounds.
    func layoutVisibleContent() {
        guard !isLayingOut else { return }
        isLayingOut = true
        defer { isLayingOut = false }
        ViewChangeObservation.withoutObserver {
            if let backgroundView {
                backgroundView.frame = bounds
                if backgroundView.superview !== self { try? insertSubview(backgroundView, at: 0) }
            }
            guard hasLoaded else { return }
            let minY = bounds.minY, maxY = bounds.maxY
            let wanted = layout.indexPathsForRows(overlapping: minY, maxY)
            let wantedSet = Set(wanted)
            if updatesInFlight == 0 {
                for (ip, cell) in visibleCells where !wantedSet.contains(ip) {
                    cell.removeFromSuperview()
                    enqueue(cell)
                    visibleCells[ip] = nil
                }
            }
            for ip in wanted where visibleCells[ip] == nil {
                guard let cell = makeCell(at: ip) else { continue }
                cell.frame = layout.rectForRow(at: ip)
                configure(cell, at: ip, position: layout.position(of: ip))
                visibleCells[ip] = cell
            }
            let sections = Set(layout.sections(overlapping: minY, maxY))
            if updatesInFlight == 0 {
                for (s, view) in headerViews where !sections.contains(s) { view.removeFromSuperview(); headerViews[s] = nil; drawnTitles.remove(ObjectIdentifier(view)) }
                for (s, view) in footerViews where !sections.contains(s) { view.removeFromSuperview(); footerViews[s] = nil; drawnTitles.remove(ObjectIdentifier(view)) }
            }
            for s in sections {
                // New ones are placed at once; ones an update is moving are left to it.
                if headerViews[s] == nil, let view = makeSupplementaryView(section: s, header: true) {
                    headerViews[s] = view
                    view.frame = headerFrame(section: s, in: layout)
                } else if updatesInFlight == 0 {
                    headerViews[s]?.frame = headerFrame(section: s, in: layout)
                }
                if footerViews[s] == nil, let view = makeSupplementaryView(section: s, header: false) {
                    footerViews[s] = view
                    view.frame = layout.rectForFooter(inSection: s)
                } else if updatesInFlight == 0 {
                    footerViews[s]?.frame = layout.rectForFooter(inSection: s)
                }
            }
            arrangeSubviews()
        }
    }

    /// A plain table's header stays at the top of the bounds while its section scrolls under it (and is
    /// pushed up by the next); a grouped table's scrolls with its section.
    func headerFrame(section s: Int, in layout: TableLayout) -> Rect {
        let rect = layout.rectForHeader(inSection: s)
        guard style == .plain, rect.height > 0 else { return rect }
        let section = layout.sections[s]
        let limit = section.rowsTop + section.rowsHeight - rect.height
        let y = min(max(rect.minY, bounds.minY), max(rect.minY, limit))
        return Rect(x: rect.minX, y: y, width: rect.width, height: rect.height)
    }

    func makeCell(at ip: IndexPath) -> TableViewCell? {
        guard let dataSource else { return nil }
        // Configuring a cell is not a change to animate, even inside an update's animation block (UIKit
        // asks for cells without animation too).
        let cell = ViewChangeObservation.withoutObserver { dataSource.tableView(self, cellForRowAt: ip) }
        cell.animationEngine = animationEngine
        cell.corneredStyle = style == .grouped
        // A cell the data source made itself (not dequeued) takes the table's appearance and text size here.
        cell.appearance = appearance
        cell.textSize = textSize
        return cell
    }

    /// Sets what the table decides about a cell: its corners, separator and selection (without
    /// animation), then lays it out.
    func configure(_ cell: TableViewCell, at ip: IndexPath, position: CellSectionPosition) {
        cell.sectionPosition = position
        cell.drawsSeparator = showsSeparator(below: ip)
        if cell.isSelected != selected.contains(ip) { cell.setSelected(selected.contains(ip), animated: false) }
        cell.layoutSubviews()
    }

    /// Whether the separator under row `ip` shows: where the layout draws one, and not beside a selected
    /// row (UIKit hides both separators of a highlighted or selected row, so its grey band has no lines).
    /// Shown or hidden at once, as UIKit does, while the highlight itself may fade.
    func showsSeparator(below ip: IndexPath) -> Bool {
        layout.drawsSeparator(below: ip) && !selected.contains(ip) && !selected.contains(IndexPath(row: ip.row + 1, section: ip.section))
    }

    /// Shows or hides the separators above and below row `ip` after its selection changed.
    func updateSeparators(around ip: IndexPath) {
        for row in [IndexPath(row: ip.row - 1, section: ip.section), ip] {
            guard let cell = visibleCells[row] else { continue }
            cell.drawsSeparator = showsSeparator(below: row)
        }
    }

    func enqueue(_ cell: TableViewCell) {
        guard let id = cell.reuseIdentifier else { return }
        reusePool[id, default: []].append(cell)
    }

    /// The delegate's view for a header or footer, or one drawing its title in the style's way; nil
    /// when there is neither or it has no height.
    func makeSupplementaryView(section s: Int, header: Bool) -> View? {
        ViewChangeObservation.withoutObserver { supplementaryView(section: s, header: header) }
    }

    private func supplementaryView(section s: Int, header: Bool) -> View? {
        let rect = header ? layout.rectForHeader(inSection: s) : layout.rectForFooter(inSection: s)
        guard rect.height > 0 else { return nil }
        if let custom = header ? tableDelegate?.tableView(self, viewForHeaderInSection: s) : tableDelegate?.tableView(self, viewForFooterInSection: s) {
            return custom
        }
        let title = header ? dataSource?.tableView(self, titleForHeaderInSection: s) : dataSource?.tableView(self, titleForFooterInSection: s)
        guard let title, !title.isEmpty else { return nil }
        let view = View(frame: rect, name: header ? "header \(s)" : "footer \(s)")
        drawnTitles.insert(ObjectIdentifier(view))
        let label: Label
        switch style {
        case .plain:
            label = Label(text: title, style: TextStyle(font: .boldSystem(size: 15)),
                          frame: Rect(x: TableViewMetrics.contentInset, y: 0, width: max(0, rect.width - 2 * TableViewMetrics.contentInset), height: rect.height))
        case .grouped:
            view.isOpaque = false
            let inset = TableViewMetrics.groupedSideInset + TableViewMetrics.contentInset
            let text = header ? title.uppercased() : title
            let growth = max(0, TableViewMetrics.lineGrowth(.footnote, at: textSize)).rounded(.up)
            let y = header ? rect.height - 25 - growth : 6
            label = Label(text: text, style: TextStyle(font: .system(size: 13)),
                          frame: Rect(x: inset, y: y, width: max(0, rect.width - 2 * inset), height: 18 + growth))
        }
        try? view.addSubview(label)
        recolorSupplementaryView(view)
        return view
    }

    /// Gives a title the table drew the colours of the table's style and appearance, and its font at the
    /// table's text size: a plain table's bold in the subheadline style (15 pt at Large), a grouped
    /// table's in the footnote style (13 pt).
    private func recolorSupplementaryView(_ view: View) {
        guard drawnTitles.contains(ObjectIdentifier(view)), let label = view.subviews.first as? Label else { return }
        let palette = SystemPalette.of(appearance)
        if style == .plain { view.backgroundColor = palette.plainHeaderBackground }
        label.style.color = style == .plain ? palette.label : palette.secondaryLabel
        label.style.font = style == .plain ? .boldSystem(size: Font.TextStyle.subheadline.pointSize(at: textSize))
            : .system(size: Font.TextStyle.footnote.pointSize(at: textSize))
    }

    /// Puts the table's own views in their z-order at the bottom of the subviews, leaving views added by
    /// the app above them in their order: the background view; in a grouped table the section headers
    /// and footers (titles on the background, which rows sliding in an update pass over, so a title never
    /// prints over a row's text); the rows, those an update inserts or deletes behind the others and
    /// those it moves in front; in a plain table the headers and footers above every row (their opaque
    /// bars float over the rows, as UIKit's do).
    func arrangeSubviews() {
        var order: [View] = []
        if let backgroundView { order.append(backgroundView) }
        let supplementary = footerViews.sorted { $0.key < $1.key }.map(\.value) + headerViews.sorted { $0.key < $1.key }.map(\.value)
        if style == .grouped { order += supplementary }
        let cells = visibleCells.sorted { $0.key < $1.key }.map(\.value) as [View]
        for layer in [ZLayer.behind, .normal, .front] {
            for view in leavingViews + cells where (layerOf[ObjectIdentifier(view)]?.layer ?? .normal) == layer { order.append(view) }
        }
        if style == .plain { order += supplementary }
        for (i, view) in order.enumerated() where i >= subviews.count || subviews[i] !== view {
            try? insertSubview(view, at: i)
        }
    }

    /// The view's summary with the style and counts.
    open override var summary: String {
        super.summary + " \(style) sections \(layout.numberOfSections) cells \(visibleCells.count)"
    }
}
