/// Swipe actions: a horizontal pan on a row whose delegate gives it a `UISwipeActionsConfiguration` slides
/// the row aside and shows its `UIContextualAction`s in the gap, as UIKit's table does since iOS 11.
///
/// The row follows the finger; released past half of its actions (or thrown towards them faster than
/// 300 pt/s) it stays open, otherwise it closes. Past the actions it keeps following the finger when the
/// configuration's `performsFirstActionWithFullSwipe` is true (the first action widening to fill the
/// gap, and covering the others once the row is 60 % of its width aside), and released there it performs
/// that action; otherwise it gives way at a third of the finger's motion. A tap on an action calls its
/// handler with the button and a completion; a tap elsewhere on the table, a scroll or a swipe of another
/// row closes the open row first. The actions are
/// laid from the row's edge outwards in reverse order (the first action outermost), each as wide as its
/// title in 15-pt medium type and 15 pt either side, at least 60 pt. Apple publishes none of these
/// figures: they are estimated from iOS 17's Mail and Reminders.
extension UITableView {
    /// A row swiped aside: which, towards which edge, its configuration and how far (points: negative
    /// shows the trailing actions, positive the leading ones).
    struct RowSwipe {
        var row: IndexPath
        var trailing: Bool
        var configuration: UISwipeActionsConfiguration
        var offset: CGFloat = 0
        var startOffset: CGFloat = 0
        var actionsView: SwipeActionsView
        /// Goes up each time the row is taken again, so that an older animation's end does not undo it.
        var generation = 0
        /// Whether these are the Delete confirmation of editing mode (not the delegate's actions).
        var confirmsDelete = false
    }

    /// Points a second: a release faster than this towards the actions opens the row.
    static let swipeOpeningSpeed: CGFloat = 300
    /// The share of the row's width past which a full swipe performs the first action.
    static let fullSwipeShare: CGFloat = 0.6

    /// The configuration the delegate gives `row` for a swipe towards `trailing`, when it has actions.
    func swipeConfiguration(for row: IndexPath, trailing: Bool) -> UISwipeActionsConfiguration? {
        guard let tableDelegate, !isEditing else { return nil }
        let configuration = trailing ? tableDelegate.tableView(self, trailingSwipeActionsConfigurationForRowAt: row)
            : tableDelegate.tableView(self, leadingSwipeActionsConfigurationForRowAt: row)
        return configuration?.actions.isEmpty == false ? configuration : nil
    }

    /// Whether a pan's motion so far is a row's swipe: more across than down, on a row with actions that
    /// way (or on the row left open), and not a leading swipe from the screen's edge where a navigation
    /// controller's back swipe begins.
    func isRowSwipe(_ pan: UIGestureRecognizer) -> Bool {
        guard let pan = pan as? UIPanGestureRecognizer else { return false }
        let t = pan.translation(in: self)
        guard abs(t.x) > abs(t.y), let row = indexPathForRow(at: pan.location(in: self)) else { return false }
        if let rowSwipe, rowSwipe.row == row { return true }
        if t.x > 0, startsAtBackSwipeEdge(pan) { return false }
        return swipeConfiguration(for: row, trailing: t.x < 0) != nil
    }

    /// Whether a pan is a navigation controller's back swipe: rightwards, more across than down, from the
    /// screen's edge.
    func isBackSwipe(_ pan: UIGestureRecognizer) -> Bool {
        guard let pan = pan as? UIPanGestureRecognizer else { return false }
        let t = pan.translation(in: self)
        return t.x > abs(t.y) && startsAtBackSwipeEdge(pan)
    }

    /// Whether `pan` began within the left edge's 20 points of the window under a navigation controller
    /// that can pop by a back swipe.
    private func startsAtBackSwipeEdge(_ pan: UIPanGestureRecognizer) -> Bool {
        let start = pan.location(in: nil).x - pan.translation(in: nil).x
        guard start < 20, let controller = nearestController,
              let navigation = controller as? UINavigationController ?? controller.navigationController else { return false }
        return navigation.viewControllers.count > 1 && navigation.interactivePopGestureRecognizer?.isEnabled == true
    }

