import Foundation
import Motion
import RasterCore
import SnapshotView

extension TableView {
    // MARK: Recording updates

    /// Starts a group of updates applied together at the matching ``endUpdates()``, as `beginUpdates()`.
    /// Groups nest; only the outermost applies.
    public func beginUpdates() {
        if updateNesting == 0 { pendingUpdate = TableUpdate() }
        updateNesting += 1
    }

    /// Ends a group started by ``beginUpdates()``; the outermost checks the update against the data
    /// source and animates it (see ``performBatchUpdates(_:completion:)``). Without a matching
    /// `beginUpdates()` it does nothing.
    public func endUpdates() throws {
        guard updateNesting > 0 else { return }
        updateNesting -= 1
        guard updateNesting == 0 else { return }
        let update = pendingUpdate ?? TableUpdate()
        pendingUpdate = nil
        try apply(update, completion: nil)
    }

    /// Applies the inserts, deletes, reloads and moves that `updates` records as one animated update, as
    /// `performBatchUpdates(_:completion:)`. Update the data source's model inside `updates` (or before).
    ///
    /// Deletes, reloads and move sources are index paths before the update; inserts and move
    /// destinations are index paths after it. The data source's counts after the update must equal the
    /// counts before plus inserts minus deletes, plus or minus moves; otherwise (or for an index path
    /// out of range, or two operations that conflict) this throws a ``TableViewError`` and the table is
    /// left as it was. An update that inserts and deletes nothing still moves every row to its new
    /// frame: heights the delegate now reports differently animate.
    ///
    /// Every row moves on one animation: ``updateAnimationDuration`` seconds, ease-in-ease-out, or the
    /// enclosing animation block's duration and curve when called inside one.
    ///
    /// - Parameters:
    ///   - updates: records the operations (nil: none, an update that only re-reads counts and heights).
    ///   - completion: called with `finished` when the animation ends (true unless its animations were
    ///     removed); not called when this throws.
    public func performBatchUpdates(_ updates: (() throws -> Void)?, completion: ((Bool) -> Void)? = nil) throws {
        beginUpdates()
        do {
            try updates?()
        } catch {
            updateNesting -= 1
            if updateNesting == 0 {
                pendingUpdate = nil
                nestedCompletions = []
            }
            throw error
        }
        updateNesting -= 1
        guard updateNesting == 0 else {
            // Nested in another group: it is applied with the outer one, and completes with it.
            if let completion { nestedCompletions.append(completion) }
            return
        }
        let update = pendingUpdate ?? TableUpdate()
        pendingUpdate = nil
        try apply(update, completion: completion)
    }

