internal import Containers

/// Reordering in editing mode: a pan that starts on a row's reorder control lifts the row (a soft shadow
/// under it) and moves it with the finger along its section; the other rows of the section make room as
/// it passes their middles (0.25 s each, eased out), at the place the delegate's
/// `targetIndexPathForMoveFromRowAt` gives for the one proposed. When the finger lifts, the data source's
/// `moveRowAt` is told the move (when the row changed place) and the row settles into its slot as an
/// update moves it (0.3 s). Apple publishes none of the figures: they are estimated from iOS 17's
/// Reminders and Settings lists. A row stays in its section, and the table does not scroll by itself
/// when the row is dragged to its edge.
extension UITableView {
    /// A row being dragged by its reorder control: where it came from, where it would go now, and the
    /// finger's height over the row's top (points).
    struct RowReorder {
        var source: IndexPath
        var target: IndexPath
        var grip: CGFloat
    }

    /// Seconds the other rows take to make room.
    static let reorderMakeRoomDuration: TimeInterval = 0.25

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
            rowReorder = RowReorder(source: row, target: row, grip: start.y - cell.frame.minY)
            bringSubviewToFront(cell)
            cell.layer.shadowColor = UIColor.black.cgColor
            cell.layer.shadowOpacity = 0.2
            cell.layer.shadowRadius = 8
            cell.layer.shadowOffset = .zero
            fallthrough
        case .changed:
            guard var reorder = rowReorder, let cell = visibleCellsByRow[reorder.source], let layout else { return }
            let section = reorder.source.section
            let count = layout.numberOfRows(inSection: section)
            guard count > 0 else { return }
            // The row follows the finger, kept within its section's rows.
            let top = rowFrame(IndexPath(row: 0, section: section), in: layout).minY
            let bottom = rowFrame(IndexPath(row: count - 1, section: section), in: layout).maxY
            let y = min(max(pan.location(in: self).y - reorder.grip, top), bottom - cell.frame.height)
            UIView.performWithoutAnimation { cell.frame.origin.y = y }
            // The place proposed: how many of the other rows, closed up, have their middles above the
            // dragged row's middle.
            var proposed = 0
            for r in 0..<count where r != reorder.source.row {
                var frame = rowFrame(IndexPath(row: r, section: section), in: layout)
                if r > reorder.source.row { frame.origin.y -= cell.frame.height }
                if frame.midY < cell.frame.midY { proposed += 1 }
            }
            let proposal = IndexPath(row: proposed, section: section)
            var target = tableDelegate?.tableView(self, targetIndexPathForMoveFromRowAt: reorder.source, toProposedIndexPath: proposal) ?? proposal
            if target.section != section || target.row < 0 || target.row >= count { target = reorder.source }
            if target != reorder.target {
                reorder.target = target
                rowReorder = reorder
                UIView.animate(withDuration: Self.reorderMakeRoomDuration, delay: 0, options: [.curveEaseOut, .beginFromCurrentState]) {
                    self.placeRowsAroundReorder()
                }
            }
        case .ended, .cancelled:
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
                UIView.animate(withDuration: Self.updateDuration, delay: 0, options: [.curveEaseInOut, .beginFromCurrentState]) {
                    self.layoutRows()
                }
            }
        default:
            break
        }
    }

    /// Where a row of the dragged row's section shows while the drag goes on: the rows between its place
    /// and the target moved by its height towards the place it left. Nil for rows the drag does not move.
    func reorderedFrame(_ ip: IndexPath, in layout: TableLayout) -> CGRect? {
        guard let reorder = rowReorder, ip.section == reorder.source.section, ip != reorder.source else { return nil }
        let height = rowFrame(reorder.source, in: layout).height
        var frame = rowFrame(ip, in: layout)
        if reorder.target.row > reorder.source.row, ip.row > reorder.source.row, ip.row <= reorder.target.row { frame.origin.y -= height }
        if reorder.target.row < reorder.source.row, ip.row < reorder.source.row, ip.row >= reorder.target.row { frame.origin.y += height }
        return frame
    }

    /// Puts the shown rows of the dragged row's section where the drag has them (``reorderedFrame(_:in:)``).
    private func placeRowsAroundReorder() {
        guard let layout else { return }
        for (ip, cell) in visibleCellsByRow {
            if let frame = reorderedFrame(ip, in: layout) { cell.frame = frame }
        }
    }
}

private func - (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
