internal import Containers
internal import Motion

/// UIKit's collection view: a scroll view whose items a layout places (`UICollectionViewFlowLayout`, or
/// an app's own `UICollectionViewLayout`). A data source says how many items there are and makes their
/// cells; the delegate hears of highlighting, selection and display. Only the elements the layout puts
/// in view (and those an update animates) have views; cells and supplementary views are reused by
/// identifier.
///
/// Batch updates are checked as UIKit checks them (Smokescreen's table's `TableUpdatePlan`, items for
/// rows) and animate in one block: items that stay move to their new attributes, arriving items start
/// at the layout's `initialLayoutAttributesForAppearingItem(at:)` and leaving ones end at its
/// `finalLayoutAttributesForDisappearingItem(at:)`, over 0.3 s ease in and out or the enclosing
/// animation's duration.
///
/// What differs from UIKit: an invalid batch update logs UIKit's exception text and reloads; self-sizing
/// cells (`estimatedItemSize`), the compositional and list layouts, diffable data sources, drag and drop
/// and interactive movement are not there yet.
open class UICollectionView: UIScrollView {
    /// The kinds of a flow layout's supplementary views.
    public static let elementKindSectionHeader = "UICollectionElementKindSectionHeader"
    public static let elementKindSectionFooter = "UICollectionElementKindSectionFooter"

    /// Which way a flow layout's content scrolls, with UIKit's raw values.
    public enum ScrollDirection: Int, Sendable { case vertical = 0, horizontal }