    /// Where the swiped row's cell is, its actions beside it.
    func placeSwipedRow() {
        guard let rowSwipe, let cell = visibleCellsByRow[rowSwipe.row], let layout else { return }
        let frame = rowFrame(rowSwipe.row, in: layout)
        cell.frame = frame.offsetBy(dx: rowSwipe.offset, dy: 0)
        let revealed = abs(rowSwipe.offset)
        rowSwipe.actionsView.frame = CGRect(x: rowSwipe.trailing ? frame.maxX - revealed : frame.minX, y: frame.minY, width: revealed, height: frame.height)
        rowSwipe.actionsView.layoutIfNeeded()
    }

    func handleRowSwipe(_ pan: UIPanGestureRecognizer) {
        switch pan.state {
        case .began:
            guard let row = indexPathForRow(at: pan.location(in: self)) else { return }
            let trailing = pan.translation(in: self).x < 0
            if let open = rowSwipe, open.row != row { closeSwipedRow(animated: false) }
            // The row is taken where it is shown (it may still be sliding): its animations stop there.
            var shown: CGFloat = 0
            if let cell = visibleCellsByRow[row], let layout {
                shown = (cell.layer.presentation() ?? cell.layer).frame.minX - rowFrame(row, in: layout).minX
                cell.layer.removeAllAnimations()
            }
            if var open = rowSwipe {
                open.actionsView.layer.removeAllAnimations()
                for button in open.actionsView.buttons { button.layer.removeAllAnimations() }
                open.offset = shown
                open.generation += 1
                open.startOffset = shown
                rowSwipe = open
            } else {
                // The actions of this row's closing swipe go now; a new swipe brings its own.
                if let closing = closingSwipe, closing.row == row { closing.actionsView.removeFromSuperview() }
                closingSwipe = nil
                guard let configuration = swipeConfiguration(for: row, trailing: trailing) else { return }
                let actionsView = SwipeActionsView(actions: configuration.actions, trailing: trailing)
                actionsView.onTap = { [weak self] index, button in self?.performSwipeAction(at: index, from: button) }
                addSubview(actionsView)
                var swipe = RowSwipe(row: row, trailing: trailing, configuration: configuration, actionsView: actionsView)
                swipe.offset = (trailing ? min(0, shown) : max(0, shown))
                swipe.startOffset = swipe.offset
                rowSwipe = swipe
            }
            fallthrough
        case .changed:
            guard var swipe = rowSwipe else { return }
            let width = bounds.width
            let actions = swipe.actionsView.fullWidth
            // Towards the actions: negative for trailing ones. Past them the row follows the finger for a
            // full swipe, else gives way at a third of its motion.
            var reach = (swipe.trailing ? -1 : 1) * (swipe.startOffset + pan.translation(in: self).x)
            if reach > actions, !swipe.configuration.performsFirstActionWithFullSwipe { reach = actions + (reach - actions) / 3 }
            reach = min(width, max(0, reach))
            swipe.offset = swipe.trailing ? -reach : reach
            rowSwipe = swipe
            let coversAll = swipe.configuration.performsFirstActionWithFullSwipe && reach > Self.fullSwipeShare * width
            if coversAll != swipe.actionsView.firstCoversAll {
                // Crossing the threshold, the first action widens over the others (or gives them back) quickly.
                UIView.performWithoutAnimation { placeSwipedRow() }
                UIView.animate(withDuration: 0.15) {
                    swipe.actionsView.firstCoversAll = coversAll
                    swipe.actionsView.layoutIfNeeded()
                }
            } else {
                UIView.performWithoutAnimation { placeSwipedRow() }
            }
        case .ended, .cancelled:
            guard let swipe = rowSwipe else { return }
            let reach = abs(swipe.offset)
            let towards = (swipe.trailing ? -1 : 1) * (pan.state == .ended ? pan.velocity(in: self).x : 0)
            if pan.state == .ended, swipe.configuration.performsFirstActionWithFullSwipe, reach > Self.fullSwipeShare * bounds.width {
                // The first action at once, as the row slides all the way.
                let button = swipe.actionsView.buttons.first ?? swipe.actionsView
                moveSwipedRow(to: bounds.width)
                performSwipeAction(at: 0, from: button)
            } else if pan.state == .ended, towards > -Self.swipeOpeningSpeed, reach > swipe.actionsView.fullWidth / 2 || towards > Self.swipeOpeningSpeed {
                moveSwipedRow(to: swipe.actionsView.fullWidth)
            } else {
                closeSwipedRow(animated: true)
            }
        default:
            break
        }
    }

