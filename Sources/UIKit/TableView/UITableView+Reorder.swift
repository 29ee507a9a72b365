internal import Containers
internal import Motion

/// Reordering in editing mode: a pan that starts on a row's reorder control lifts the row (a soft shadow
/// under it) and moves it with the finger, into other sections too; the rows, headers and footers between
/// its place and where it would go make room as it passes the rows' middles (0.25 s, eased out), at the
/// place the delegate's `targetIndexPathForMoveFromRowAt` gives for the one proposed. Held near the top
/// or bottom of what shows, the row scrolls the table (faster the nearer the edge). When the finger lifts,
/// the data source's `moveRowAt` is told the move (when the row changed place) and the row settles into
/// its slot as an update moves it (0.3 s). Apple publishes none of the figures: they are estimated from
/// iOS 17's Reminders and Settings lists.
extension UITableView {
    /// A row being dragged by its reorder control: where it came from, where it would go now, the
    /// finger's height over the row's top and the row's height (points), and where the finger is in what
    /// shows (points from the bounds' origin: it stays there while the table scrolls under it).
    struct RowReorder {
        var source: IndexPath
        var target: IndexPath
        var grip: CGFloat
        var height: CGFloat
        var finger: CGPoint
    }

    /// Seconds the other rows take to make room.
    static let reorderMakeRoomDuration: TimeInterval = 0.25
    /// Points from the top or bottom of what shows (inside the content insets) where a dragged row
    /// starts to scroll the table.
    static let reorderAutoscrollZone: CGFloat = 44
    /// Points a second the table scrolls with the dragged row's edge at (or past) the edge of what
    /// shows; in proportion to how far into the zone it is before that.
    static let reorderAutoscrollSpeed: CGFloat = 600

    /// Whether a pan began on a shown reorder control of a row in editing mode.
    func startsOnReorderControl(_ pan: UIGestureRecognizer) -> Bool {
        guard isEditing, let pan = pan as? UIPanGestureRecognizer else { return false }
        let start = pan.location(in: self) - pan.translation(in: self)
        guard let row = indexPathForRow(at: start), let cell = visibleCellsByRow[row], cell.showsReorderNow else { return false }
        return convert(start, to: cell).x >= cell.bounds.width - UITableViewCell.editingIndentation
    }

    func handleReorder(_ pan: UIPanGestureRecognizer) {
        switch pan.state {
        case .began:
            let start = pan.location(in: self) - pan.translation(in: self)
            guard let row = indexPathForRow(at: start), let cell = visibleCellsByRow[row] else { return }
            rowReorder = RowReorder(source: row, target: row, grip: start.y - cell.frame.minY, height: cell.frame.height,
                                    finger: start - bounds.origin)
            bringSubviewToFront(cell)
            cell.layer.shadowColor = UIColor.black.cgColor
            cell.layer.shadowOpacity = 0.2
            cell.layer.shadowRadius = 8
            cell.layer.shadowOffset = .zero
            // The rows that may move into view as others make room get their cells now.
            layoutRows()
            reorderAutoscroll?.invalidate()
            reorderAutoscroll = StageContext.engine?.addDisplayLink { [weak self] _ in self?.autoscrollReorder() }
            fallthrough
        case .changed:
            guard rowReorder != nil else { return }
            rowReorder!.finger = pan.location(in: self) - bounds.origin
            dragReorderedRow()
        case .ended, .cancelled:
            reorderAutoscroll?.invalidate()
            reorderAutoscroll = nil
            guard let reorder = rowReorder else { return }
            rowReorder = nil
            // The shadow goes as the row lands.
            visibleCellsByRow[reorder.source]?.layer.shadowOpacity = 0
            if reorder.target != reorder.source {
                dataSource?.tableView(self, moveRowAt: reorder.source, to: reorder.target)
                // The table's own rows follow: the others are already where the move puts them, so the update
                // settles the dragged row into its slot.
                performBatchUpdates { self.moveRow(at: reorder.source, to: reorder.target) }
            } else {
                // Back to its own place, which may have scrolled out of view: the cell is kept until it lands.
                settlingReorderRow = reorder.source
                UIView.animate(withDuration: Self.updateDuration, delay: 0, options: [.curveEaseInOut, .beginFromCurrentState], animations: {
                    self.placeViewsAroundReorder()
                }, completion: { _ in
                    if self.settlingReorderRow == reorder.source { self.settlingReorderRow = nil }
                    self.layoutRows()
                })
            }
        default:
            break
        }
    }