    /// Inserts rows at index paths after the update, as `insertRows(at:with:)`.
    public func insertRows(at indexPaths: [IndexPath], with animation: TableViewRowAnimation) throws {
        try record { $0.insertedRows += indexPaths.map { ($0, animation) } }
    }
    /// Deletes rows at index paths before the update, as `deleteRows(at:with:)`.
    public func deleteRows(at indexPaths: [IndexPath], with animation: TableViewRowAnimation) throws {
        try record { $0.deletedRows += indexPaths.map { ($0, animation) } }
    }
    /// Replaces rows (index paths before the update) with new cells, as `reloadRows(at:with:)`: `.fade`
    /// cross-fades, other styles take the old cell out and bring the new one in.
    public func reloadRows(at indexPaths: [IndexPath], with animation: TableViewRowAnimation) throws {
        try record { $0.reloadedRows += indexPaths.map { ($0, animation) } }
    }
    /// Moves a row, also to another section, as `moveRow(at:to:)`: it slides from its old frame to its
    /// new one, in front of the other rows.
    public func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) throws {
        try record { $0.movedRows.append((indexPath, newIndexPath)) }
    }
    /// Inserts sections (indices after the update), as `insertSections(_:with:)`.
    public func insertSections(_ sections: [Int], with animation: TableViewRowAnimation) throws {
        try record { $0.insertedSections += sections.map { ($0, animation) } }
    }
    /// Deletes sections (indices before the update), as `deleteSections(_:with:)`.
    public func deleteSections(_ sections: [Int], with animation: TableViewRowAnimation) throws {
        try record { $0.deletedSections += sections.map { ($0, animation) } }
    }
    /// Replaces sections (indices before the update), as `reloadSections(_:with:)`.
    public func reloadSections(_ sections: [Int], with animation: TableViewRowAnimation) throws {
        try record { $0.reloadedSections += sections.map { ($0, animation) } }
    }
    /// Moves a section with its header, rows and footer, as `moveSection(_:toSection:)`.
    public func moveSection(_ section: Int, toSection newSection: Int) throws {
        try record { $0.movedSections.append((section, newSection)) }
    }

    /// Inside a group, adds to it; outside, applies at once as an update of its own.
    private func record(_ body: (inout TableUpdate) -> Void) throws {
        if updateNesting > 0, pendingUpdate != nil {
            body(&pendingUpdate!)
        } else {
            var update = TableUpdate()
            body(&update)
            try apply(update, completion: nil)
        }
    }

    // MARK: Choosing styles

    /// The style `automatic` stands for, for a row inserted or deleted at `row` of a section that has
    /// `count` rows (after the update for an insert, before it for a delete); other styles are
    /// returned as they are.
    ///
    /// In a grouped table a row at the top of its section slides from under (or under) the rows below it
    /// (`.bottom`) and a row at its bottom from under the rows above (`.top`), so the section's rounded
    /// rectangle stays whole, as iOS 5 introduced `automatic` for; a section's only row, a row in the
    /// middle and every row of a plain table fade. Reloads and whole sections fade.
    ///
    /// In an update, adjacent rows inserted (or deleted) together with one style are one block: it takes
    /// the style this gives for the block's rows (the top block `.bottom`, the bottom one `.top`, a block
    /// that is the whole section fades), and all its rows move by one offset, so they never cross.
    public func resolvedAnimation(_ animation: TableViewRowAnimation, forRowAt row: Int, inSectionOfCount count: Int) -> TableViewRowAnimation {
        guard animation == .automatic else { return animation }
        guard style == .grouped, count > 1 else { return .fade }
        if row == 0 { return .bottom }
        if row == count - 1 { return .top }
        return .fade
    }

    // MARK: Applying an update

    func apply(_ update: TableUpdate, completion: ((Bool) -> Void)?) throws {
        let nested = nestedCompletions
        nestedCompletions = []
        let completion: ((Bool) -> Void)? = nested.isEmpty ? completion : { finished in
            for c in nested { c(finished) }
            completion?(finished)
        }
        guard hasLoaded else {
            try reloadData()
            finish(completion)
            return
        }
        let before = (0..<layout.numberOfSections).map { layout.numberOfRows(inSection: $0) }
        let after = try currentCounts()
        let plan = try TableUpdatePlan(update, before: before, after: after)
        let old = layout
        let new = makeLayout(counts: after)
        layout = new
        selected = Set(selected.compactMap { ip in plan.rowLeaves(ip) ? nil : plan.rowAfter[ip.section][ip.row] })

        var offset = contentOffset
        let maxOffset = max(0, new.contentHeight - bounds.height)
        if offset.y > maxOffset && offset.y > 0 { offset.y = maxOffset }
        let animator = UpdateAnimator(table: self, plan: plan, old: old, new: new)

        updatesInFlight += 1
        updateCounter += 1
        let token = updateCounter, generation = updateGeneration
        var touched: [View] = []
        runAnimated({
            // Scrolling inside the block must not lay rows out against a half-applied update.
            self.isLayingOut = true
            defer { self.isLayingOut = false }
            if offset != self.contentOffset { self.contentOffset = offset }
            touched = animator.run(token: token)
        }, completion: { [weak self] finished in
            guard let self else { return }
            // A reloadData since took every view back: nothing of this update is left to tidy.
            guard generation == self.updateGeneration else {
                completion?(finished)
                return
            }
            self.updatesInFlight -= 1
            ViewChangeObservation.withoutObserver {
                for view in animator.leaving {
                    view.removeFromSuperview()
                    if let cell = view as? TableViewCell { self.enqueue(cell) }
                }
                let leavingIDs = Set(animator.leaving.map(ObjectIdentifier.init))
                self.leavingViews.removeAll { leavingIDs.contains(ObjectIdentifier($0)) }
                // Only the layers this update gave: a later update still running keeps its own.
                for view in touched where self.layerOf[ObjectIdentifier(view)]?.token == token { self.layerOf[ObjectIdentifier(view)] = nil }
                if self.updatesInFlight == 0 {
                    for (ip, cell) in self.visibleCells where self.layout.contains(ip) {
                        cell.sectionPosition = self.layout.position(of: ip)
                        cell.drawsSeparator = self.layout.drawsSeparator(below: ip)
                    }
                }
            }
            self.layoutVisibleContent()
            completion?(finished)
        })
        ViewChangeObservation.withoutObserver { arrangeSubviews() }
    }

    /// Runs `body` as one animation block on the engine (or at once without one).
    func runAnimated(_ body: @escaping () -> Void, completion: @escaping (Bool) -> Void) {
        if let engine = animationEngine {
            engine.animate(duration: updateAnimationDuration, animations: body, completion: completion)
        } else {
            ViewChangeObservation.withoutObserver(body)
            completion(true)
        }
    }

    /// Calls `completion` as an animation that changed nothing would: at the engine's current time.
    func finish(_ completion: ((Bool) -> Void)?) {
        guard let completion else { return }
        if let engine = animationEngine { engine.animate(duration: 0, animations: {}, completion: completion) } else { completion(true) }
    }
}