    /// Where an item ends up when the view scrolls to it, with UIKit's raw values.
    public struct ScrollPosition: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let top = ScrollPosition(rawValue: 1 << 0)
        public static let centeredVertically = ScrollPosition(rawValue: 1 << 1)
        public static let bottom = ScrollPosition(rawValue: 1 << 2)
        public static let left = ScrollPosition(rawValue: 1 << 3)
        public static let centeredHorizontally = ScrollPosition(rawValue: 1 << 4)
        public static let right = ScrollPosition(rawValue: 1 << 5)
    }

    /// What places the items; setting it lays them out again at once.
    open var collectionViewLayout: UICollectionViewLayout {
        didSet {
            oldValue.collectionView = nil
            collectionViewLayout.collectionView = self
            layoutDidInvalidate()
        }
    }
    /// Supplies items and cells. Not retained.
    open weak var dataSource: UICollectionViewDataSource? { didSet { needsReload = true; setNeedsLayout() } }
    var collectionDelegate: UICollectionViewDelegate? { delegate as? UICollectionViewDelegate }
    /// Behind every item, filling the visible bounds.
    open var backgroundView: UIView? { didSet { oldValue?.removeFromSuperview(); setNeedsLayout() } }
    /// Whether a tap selects an item. Default true.
    open var allowsSelection = true
    /// Whether several items can be selected (a tap on a selected one deselects it). Default false.
    open var allowsMultipleSelection = false
    open var isPrefetchingEnabled = true
    open var dragInteractionEnabled = false
    open var remembersLastFocusedIndexPath = false
    open var selectionFollowsFocus = false

    var counts: [Int] = []
    var needsReload = true
    var layoutIsValid = false
    var cells: [IndexPath: UICollectionViewCell] = [:]
    var supplementaries: [SupplementaryKey: UICollectionReusableView] = [:]
    var leavingViews: [UIView] = []
    var updatesInFlight = 0
    var updateGeneration = 0
    /// The batch being recorded, if any.
    var batch = UpdateBatch()
    var selected: [IndexPath] = []
    var highlighted: IndexPath?
    /// The layout's attributes before the update being set up (for `finalLayoutAttributesForDisappearingItem`).
    private var attributesBefore: [IndexPath: UICollectionViewLayoutAttributes] = [:]
    private var cellPool: [String: [UICollectionViewCell]] = [:]
    private var supplementaryPool: [String: [UICollectionReusableView]] = [:]
    private var cellClasses: [String: UICollectionViewCell.Type] = [:]
    private var supplementaryClasses: [String: UICollectionReusableView.Type] = [:]
    private var isLayingOutItems = false
    /// What the picture shows (content coordinates) while an animated scroll runs: its elements have
    /// views besides those in the bounds.
    private var keptRect: CGRect?

    struct SupplementaryKey: Hashable {
        var kind: String
        var indexPath: IndexPath
    }

    /// The most items and sections a collection view shows: a data source reporting more is cut (logged).
    public static let maximumNumberOfItems = 1_000_000
    public static let maximumNumberOfSections = 100_000

    /// A collection view laid out by `layout`, with `frame` in its superview's coordinates (points).
    public init(frame: CGRect, collectionViewLayout layout: UICollectionViewLayout) {
        collectionViewLayout = layout
        super.init(frame: frame)
        layout.collectionView = self
        backgroundColor = .systemBackground
    }

    public required init?(coder: NSCoder) { nil }

    // MARK: Registering and dequeuing

    open func register(_ cellClass: AnyClass?, forCellWithReuseIdentifier identifier: String) {
        cellClasses[identifier] = cellClass as? UICollectionViewCell.Type
    }

    open func register(_ viewClass: AnyClass?, forSupplementaryViewOfKind elementKind: String, withReuseIdentifier identifier: String) {
        supplementaryClasses[elementKind + "\u{1F}" + identifier] = viewClass as? UICollectionReusableView.Type
    }

    /// A cell waiting for reuse with `identifier`, or a new one of the registered class (a plain cell when
    /// none is registered, logged: UIKit raises there).
    open func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath) -> UICollectionViewCell {
        if var pool = cellPool[identifier], let cell = pool.popLast() {
            cellPool[identifier] = pool
            cell.prepareForReuse()
            return cell
        }
        let type = cellClasses[identifier] ?? {
            UIKitLog.warn("could not dequeue a view of kind: UICollectionElementKindCell with identifier \(identifier) - must register a nib or a class for the identifier or connect a prototype cell in a storyboard (a plain cell is used)")
            return UICollectionViewCell.self
        }()
        let cell = withoutAnimation { type.init(frame: .zero) }
        cell.reuseIdentifier = identifier
        return cell
    }

    open func dequeueReusableSupplementaryView(ofKind elementKind: String, withReuseIdentifier identifier: String,
                                               for indexPath: IndexPath) -> UICollectionReusableView {
        let key = elementKind + "\u{1F}" + identifier
        if var pool = supplementaryPool[key], let view = pool.popLast() {
            supplementaryPool[key] = pool
            view.prepareForReuse()
            return view
        }
        let type = supplementaryClasses[key] ?? {
            UIKitLog.warn("could not dequeue a view of kind: \(elementKind) with identifier \(identifier) - must register a nib or a class for the identifier or connect a prototype cell in a storyboard (a plain view is used)")
            return UICollectionReusableView.self
        }()
        let view = withoutAnimation { type.init(frame: .zero) }
        view.reuseIdentifier = identifier
        return view
    }

    private func enqueue(_ cell: UICollectionViewCell) {
        guard let id = cell.reuseIdentifier else { return }
        cellPool[id, default: []].append(cell)
    }

    private func enqueue(_ view: UICollectionReusableView, kind: String) {
        guard let id = view.reuseIdentifier else { return }
        supplementaryPool[kind + "\u{1F}" + id, default: []].append(view)
    }

    // MARK: Counts and geometry

    open var numberOfSections: Int {
        loadIfNeeded()
        return counts.count
    }

    open func numberOfItems(inSection section: Int) -> Int {
        loadIfNeeded()
        return counts.indices.contains(section) ? counts[section] : 0
    }

    /// The counts, from the data source when they have not been read since a reload.
    private func loadIfNeeded() {
        if needsReload {
            needsReload = false
            counts = dataSourceCounts()
            layoutIsValid = false
        }
    }

    func dataSourceCounts() -> [Int] {
        guard let dataSource else { return [] }
        var sections = dataSource.numberOfSections(in: self)
        if sections < 0 || sections > Self.maximumNumberOfSections {
            UIKitLog.warn("UICollectionView: the data source reports \(sections) sections; a collection view shows 0…\(Self.maximumNumberOfSections)")
            sections = max(0, min(sections, Self.maximumNumberOfSections))
        }
        var total = 0
        return (0..<sections).map { s in
            var items = dataSource.collectionView(self, numberOfItemsInSection: s)
            if items < 0 || total + items > Self.maximumNumberOfItems {
                let kept = max(0, min(items, Self.maximumNumberOfItems - total))
                UIKitLog.warn("UICollectionView: the data source reports \(items) items in section \(s); a collection view shows \(Self.maximumNumberOfItems) in all, so it shows \(kept)")
                items = kept
            }
            total += items
            return items
        }
    }

    /// Called by the layout's `invalidateLayout()`.
    func layoutDidInvalidate() {
        layoutIsValid = false
        setNeedsLayout()
    }

    /// Runs the layout's `prepare()` when it was invalidated, and takes its content size.
    private func prepareLayoutIfNeeded() {
        loadIfNeeded()
        guard !layoutIsValid else { return }
        layoutIsValid = true
        collectionViewLayout.prepare()
        let size = collectionViewLayout.collectionViewContentSize
        if contentSize != size { contentSize = size }
    }

    open func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        prepareLayoutIfNeeded()
        return collectionViewLayout.layoutAttributesForItem(at: indexPath)
    }

    open func layoutAttributesForSupplementaryElement(ofKind kind: String, at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        prepareLayoutIfNeeded()
        return collectionViewLayout.layoutAttributesForSupplementaryView(ofKind: kind, at: indexPath)
    }

    /// The layout's attributes of an item before the update being set up (or now, outside one).
    func attributesBeforeUpdate(ofItemAt indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        attributesBefore[indexPath] ?? collectionViewLayout.layoutAttributesForItem(at: indexPath)
    }

    /// The item under `point` (content coordinates), or nil.
    open func indexPathForItem(at point: CGPoint) -> IndexPath? {
        prepareLayoutIfNeeded()
        let probe = CGRect(x: point.x, y: point.y, width: 0.001, height: 0.001)
        return collectionViewLayout.layoutAttributesForElements(in: probe)?
            .filter { $0.representedElementCategory == .cell && !$0.isHidden && $0.frame.contains(point) }
            .max { $0.zIndex < $1.zIndex }?.indexPath
    }

    open func cellForItem(at indexPath: IndexPath) -> UICollectionViewCell? {
        layoutIfNeeded()
        return cells[indexPath]
    }

    open func indexPath(for cell: UICollectionViewCell) -> IndexPath? {
        cells.first { $0.value === cell }?.key
    }

    open var visibleCells: [UICollectionViewCell] {
        layoutIfNeeded()
        return cells.sorted { $0.key < $1.key }.map(\.value)
    }

    open var indexPathsForVisibleItems: [IndexPath] {
        layoutIfNeeded()
        return cells.keys.sorted()
    }

    open func supplementaryView(forElementKind elementKind: String, at indexPath: IndexPath) -> UICollectionReusableView? {
        layoutIfNeeded()
        return supplementaries[SupplementaryKey(kind: elementKind, indexPath: indexPath)]
    }

    open func visibleSupplementaryViews(ofKind elementKind: String) -> [UICollectionReusableView] {
        layoutIfNeeded()
        return supplementaries.filter { $0.key.kind == elementKind }.sorted { $0.key.indexPath < $1.key.indexPath }.map(\.value)
    }

    open func indexPathsForVisibleSupplementaryElements(ofKind elementKind: String) -> [IndexPath] {
        layoutIfNeeded()
        return supplementaries.keys.filter { $0.kind == elementKind }.map(\.indexPath).sorted()
    }

    // MARK: Loading and laying out

    /// Asks the data source again for everything and shows it at once; updates still animating end where
    /// they are; selection is cleared.
    open func reloadData() {
        stopFollowingOffsetAnimation()
        keptRect = nil
        if updatesInFlight > 0 {
            updateGeneration += 1
            updatesInFlight = 0
        }
        for (ip, cell) in cells {
            cell.removeFromSuperview()
            collectionDelegate?.collectionView(self, didEndDisplaying: cell, forItemAt: ip)
            enqueue(cell)
        }
        for (key, view) in supplementaries {
            view.removeFromSuperview()
            enqueue(view, kind: key.kind)
        }
        for view in leavingViews { view.removeFromSuperview() }
        cells = [:]
        supplementaries = [:]
        leavingViews = []
        selected = []
        highlighted = nil
        needsReload = true
        layoutIsValid = false
        setNeedsLayout()
    }

    open override var contentOffset: CGPoint {
        get { super.contentOffset }
        set {
            let old = super.contentOffset
            super.contentOffset = newValue
            guard super.contentOffset != old else { return }
            // Inside an animation the model offset jumps to the end while the picture scrolls: at each
            // frame the items the picture shows get cells.
            followOffsetAnimation { [weak self] shown in
                guard let self else { return }
                self.keptRect = shown
                self.layoutItems()
            }
            if collectionViewLayout.shouldInvalidateLayout(forBoundsChange: bounds) { layoutIsValid = false }
            layoutItems()
        }
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        layoutItems()
    }

    /// The attributes of every element in the bounds, and in what the picture shows during an animated
    /// scroll, each once.
    private func shownAttributes() -> [UICollectionViewLayoutAttributes] {
        var result = collectionViewLayout.layoutAttributesForElements(in: bounds) ?? []
        guard let kept = keptRect, kept != bounds else { return result }
        var seen = Set(result.map { Key(category: $0.representedElementCategory.rawValue, kind: $0.representedElementKind, indexPath: $0.indexPath) })
        for a in collectionViewLayout.layoutAttributesForElements(in: kept) ?? []
        where seen.insert(Key(category: a.representedElementCategory.rawValue, kind: a.representedElementKind, indexPath: a.indexPath)).inserted {
            result.append(a)
        }
        return result
    }

    private struct Key: Hashable {
        var category: UInt
        var kind: String?
        var indexPath: IndexPath
    }

    /// Every element the layout puts in view gets its view with its attributes; the others go back to the
    /// reuse queues when no update is animating.
    func layoutItems() {
        guard !isLayingOutItems else { return }
        isLayingOutItems = true
        defer { isLayingOutItems = false }
        if collectionViewLayout.collectionView !== self { collectionViewLayout.collectionView = self }
        if let last = lastLaidOutSize, last != bounds.size, collectionViewLayout.shouldInvalidateLayout(forBoundsChange: bounds) {
            layoutIsValid = false
        }
        lastLaidOutSize = bounds.size
        prepareLayoutIfNeeded()
        UIView.performWithoutAnimation {
            if let backgroundView {
                backgroundView.frame = bounds
                if backgroundView.superview !== self { insertSubview(backgroundView, at: 0) }
            }
            let attributes = shownAttributes()
            // What leaves the view goes back to the queues first, so what comes in can reuse it.
            let wantedCells = Set(attributes.filter { $0.representedElementCategory == .cell }.map(\.indexPath))
            let wantedSupplementary = Set(attributes.compactMap { a in
                a.representedElementCategory == .supplementaryView ? a.representedElementKind.map { SupplementaryKey(kind: $0, indexPath: a.indexPath) } : nil
            })
            if updatesInFlight == 0 {
                for (ip, cell) in cells where !wantedCells.contains(ip) {
                    cell.removeFromSuperview()
                    collectionDelegate?.collectionView(self, didEndDisplaying: cell, forItemAt: ip)
                    cells[ip] = nil
                    enqueue(cell)
                }
                for (key, view) in supplementaries where !wantedSupplementary.contains(key) {
                    view.removeFromSuperview()
                    collectionDelegate?.collectionView(self, didEndDisplayingSupplementaryView: view, forElementOfKind: key.kind, at: key.indexPath)
                    supplementaries[key] = nil
                    enqueue(view, kind: key.kind)
                }
            }
            for a in attributes {
                switch a.representedElementCategory {
                case .cell:
                    guard isValid(a.indexPath) else { continue }
                    let cell: UICollectionViewCell
                    if let shown = cells[a.indexPath] { cell = shown } else {
                        guard let dataSource else { continue }
                        cell = withoutAnimation { dataSource.collectionView(self, cellForItemAt: a.indexPath) }
                        cell.displayed = false
                        cells[a.indexPath] = cell
                    }
                    if cell.superview !== self { addSubview(cell) }
                    if updatesInFlight == 0 || !cell.displayed { apply(a, to: cell) }
                    let isSelected = selected.contains(a.indexPath)
                    if cell.isSelected != isSelected { cell.isSelected = isSelected }
                    if !cell.displayed {
                        cell.displayed = true
                        collectionDelegate?.collectionView(self, willDisplay: cell, forItemAt: a.indexPath)
                    }
                case .supplementaryView:
                    guard let kind = a.representedElementKind else { continue }
                    let key = SupplementaryKey(kind: kind, indexPath: a.indexPath)
                    let view: UICollectionReusableView
                    if let shown = supplementaries[key] { view = shown } else {
                        guard let dataSource else { continue }
                        view = withoutAnimation { dataSource.collectionView(self, viewForSupplementaryElementOfKind: kind, at: a.indexPath) }
                        supplementaries[key] = view
                        view.displayed = false
                    }
                    if view.superview !== self { addSubview(view) }
                    if updatesInFlight == 0 || !view.displayed { apply(a, to: view) }
                    if !view.displayed {
                        view.displayed = true
                        collectionDelegate?.collectionView(self, willDisplaySupplementaryView: view, forElementKind: kind, at: a.indexPath)
                    }
                case .decorationView:
                    continue
                }
            }
        }
    }

    private var lastLaidOutSize: CGSize?

    private func isValid(_ ip: IndexPath) -> Bool {
        ip.count == 2 && counts.indices.contains(ip.section) && (0..<counts[ip.section]).contains(ip.item)
    }

    /// Gives a view its layout attributes, as UIKit does: centre, bounds' size, transform, alpha, z
    /// position, hidden; then its `apply(_:)`.
    func apply(_ attributes: UICollectionViewLayoutAttributes, to view: UICollectionReusableView) {
        if view.bounds.size != attributes.size { view.bounds = CGRect(origin: view.bounds.origin, size: attributes.size) }
        if view.center != attributes.center { view.center = attributes.center }
        if !CATransform3DIsIdentity(attributes.transform3D) { view.layer.transform = attributes.transform3D } else if view.transform != attributes.transform { view.transform = attributes.transform }
        if view.alpha != attributes.alpha { view.alpha = attributes.alpha }
        if view.layer.zPosition != CGFloat(attributes.zIndex) { view.layer.zPosition = CGFloat(attributes.zIndex) }
        if view.isHidden != attributes.isHidden { view.isHidden = attributes.isHidden }
        view.apply(attributes)
    }

    // MARK: Batch updates

    /// Runs `updates` as one batch and animates it; `completion` gets true when the animation ran to its
    /// end (inside an outer batch, when the outer one's does).
    open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        batch.begin()
        updates?()
        if let ended = batch.end(completion: completion) { apply(ended.update, completion: ended.completion) }
    }

    open func insertItems(at indexPaths: [IndexPath]) { record { $0.insertedRows += indexPaths.map { ($0, .fade) } } }
    open func deleteItems(at indexPaths: [IndexPath]) { record { $0.deletedRows += indexPaths.map { ($0, .fade) } } }
    open func reloadItems(at indexPaths: [IndexPath]) { record { $0.reloadedRows += indexPaths.map { ($0, .fade) } } }
    open func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) { record { $0.movedRows.append((indexPath, newIndexPath)) } }
    open func insertSections(_ sections: IndexSet) { record { $0.insertedSections += sections.map { ($0, .fade) } } }
    open func deleteSections(_ sections: IndexSet) { record { $0.deletedSections += sections.map { ($0, .fade) } } }
    open func reloadSections(_ sections: IndexSet) { record { $0.reloadedSections += sections.map { ($0, .fade) } } }
    open func moveSection(_ section: Int, toSection newSection: Int) { record { $0.movedSections.append((section, newSection)) } }

    /// Asks the data source again for the items' cells; its dequeue returns the cells already shown.
    open func reconfigureItems(at indexPaths: [IndexPath]) {
        guard let dataSource else { return }
        for ip in indexPaths {
            guard let cell = cells[ip], let id = cell.reuseIdentifier else { continue }
            cellPool[id, default: []].append(cell)
            let returned = withoutAnimation { dataSource.collectionView(self, cellForItemAt: ip) }
            if returned !== cell {
                cellPool[id]?.removeAll { $0 === cell }
                cell.removeFromSuperview()
                enqueue(cell)
                cells[ip] = returned
                returned.displayed = false
            }
        }
        layoutItems()
    }

    /// One operation: inside a batch it is recorded; alone it is its own update.
    private func record(_ body: (inout TableUpdate) -> Void) {
        if let alone = batch.record(body) { apply(alone, completion: nil) }
    }

    /// Points: how long an update animates outside an animation block (not published; 0.3 s).
    static let updateDuration: TimeInterval = 0.3

    private func apply(_ update: TableUpdate, completion: ((Bool) -> Void)?) {
        guard !needsReload, layoutIsValid || !counts.isEmpty else {
            reloadData()
            layoutIfNeeded()
            completion?(true)
            return
        }
        let before = counts
        let after = dataSourceCounts()
        let plan: TableUpdatePlan
        do {
            plan = try TableUpdatePlan(update, before: before, after: after)
        } catch {
            let text = String(describing: error).replacingOccurrences(of: "invalid update: ", with: "")
                .replacingOccurrences(of: "rows", with: "items").replacingOccurrences(of: "table view", with: "collection view")
            UIKitLog.warn("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Invalid update: \(text)' (the collection view reloads its data instead)")
            reloadData()
            layoutIfNeeded()
            completion?(false)
            return
        }
        prepareLayoutIfNeeded()
        // The attributes before, of what is in view now or will be.
        let oldRect = bounds
        attributesBefore = [:]
        for a in collectionViewLayout.layoutAttributesForElements(in: oldRect.insetBy(dx: -oldRect.width, dy: -oldRect.height)) ?? []
        where a.representedElementCategory == .cell {
            attributesBefore[a.indexPath] = a.duplicate()
        }
        for (ip, _) in cells where attributesBefore[ip] == nil {
            if let a = collectionViewLayout.layoutAttributesForItem(at: ip) { attributesBefore[ip] = a.duplicate() }
        }
        let oldSupplementary = supplementaries
        var updateItems: [UICollectionViewUpdateItem] = []
        for (ip, _) in update.deletedRows { updateItems.append(UICollectionViewUpdateItem(before: ip, after: nil, action: .delete)) }
        for (ip, _) in update.insertedRows { updateItems.append(UICollectionViewUpdateItem(before: nil, after: ip, action: .insert)) }
        for (ip, _) in update.reloadedRows { updateItems.append(UICollectionViewUpdateItem(before: ip, after: ip, action: .reload)) }
        for move in update.movedRows { updateItems.append(UICollectionViewUpdateItem(before: move.from, after: move.to, action: .move)) }

        // The layout after.
        counts = after
        selected = selected.compactMap { !plan.rowLeaves($0) ? plan.rowAfter[$0.section][$0.item] : nil }
        highlighted = nil
        layoutIsValid = false
        prepareLayoutIfNeeded()
        collectionViewLayout.prepare(forCollectionViewUpdates: updateItems)

        var moving: [IndexPath: UICollectionViewCell] = [:]
        var leaving: [(UICollectionViewCell, UICollectionViewLayoutAttributes?, IndexPath)] = []
        for (ip, cell) in cells {
            if before.indices.contains(ip.section), ip.item < before[ip.section], !plan.rowLeaves(ip), let to = plan.rowAfter[ip.section][ip.item] {
                moving[to] = cell
            } else {
                leaving.append((cell, collectionViewLayout.finalLayoutAttributesForDisappearingItem(at: ip), ip))
            }
        }
        cells = moving
        supplementaries = [:]
        var leavingSupplementary: [UICollectionReusableView] = []
        for (key, view) in oldSupplementary {
            if plan.sectionAfter.indices.contains(key.indexPath.section), let s = plan.sectionAfter[key.indexPath.section], !plan.reloadedSections.contains(key.indexPath.section) {
                supplementaries[SupplementaryKey(kind: key.kind, indexPath: IndexPath(item: key.indexPath.item, section: s))] = view
            } else {
                leavingSupplementary.append(view)
            }
        }
        // Items coming into view start where the layout says they appear, or where they were.
        var starts: [IndexPath: UICollectionViewLayoutAttributes] = [:]
        let finals = collectionViewLayout.layoutAttributesForElements(in: bounds) ?? []
        for a in finals where a.representedElementCategory == .cell && isValid(a.indexPath) && cells[a.indexPath] == nil {
            guard let dataSource else { break }
            let cell = withoutAnimation { dataSource.collectionView(self, cellForItemAt: a.indexPath) }
            cell.displayed = false
            cells[a.indexPath] = cell
            if plan.rowArrives(a.indexPath) {
                starts[a.indexPath] = collectionViewLayout.initialLayoutAttributesForAppearingItem(at: a.indexPath) ?? a
            } else if let from = plan.rowBefore[a.indexPath.section][a.indexPath.item], let old = attributesBefore[from] {
                starts[a.indexPath] = old
            }
        }
        collectionViewLayout.finalizeCollectionViewUpdates()
        attributesBefore = [:]
        UIView.performWithoutAnimation {
            for (ip, cell) in cells {
                if cell.superview !== self { addSubview(cell) }
                if let start = starts[ip] { apply(start, to: cell) } else if !cell.displayed, let a = collectionViewLayout.layoutAttributesForItem(at: ip) { apply(a, to: cell) }
                cell.isSelected = selected.contains(ip)
                if !cell.displayed {
                    cell.displayed = true
                    collectionDelegate?.collectionView(self, willDisplay: cell, forItemAt: ip)
                }
            }
            for (cell, end, _) in leaving where end == nil { cell.alpha = 0 }
        }
        leavingViews += leaving.map(\.0) as [UIView] + leavingSupplementary as [UIView]
        updatesInFlight += 1
        let generation = updateGeneration
        let changes = {
            for (ip, cell) in self.cells {
                if let a = self.collectionViewLayout.layoutAttributesForItem(at: ip) { self.apply(a, to: cell) }
            }
            for (cell, end, _) in leaving { if let end { self.apply(end, to: cell) } }
            for (key, view) in self.supplementaries {
                if let a = self.collectionViewLayout.layoutAttributesForSupplementaryView(ofKind: key.kind, at: key.indexPath) { self.apply(a, to: view) }
            }
            for view in leavingSupplementary { view.alpha = 0 }
        }
        let finish: (Bool) -> Void = { finished in
            guard self.updateGeneration == generation else { completion?(finished); return }
            self.updatesInFlight = max(0, self.updatesInFlight - 1)
            if self.updatesInFlight == 0 {
                for view in self.leavingViews {
                    view.removeFromSuperview()
                    UIView.performWithoutAnimation { view.alpha = 1 }
                    if let cell = view as? UICollectionViewCell {
                        if let ip = leaving.first(where: { $0.0 === cell })?.2 { self.collectionDelegate?.collectionView(self, didEndDisplaying: cell, forItemAt: ip) }
                        self.enqueue(cell)
                    } else if let reusable = view as? UICollectionReusableView, let kind = oldSupplementary.first(where: { $0.value === reusable })?.key.kind {
                        self.enqueue(reusable, kind: kind)
                    }
                }
                self.leavingViews = []
                self.layoutItems()
            }
            completion?(finished)
        }
        runUpdateAnimation(duration: Self.updateDuration, nothingMoves: false, changes: changes, finish: finish)
    }

    /// The layout decides where a flick stops (`targetContentOffset(forProposedContentOffset:withScrollingVelocity:)`).
    override func targetContentOffset(proposed: CGPoint, velocity: CGPoint) -> CGPoint {
        collectionViewLayout.targetContentOffset(forProposedContentOffset: proposed, withScrollingVelocity: velocity)
    }

    // MARK: Selection

    open var indexPathsForSelectedItems: [IndexPath]? { selected.sorted() }

    /// Selects the item (nil deselects all) without telling the delegate, as UIKit's.
    open func selectItem(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        guard let indexPath else {
            for ip in selected { deselectItem(at: ip, animated: animated) }
            return
        }
        loadIfNeeded()
        guard isValid(indexPath) else { return }
        if !allowsMultipleSelection { for ip in selected where ip != indexPath { deselectItem(at: ip, animated: animated) } }
        if !selected.contains(indexPath) { selected.append(indexPath) }
        cells[indexPath]?.isSelected = true
        if !scrollPosition.isEmpty { scrollToItem(at: indexPath, at: scrollPosition, animated: animated) }
    }

    /// Deselects the item without telling the delegate, as UIKit's.
    open func deselectItem(at indexPath: IndexPath, animated: Bool) {
        selected.removeAll { $0 == indexPath }
        cells[indexPath]?.isSelected = false
    }

    /// Scrolls so that the item is at `scrollPosition` (empty: the least that shows it), within the content.
    open func scrollToItem(at indexPath: IndexPath, at scrollPosition: ScrollPosition, animated: Bool) {
        guard let frame = layoutAttributesForItem(at: indexPath)?.frame else {
            UIKitLog.warn("UICollectionView.scrollToItem: item (\(indexPath)) is not in the collection view; nothing scrolls")
            return
        }
        let inset = adjustedContentInset
        let width = bounds.width - inset.left - inset.right, height = bounds.height - inset.top - inset.bottom
        var offset = contentOffset
        if scrollPosition.contains(.top) { offset.y = frame.minY - inset.top }
        else if scrollPosition.contains(.centeredVertically) { offset.y = frame.midY - inset.top - height / 2 }
        else if scrollPosition.contains(.bottom) { offset.y = frame.maxY - inset.top - height }
        if scrollPosition.contains(.left) { offset.x = frame.minX - inset.left }
        else if scrollPosition.contains(.centeredHorizontally) { offset.x = frame.midX - inset.left - width / 2 }
        else if scrollPosition.contains(.right) { offset.x = frame.maxX - inset.left - width }
        if scrollPosition.isEmpty {
            if frame.minY < offset.y + inset.top { offset.y = frame.minY - inset.top } else if frame.maxY > offset.y + inset.top + height { offset.y = frame.maxY - inset.top - height }
            if frame.minX < offset.x + inset.left { offset.x = frame.minX - inset.left } else if frame.maxX > offset.x + inset.left + width { offset.x = frame.maxX - inset.left - width }
        }
        let maxX = max(-inset.left, contentSize.width + inset.right - bounds.width)
        let maxY = max(-inset.top, contentSize.height + inset.bottom - bounds.height)
        offset = CGPoint(x: min(maxX, max(-inset.left, offset.x)), y: min(maxY, max(-inset.top, offset.y)))
        setContentOffset(offset, animated: animated)
    }

    // MARK: Touches

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard allowsSelection, let touch = touches.first, let ip = indexPathForItem(at: touch.location(in: self)), let cell = cells[ip] else {
            super.touchesBegan(touches, with: event)
            return
        }
        guard collectionDelegate?.collectionView(self, shouldHighlightItemAt: ip) ?? true else { return }
        highlighted = ip
        cell.isHighlighted = true
        collectionDelegate?.collectionView(self, didHighlightItemAt: ip)
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let ip = highlighted else {
            super.touchesEnded(touches, with: event)
            return
        }
        unhighlight()
        guard let touch = touches.first, indexPathForItem(at: touch.location(in: self)) == ip else { return }
        if allowsMultipleSelection, selected.contains(ip) {
            guard collectionDelegate?.collectionView(self, shouldDeselectItemAt: ip) ?? true else { return }
            deselectItem(at: ip, animated: false)
            collectionDelegate?.collectionView(self, didDeselectItemAt: ip)
            return
        }
        guard collectionDelegate?.collectionView(self, shouldSelectItemAt: ip) ?? true else { return }
        if !allowsMultipleSelection {
            for other in selected where other != ip {
                deselectItem(at: other, animated: false)
                collectionDelegate?.collectionView(self, didDeselectItemAt: other)
            }
        }
        selectItem(at: ip, animated: false, scrollPosition: [])
        collectionDelegate?.collectionView(self, didSelectItemAt: ip)
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard highlighted != nil else {
            super.touchesCancelled(touches, with: event)
            return
        }
        unhighlight()
    }

    private func unhighlight() {
        guard let ip = highlighted else { return }
        highlighted = nil
        cells[ip]?.isHighlighted = false
        collectionDelegate?.collectionView(self, didUnhighlightItemAt: ip)
    }
}
