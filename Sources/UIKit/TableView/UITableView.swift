internal import Containers
internal import Motion

/// UIKit's table view: a scroll view of rows in sections. A data source says how many rows there are
/// and makes their cells; a delegate sizes them and hears of display, highlighting and selection; batch
/// updates animate rows in, out and around on the stage's clock, inside the enclosing animation when
/// there is one.
///
/// Only the rows on screen (and those an update is animating) have cells; cells that leave go to a
/// reuse queue by identifier. Rows size themselves by default (`rowHeight` is
/// ``automaticDimension``): a row is measured when its cell is first shown (its content view's
/// constraints, or the cell's `sizeThatFits(_:)`), and rows never shown count at their estimated height,
/// as UIKit's; with `estimatedRowHeight = 0` every row is measured at once.
///
/// The geometry and the checking of updates are Smokescreen's own table's (`TableLayout`,
/// `TableUpdatePlan`), so both tables agree on where rows go and on UIKit's update rules.
///
/// What differs from UIKit: an invalid batch update, which UIKit raises
/// `NSInternalInconsistencyException` for, logs UIKit's message and reloads the table instead; plain
/// tables draw no filler separators under the last row; editing, swipe actions, the index bar and
/// prefetching are accepted and not drawn (noted).
open class UITableView: UIScrollView {
    /// Heights returned as this use the table's own figure (and `rowHeight` set to it makes rows size
    /// themselves), as UIKit's.
    public static let automaticDimension: CGFloat = -1

    /// The table's look, with UIKit's raw values.
    public enum Style: Int, Sendable {
        /// Rows edge to edge; section headers float at the top while their section scrolls under them.
        case plain = 0
        /// Rows edge to edge on the grouped background, with space between sections.
        case grouped
        /// Each section's rows one rounded rectangle (10-pt corners), inset 16 pt from each side.
        case insetGrouped
    }

    /// How rows and sections come and go in an update, with UIKit's raw values. See Smokescreen's
    /// `TableViewRowAnimation` for where each starts and ends; `.automatic` fades in a plain table and
    /// slides from the neighbouring edge of a grouped section.
    public enum RowAnimation: Int, Sendable {
        case fade = 0, right, left, top, bottom, none, middle
        case automatic = 100
    }

    /// Where a row ends up when the table scrolls to it, with UIKit's raw values.
    public enum ScrollPosition: Int, Sendable {
        case none = 0, top, middle, bottom
    }

    /// Whether separators are drawn, with UIKit's raw values.
    public enum SeparatorStyle: Int, Sendable {
        case none = 0, singleLine, singleLineEtched
    }

    /// Fixed at creation.
    public let style: Style
    /// Supplies rows and cells. Not retained.
    open weak var dataSource: UITableViewDataSource? { didSet { needsReload = true; setNeedsLayout() } }
    /// The delegate, when it is a `UITableViewDelegate`.
    var tableDelegate: UITableViewDelegate? { delegate as? UITableViewDelegate }

    /// Points; ``automaticDimension`` (the default) makes rows size themselves.
    open var rowHeight: CGFloat = UITableView.automaticDimension { didSet { relayoutRows() } }
    /// Points a row not yet measured counts for; ``automaticDimension`` (the default) is 44; 0 measures
    /// every row at once.
    open var estimatedRowHeight: CGFloat = UITableView.automaticDimension { didSet { relayoutRows() } }
    /// Points; ``automaticDimension`` (the default) is the style's header height.
    open var sectionHeaderHeight: CGFloat = UITableView.automaticDimension { didSet { relayoutRows() } }
    open var sectionFooterHeight: CGFloat = UITableView.automaticDimension { didSet { relayoutRows() } }
    open var estimatedSectionHeaderHeight: CGFloat = UITableView.automaticDimension
    open var estimatedSectionFooterHeight: CGFloat = UITableView.automaticDimension
    /// Accepted; headers sit where the style puts them.
    open var sectionHeaderTopPadding: CGFloat = UITableView.automaticDimension
    /// Default `.singleLine`.
    open var separatorStyle = SeparatorStyle.singleLine { didSet { refreshCells() } }
    /// Default `UIColor.separator`.
    open var separatorColor: UIColor? = .separator { didSet { refreshCells() } }
    /// The cells' separator inset (left and right count). Default the system margin on the left: 16 pt,
    /// 20 on screens 414 points wide or wider (Plus and Max phones, phones in landscape, iPads), as UIKit's.
    open var separatorInset: UIEdgeInsets {
        get { givenSeparatorInset ?? UIEdgeInsets(top: 0, left: UIScreen.main.systemMargin, bottom: 0, right: 0) }
        set { givenSeparatorInset = newValue; refreshCells() }
    }
    private var givenSeparatorInset: UIEdgeInsets?
    /// Behind every row, kept filling the visible bounds.
    open var backgroundView: UIView? {
        didSet { oldValue?.removeFromSuperview(); setNeedsLayout() }
    }
    /// Above the first section, scrolling with the rows, at its own height.
    open var tableHeaderView: UIView? {
        didSet { oldValue?.removeFromSuperview(); relayoutRows() }
    }
    /// Below the last section, at its own height.
    open var tableFooterView: UIView? {
        didSet { oldValue?.removeFromSuperview(); relayoutRows() }
    }
    /// Whether a tap selects a row. Default true.
    open var allowsSelection = true
    /// Whether several rows can be selected (a tap on a selected row deselects it). Default false.
    open var allowsMultipleSelection = false
    open var allowsSelectionDuringEditing = false
    /// Whether several rows are selected in editing mode, each by a tap (a second tap deselects it). Default
    /// false. Editable rows show a selection circle (a grey ring; a check mark in the tint when selected)
    /// instead of their editing control; rows that cannot be edited show none and are not selected. Leaving
    /// editing mode deselects them.
    open var allowsMultipleSelectionDuringEditing = false
    /// Whether several rows may be selected now (in editing mode, by its own flag).
    private var selectsMultipleRows: Bool { editingState ? allowsMultipleSelectionDuringEditing : allowsMultipleSelection }
    /// Whether the table shows editing mode. Setting it is `setEditing(_:animated: false)`.
    open var isEditing: Bool {
        get { editingState }
        set { setEditing(newValue, animated: false) }
    }
    private var editingState = false
    /// Enters or leaves editing mode: every row shows its editing control (the delegate's
    /// `editingStyleForRowAt`, default `.delete`, for rows the data source's `canEditRowAt` allows), its
    /// content indented (unless `shouldIndentWhileEditingRowAt` says no) and the reorder control where
    /// `canMoveRowAt` is true, sliding in over 0.3 s when animated (``UITableViewCell/setEditing(_:animated:)``).
    /// Rows are selected in editing mode only with ``allowsSelectionDuringEditing``; a selection is
    /// cleared on entering it unless that is true. A tap on a delete control slides the row aside to show
    /// the Delete confirmation, whose tap commits `.delete` to the data source; one on an insert control
    /// commits `.insert`.
    open func setEditing(_ editing: Bool, animated: Bool) {
        guard editing != editingState else { return }
        closeSwipedRow(animated: animated)
        editingState = editing
        // Entering the mode clears the selection unless rows may be selected in it; leaving a mode that
        // selected several rows clears theirs.
        let selectsWhileEditing = allowsSelectionDuringEditing || allowsMultipleSelectionDuringEditing
        if editing ? !selectsWhileEditing : allowsMultipleSelectionDuringEditing {
            for ip in indexPathsForSelectedRows ?? [] { deselectRow(at: ip, animated: animated) }
        }
        for (ip, cell) in visibleCellsByRow { applyEditing(to: cell, at: ip, animated: animated) }
    }

    /// The row's editing look from the data source and delegate, and the table's mode, given to its cell.
    private func applyEditing(to cell: UITableViewCell, at ip: IndexPath, animated: Bool) {
        if editingState {
            let editable = dataSource?.tableView(self, canEditRowAt: ip) ?? false
            cell.tableEditingStyle = editable ? (tableDelegate?.tableView(self, editingStyleForRowAt: ip) ?? .delete) : .none
            cell.tableIndentsWhileEditing = editable && (tableDelegate?.tableView(self, shouldIndentWhileEditingRowAt: ip) ?? true)
            cell.tableShowsReorderControl = dataSource?.tableView(self, canMoveRowAt: ip) ?? false
            cell.tableSelectsMultipleWhileEditing = allowsMultipleSelectionDuringEditing
        }
        cell.setEditing(editingState, animated: animated)
    }
    open var cellLayoutMarginsFollowReadableWidth = false
    open var insetsContentViewsToSafeArea = true
    open var remembersLastFocusedIndexPath = false
    open var sectionIndexColor: UIColor?
    open var sectionIndexBackgroundColor: UIColor?
    open var dragInteractionEnabled = false
    open var isPrefetchingEnabled = true
    open var fillerRowHeight: CGFloat = UITableView.automaticDimension

    // MARK: State

