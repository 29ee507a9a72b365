import Foundation
import Motion
import RasterCore
import SnapshotView

extension TableView {
    /// The selected rows in order, or nil when none is, as `indexPathsForSelectedRows`.
    public var indexPathsForSelectedRows: [IndexPath]? { selected.isEmpty ? nil : selected.sorted() }
    /// The first selected row, or nil, as `indexPathForSelectedRow`.
    public var indexPathForSelectedRow: IndexPath? { selected.min() }

    /// Selects the row (nil: deselects every row) without telling the delegate, as
    /// `selectRow(at:animated:scrollPosition:)`; without multiple selection the other rows are deselected.
    /// Animated, the highlight fades in on the current animation context. Then scrolls the row to
    /// `scrollPosition` (`.none`: not at all).
    public func selectRow(at indexPath: IndexPath?, animated: Bool, scrollPosition: TableViewScrollPosition) {
        guard let indexPath else {
            for ip in selected { deselectRow(at: ip, animated: animated) }
            return
        }
        guard layout.contains(indexPath), allowsSelection else { return }
        if !allowsMultipleSelection {
            for ip in selected where ip != indexPath { deselectRow(at: ip, animated: animated) }
        }
        selected.insert(indexPath)
        visibleCells[indexPath]?.setSelected(true, animated: animated)
        updateSeparators(around: indexPath)
        if scrollPosition != .none { scrollToRow(at: indexPath, at: scrollPosition, animated: animated) }
    }

    /// Deselects the row without telling the delegate, as `deselectRow(at:animated:)`. Animated, the
    /// highlight fades out on the current animation context: called inside an animation block (a
    /// transition's), it follows that block's timing; otherwise it takes
    /// ``TableViewCell/selectionFadeDuration``.
    public func deselectRow(at indexPath: IndexPath, animated: Bool) {
        guard selected.remove(indexPath) != nil else { return }
        visibleCells[indexPath]?.setSelected(false, animated: animated)
        updateSeparators(around: indexPath)
    }

    /// A finger taps `point` (the table's content coordinates, points): the row there, if any, goes
    /// through ``tapRow(at:)``. Returns the row tapped.
    @discardableResult
    public func tap(at point: Point) -> IndexPath? {
        guard let ip = indexPathForRow(at: point) else { return nil }
        tapRow(at: ip)
        return ip
    }

    /// A finger taps the row, as a touch would select it: nothing when selection is off; with multiple
    /// selection a selected row is deselected (`willDeselectRowAt`, `didDeselectRowAt`); otherwise
    /// `willSelectRowAt` may redirect or refuse, the previously selected rows are deselected (with their
    /// will/did-deselect), the row is selected and `didSelectRowAt` is told.
    public func tapRow(at indexPath: IndexPath) {
        guard allowsSelection, layout.contains(indexPath) else { return }
        let delegate = tableDelegate
        if allowsMultipleSelection, selected.contains(indexPath) {
            guard let ip = delegate.map({ $0.tableView(self, willDeselectRowAt: indexPath) }) ?? indexPath else { return }
            deselectRow(at: ip, animated: false)
            delegate?.tableView(self, didDeselectRowAt: ip)
            return
        }
        guard let target = delegate.map({ $0.tableView(self, willSelectRowAt: indexPath) }) ?? indexPath,
              layout.contains(target) else { return }
        if !allowsMultipleSelection {
            for ip in selected.sorted() where ip != target {
                guard let going = delegate.map({ $0.tableView(self, willDeselectRowAt: ip) }) ?? ip else { continue }
                deselectRow(at: going, animated: false)
                delegate?.tableView(self, didDeselectRowAt: going)
            }
        }
        selected.insert(target)
        visibleCells[target]?.setSelected(true, animated: false)
        updateSeparators(around: target)
        delegate?.tableView(self, didSelectRowAt: target)
    }
}