    /// Moves the dragged row under the finger (kept within the table's rows) and, when the place it
    /// would go changes, has the others make room.
    private func dragReorderedRow() {
        guard var reorder = rowReorder, let cell = visibleCellsByRow[reorder.source], let layout, layout.numberOfSections > 0 else { return }
        let last = layout.numberOfSections - 1
        let top = rowsTop(0, in: layout), bottom = rowsTop(last, in: layout) + CGFloat(layout.sections[last].rowsHeight)
        let y = min(max(bounds.minY + reorder.finger.y - reorder.grip, top), max(top, bottom - reorder.height))
        UIView.performWithoutAnimation { cell.frame.origin.y = y }
        let proposal = proposedReorderTarget(middle: y + reorder.height / 2, of: reorder, in: layout)
        var target = tableDelegate?.tableView(self, targetIndexPathForMoveFromRowAt: reorder.source, toProposedIndexPath: proposal) ?? proposal
        if !isReorderTarget(target, from: reorder.source, in: layout) { target = reorder.source }
        guard target != reorder.target else { return }
        // Cells for the rows the change may bring into view, where they are now; then they all move.
        layoutRows()
        reorder.target = target
        rowReorder = reorder
        UIView.animate(withDuration: Self.reorderMakeRoomDuration, delay: 0, options: [.curveEaseOut, .beginFromCurrentState]) {
            self.placeViewsAroundReorder()
        }
    }

    /// One frame of scrolling while the dragged row is held in the top or bottom zone of what shows; the
    /// row stays under the finger and the place it would go follows.
    private func autoscrollReorder() {
        guard let reorder = rowReorder, let cell = visibleCellsByRow[reorder.source] else {
            // The drag has gone without its end (the table left editing mode): so does the link.
            if rowReorder == nil { reorderAutoscroll?.invalidate(); reorderAutoscroll = nil }
            return
        }
        let insets = adjustedContentInset
        let shownTop = bounds.minY + insets.top, shownBottom = bounds.maxY - insets.bottom
        // Two zones that never meet: in a table barely taller than the row, the middle scrolls neither way.
        let zone = min(Self.reorderAutoscrollZone, max(0, (shownBottom - shownTop - reorder.height) / 2))
        guard zone > 0 else { return }
        var depth: CGFloat = 0
        if cell.frame.minY < shownTop + zone { depth = -min(1, (shownTop + zone - cell.frame.minY) / zone) }
        if cell.frame.maxY > shownBottom - zone { depth = min(1, (cell.frame.maxY - (shownBottom - zone)) / zone) }
        guard depth != 0 else { return }
        let frame = 1 / CGFloat(StageContext.engine?.clock.fps ?? 60)
        let lowest = -insets.top, highest = max(lowest, contentSize.height + insets.bottom - bounds.height)
        // (Not from an offset outside the content's range: clamping it would jump.)
        guard contentOffset.y >= lowest - 0.5, contentOffset.y <= highest + 0.5 else { return }
        let y = min(max(contentOffset.y + depth * Self.reorderAutoscrollSpeed * frame, lowest), highest)
        guard y != contentOffset.y else { return }
        UIView.performWithoutAnimation {
            contentOffset.y = y
            layoutRows()
        }
        // (Outside performWithoutAnimation: the rows making room animate.)
        dragReorderedRow()
    }

    /// Points: the top of section `s`'s rows in the table.
    private func rowsTop(_ s: Int, in layout: TableLayout) -> CGFloat {
        headerViewHeight + CGFloat(layout.sections[s].rowsTop)
    }