/// Moves every view of one update from its place before to its place after, inside the update's
/// animation block: rows and headers that stay slide, ones that arrive start where their style says, ones
/// that leave end there and are removed when the block completes.
final class UpdateAnimator {
    unowned let table: TableView
    let plan: TableUpdatePlan
    let old: TableLayout
    let new: TableLayout
    /// Views to remove when the animation completes.
    private(set) var leaving: [View] = []
    private var touched: [View] = []

    init(table: TableView, plan: TableUpdatePlan, old: TableLayout, new: TableLayout) {
        self.table = table
        self.plan = plan
        self.old = old
        self.new = new
    }

    private var width: Double { table.bounds.width }

    /// The update's number, for the layers it gives.
    private var token = 0

    /// Runs inside the animation block; returns every view given a z-layer for the update.
    func run(token: Int) -> [View] {
        self.token = token
        var cells: [IndexPath: TableViewCell] = [:]
        // Rows on screen before.
        for (ip, cell) in table.visibleCells {
            if plan.rowLeaves(ip) {
                leave(cell, rect: old.rectForRow(at: ip), effect: leavingEffect(row: ip))
            } else if let to = plan.rowAfter[ip.section][ip.row] {
                let moved = plan.movedRows.contains(ip) || plan.movedSections.contains(ip.section)
                setLayer(cell, moved ? .front : .normal)
                ViewChangeObservation.withoutObserver {
                    cell.sectionPosition = old.position(of: ip).union(new.position(of: to))
                    cell.drawsSeparator = old.drawsSeparator(below: ip) || new.drawsSeparator(below: to)
                }
                cell.frame = new.rectForRow(at: to)
                cell.layoutSubviews()
                cells[to] = cell
            }
        }
        // Rows on screen after that have no cell yet.
        let bounds = table.bounds
        for ip in new.indexPathsForRows(overlapping: bounds.minY, bounds.maxY) where cells[ip] == nil {
            guard let cell = table.makeCell(at: ip) else { continue }
            let final = new.rectForRow(at: ip)
            if plan.rowArrives(ip) {
                let effect = arrivingEffect(row: ip)
                ViewChangeObservation.withoutObserver {
                    cell.frame = effect.map { final.offsetBy(dx: $0.dx, dy: $0.dy) } ?? final
                    cell.alpha = effect?.alpha ?? 1
                    table.configure(cell, at: ip, position: new.position(of: ip))
                }
                setLayer(cell, .behind)
            } else if let from = plan.rowBefore[ip.section][ip.row] {
                ViewChangeObservation.withoutObserver {
                    cell.frame = old.rectForRow(at: from)
                    table.configure(cell, at: ip, position: old.position(of: from).union(new.position(of: ip)))
                }
                let moved = plan.movedRows.contains(from) || plan.movedSections.contains(from.section)
                setLayer(cell, moved ? .front : .normal)
            }
            try? table.addSubview(cell)
            cell.frame = final
            cell.alpha = 1
            cell.layoutSubviews()
            cells[ip] = cell
        }
        table.visibleCells = cells

        // Headers and footers.
        var headers: [Int: View] = [:], footers: [Int: View] = [:]
        for (kind, views) in [(true, table.headerViews), (false, table.footerViews)] {
            for (s, view) in views {
                let rect = kind ? table.headerFrame(section: s, in: old) : old.rectForFooter(inSection: s)
                if plan.reloadedSections.contains(s) || plan.sectionAfter[s] == nil {
                    leave(view, rect: rect, effect: sectionEffect(leaving: s))
                } else if let to = plan.sectionAfter[s] {
                    view.frame = kind ? table.headerFrame(section: to, in: new) : new.rectForFooter(inSection: to)
                    if kind { headers[to] = view } else { footers[to] = view }
                }
            }
        }
        for s in new.sections(overlapping: bounds.minY, bounds.maxY) {
            for kind in [true, false] where (kind ? headers[s] : footers[s]) == nil {
                guard let view = table.makeSupplementaryView(section: s, header: kind) else { continue }
                let final = kind ? table.headerFrame(section: s, in: new) : new.rectForFooter(inSection: s)
                ViewChangeObservation.withoutObserver {
                    if let from = plan.sectionBefore[s], !plan.reloadedSections.contains(from) {
                        view.frame = kind ? table.headerFrame(section: from, in: old) : old.rectForFooter(inSection: from)
                    } else {
                        let effect = sectionEffect(arriving: s)
                        view.frame = effect.map { final.offsetBy(dx: $0.dx, dy: $0.dy) } ?? final
                        view.alpha = effect?.alpha ?? 1
                    }
                }
                try? table.addSubview(view)
                view.frame = final
                view.alpha = 1
                if kind { headers[s] = view } else { footers[s] = view }
            }
        }
        table.headerViews = headers
        table.footerViews = footers
        table.drawnTitles.formIntersection((Array(headers.values) + Array(footers.values)).map(ObjectIdentifier.init))
        table.leavingViews += leaving
        table.arrangeSubviews()
        return touched
    }