    var layout: TableLayout?
    var needsReload = true
    /// Heights of rows measured so far (self-sizing rows), by index path.
    var measuredHeights: [IndexPath: CGFloat] = [:]
    var visibleCellsByRow: [IndexPath: UITableViewCell] = [:]
    /// The row whose editing control a finger came down on.
    private var editingControlTouched: IndexPath?
    /// The row swiped aside or left open with its actions ([swipe actions](UITableView+Swipe.swift)).
    var rowSwipe: RowSwipe? {
        didSet {
            // The cell of a row whose Delete confirmation shows says so (`showingDeleteConfirmation`).
            let was = oldValue?.confirmsDelete == true ? oldValue?.row : nil, now = rowSwipe?.confirmsDelete == true ? rowSwipe?.row : nil
            guard was != now else { return }
            if let was { visibleCellsByRow[was]?.setShowsDeleteConfirmation(false) }
            if let now { visibleCellsByRow[now]?.setShowsDeleteConfirmation(true) }
        }
    }
    /// Follows a finger across a row (a row's swipe, where the scroll follows one down it).
    private lazy var rowSwipePan = UIPanGestureRecognizer(target: self, action: Selector(UITableView.handleRowSwipe(_:), name: "handleRowSwipe(_:)"))
    /// The row dragged by its reorder control ([reordering](UITableView+Reorder.swift)).
    var rowReorder: RowReorder?
    /// Scrolls the table at each frame while a dragged row is held near its top or bottom edge.
    var reorderAutoscroll: DisplayLink?
    /// A dragged row going back to its own place (perhaps out of view): its cell is kept until it lands.
    var settlingReorderRow: IndexPath?
    /// Follows a finger that took a row's reorder control.
    private lazy var reorderPan = UIPanGestureRecognizer(target: self, action: Selector(UITableView.handleReorder(_:), name: "handleReorder(_:)"))
    /// A touch that closed the open row: it does nothing else.
    private var touchClosedSwipedRow = false
    /// The swipe whose row is sliding back closed (its actions go when it has).
    var closingSwipe: RowSwipe?
    /// Swipe actions handed to cells for a batch update, removed when it ends.
    var updateLeftovers: [UIView] = []
    var headerViews: [Int: UIView] = [:]
    var footerViews: [Int: UIView] = [:]
    /// Cells and header views an update is animating out: removed when it ends.
    var leavingViews: [UIView] = []
    /// The separators drawn below a plain table's last row (``placeEmptyRowSeparators(in:)``).
    private var emptyRowSeparators: [UIView] = []
    /// The row (before its update) each leaving cell showed, for `didEndDisplaying`.
    var leavingRows: [ObjectIdentifier: IndexPath] = [:]
    /// Views drawn behind the other rows while an update runs (rows sliding under their neighbours).
    var behindViews = Set<ObjectIdentifier>()
    var updatesInFlight = 0
    var updateGeneration = 0
    /// The batch being recorded, if any.
    var batch = UpdateBatch()
    var selectedRows: [IndexPath] = []
    var highlightedRow: IndexPath?
    /// A vertical span (content coordinates) whose rows have cells, besides the bounds, while an animated
    /// scroll runs: what the picture shows at the current frame (the model is already at the end).
    var keptSpan: ClosedRange<CGFloat>?
    private var reusePool: [String: [UITableViewCell]] = [:]
    private var registeredCells: [String: UITableViewCell.Type] = [:]
    private var registeredHeaders: [String: UITableViewHeaderFooterView.Type] = [:]
    private var headerPool: [String: [UITableViewHeaderFooterView]] = [:]
    /// While `reconfigureRows` runs: the cell the data source's dequeue returns for the row.
    var reconfiguring: UITableViewCell?
    private var isLayingOutRows = false

    /// The most rows and sections a table holds: a data source reporting more is cut there (logged).
    public static let maximumNumberOfRows = 10_000_000
    public static let maximumNumberOfSections = 100_000

    /// A table of `style` with `frame` in its superview's coordinates (points).
    public init(frame: CGRect, style: Style) {
        self.style = style
        super.init(frame: frame)
        backgroundColor = style == .plain ? .systemBackground : .systemGroupedBackground
        alwaysBounceVertical = true
        addGestureRecognizer(rowSwipePan)
        addGestureRecognizer(reorderPan)
    }

    /// A pan more across than down on a row with swipe actions is the row's, not the scroll's.
    open override func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool {
        if gestureRecognizer === rowSwipePan { return !startsOnReorderControl(gestureRecognizer) && isRowSwipe(gestureRecognizer) }
        if gestureRecognizer === reorderPan { return startsOnReorderControl(gestureRecognizer) }
        if gestureRecognizer === panGestureRecognizer {
            // A pan that took a reorder control moves its row, not the table.
            if startsOnReorderControl(gestureRecognizer) { return false }
            // Across from the screen's edge it is the navigation controller's back swipe (which UIKit's
            // scroll views wait for).
            if isRowSwipe(gestureRecognizer) || isBackSwipe(gestureRecognizer) { return false }
            closeSwipedRow(animated: true)
        }
        return super.gestureRecognizerShouldBegin(gestureRecognizer)
    }

    public override convenience init(frame: CGRect) { self.init(frame: frame, style: .plain) }

    public required init?(coder: NSCoder) { nil }

    // MARK: Registering and dequeuing

    /// Cells for `identifier` are made of `cellClass` (a `UITableViewCell` subclass) in the default style.
    open func register(_ cellClass: AnyClass?, forCellReuseIdentifier identifier: String) {
        registeredCells[identifier] = cellClass as? UITableViewCell.Type
    }

    /// Headers and footers for `identifier` are made of `aClass` (a `UITableViewHeaderFooterView` subclass).
    open func register(_ aClass: AnyClass?, forHeaderFooterViewReuseIdentifier identifier: String) {
        registeredHeaders[identifier] = aClass as? UITableViewHeaderFooterView.Type
    }

    /// A cell waiting for reuse with `identifier`, or nil when there is none and no class is registered.
    open func dequeueReusableCell(withIdentifier identifier: String) -> UITableViewCell? {
        if let cell = reconfiguring, cell.reuseIdentifier == identifier { return cell }
        if var pool = reusePool[identifier], let cell = pool.popLast() {
            reusePool[identifier] = pool
            cell.prepareForReuse()
            return cell
        }
        guard let type = registeredCells[identifier] else { return nil }
        return withoutAnimation { type.init(style: .default, reuseIdentifier: identifier) }
    }