    /// The place proposed for a dragged row whose middle is at `middle` (the table's points): with the
    /// row taken out and the others closed up, the section whose rows hold that height (between two
    /// sections, the nearer's end), and there the number of rows whose middles are above it.
    private func proposedReorderTarget(middle: CGFloat, of reorder: RowReorder, in layout: TableLayout) -> IndexPath {
        let source = reorder.source, h = reorder.height
        func closedTop(_ s: Int) -> CGFloat { rowsTop(s, in: layout) - (s > source.section ? h : 0) }
        func closedBottom(_ s: Int) -> CGFloat {
            rowsTop(s, in: layout) + CGFloat(layout.sections[s].rowsHeight) - (s >= source.section ? h : 0)
        }
        let sections = layout.numberOfSections
        var section = sections - 1
        for s in 0..<sections where middle <= closedBottom(s) { section = s; break }
        if section > 0, middle < (closedBottom(section - 1) + closedTop(section)) / 2 { section -= 1 }
        var row = 0
        for r in 0..<layout.numberOfRows(inSection: section) {
            let ip = IndexPath(row: r, section: section)
            guard ip != source else { continue }
            var frame = rowFrame(ip, in: layout)
            if ip > source { frame.origin.y -= h }
            if frame.midY < middle { row += 1 }
        }
        return IndexPath(row: row, section: section)
    }

    /// Whether a dragged row can go to `target`: a section of the table, a row of it after the move (in
    /// the row's own section, one of its rows; in another, up to one past its last).
    private func isReorderTarget(_ target: IndexPath, from source: IndexPath, in layout: TableLayout) -> Bool {
        guard target.count == 2, target.section >= 0, target.section < layout.numberOfSections, target.row >= 0 else { return false }
        let rows = layout.numberOfRows(inSection: target.section)
        return target.section == source.section ? target.row < rows : target.row <= rows
    }

    /// How far the drag puts a row (points, down positive): taken out of its place, the rows after the
    /// dragged one move up by its height; made room for at the target, those at or after it move down.
    /// Nil while nothing is dragged, and for the dragged row.
    func reorderShift(forRowAt ip: IndexPath) -> CGFloat? {
        guard let reorder = rowReorder, ip != reorder.source else { return nil }
        let source = reorder.source
        let closed = ip.section == source.section && ip.row > source.row ? IndexPath(row: ip.row - 1, section: ip.section) : ip
        return (ip > source ? -reorder.height : 0) + (closed >= reorder.target ? reorder.height : 0)
    }

    /// How far the drag puts section `s`'s header: it comes before the section's rows.
    func reorderShift(headerOf s: Int) -> CGFloat {
        guard let reorder = rowReorder else { return 0 }
        return (s > reorder.source.section ? -reorder.height : 0) + (s > reorder.target.section ? reorder.height : 0)
    }

    /// How far the drag puts section `s`'s footer: it comes after the section's rows.
    func reorderShift(footerOf s: Int) -> CGFloat {
        guard let reorder = rowReorder else { return 0 }
        return (s >= reorder.source.section ? -reorder.height : 0) + (s >= reorder.target.section ? reorder.height : 0)
    }

    /// Where a row shows while a drag goes on (``reorderShift(forRowAt:)``); nil for rows the drag does
    /// not move.
    func reorderedFrame(_ ip: IndexPath, in layout: TableLayout) -> CGRect? {
        guard let shift = reorderShift(forRowAt: ip), shift != 0 else { return nil }
        return rowFrame(ip, in: layout).offsetBy(dx: 0, dy: shift)
    }

    /// Puts the shown rows, headers and footers where the drag has them.
    private func placeViewsAroundReorder() {
        guard let layout else { return }
        for (ip, cell) in visibleCellsByRow where ip != rowReorder?.source && layout.contains(ip) {
            cell.frame = reorderedFrame(ip, in: layout) ?? rowFrame(ip, in: layout)
        }
        for (s, view) in headerViews where s < layout.numberOfSections { view.frame = headerFrame(section: s, in: layout) }
        for (s, view) in footerViews where s < layout.numberOfSections { view.frame = footerFrame(section: s, in: layout) }
    }
}

private func - (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