    private func setLayer(_ view: View, _ layer: TableView.ZLayer) {
        table.layerOf[ObjectIdentifier(view)] = (layer, token)
        touched.append(view)
    }

    /// An offset and alpha relative to a view's frame; nil for `.none` (no animation).
    struct Effect { var dx: Double, dy: Double, alpha: Double }

    private func leave(_ view: View, rect: Rect, effect: Effect?) {
        guard let effect else {
            view.removeFromSuperview()
            if let cell = view as? TableViewCell { table.enqueue(cell) }
            return
        }
        setLayer(view, .behind)
        view.frame = rect.offsetBy(dx: effect.dx, dy: effect.dy)
        view.alpha = effect.alpha
        leaving.append(view)
    }

    /// The offset and alpha of a style, given where the slot opens (or closes) and where the view is.
    private func effect(_ style: TableViewRowAnimation, height: Double, anchor: Double, top: Double) -> Effect? {
        switch style {
        case .fade, .automatic: Effect(dx: 0, dy: 0, alpha: 0)
        case .right: Effect(dx: width, dy: 0, alpha: 0)
        case .left: Effect(dx: -width, dy: 0, alpha: 0)
        case .top: Effect(dx: 0, dy: anchor - height - top, alpha: 1)
        case .bottom: Effect(dx: 0, dy: anchor + height - top, alpha: 1)
        case .middle: Effect(dx: 0, dy: anchor - height / 2 - top, alpha: 0)
        case .none: nil
        }
    }

    // Rows.

    private func arrivingEffect(row ip: IndexPath) -> Effect? {
        guard let oldSection = plan.sectionBefore[ip.section], !plan.reloadedSections.contains(oldSection) else {
            return sectionEffect(arriving: ip.section)
        }
        let reloaded = plan.rowBefore[ip.section][ip.row] != nil
        let asked = plan.insertedRowStyle[ip] ?? .fade
        // A reloaded row's automatic style is a cross-fade, on both sides.
        let style = reloaded && asked == .automatic ? .fade
            : table.resolvedAnimation(asked, forRowAt: ip.row, inSectionOfCount: new.numberOfRows(inSection: ip.section))
        let final = new.rectForRow(at: ip)
        if style == .fade, let from = plan.rowBefore[ip.section][ip.row] {
            // A reloaded row cross-fades: the new cell starts where the old one was.
            let rect = old.rectForRow(at: from)
            return Effect(dx: rect.minX - final.minX, dy: rect.minY - final.minY, alpha: 0)
        }
        if reloaded {
            return effect(style, height: final.height, anchor: anchorBefore(row: ip, oldSection: oldSection), top: final.minY)
        }
        // Rows inserted next to each other with one style move as one block, by one offset: they never
        // cross, and the block comes from behind its neighbours as one row would.
        let block = insertedBlock(around: ip, style: asked)
        let count = new.numberOfRows(inSection: ip.section)
        let blockStyle = UpdateAnimator.resolved(asked, block: block, count: count, grouped: table.style == .grouped)
        let first = IndexPath(row: block.lowerBound, section: ip.section)
        let top = new.rectForRow(at: first).minY
        let height = new.rectForRow(at: IndexPath(row: block.upperBound - 1, section: ip.section)).maxY - top
        return effect(blockStyle, height: height, anchor: anchorBefore(row: first, oldSection: oldSection), top: top)
    }