    /// A cell for `indexPath` with `identifier`: a reused one, or a new one of the registered class (a
    /// plain `UITableViewCell` when nothing is registered, logged: UIKit raises there).
    open func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        if let cell = dequeueReusableCell(withIdentifier: identifier) { return cell }
        UIKitLog.warn("unable to dequeue a cell with identifier \(identifier) - must register a nib or a class for the identifier or connect a prototype cell in a storyboard (a default cell is used)")
        return withoutAnimation { UITableViewCell(style: .default, reuseIdentifier: identifier) }
    }

    /// A header or footer waiting for reuse with `identifier`, or a new one of the registered class.
    open func dequeueReusableHeaderFooterView(withIdentifier identifier: String) -> UITableViewHeaderFooterView? {
        if var pool = headerPool[identifier], let view = pool.popLast() {
            headerPool[identifier] = pool
            view.prepareForReuse()
            return view
        }
        guard let type = registeredHeaders[identifier] else { return nil }
        return withoutAnimation { type.init(reuseIdentifier: identifier) }
    }

    func enqueue(_ cell: UITableViewCell) {
        cell.onSelectionChange = nil
        // Swipe actions that went away with their row.
        for actions in cell.subviews where actions is SwipeActionsView { actions.removeFromSuperview() }
        guard let id = cell.reuseIdentifier else { return }
        reusePool[id, default: []].append(cell)
    }

    func enqueueSupplementary(_ view: UIView) {
        guard let view = view as? UITableViewHeaderFooterView, let id = view.reuseIdentifier else { return }
        headerPool[id, default: []].append(view)
    }

    // MARK: Counts and geometry

    open var numberOfSections: Int { loadedLayout.numberOfSections }

    open func numberOfRows(inSection section: Int) -> Int {
        let layout = loadedLayout
        return section >= 0 && section < layout.numberOfSections ? layout.numberOfRows(inSection: section) : 0
    }

    /// The layout, loaded from the data source first if it has not been.
    var loadedLayout: TableLayout {
        if needsReload || layout == nil { reloadData() }
        return layout ?? TableLayout(style: .plain, width: 0)
    }

    /// The row's rectangle in the table's coordinates (points); `.zero` outside the table.
    open func rectForRow(at indexPath: IndexPath) -> CGRect {
        let layout = loadedLayout
        guard layout.contains(indexPath) else { return .zero }
        return CGRect(layout.rectForRow(at: indexPath)).offsetBy(dx: 0, dy: headerViewHeight)
    }

    open func rect(forSection section: Int) -> CGRect {
        let layout = loadedLayout
        guard section >= 0 && section < layout.numberOfSections else { return .zero }
        return CGRect(layout.rect(ofSection: section)).offsetBy(dx: 0, dy: headerViewHeight)
    }

    open func rectForHeader(inSection section: Int) -> CGRect {
        let layout = loadedLayout
        guard section >= 0 && section < layout.numberOfSections else { return .zero }
        return CGRect(layout.rectForHeader(inSection: section)).offsetBy(dx: 0, dy: headerViewHeight)
    }

    open func rectForFooter(inSection section: Int) -> CGRect {
        let layout = loadedLayout
        guard section >= 0 && section < layout.numberOfSections else { return .zero }
        return CGRect(layout.rectForFooter(inSection: section)).offsetBy(dx: 0, dy: headerViewHeight)
    }

    /// The row under `point` (the table's coordinates), or nil.
    open func indexPathForRow(at point: CGPoint) -> IndexPath? {
        let y = Double(point.y - headerViewHeight)
        return loadedLayout.indexPathsForRows(overlapping: y, y + 1e-9).first { ip in
            let row = rectForRow(at: ip)
            return row.minY <= point.y && point.y < row.maxY
        }
    }

    /// The rows overlapping `rect` (the table's coordinates), in order.
    open func indexPathsForRows(in rect: CGRect) -> [IndexPath]? {
        loadedLayout.indexPathsForRows(overlapping: Double(rect.minY - headerViewHeight), Double(rect.maxY - headerViewHeight))
    }

    /// The cell showing the row, when it is on screen.
    open func cellForRow(at indexPath: IndexPath) -> UITableViewCell? {
        _ = loadedLayout
        layoutIfNeeded()
        return visibleCellsByRow[indexPath]
    }

    /// The row `cell` shows, when it is one of the table's.
    open func indexPath(for cell: UITableViewCell) -> IndexPath? {
        visibleCellsByRow.first { $0.value === cell }?.key
    }

    /// The cells on screen, in row order.
    open var visibleCells: [UITableViewCell] {
        _ = loadedLayout
        layoutIfNeeded()
        return visibleCellsByRow.filter { isShown($0.value) }.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Whether a cell the table holds is on screen: all are but while a row is dragged, when the table
    /// also holds the rows just outside that may move into view.
    private func isShown(_ cell: UITableViewCell) -> Bool { rowReorder == nil || cell.frame.intersects(bounds) }

    /// The rows on screen, in order.
    open var indexPathsForVisibleRows: [IndexPath]? {
        _ = loadedLayout
        layoutIfNeeded()
        return visibleCellsByRow.filter { isShown($0.value) }.keys.sorted()
    }

    open func headerView(forSection section: Int) -> UITableViewHeaderFooterView? { headerViews[section] as? UITableViewHeaderFooterView }
    open func footerView(forSection section: Int) -> UITableViewHeaderFooterView? { footerViews[section] as? UITableViewHeaderFooterView }

    /// Points taken by ``tableHeaderView`` above the first section.
    var headerViewHeight: CGFloat { tableHeaderView?.frame.height ?? 0 }

    // MARK: Loading

    /// Asks the data source again for everything and shows it at once, without animation; updates still
    /// animating end where they are. Selection is cleared, as UIKit's.
    open func reloadData() {
        needsReload = false
        closeSwipedRow(animated: false)
        stopFollowingOffsetAnimation()
        keptSpan = nil
        if updatesInFlight > 0 {
            updateGeneration += 1
            updatesInFlight = 0
            for view in visibleCellsByRow.values { view.layer.removeAllAnimations() }
        }
        measuredHeights = [:]
        for (ip, cell) in visibleCellsByRow {
            cell.removeFromSuperview()
            if cell.displayed { tableDelegate?.tableView(self, didEndDisplaying: cell, forRowAt: ip) }
            cell.displayed = false
            enqueue(cell)
        }
        visibleCellsByRow = [:]
        for view in Array(headerViews.values) + Array(footerViews.values) {
            view.removeFromSuperview()
            enqueueSupplementary(view)
        }
        for view in leavingViews {
            view.removeFromSuperview()
            UIView.performWithoutAnimation { view.alpha = 1 }
            if let cell = view as? UITableViewCell {
                if cell.displayed, let ip = leavingRows[ObjectIdentifier(cell)] { tableDelegate?.tableView(self, didEndDisplaying: cell, forRowAt: ip) }
                cell.displayed = false
                enqueue(cell)
            }
        }
        leavingRows = [:]
        headerViews = [:]
        footerViews = [:]
        leavingViews = []
        behindViews = []
        selectedRows = []
        highlightedRow = nil
        layout = makeLayout(counts: dataSourceCounts())
        // Less content than before: the offset comes back within it.
        let inside = clamped(contentOffset)
        if inside != contentOffset { UIView.performWithoutAnimation { contentOffset = inside } }
        layoutRows()
    }

    /// The data source's counts, cut to the table's limits (logged).
    func dataSourceCounts() -> [Int] {
        guard let dataSource else { return [] }
        var sections = dataSource.numberOfSections(in: self)
        if sections < 0 || sections > Self.maximumNumberOfSections {
            UIKitLog.warn("UITableView: the data source reports \(sections) sections; a table holds 0…\(Self.maximumNumberOfSections), so it shows \(max(0, min(sections, Self.maximumNumberOfSections)))")
            sections = max(0, min(sections, Self.maximumNumberOfSections))
        }
        var total = 0
        var counts: [Int] = []
        counts.reserveCapacity(sections)
        for s in 0..<sections {
            var rows = dataSource.tableView(self, numberOfRowsInSection: s)
            if rows < 0 || total + rows > Self.maximumNumberOfRows {
                let kept = max(0, min(rows, Self.maximumNumberOfRows - total))
                UIKitLog.warn("UITableView: the data source reports \(rows) rows in section \(s); a table holds \(Self.maximumNumberOfRows) rows in all, so it shows \(kept)")
                rows = kept
            }
            total += rows
            counts.append(rows)
        }
        return counts
    }

    /// The table's style as Smokescreen's table lays it out.
    private var layoutStyle: TableViewStyle { style == .plain ? .plain : .grouped }
    /// Points an inset-grouped section's card keeps from each side: 16, and the safe area's sides (a phone
    /// in landscape) besides; out of a window (sides unknown) what the layout has.
    private var rowInset: Double {
        guard style == .insetGrouped else { return 0 }
        guard window != nil else { return layout?.rowX ?? 16 }
        let sides = horizontalSafeSides
        return 16 + Double(max(sides.left, sides.right))
    }

    /// Points: a height from the app, or nil for the table's own (automatic, negative or not finite).
    static func given(_ height: CGFloat) -> CGFloat? {
        height.isFinite && height >= 0 ? min(height, 100_000) : nil
    }

    /// What a row not yet measured counts for (points).
    func estimatedHeight(at ip: IndexPath) -> CGFloat {
        if let h = Self.given(tableDelegate?.tableView(self, estimatedHeightForRowAt: ip) ?? Self.automaticDimension), h > 0 { return h }
        if let h = Self.given(estimatedRowHeight), h > 0 { return h }
        return 44
    }

    /// Whether row `ip`'s height comes from its cell.
    func selfSizes(_ ip: IndexPath) -> Bool {
        Self.given(tableDelegate?.tableView(self, heightForRowAt: ip) ?? Self.automaticDimension) == nil && Self.given(rowHeight) == nil
    }

    /// The device pixel a separator takes (points).
    var hairline: CGFloat {
        separatorStyle == .none ? 0 : 1 / max(1, UIScreen.main.scale)
    }

    func makeLayout(counts: [Int]) -> TableLayout {
        var layout = TableLayout(style: layoutStyle, width: Double(bounds.width), rowInset: rowInset)
        let measureAll = estimatedRowHeight == 0
        for (s, rows) in counts.enumerated() {
            var heights = [Double](repeating: 0, count: rows)
            for r in 0..<rows {
                // The delegate's height, `rowHeight`, else the row's measured height or its estimate.
                let ip = IndexPath(row: r, section: s)
                if let h = Self.given(tableDelegate?.tableView(self, heightForRowAt: ip) ?? Self.automaticDimension) ?? Self.given(rowHeight) {
                    heights[r] = Double(h)
                    continue
                }
                if measureAll, measuredHeights[ip] == nil { measure(ip, layoutWidth: Double(bounds.width), keep: false) }
                heights[r] = Double(measuredHeights[ip] ?? estimatedHeight(at: ip))
            }
            layout.appendSection(header: Double(supplementaryHeight(section: s, header: true)), rowHeights: heights,
                                 footer: Double(supplementaryHeight(section: s, header: false)))
        }
        contentSize = CGSize(width: bounds.width, height: headerViewHeight + CGFloat(layout.contentHeight) + (tableFooterView?.frame.height ?? 0))
        return layout
    }

    /// Measures row `ip` with a cell from the data source: kept for display when `keep` (sized to the
    /// row before it joins the table, so its constraints never see another height), else back to the
    /// reuse queue. Returns the height (points).
    @discardableResult
    private func measure(_ ip: IndexPath, layoutWidth: Double, keep: Bool) -> CGFloat {
        let shown = visibleCellsByRow[ip]
        guard let cell = shown ?? makeCell(at: ip) else { return 44 }
        cell.tableSeparator.hairline = hairline
        let width = rowWidth(layoutWidth)
        let height = sizedHeight(of: cell, at: ip, width: width)
        measuredHeights[ip] = height
        if shown == nil {
            if keep {
                UIView.performWithoutAnimation {
                    cell.frame = CGRect(x: CGFloat(rowInset), y: cell.frame.minY, width: width, height: height)
                    cell.layoutIfNeeded()
                }
                visibleCellsByRow[ip] = cell
                addCellView(cell)
            } else {
                enqueue(cell)
            }
        }
        return height
    }

    /// The height `cell` sizes itself to at `width` (points); one that is not positive (constraints
    /// that leave the height open) is logged and given 44, as UIKit does.
    func sizedHeight(of cell: UITableViewCell, at ip: IndexPath, width: CGFloat) -> CGFloat {
        cell.tableSeparator.hairline = hairline
        let height = cell.selfSizingHeight(forWidth: width)
        guard height.isFinite, height > 0 else {
            UIKitLog.warn("UITableView: the cell for row \(ip) sizes itself to \(height) points (its content view's constraints do not set its height); it is given 44")
            return 44
        }
        return min(height, 100_000)
    }

    private func rowWidth(_ width: Double) -> CGFloat { CGFloat(max(0, width - 2 * rowInset)) }

    /// Points: the delegate's height, `sectionHeaderHeight`, or the style's (a custom view's own height
    /// when it has one; with a title, plain 28 and grouped 38 over / 34 under; without, plain 0 and
    /// grouped 18), as Smokescreen's table chooses them.
    func supplementaryHeight(section s: Int, header: Bool) -> CGFloat {
        let delegated = header ? tableDelegate?.tableView(self, heightForHeaderInSection: s) : tableDelegate?.tableView(self, heightForFooterInSection: s)
        if let h = Self.given(delegated ?? Self.automaticDimension) { return h }
        if let h = Self.given(header ? sectionHeaderHeight : sectionFooterHeight) { return h }
        let title = header ? dataSource?.tableView(self, titleForHeaderInSection: s) : dataSource?.tableView(self, titleForFooterInSection: s)
        let hasTitle = !(title ?? "").isEmpty
        let custom = header ? tableDelegate?.tableView(self, viewForHeaderInSection: s) : tableDelegate?.tableView(self, viewForFooterInSection: s)
        if let custom {
            // A header-footer view's starting frame is not a height it asks for.
            if custom.frame.height > 0, !(custom is UITableViewHeaderFooterView) { return custom.frame.height }
            if custom.hasConstraintLaidOutContent {
                return custom.systemLayoutSizeFitting(CGSize(width: bounds.width, height: 0), withHorizontalFittingPriority: .required,
                                                      verticalFittingPriority: .fittingSizeLevel).height
            }
            return style == .plain ? 28 : (header ? 38 : 34)
        }
        switch style {
        case .plain: return hasTitle ? 28 : 0
        case .grouped, .insetGrouped: return hasTitle ? (header ? 38 : 34) : 18
        }
    }

    /// Lays the rows out again (heights, header and footer views), keeping the cells.
    func relayoutRows() {
        guard let layout else { return }
        let counts = (0..<layout.numberOfSections).map { layout.numberOfRows(inSection: $0) }
        self.layout = makeLayout(counts: counts)
        UIView.performWithoutAnimation { placeAllViews() }
        layoutRows()
    }

    /// Tells every cell on screen what the table says about it again.
    private func refreshCells() {
        for (ip, cell) in visibleCellsByRow { configure(cell, at: ip) }
    }

    // MARK: Layout

    open override var contentOffset: CGPoint {
        get { super.contentOffset }
        set {
            let old = super.contentOffset
            super.contentOffset = newValue
            guard super.contentOffset != old else { return }
            // Inside an animation the model offset jumps to the end while the picture scrolls: at each
            // frame the rows the picture shows get cells.
            followOffsetAnimation { [weak self] shown in
                guard let self else { return }
                self.keptSpan = shown.map { $0.minY...max($0.minY, $0.maxY) }
                self.layoutRows()
            }
            layoutRows()
        }
    }

    /// Back in a window (a popped-back screen), the rows, headers and footers are laid out again: the
    /// safe area's sides they keep clear of are known again.
    open override func didMoveToWindow() {
        super.didMoveToWindow()
        guard window != nil else { return }
        setNeedsLayout()
        for view in Array(headerViews.values) + Array(footerViews.values) { view.setNeedsLayout() }
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        if needsReload || layout == nil {
            reloadData()
        } else if let layout, layout.width != Double(bounds.width) || layout.rowX != rowInset {
            measuredHeights = [:]
            relayoutRows()
        } else {
            layoutRows()
        }
    }

    /// The spans of content (points) whose rows have cells: the bounds, and what the picture shows while
    /// an animated scroll runs.
    private var shownSpans: [ClosedRange<CGFloat>] {
        var visible = bounds.minY...max(bounds.minY, bounds.maxY)
        // While a row is dragged, the rows just outside move into view as they make room for it.
        if let reorder = rowReorder { visible = (visible.lowerBound - reorder.height)...(visible.upperBound + reorder.height) }
        guard let kept = keptSpan, kept != visible else { return [visible] }
        return [visible, kept]
    }

    /// The rows overlapping the shown spans, in order, each once.
    private func rowsShown(in layout: TableLayout) -> [IndexPath] {
        let lists = shownSpans.map { layout.indexPathsForRows(overlapping: Double($0.lowerBound - headerViewHeight), Double($0.upperBound - headerViewHeight)) }
        guard lists.count > 1 else { return lists.first ?? [] }
        return Array(Set(lists.joined())).sorted()
    }

    /// Gives every row, header and footer in view its view at its place (measuring self-sizing rows as
    /// they first show, which may move the rows below), and, when no update is animating, sends the
    /// others to the reuse queue.
    func layoutRows() {
        guard let dataSource = dataSource, let _ = layout, !isLayingOutRows else { return }
        _ = dataSource
        isLayingOutRows = true
        defer { isLayingOutRows = false }
        UIView.performWithoutAnimation {
            backgroundView.map { view in
                view.frame = bounds
                if view.superview !== self { insertSubview(view, at: 0) }
            }
            // Measure the rows coming into view; measuring can move rows, so repeat (bounded: each
            // pass measures at least one more row or stops).
            var wanted: [IndexPath] = []
            for _ in 0..<64 {
                guard let layout else { break }
                wanted = rowsShown(in: layout)
                let unmeasured = wanted.filter { measuredHeights[$0] == nil && selfSizes($0) }
                guard !unmeasured.isEmpty else { break }
                // Each measured row moves the rows below it; the layout is patched, not rebuilt.
                var patched = layout
                for ip in unmeasured { patched.setHeight(Double(measure(ip, layoutWidth: layout.width, keep: true)), forRowAt: ip) }
                self.layout = patched
                let size = CGSize(width: bounds.width, height: headerViewHeight + CGFloat(patched.contentHeight) + (tableFooterView?.frame.height ?? 0))
                if contentSize != size { contentSize = size }
            }
            guard let layout else { return }
            let wantedSet = Set(wanted)
            if updatesInFlight == 0 {
                for (ip, cell) in visibleCellsByRow where !wantedSet.contains(ip) && ip != rowReorder?.source && ip != settlingReorderRow {
                    cell.removeFromSuperview()
                    if cell.displayed { tableDelegate?.tableView(self, didEndDisplaying: cell, forRowAt: ip) }
                    cell.displayed = false
                    visibleCellsByRow[ip] = nil
                    enqueue(cell)
                }
            }
            for ip in wanted {
                let cell: UITableViewCell
                if let shown = visibleCellsByRow[ip] {
                    cell = shown
                    if cell.superview !== self || !cell.displayed {
                        addCellView(cell)
                    }
                } else {
                    guard let made = makeCell(at: ip) else { continue }
                    cell = made
                    visibleCellsByRow[ip] = cell
                    addCellView(cell)
                }
                // (A row dragged by its reorder control stays with the finger; the rows making room for it
                // stay aside.)
                if updatesInFlight == 0 || !cell.displayed, rowReorder?.source != ip {
                    cell.frame = reorderedFrame(ip, in: layout) ?? rowFrame(ip, in: layout).offsetBy(dx: rowSwipe?.row == ip ? rowSwipe!.offset : 0, dy: 0)
                }
                configure(cell, at: ip)
                if !cell.displayed {
                    cell.displayed = true
                    tableDelegate?.tableView(self, willDisplay: cell, forRowAt: ip)
                }
            }
            placeSupplementaryViews(in: layout)
            placeTableHeaderAndFooter(in: layout)
            placeEmptyRowSeparators(in: layout)
            arrangeSubviewsInZOrder()
        }
    }

    /// A plain table shorter than its bounds draws separators where more rows would be, below the last
    /// (as UIKit's: every row height of the table, `rowHeight` or 44 points, with the separators' inset
    /// and colour) until its bounds end; a table footer view ends them, as in UIKit, where an empty footer
    /// is the usual way to remove them.
    private func placeEmptyRowSeparators(in layout: TableLayout) {
        var wanted: [CGRect] = []
        if style == .plain, separatorStyle != .none, tableFooterView == nil, hairline > 0 {
            let pitch = Self.given(rowHeight) ?? 44
            let left = separatorInset.left, width = max(0, bounds.width - separatorInset.left - separatorInset.right)
            var y = headerViewHeight + CGFloat(layout.contentHeight) + pitch
            while y - hairline < bounds.maxY, wanted.count < 256 {
                if y >= bounds.minY { wanted.append(CGRect(x: left, y: y - hairline, width: width, height: hairline)) }
                y += pitch
            }
        }
        while emptyRowSeparators.count > wanted.count { emptyRowSeparators.removeLast().removeFromSuperview() }
        while emptyRowSeparators.count < wanted.count {
            let separator = UIView()
            separator.isUserInteractionEnabled = false
            emptyRowSeparators.append(separator)
            addSubview(separator)
        }
        for (separator, frame) in zip(emptyRowSeparators, wanted) {
            separator.frame = frame
            separator.backgroundColor = separatorColor
        }
    }

    func rowFrame(_ ip: IndexPath, in layout: TableLayout) -> CGRect {
        CGRect(layout.rectForRow(at: ip)).offsetBy(dx: 0, dy: headerViewHeight)
    }

    func addCellView(_ cell: UITableViewCell) {
        if cell.superview !== self { addSubview(cell) }
        if cell.onSelectionChange == nil { cell.onSelectionChange = { [weak self] cell in self?.selectionDidChange(of: cell) } }
    }

    /// A cell from the data source for `ip`, not animated even inside an animation block (UIKit makes
    /// its cells without animation too).
    func makeCell(at ip: IndexPath) -> UITableViewCell? {
        guard let dataSource else { return nil }
        let cell = withoutAnimation { dataSource.tableView(self, cellForRowAt: ip) }
        cell.displayed = false
        // A reused cell may still show another row's editing look.
        if editingState || cell.isEditing { applyEditing(to: cell, at: ip, animated: false) }
        return cell
    }

    /// What the table decides about a cell: its background for the style, its separator, its corners in
    /// an inset grouped section, its selection, and its size's layout.
    func configure(_ cell: UITableViewCell, at ip: IndexPath) {
        guard let layout, layout.contains(ip) else { return }
        UIView.performWithoutAnimation {
            cell.applyTableBackground(for: style)
            // (Out of a window — a pushed-back screen laid out before it returns — the sides are unknown:
            // kept until it is back, when the table lays its rows out again.)
            // (An inset-grouped card is clear of them already.)
            if style == .insetGrouped || !insetsContentViewsToSafeArea {
                cell.tableSafeSides = (0, 0)
            } else if window != nil {
                cell.tableSafeSides = horizontalSafeSides
            }
            let selected = selectedRows.contains(ip)
            if cell.isSelected != selected { cell.setSelected(selected, animated: false) }
            configureSeparator(cell, at: ip)
            if cell.isEditing != editingState { applyEditing(to: cell, at: ip, animated: false) }
            if style == .insetGrouped {
                let position = layout.position(of: ip)
                var corners: CACornerMask = []
                if position.roundsTop { corners.formUnion([.layerMinXMinYCorner, .layerMaxXMinYCorner]) }
                if position.roundsBottom { corners.formUnion([.layerMinXMaxYCorner, .layerMaxXMaxYCorner]) }
                // Set only when they change: this runs for every cell in view at every frame of a scroll.
                let radius: CGFloat = corners.isEmpty ? 0 : 10
                if cell.layer.cornerRadius != radius { cell.layer.cornerRadius = radius }
                if cell.layer.maskedCorners != corners { cell.layer.maskedCorners = corners }
                if cell.clipsToBounds == corners.isEmpty { cell.clipsToBounds = !corners.isEmpty }
            }
            cell.layoutIfNeeded()
        }
    }

    /// A cell's highlighted or selected state changed: the separators around it follow.
    private func selectionDidChange(of cell: UITableViewCell) {
        guard let ip = indexPath(for: cell) else { return }
        for neighbour in [ip, IndexPath(row: ip.row - 1, section: ip.section)] {
            if let other = visibleCellsByRow[neighbour] { configureSeparator(other, at: neighbour) }
        }
    }

    /// Whether the separator under row `ip` shows: not under the last row of a grouped section, and
    /// not around a highlighted or selected row (UIKit hides both separators of such a row).
    private func configureSeparator(_ cell: UITableViewCell, at ip: IndexPath) {
        guard let layout, layout.contains(ip) else { return }
        let lastInSection = ip.row == layout.numberOfRows(inSection: ip.section) - 1
        var shows = separatorStyle != .none && (style == .plain || !lastInSection)
        let next = IndexPath(row: ip.row + 1, section: ip.section)
        for row in [ip, next] {
            let other = row == ip ? cell : visibleCellsByRow[row]
            if let other, other.isHighlighted || other.isSelected, other.selectionStyle != .none { shows = false }
        }
        cell.tableSeparator = TableSeparator(shows: shows, color: separatorColor, hairline: hairline, inset: separatorInset)
    }

    /// Headers and footers in view, at their places (a plain table's float at the top of the bounds).
    func placeSupplementaryViews(in layout: TableLayout) {
        let sections = Set(shownSpans.flatMap { layout.sections(overlapping: Double($0.lowerBound - headerViewHeight), Double($0.upperBound - headerViewHeight)) }).sorted()
        if updatesInFlight == 0 {
            for (s, view) in headerViews where !sections.contains(s) {
                view.removeFromSuperview()
                tableDelegate?.tableView(self, didEndDisplayingHeaderView: view, forSection: s)
                enqueueSupplementary(view)
                headerViews[s] = nil
            }
            for (s, view) in footerViews where !sections.contains(s) {
                view.removeFromSuperview()
                tableDelegate?.tableView(self, didEndDisplayingFooterView: view, forSection: s)
                enqueueSupplementary(view)
                footerViews[s] = nil
            }
        }
        for s in sections {
            // A new header or footer starts at its place (faded in when an update is running).
            if headerViews[s] == nil, let view = makeSupplementaryView(section: s, header: true, in: layout) {
                headerViews[s] = view
                addSubview(view)
                view.frame = headerFrame(section: s, in: layout)
                if updatesInFlight > 0 { view.alpha = 0 }
                tableDelegate?.tableView(self, willDisplayHeaderView: view, forSection: s)
            }
            if footerViews[s] == nil, let view = makeSupplementaryView(section: s, header: false, in: layout) {
                footerViews[s] = view
                addSubview(view)
                view.frame = footerFrame(section: s, in: layout)
                if updatesInFlight > 0 { view.alpha = 0 }
                tableDelegate?.tableView(self, willDisplayFooterView: view, forSection: s)
            }
            if updatesInFlight == 0 {
                headerViews[s]?.frame = headerFrame(section: s, in: layout)
                footerViews[s]?.frame = footerFrame(section: s, in: layout)
            }
        }
    }

    /// Every cell, header and footer at its place in the current layout, at once.
    func placeAllViews() {
        guard let layout else { return }
        for (ip, cell) in visibleCellsByRow where layout.contains(ip) { cell.frame = rowFrame(ip, in: layout) }
        for (s, view) in headerViews where s < layout.numberOfSections { view.frame = headerFrame(section: s, in: layout) }
        for (s, view) in footerViews where s < layout.numberOfSections { view.frame = footerFrame(section: s, in: layout) }
    }

    private func placeTableHeaderAndFooter(in layout: TableLayout) {
        if let header = tableHeaderView {
            header.frame = CGRect(x: 0, y: 0, width: bounds.width, height: header.frame.height)
            if header.superview !== self { addSubview(header) }
        }
        if let footer = tableFooterView {
            footer.frame = CGRect(x: 0, y: headerViewHeight + CGFloat(layout.contentHeight), width: bounds.width, height: footer.frame.height)
            if footer.superview !== self { addSubview(footer) }
        }
    }

    /// A plain table's header stays at the top of the bounds while its section scrolls under it (pushed
    /// up by the next); a grouped table's scrolls with its section.
    /// While a row is dragged by its reorder control, headers and footers between its place and its
    /// target stand aside with the rows (``reorderShift(headerOf:)``).
    func headerFrame(section s: Int, in layout: TableLayout) -> CGRect {
        let rect = CGRect(layout.rectForHeader(inSection: s)).offsetBy(dx: 0, dy: headerViewHeight + reorderShift(headerOf: s))
        guard style == .plain, rect.height > 0 else { return rect }
        let section = layout.sections[s]
        let limit = headerViewHeight + CGFloat(section.rowsTop + section.rowsHeight) + reorderShift(footerOf: s) - rect.height
        let top = bounds.minY + adjustedContentInset.top
        return CGRect(x: rect.minX, y: min(max(rect.minY, top), max(rect.minY, limit)), width: rect.width, height: rect.height)
    }

    /// A section's footer at its place (aside while a row is dragged, as ``headerFrame(section:in:)``).
    func footerFrame(section s: Int, in layout: TableLayout) -> CGRect {
        CGRect(layout.rectForFooter(inSection: s)).offsetBy(dx: 0, dy: headerViewHeight + reorderShift(footerOf: s))
    }

    /// The delegate's header or footer view, or one showing the data source's title in the style's way.
    private func makeSupplementaryView(section s: Int, header: Bool, in layout: TableLayout) -> UIView? {
        let rect = header ? layout.rectForHeader(inSection: s) : layout.rectForFooter(inSection: s)
        guard rect.height > 0 else { return nil }
        return withoutAnimation { () -> UIView? in
            if let custom = header ? tableDelegate?.tableView(self, viewForHeaderInSection: s) : tableDelegate?.tableView(self, viewForFooterInSection: s) {
                if let headerView = custom as? UITableViewHeaderFooterView {
                    headerView.tableStyle = style
                    headerView.isFooter = !header
                }
                return custom
            }
            let title = header ? dataSource?.tableView(self, titleForHeaderInSection: s) : dataSource?.tableView(self, titleForFooterInSection: s)
            guard let title, !title.isEmpty else { return nil }
            let view = UITableViewHeaderFooterView(reuseIdentifier: nil)
            view.tableStyle = style
            view.isFooter = !header
            view.textLabel?.text = title
            return view
        }
    }

    /// The table's own views in their z-order under the views the app added: the background view; in
    /// grouped tables the headers and footers (titles on the background, which rows pass over); rows
    /// sliding under their neighbours; the other rows; in a plain table the headers and footers above
    /// every row (their bars float over the rows, as UIKit's).
    func arrangeSubviewsInZOrder() {
        var order: [UIView] = []
        if let backgroundView { order.append(backgroundView) }
        let supplementary = footerViews.sorted { $0.key < $1.key }.map(\.value) + headerViews.sorted { $0.key < $1.key }.map(\.value)
        if style != .plain { order += supplementary }
        let cells = visibleCellsByRow.sorted { $0.key < $1.key }.map(\.value) as [UIView]
        order += (leavingViews + cells).filter { behindViews.contains(ObjectIdentifier($0)) }
        order += (leavingViews + cells).filter { !behindViews.contains(ObjectIdentifier($0)) }
        if style == .plain { order += supplementary }
        if let tableHeaderView { order.append(tableHeaderView) }
        if let tableFooterView { order.append(tableFooterView) }
        var index = 0
        for view in order where view.superview === self || view.superview == nil {
            if index >= subviews.count || subviews[index] !== view { insertSubview(view, at: index) }
            index += 1
        }
        if let reorder = rowReorder, let dragged = visibleCellsByRow[reorder.source] { bringSubviewToFront(dragged) }
    }

    /// Points: how long an update animates when no animation block encloses it (UIKit does not publish
    /// the figure; 0.3 s, ease in and out, is the one commonly measured, and Smokescreen's table's).
    static let updateDuration: TimeInterval = 0.3

    // MARK: Batch updates

    /// Starts a batch: the inserts, deletes, reloads and moves until the matching ``endUpdates()``
    /// animate together. Index paths of deletes, reloads and move sources are before the batch; of
    /// inserts and move destinations after it.
    open func beginUpdates() {
        batch.begin()
    }

    /// Ends a batch and animates it. With nothing recorded it still measures the rows again and
    /// animates any change of height (UIKit's way of animating a self-sizing cell that grew).
    open func endUpdates() {
        if let ended = batch.end(completion: nil) { apply(ended.update, completion: ended.completion) }
    }

    /// Runs `updates` as one batch and animates it; `completion` gets true when the animation ran to its
    /// end (inside an outer batch, when the outer one's does).
    open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        batch.begin()
        updates?()
        if let ended = batch.end(completion: completion) { apply(ended.update, completion: ended.completion) }
    }

    open func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        record { $0.insertedRows += indexPaths.map { ($0, animation.rowAnimation) } }
    }

    open func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        record { $0.deletedRows += indexPaths.map { ($0, animation.rowAnimation) } }
    }

    open func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        record { $0.reloadedRows += indexPaths.map { ($0, animation.rowAnimation) } }
    }

    open func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        record { $0.movedRows.append((indexPath, newIndexPath)) }
    }

    open func insertSections(_ sections: IndexSet, with animation: RowAnimation) {
        record { $0.insertedSections += sections.map { ($0, animation.rowAnimation) } }
    }

    open func deleteSections(_ sections: IndexSet, with animation: RowAnimation) {
        record { $0.deletedSections += sections.map { ($0, animation.rowAnimation) } }
    }

    open func reloadSections(_ sections: IndexSet, with animation: RowAnimation) {
        record { $0.reloadedSections += sections.map { ($0, animation.rowAnimation) } }
    }

    open func moveSection(_ section: Int, toSection newSection: Int) {
        record { $0.movedSections.append((section, newSection)) }
    }

    /// Asks the data source again for the rows' cells without replacing them: its dequeue returns the
    /// cell already showing the row (iOS 15's `reconfigureRows`). Rows off screen are left for later.
    open func reconfigureRows(at indexPaths: [IndexPath]) {
        guard let dataSource else { return }
        for ip in indexPaths {
            guard let cell = visibleCellsByRow[ip] else { continue }
            reconfiguring = cell
            let returned = withoutAnimation { dataSource.tableView(self, cellForRowAt: ip) }
            reconfiguring = nil
            if returned !== cell {
                UIKitLog.warn("UITableView.reconfigureRows: the data source returned a different cell for \(ip) than the one dequeued; the new cell replaces it")
                cell.removeFromSuperview()
                enqueue(cell)
                visibleCellsByRow[ip] = returned
                returned.displayed = false
            }
        }
        layoutRows()
    }

    /// One operation: inside a batch it is recorded; alone it is its own update.
    private func record(_ body: (inout TableUpdate) -> Void) {
        if let alone = batch.record(body) { apply(alone, completion: nil) }
    }

    // MARK: Animating an update

    /// Checks `update` against the counts before and the data source's after, as UIKit does, then moves
    /// every row, header and footer from where it was to where it goes: rows that stay slide, rows that
    /// come and go animate in their style, rows measured again change height, all in one animation
    /// (0.3 s ease in and out, or the enclosing animation block's). An invalid update logs UIKit's
    /// message and reloads instead.
    func apply(_ update: TableUpdate, completion: ((Bool) -> Void)?) {
        let swiped = handOverSwipedRowForUpdate()
        guard !needsReload, let old = layout else {
            reloadData()
            completion?(true)
            return
        }
        let before = (0..<old.numberOfSections).map { old.numberOfRows(inSection: $0) }
        let after = dataSourceCounts()
        let plan: TableUpdatePlan
        do {
            plan = try TableUpdatePlan(update, before: before, after: after)
        } catch {
            UIKitLog.warn("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Invalid update: \(String(describing: error).replacingOccurrences(of: "invalid update: ", with: ""))' (the table reloads its data instead)")
            reloadData()
            completion?(false)
            return
        }

        // Carry what belongs to rows across: measured heights of rows that stay (rows on screen are
        // measured again, so a cell that changed height animates to it), selection.
        var heights: [IndexPath: CGFloat] = [:]
        for (ip, h) in measuredHeights where old.contains(ip) && !plan.rowLeaves(ip) {
            if let to = plan.rowAfter[ip.section][ip.row] { heights[to] = h }
        }
        let oldCells = visibleCellsByRow
        measuredHeights = heights
        selectedRows = selectedRows.compactMap { old.contains($0) && !plan.rowLeaves($0) ? plan.rowAfter[$0.section][$0.row] : nil }
        highlightedRow = nil
        var cells: [IndexPath: UITableViewCell] = [:]
        var leaving: [(cell: UITableViewCell, ip: IndexPath)] = []
        for (ip, cell) in oldCells {
            if old.contains(ip), !plan.rowLeaves(ip), let to = plan.rowAfter[ip.section][ip.row] { cells[to] = cell } else { leaving.append((cell, ip)) }
        }
        visibleCellsByRow = cells
        for (ip, cell) in cells where selfSizes(ip) {
            UIView.performWithoutAnimation { configure(cell, at: ip) }
            measuredHeights[ip] = sizedHeight(of: cell, at: ip, width: CGFloat(max(0, old.width - 2 * old.rowX)))
        }
        let new = makeLayout(counts: after)
        layout = new

        // Rows coming into view get cells now, placed where they start; with less content the offset
        // comes back within it, with the update.
        let width = CGFloat(new.width)
        let targetOffset = clamped(contentOffset)
        let span = bounds.union(CGRect(origin: targetOffset, size: bounds.size))
        var starts: [IndexPath: (frame: CGRect, alpha: CGFloat)] = [:]
        for ip in new.indexPathsForRows(overlapping: Double(span.minY - headerViewHeight), Double(span.maxY - headerViewHeight)) {
            if visibleCellsByRow[ip] == nil, let cell = makeCell(at: ip) {
                visibleCellsByRow[ip] = cell
                addCellView(cell)
                if selfSizes(ip) {
                    UIView.performWithoutAnimation { configure(cell, at: ip) }
                    measuredHeights[ip] = sizedHeight(of: cell, at: ip, width: CGFloat(max(0, new.width - 2 * new.rowX)))
                }
            }
        }
        let measured = makeLayout(counts: after)
        layout = measured
        let finalOffset = clamped(contentOffset)
        for (ip, cell) in visibleCellsByRow {
            let final = rowFrame(ip, in: measured)
            if plan.rowArrives(ip) {
                let (rows, style) = block(around: ip, arriving: true, plan: plan, in: measured)
                let first = rowFrame(IndexPath(row: rows.lowerBound, section: ip.section), in: measured)
                let last = rowFrame(IndexPath(row: rows.upperBound - 1, section: ip.section), in: measured)
                starts[ip] = movedFrame(style, final: final, blockTop: first.minY, blockHeight: last.maxY - first.minY,
                                        anchor: arrivalAnchor(IndexPath(row: rows.lowerBound, section: ip.section), plan: plan, old: old), width: width)
                if style == .top || style == .bottom || style == .middle { behindViews.insert(ObjectIdentifier(cell)) }
            } else if !cell.displayed, let from = plan.rowBefore[ip.section][ip.row], old.contains(from) {
                starts[ip] = (rowFrame(from, in: old), 1)
            }
        }
        UIView.performWithoutAnimation {
            for (ip, start) in starts {
                guard let cell = visibleCellsByRow[ip] else { continue }
                cell.frame = start.frame
                cell.alpha = start.alpha
            }
            for (ip, cell) in visibleCellsByRow {
                configure(cell, at: ip)
                if !cell.displayed {
                    cell.displayed = true
                    tableDelegate?.tableView(self, willDisplay: cell, forRowAt: ip)
                }
            }
        }
        for entry in leaving {
            leavingViews.append(entry.cell)
            leavingRows[ObjectIdentifier(entry.cell)] = entry.ip
        }
        let leavingStyles = leaving.map { entry -> (UITableViewCell, (frame: CGRect, alpha: CGFloat)?) in
            let (rows, style) = block(around: entry.ip, arriving: false, plan: plan, in: old)
            if style == .top || style == .bottom || style == .middle { behindViews.insert(ObjectIdentifier(entry.cell)) }
            guard style != .none, old.contains(entry.ip) else { return (entry.cell, nil) }
            let first = rowFrame(IndexPath(row: rows.lowerBound, section: entry.ip.section), in: old)
            let last = rowFrame(IndexPath(row: rows.upperBound - 1, section: entry.ip.section), in: old)
            // A row swiped open leaves at its offset (its actions beside it), not back at the edge.
            let final = rowFrame(entry.ip, in: old).offsetBy(dx: swiped?.row == entry.ip ? swiped!.offset : 0, dy: 0)
            let end = movedFrame(style, final: final, blockTop: first.minY, blockHeight: last.maxY - first.minY,
                                 anchor: leavingAnchor(IndexPath(row: rows.lowerBound, section: entry.ip.section), plan: plan, new: measured), width: width)
            return (entry.cell, end)
        }
        // Headers and footers of sections that stay move; the others fade.
        var oldHeaders = headerViews, oldFooters = footerViews
        headerViews = [:]
        footerViews = [:]
        var supplementaryLeaving: [UIView] = []
        for (s, view) in oldHeaders {
            if s < plan.sectionAfter.count, let to = plan.sectionAfter[s], !plan.reloadedSections.contains(s) { headerViews[to] = view } else { supplementaryLeaving.append(view) }
        }
        for (s, view) in oldFooters {
            if s < plan.sectionAfter.count, let to = plan.sectionAfter[s], !plan.reloadedSections.contains(s) { footerViews[to] = view } else { supplementaryLeaving.append(view) }
        }
        oldHeaders = [:]
        oldFooters = [:]
        leavingViews += supplementaryLeaving
        UIView.performWithoutAnimation {
            // `.none`: gone at once.
            for (cell, end) in leavingStyles where end == nil { cell.alpha = 0 }
        }
        updatesInFlight += 1
        placeSupplementaryViews(in: measured)
        arrangeSubviewsInZOrder()
        let generation = updateGeneration
        let changes = {
            for (ip, cell) in self.visibleCellsByRow {
                cell.frame = self.rowFrame(ip, in: measured)
                cell.alpha = 1
            }
            for (cell, end) in leavingStyles {
                if let end { cell.frame = end.frame; cell.alpha = end.alpha }
            }
            for view in supplementaryLeaving { view.alpha = 0 }
            for (s, view) in self.headerViews { view.frame = self.headerFrame(section: s, in: measured) }
            for (s, view) in self.footerViews { view.frame = CGRect(measured.rectForFooter(inSection: s)).offsetBy(dx: 0, dy: self.headerViewHeight) }
            if let footer = self.tableFooterView {
                footer.frame = CGRect(x: 0, y: self.headerViewHeight + CGFloat(measured.contentHeight), width: self.bounds.width, height: footer.frame.height)
            }
            for view in Array(self.headerViews.values) + Array(self.footerViews.values) { view.alpha = 1 }
            if finalOffset != self.contentOffset { self.contentOffset = finalOffset }
        }
        let finish: (Bool) -> Void = { finished in
            guard self.updateGeneration == generation else { completion?(finished); return }
            self.updatesInFlight = max(0, self.updatesInFlight - 1)
            if self.updatesInFlight == 0 {
                for view in self.leavingViews {
                    view.removeFromSuperview()
                    UIView.performWithoutAnimation { view.alpha = 1 }
                    if let cell = view as? UITableViewCell {
                        if cell.displayed, let ip = self.leavingRows[ObjectIdentifier(cell)] { self.tableDelegate?.tableView(self, didEndDisplaying: cell, forRowAt: ip) }
                        cell.displayed = false
                        self.enqueue(cell)
                    } else {
                        self.enqueueSupplementary(view)
                    }
                }
                self.leavingViews = []
                self.leavingRows = [:]
                self.behindViews = []
                for view in self.updateLeftovers { view.removeFromSuperview() }
                self.updateLeftovers = []
                self.layoutRows()
            }
            completion?(finished)
        }
        let nothingMoves = leaving.isEmpty && starts.isEmpty && old.contentHeight == measured.contentHeight && finalOffset == contentOffset
            && visibleCellsByRow.allSatisfy { ip, cell in cell.frame == rowFrame(ip, in: measured) }
        runUpdateAnimation(duration: Self.updateDuration, nothingMoves: nothingMoves, changes: changes, finish: finish)
    }

    /// The block of adjacent rows arriving (or leaving) with row `ip` in its section of `layout`, and
    /// the style they animate in, `.automatic` resolved as Smokescreen's table resolves it.
    private func block(around ip: IndexPath, arriving: Bool, plan: TableUpdatePlan, in layout: TableLayout)
        -> (rows: Range<Int>, style: TableViewRowAnimation) {
        guard layout.contains(ip) else { return (ip.row..<ip.row + 1, .fade) }
        let moves = { (r: Int) in
            let other = IndexPath(row: r, section: ip.section)
            return arriving ? plan.rowArrives(other) : plan.rowLeaves(other)
        }
        let count = layout.numberOfRows(inSection: ip.section)
        var lo = ip.row, hi = ip.row + 1
        while lo > 0, moves(lo - 1) { lo -= 1 }
        while hi < count, moves(hi) { hi += 1 }
        let asked = arriving ? plan.insertedRowStyle[ip] ?? plan.insertedSectionStyle[ip.section] ?? .fade
            : plan.deletedRowStyle[ip] ?? plan.deletedSectionStyle[ip.section] ?? .fade
        return (lo..<hi, asked.resolved(block: lo..<hi, count: count, grouped: style != .plain))
    }

    /// Where a row moving in `style` starts (arriving) or ends (leaving), from its frame `final` in a
    /// block of rows `block` (their frames' top and height in the same layout) and the slot's `anchor`:
    /// sliding styles move the block as one, so its rows keep their order.
    private func movedFrame(_ style: TableViewRowAnimation, final: CGRect, blockTop: CGFloat, blockHeight: CGFloat, anchor: CGFloat?,
                            width: CGFloat) -> (frame: CGRect, alpha: CGFloat) {
        let a = anchor ?? blockTop
        switch style {
        case .fade, .automatic: return (final, 0)
        case .right: return (final.offsetBy(dx: width, dy: 0), 0)
        case .left: return (final.offsetBy(dx: -width, dy: 0), 0)
        case .top: return (final.offsetBy(dx: 0, dy: a - blockHeight - blockTop), 1)
        case .bottom: return (final.offsetBy(dx: 0, dy: a + blockHeight - blockTop), 1)
        case .middle: return (final.offsetBy(dx: 0, dy: a - blockHeight / 2 - blockTop), 0)
        case .none: return (final, 1)
        }
    }

    /// Where the slot of an arriving row opens (points, the table's coordinates): the bottom, before the
    /// update, of the nearest row above it that stays; else the top of its section's rows before.
    private func arrivalAnchor(_ ip: IndexPath, plan: TableUpdatePlan, old: TableLayout) -> CGFloat? {
        var r = ip.row - 1
        while r >= 0 {
            let above = IndexPath(row: r, section: ip.section)
            if !plan.rowArrives(above), let from = plan.rowBefore[ip.section][r], old.contains(from) { return rowFrame(from, in: old).maxY }
            r -= 1
        }
        guard let s = plan.sectionBefore[ip.section], s < old.numberOfSections else { return nil }
        return headerViewHeight + CGFloat(old.sections[s].rowsTop)
    }

    /// Where the slot of a leaving row closes: the bottom, after the update, of the nearest row above
    /// it that stays; else the top of its section's rows after.
    private func leavingAnchor(_ ip: IndexPath, plan: TableUpdatePlan, new: TableLayout) -> CGFloat? {
        guard ip.section < plan.rowAfter.count else { return nil }
        var r = ip.row - 1
        while r >= 0 {
            let above = IndexPath(row: r, section: ip.section)
            if !plan.rowLeaves(above), let to = plan.rowAfter[ip.section][r], new.contains(to) { return rowFrame(to, in: new).maxY }
            r -= 1
        }
        guard let s = plan.sectionAfter[ip.section], s < new.numberOfSections else { return nil }
        return headerViewHeight + CGFloat(new.sections[s].rowsTop)
    }



    // MARK: Selection

    /// The first selected row, or nil.
    open var indexPathForSelectedRow: IndexPath? { selectedRows.sorted().first }
    /// The selected rows in order, or nil when none is.
    open var indexPathsForSelectedRows: [IndexPath]? { selectedRows.isEmpty ? nil : selectedRows.sorted() }

    /// Selects the row (nil deselects all) without telling the delegate, as UIKit's; scrolls it to
    /// `scrollPosition`. Without multiple selection, the row selected before is deselected.
    open func selectRow(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        guard let indexPath else {
            for ip in selectedRows { deselectRow(at: ip, animated: animated) }
            return
        }
        guard loadedLayout.contains(indexPath) else { return }
        if !selectsMultipleRows {
            for ip in selectedRows where ip != indexPath { deselectRow(at: ip, animated: animated) }
        }
        if !selectedRows.contains(indexPath) { selectedRows.append(indexPath) }
        visibleCellsByRow[indexPath]?.setSelected(true, animated: animated)
        if scrollPosition != .none { scrollToRow(at: indexPath, at: scrollPosition, animated: animated) }
    }

    /// Deselects the row without telling the delegate, as UIKit's; animated, the selection fades (with
    /// the enclosing animation, inside one: a transition coordinator's, for instance).
    open func deselectRow(at indexPath: IndexPath, animated: Bool) {
        selectedRows.removeAll { $0 == indexPath }
        visibleCellsByRow[indexPath]?.setSelected(false, animated: animated)
    }

    // MARK: Scrolling

    /// Scrolls so that the row is at `scrollPosition` (`.none`: the least that shows it whole), within
    /// the content.
    open func scrollToRow(at indexPath: IndexPath, at scrollPosition: ScrollPosition, animated: Bool) {
        guard loadedLayout.contains(indexPath) else {
            UIKitLog.warn("UITableView.scrollToRow: row (\(indexPath)) is not in the table (\(numberOfSections) sections); nothing scrolls")
            return
        }
        let row = rectForRow(at: indexPath)
        let visibleHeight = bounds.height - adjustedContentInset.top - adjustedContentInset.bottom
        var y = contentOffset.y
        switch scrollPosition {
        case .top: y = row.minY - adjustedContentInset.top
        case .middle: y = row.midY - adjustedContentInset.top - visibleHeight / 2
        case .bottom: y = row.maxY - adjustedContentInset.top - visibleHeight
        case .none:
            if row.minY < y + adjustedContentInset.top { y = row.minY - adjustedContentInset.top }
            else if row.maxY > y + adjustedContentInset.top + visibleHeight { y = row.maxY - adjustedContentInset.top - visibleHeight }
        }
        let minY = -adjustedContentInset.top
        let maxY = max(minY, contentSize.height + adjustedContentInset.bottom - bounds.height)
        setContentOffset(CGPoint(x: contentOffset.x, y: min(maxY, max(minY, y))), animated: animated)
    }

    /// Scrolls to the first selected row, when there is one.
    open func scrollToNearestSelectedRow(at scrollPosition: ScrollPosition, animated: Bool) {
        if let ip = indexPathForSelectedRow { scrollToRow(at: ip, at: scrollPosition, animated: animated) }
    }

    // MARK: Touches

    /// A finger down on a row highlights it (when the delegate lets it).
    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        // A tap while a row is open closes it (when the finger lifts: a pan that takes the touch swipes or
        // scrolls instead), and does nothing else.
        if rowSwipe != nil {
            touchClosedSwipedRow = true
            return
        }
        if editingState, !allowsMultipleSelectionDuringEditing, let touch = touches.first, let ip = indexPathForRow(at: touch.location(in: self)),
           let cell = visibleCellsByRow[ip], cell.isEditing, cell.tableEditingStyle != .none,
           touch.location(in: cell).x < UITableViewCell.editingIndentation + UIScreen.main.systemMargin {
            editingControlTouched = ip
            return
        }
        // Selecting several rows in editing mode, only the editable rows (those with a circle) are selected.
        guard editingState ? allowsSelectionDuringEditing || allowsMultipleSelectionDuringEditing : allowsSelection,
              let touch = touches.first, let ip = indexPathForRow(at: touch.location(in: self)), let cell = visibleCellsByRow[ip],
              !(editingState && allowsMultipleSelectionDuringEditing && cell.tableEditingStyle == .none) else {
            super.touchesBegan(touches, with: event)
            return
        }
        guard tableDelegate?.tableView(self, shouldHighlightRowAt: ip) ?? true else { return }
        highlightedRow = ip
        cell.setHighlighted(true, animated: false)
        tableDelegate?.tableView(self, didHighlightRowAt: ip)
    }

    /// The finger up on the row it came down on selects it (`willSelectRowAt` may redirect or refuse),
    /// and tells the delegate; with multiple selection a selected row is deselected instead.
    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        if touchClosedSwipedRow {
            touchClosedSwipedRow = false
            closeSwipedRow(animated: true)
            return
        }
        if let ip = editingControlTouched {
            editingControlTouched = nil
            // Only a finger lifted on the control it came down on.
            guard let touch = touches.first, let cell = visibleCellsByRow[ip], cell.bounds.contains(touch.location(in: cell)),
                  touch.location(in: cell).x < UITableViewCell.editingIndentation + UIScreen.main.systemMargin else { return }
            switch cell.tableEditingStyle {
            case .insert: dataSource?.tableView(self, commit: .insert, forRowAt: ip)
            case .delete: showDeleteConfirmation(for: ip)
            default: break
            }
            return
        }
        guard let ip = highlightedRow else {
            super.touchesEnded(touches, with: event)
            return
        }
        unhighlight()
        guard let touch = touches.first, indexPathForRow(at: touch.location(in: self)) == ip else { return }
        if selectsMultipleRows, selectedRows.contains(ip) {
            guard let target = tableDelegate.map({ $0.tableView(self, willDeselectRowAt: ip) }) ?? ip else { return }
            deselectRow(at: target, animated: false)
            tableDelegate?.tableView(self, didDeselectRowAt: target)
            return
        }
        guard let target = tableDelegate.map({ $0.tableView(self, willSelectRowAt: ip) }) ?? ip, loadedLayout.contains(target) else { return }
        if !selectsMultipleRows {
            for other in selectedRows where other != target {
                guard let deselect = tableDelegate.map({ $0.tableView(self, willDeselectRowAt: other) }) ?? other else { continue }
                deselectRow(at: deselect, animated: false)
                tableDelegate?.tableView(self, didDeselectRowAt: deselect)
            }
        }
        selectRow(at: target, animated: false, scrollPosition: .none)
        tableDelegate?.tableView(self, didSelectRowAt: target)
    }

    /// A scroll or another gesture took the touch: the row is no longer highlighted.
    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        editingControlTouched = nil
        touchClosedSwipedRow = false
        guard highlightedRow != nil else {
            super.touchesCancelled(touches, with: event)
            return
        }
        unhighlight()
    }

    private func unhighlight() {
        guard let ip = highlightedRow else { return }
        highlightedRow = nil
        visibleCellsByRow[ip]?.setHighlighted(false, animated: false)
        tableDelegate?.tableView(self, didUnhighlightRowAt: ip)
    }
}


extension UITableView.RowAnimation {
    /// Smokescreen's table's name for the same animation.
    var rowAnimation: TableViewRowAnimation {
        switch self {
        case .fade: .fade
        case .right: .right
        case .left: .left
        case .top: .top
        case .bottom: .bottom
        case .none: .none
        case .middle: .middle
        case .automatic: .automatic
        }
    }
}


/// `body`'s result, its changes made without animation even inside an animation block.
func withoutAnimation<T>(_ body: () -> T) -> T {
    var result: T?
    UIView.performWithoutAnimation { result = body() }
    return result!
}