    /// The Delete confirmation of a row in editing mode whose delete control was tapped: the row slides
    /// aside as a trailing swipe opens it (0.3 s, eased out) and shows one destructive action, titled by the
    /// delegate's `titleForDeleteConfirmationButtonForRowAt` (default "Delete"), whose tap commits `.delete`
    /// to the data source. A tap anywhere else on the table, a scroll or Done closes it, as an open swipe.
    func showDeleteConfirmation(for row: IndexPath) {
        guard let cell = visibleCellsByRow[row] else { return }
        let title = tableDelegate?.tableView(self, titleForDeleteConfirmationButtonForRowAt: row) ?? "Delete"
        let delete = UIContextualAction(style: .destructive, title: title) { [weak self, weak cell] _, _, completion in
            // The row the cell shows now (an update may have moved it since the control was tapped).
            guard let self, let cell, let current = self.indexPath(for: cell) else { return completion(false) }
            self.dataSource?.tableView(self, commit: .delete, forRowAt: current)
            completion(true)
        }
        let configuration = UISwipeActionsConfiguration(actions: [delete])
        configuration.performsFirstActionWithFullSwipe = false
        if closingSwipe?.row == row { closingSwipe?.actionsView.removeFromSuperview() }
        closingSwipe = nil
        let actionsView = SwipeActionsView(actions: configuration.actions, trailing: true)
        actionsView.onTap = { [weak self] index, button in self?.performSwipeAction(at: index, from: button) }
        addSubview(actionsView)
        rowSwipe = RowSwipe(row: row, trailing: true, configuration: configuration, actionsView: actionsView, confirmsDelete: true)
        UIView.performWithoutAnimation { placeSwipedRow() }
        moveSwipedRow(to: actionsView.fullWidth)
    }

    /// Animates the swiped row to `reach` points aside (0.3 s, eased out).
    private func moveSwipedRow(to reach: CGFloat) {
        guard var swipe = rowSwipe else { return }
        swipe.offset = swipe.trailing ? -reach : reach
        rowSwipe = swipe
        UIView.animate(withDuration: 0.3, delay: 0, options: [.curveEaseOut, .beginFromCurrentState]) { self.placeSwipedRow() }
    }

    /// Closes the row left open (animated: slides back over 0.3 s). From then on no row counts as open; its
    /// actions go once the slide has ended (unless the row is taken again meanwhile).
    func closeSwipedRow(animated: Bool) {
        guard var swipe = rowSwipe else { return }
        swipe.offset = 0
        rowSwipe = swipe
        if animated {
            let generation = swipe.generation
            UIView.animate(withDuration: 0.3, delay: 0, options: [.curveEaseOut, .beginFromCurrentState], animations: {
                self.placeSwipedRow()
            }, completion: { [weak self] _ in
                guard let self else { return }
                if let again = self.rowSwipe, again.actionsView === swipe.actionsView, again.generation != generation { return }
                swipe.actionsView.removeFromSuperview()
                if self.closingSwipe?.actionsView === swipe.actionsView { self.closingSwipe = nil }
            })
        } else {
            UIView.performWithoutAnimation { placeSwipedRow() }
            swipe.actionsView.removeFromSuperview()
        }
        closingSwipe = animated ? swipe : nil
        rowSwipe = nil
    }

    /// The row's action `index` is performed: its handler gets the button and a completion; the row closes
    /// when the handler completes (unless the row has gone: a deleted row animates away as it is).
    private func performSwipeAction(at index: Int, from button: UIView) {
        guard let swipe = rowSwipe, swipe.configuration.actions.indices.contains(index) else { return }
        let action = swipe.configuration.actions[index]
        let cell = visibleCellsByRow[swipe.row]
        action.handler(action, button) { [weak self] _ in
            guard let self, let open = self.rowSwipe, open.actionsView === swipe.actionsView else { return }
            if let cell, self.visibleCellsByRow[open.row] === cell { self.closeSwipedRow(animated: true) } else {
                open.actionsView.removeFromSuperview()
                self.rowSwipe = nil
            }
        }
    }