    /// `automatic` for a block of adjacent rows inserted or deleted together (`block` of a section of
    /// `count` rows): in a grouped table a block at the top of its section (not the whole section) uses
    /// `.bottom`, one at its bottom `.top`; a block that is the whole section, one in the middle, and
    /// every block of a plain table fade. Other styles stay.
    static func resolved(_ asked: TableViewRowAnimation, block: Range<Int>, count: Int, grouped: Bool) -> TableViewRowAnimation {
        asked.resolved(block: block, count: count, grouped: grouped)
    }

    /// The rows (after the update) inserted with `style` next to `ip`, with it, in its section.
    private func insertedBlock(around ip: IndexPath, style: TableViewRowAnimation) -> Range<Int> {
        func inBlock(_ r: Int) -> Bool {
            let p = IndexPath(row: r, section: ip.section)
            return plan.rowBefore[ip.section][r] == nil && (plan.insertedRowStyle[p] ?? .fade) == style
        }
        var lo = ip.row, hi = ip.row + 1
        while lo > 0 && inBlock(lo - 1) { lo -= 1 }
        while hi < new.numberOfRows(inSection: ip.section) && inBlock(hi) { hi += 1 }
        return lo..<hi
    }

    /// The rows (before the update) deleted with `style` next to `ip`, with it, in its section.
    private func deletedBlock(around ip: IndexPath, style: TableViewRowAnimation) -> Range<Int> {
        func inBlock(_ r: Int) -> Bool {
            let p = IndexPath(row: r, section: ip.section)
            return plan.rowAfter[ip.section][r] == nil && !plan.reloadedRows.contains(p) && (plan.deletedRowStyle[p] ?? .fade) == style
        }
        var lo = ip.row, hi = ip.row + 1
        while lo > 0 && inBlock(lo - 1) { lo -= 1 }
        while hi < old.numberOfRows(inSection: ip.section) && inBlock(hi) { hi += 1 }
        return lo..<hi
    }

    private func leavingEffect(row ip: IndexPath) -> Effect? {
        guard let newSection = plan.sectionAfter[ip.section], !plan.reloadedSections.contains(ip.section) else {
            return sectionEffect(leaving: ip.section)
        }
        let rect = old.rectForRow(at: ip)
        if plan.reloadedRows.contains(ip) {
            let style = plan.deletedRowStyle[ip] == .automatic ? .fade : (plan.deletedRowStyle[ip] ?? .fade)
            if style == .fade, let to = plan.rowAfter[ip.section][ip.row] {
                // The old cell of a reloaded row goes where the new one ends, fading out.
                let final = new.rectForRow(at: to)
                return Effect(dx: final.minX - rect.minX, dy: final.minY - rect.minY, alpha: 0)
            }
            return effect(style, height: rect.height, anchor: anchorAfter(row: ip, newSection: newSection), top: rect.minY)
        }
        // Adjacent rows deleted with one style leave as one block, by one offset.
        let asked = plan.deletedRowStyle[ip] ?? .fade
        let block = deletedBlock(around: ip, style: asked)
        let style = UpdateAnimator.resolved(asked, block: block, count: old.numberOfRows(inSection: ip.section), grouped: table.style == .grouped)
        let first = IndexPath(row: block.lowerBound, section: ip.section)
        let top = old.rectForRow(at: first).minY
        let height = old.rectForRow(at: IndexPath(row: block.upperBound - 1, section: ip.section)).maxY - top
        return effect(style, height: height, anchor: anchorAfter(row: first, newSection: newSection), top: top)
    }