    /// At the start of a batch update: the open row's actions go with its cell from then on (a row deleted
    /// by its own action animates away with them beside it, at the offset it had); they are removed when
    /// the update ends. Returns the row and its offset.
    func handOverSwipedRowForUpdate() -> (row: IndexPath, offset: CGFloat)? {
        guard let swipe = rowSwipe else { return nil }
        rowSwipe = nil
        if let cell = visibleCellsByRow[swipe.row] {
            let frame = convert(swipe.actionsView.frame, to: cell)
            cell.addSubview(swipe.actionsView)
            swipe.actionsView.frame = frame
            updateLeftovers.append(swipe.actionsView)
        } else {
            swipe.actionsView.removeFromSuperview()
        }
        return (swipe.row, swipe.offset)
    }
}

/// The actions shown beside a swiped row: a button a `UIContextualAction`, in its background colour with
/// its title (or image) in white, the first action outermost. While the row is not fully open the buttons
/// share the gap in proportion to their widths; past them the outermost widens.
final class SwipeActionsView: UIView {
    let actions: [UIContextualAction]
    let trailing: Bool
    /// The buttons, in the actions' order.
    private(set) var buttons: [UIView] = []
    private var widths: [CGFloat] = []
    /// Called with the index of the action tapped and its button.
    var onTap: ((Int, UIView) -> Void)?
    /// Set past the full-swipe threshold: the first action covers the whole gap.
    var firstCoversAll = false { didSet { if firstCoversAll != oldValue { setNeedsLayout() } } }

    init(actions: [UIContextualAction], trailing: Bool) {
        self.actions = actions
        self.trailing = trailing
        super.init(frame: .zero)
        clipsToBounds = true
        for (index, action) in actions.enumerated() {
            let button = UIView()
            button.backgroundColor = action.backgroundColor
            button.clipsToBounds = true
            let font = UIFont.systemFont(ofSize: 15, weight: .medium)
            var width: CGFloat = 60
            if let title = action.title, !title.isEmpty {
                let label = UILabel()
                label.text = title
                label.font = font
                label.textColor = .white
                label.textAlignment = .center
                button.addSubview(label)
                width = max(width, (label.sizeThatFits(CGSize(width: 1000, height: 100)).width + 30).rounded(.up))
            } else if let image = action.image {
                let view = UIImageView(image: image.withRenderingMode(.alwaysTemplate))
                view.tintColor = .white
                view.contentMode = .center
                button.addSubview(view)
            }
            button.tag = index
            buttons.append(button)
            widths.append(width)
            addSubview(button)
        }
    }

    required init?(coder: NSCoder) { nil }

    /// Points: the actions' widths together (the row's reach when open).
    var fullWidth: CGFloat { widths.reduce(0, +) }

    /// Each action's width in a gap `revealed` points wide: their own widths scaled to fill it, the
    /// outermost taking what is beyond them all.
    private func shares(in revealed: CGFloat) -> [CGFloat] {
        let full = fullWidth
        guard full > 0 else { return widths }
        if firstCoversAll { return widths.indices.map { $0 == 0 ? revealed : 0 } }
        var shares = widths.map { $0 * min(1, revealed / full) }
        if revealed > full { shares[0] += revealed - full }
        return shares
    }

    /// The actions from the row's edge outwards: the first outermost.
    private var outwardOrder: [Int] { Array(actions.indices.reversed()) }

    override func layoutSubviews() {
        super.layoutSubviews()
        let shares = shares(in: bounds.width)
        // Trailing: left to right from the row's edge; leading: right to left from it.
        var x: CGFloat = trailing ? 0 : bounds.width
        for index in outwardOrder {
            let width = shares[index]
            if !trailing { x -= width }
            buttons[index].frame = CGRect(x: x, y: 0, width: width, height: bounds.height)
            // The title at its own width, centred in the button once it fits, else kept against the row's
            // side and cut by the button (never truncated).
            let own = widths[index]
            for content in buttons[index].subviews {
                let contentWidth = max(width, own)
                content.frame = CGRect(x: trailing ? 0 : width - contentWidth, y: 0, width: contentWidth, height: bounds.height)
            }
            if trailing { x += width }
        }
    }

    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let point = touches.first?.location(in: self),
              let index = buttons.firstIndex(where: { $0.frame.contains(point) }) else { return }
        onTap?(index, buttons[index])
    }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {}
}