    /// Where an arriving row's slot opens, in the layout before: the bottom of the nearest row above it
    /// that stays in place, else the top of the nearest one below, else the top of the section's rows.
    private func anchorBefore(row ip: IndexPath, oldSection: Int) -> Double {
        let map = plan.rowBefore[ip.section]
        var r = ip.row - 1
        while r >= 0 {
            if let from = map[r], from.section == oldSection, !plan.movedRows.contains(from), !plan.reloadedRows.contains(from) {
                return old.rectForRow(at: from).maxY
            }
            r -= 1
        }
        r = ip.row + 1
        while r < map.count {
            if let from = map[r], from.section == oldSection, !plan.movedRows.contains(from), !plan.reloadedRows.contains(from) {
                return old.rectForRow(at: from).minY
            }
            r += 1
        }
        return old.sections[oldSection].rowsTop
    }

    /// Where a leaving row's slot closes, in the layout after.
    private func anchorAfter(row ip: IndexPath, newSection: Int) -> Double {
        let map = plan.rowAfter[ip.section]
        var r = ip.row - 1
        while r >= 0 {
            if let to = map[r], to.section == newSection, !plan.movedRows.contains(IndexPath(row: r, section: ip.section)),
               !plan.reloadedRows.contains(IndexPath(row: r, section: ip.section)) {
                return new.rectForRow(at: to).maxY
            }
            r -= 1
        }
        r = ip.row + 1
        while r < map.count {
            if let to = map[r], to.section == newSection, !plan.movedRows.contains(IndexPath(row: r, section: ip.section)),
               !plan.reloadedRows.contains(IndexPath(row: r, section: ip.section)) {
                return new.rectForRow(at: to).minY
            }
            r += 1
        }
        return new.sections[newSection].rowsTop
    }

    // Sections: every view of the section moves by the same offset, as one block.

    private func sectionStyle(_ style: TableViewRowAnimation?) -> TableViewRowAnimation {
        guard let style, style != .automatic else { return .fade }
        return style
    }

    private func sectionEffect(arriving s: Int) -> Effect? {
        let style = sectionStyle(plan.insertedSectionStyle[s])
        let section = new.sections[s]
        if style == .fade, let from = plan.sectionBefore[s] {
            // A reloaded section cross-fades from where it was.
            return Effect(dx: 0, dy: old.sections[from].top - section.top, alpha: 0)
        }
        var anchor = section.top
        if let prior = (0..<s).reversed().first(where: { stays(after: $0) }), let from = plan.sectionBefore[prior] {
            anchor = old.sections[from].bottom
        } else if let next = ((s + 1)..<max(s + 1, new.numberOfSections)).first(where: { stays(after: $0) }), let from = plan.sectionBefore[next] {
            anchor = old.sections[from].top
        }
        return effect(style, height: section.height, anchor: anchor, top: section.top)
    }

    private func sectionEffect(leaving s: Int) -> Effect? {
        let style = sectionStyle(plan.deletedSectionStyle[s])
        let section = old.sections[s]
        if style == .fade, let to = plan.sectionAfter[s] {
            return Effect(dx: 0, dy: new.sections[to].top - section.top, alpha: 0)
        }
        var anchor = section.top
        if let prior = (0..<s).reversed().first(where: { stays(before: $0) }), let to = plan.sectionAfter[prior] {
            anchor = new.sections[to].bottom
        } else if let next = ((s + 1)..<max(s + 1, old.numberOfSections)).first(where: { stays(before: $0) }), let to = plan.sectionAfter[next] {
            anchor = new.sections[to].top
        }
        return effect(style, height: section.height, anchor: anchor, top: section.top)
    }

    /// A section after the update that was there before, unmoved and not reloaded.
    private func stays(after s: Int) -> Bool {
        guard let from = plan.sectionBefore[s] else { return false }
        return !plan.movedSections.contains(from) && !plan.reloadedSections.contains(from)
    }

    /// A section before the update that stays, unmoved and not reloaded.
    private func stays(before s: Int) -> Bool {
        plan.sectionAfter[s] != nil && !plan.movedSections.contains(s) && !plan.reloadedSections.contains(s)
    }
}

extension TableViewRowAnimation {
    /// This animation for a block of adjacent rows inserted or deleted together (`block` of a section of
    /// `count` rows), `automatic` resolved: in a grouped table a block at the top of its section (not the
    /// whole section) uses `.bottom`, one at its bottom `.top`; a block that is the whole section, one
    /// in the middle, and every block of a plain table fade. Other styles stay.
    package func resolved(block: Range<Int>, count: Int, grouped: Bool) -> TableViewRowAnimation {
        guard self == .automatic else { return self }
        guard grouped, block.count < count else { return .fade }
        if block.lowerBound == 0 { return .bottom }
        if block.upperBound == count { return .top }
        return .fade
    }
}
