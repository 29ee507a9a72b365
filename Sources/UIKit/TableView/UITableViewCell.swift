/// UIKit's table cell: a background, a selected background shown while the cell is highlighted or
/// selected, a content view holding what the row shows (the built-in labels and image, or the app's own
/// subviews), an accessory at the trailing edge, and the separator along the bottom (inset
/// ``separatorInset``; the table decides whether it shows).
///
/// Built-in styles, laid out in the content view inside the system margins (16 pt; 20 on screens 414
/// points wide or wider, as UIKit's): `.default` (the text label),
/// `.value1` (text at the leading edge, detail at the trailing edge in the secondary label colour),
/// `.value2` (a short tinted text label, detail beside it), `.subtitle` (text over detail). Fonts are
/// iOS 14's list-cell fonts: the body style (17 pt) for text and values, the subheadline style (15 pt) for
/// a subtitle.
///
/// What differs from UIKit: `init(style:reuseIdentifier:)` is `required` here, because Swift on Linux
/// can make a registered class (`register(_:forCellReuseIdentifier:)`) only through a required
/// initializer; a subclass overrides it as `required init(style:reuseIdentifier:)` (`smokescreen render`'s
/// source pass writes `required` for `override init(style:reuseIdentifier:)`). In editing mode the cell
/// shows its editing control (a red minus or a green plus disc) at the leading edge with its content
/// indented, and the reorder control at the trailing edge when its row can move (``setEditing(_:animated:)``);
/// its table slides it aside to show swipe actions.
open class UITableViewCell: UIView {
    /// The built-in layouts, with UIKit's raw values.
    public enum CellStyle: Int, Sendable {
        case `default` = 0, value1, value2, subtitle
    }

    /// What the cell shows at its trailing edge, with UIKit's raw values.
    public enum AccessoryType: Int, Sendable {
        case none = 0, disclosureIndicator, detailDisclosureButton, checkmark, detailButton
    }

    /// How the cell looks while highlighted or selected: `.none` shows nothing; the others the
    /// selected background (`systemGray4`, as iOS 13 and later draw every style).
    public enum SelectionStyle: Int, Sendable {
        case none = 0, blue, gray, `default`
    }

    /// The editing control a row shows in editing mode, with UIKit's raw values: none, the delete control
    /// (a red minus disc), the insert control (a green plus disc).
    public enum EditingStyle: Int, Sendable {
        case none = 0, delete, insert
    }

    /// The separator's visibility, as UIKit's `UITableViewCell.SeparatorStyle`.
    public typealias SeparatorStyle = UITableView.SeparatorStyle

    /// The identifier the table dequeues it by.
    public let reuseIdentifier: String?
    /// The built-in layout chosen at creation.
    public let style: CellStyle
    /// What the row shows: add subviews here (the built-in labels and image are in it).
    public let contentView: UIView

    private var _textLabel: UILabel?
    private var _detailTextLabel: UILabel?
    private var _imageView: UIImageView?
    private let separatorView = UIView(frame: .zero)
    private let accessoryHolder = TableAccessoryView(frame: .zero)
    /// The editing control, the reorder control and the editing accessory, made the first time the cell
    /// edits.
    private var editingControl: UIImageView?
    private var reorderControl: UIImageView?
    private var editingAccessoryHolder: TableAccessoryView?

    /// Made when the cell is created, with UIKit's defaults for `style`.
    public required init(style: CellStyle, reuseIdentifier: String?) {
        self.style = style
        self.reuseIdentifier = reuseIdentifier
        // One pixel at @1x under the content view for the separator until the table says its scale; the
        // content view follows the cell's size at once (its constraints never see a stale height).
        contentView = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 43))
        contentView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        super.init(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
        contentView.backgroundColor = nil
        contentView.isOpaque = false
        contentView.layoutMargins = UIEdgeInsets(top: 11, left: margin, bottom: 11, right: margin)
        contentView.preservesSuperviewLayoutMargins = false
        selectedBackgroundView = Self.defaultSelectedBackground()
        separatorView.isUserInteractionEnabled = false
        separatorView.backgroundColor = .separator
        addSubview(contentView)
        addSubview(accessoryHolder)
        addSubview(separatorView)
        backgroundColor = .systemBackground
        usesTableBackground = true
    }

    /// A cell of the default style.
    public convenience override init(frame: CGRect) {
        self.init(style: .default, reuseIdentifier: nil)
        self.frame = frame
    }

    public required init?(coder: NSCoder) { nil }

    private static func defaultSelectedBackground() -> UIView {
        let view = UIView(frame: .zero)
        view.backgroundColor = .systemGray4
        return view
    }

    /// Whether the background colour is still the one the table gives its cells (the app set none).
    var usesTableBackground = false

    open override var backgroundColor: UIColor? {
        get { super.backgroundColor }
        set { super.backgroundColor = newValue; usesTableBackground = false }
    }

    /// The table style whose default background the cell shows (set once per style, not every frame).
    private var tableBackgroundStyle: UITableView.Style?

    /// The default background of a table of `style` (plain: `systemBackground`, grouped:
    /// `secondarySystemGroupedBackground`), unless the app set one.
    func applyTableBackground(for style: UITableView.Style) {
        guard usesTableBackground, tableBackgroundStyle != style else { return }
        tableBackgroundStyle = style
        super.backgroundColor = style == .plain ? .systemBackground : .secondarySystemGroupedBackground
    }

    // MARK: Built-in content

    /// The main text; made (and added to the content view) on first use.
    open var textLabel: UILabel? {
        if let label = _textLabel { return label }
        let label = UILabel(frame: .zero)
        label.font = style == .value2 ? .systemFont(ofSize: 15, weight: .semibold) : .preferredFont(forTextStyle: .body)
        if style == .value2 { label.textColor = .tintColor; label.textAlignment = .right }
        contentView.addSubview(label)
        _textLabel = label
        setNeedsLayout()
        return label
    }

    /// The secondary text of the `.value1`, `.value2` and `.subtitle` styles; nil for `.default`.
    open var detailTextLabel: UILabel? {
        guard style != .default else { return nil }
        if let label = _detailTextLabel { return label }
        let label = UILabel(frame: .zero)
        switch style {
        case .subtitle:
            label.font = .preferredFont(forTextStyle: .subheadline)
            label.textColor = .secondaryLabel
        case .value1:
            label.font = .preferredFont(forTextStyle: .body)
            label.textColor = .secondaryLabel
            label.textAlignment = .right
        default:
            label.font = .systemFont(ofSize: 15)
        }
        contentView.addSubview(label)
        _detailTextLabel = label
        setNeedsLayout()
        return label
    }

    /// The leading image; made on first use.
    open var imageView: UIImageView? {
        if let view = _imageView { return view }
        let view = UIImageView(frame: .zero)
        view.contentMode = .scaleAspectFit
        contentView.addSubview(view)
        _imageView = view
        setNeedsLayout()
        return view
    }

    // MARK: Content configuration

    /// iOS 14's content: a configuration whose view fills the content view (the built-in labels are then
    /// not made). Setting one of the same kind again updates the view in place.
    open var contentConfiguration: UIContentConfiguration? {
        didSet { installContentConfiguration() }
    }
    /// Whether the configuration is updated for the cell's state (kept; configurations here do not change with state).
    open var automaticallyUpdatesContentConfiguration = true
    /// The cell's state (selection and highlight).
    open var configurationState: UICellConfigurationState {
        var state = UICellConfigurationState()
        state.isSelected = isSelected
        state.isHighlighted = isHighlighted
        state.isEditing = isEditing
        return state
    }
    private var configuredView: (UIView & UIContentView)?

    /// A list configuration for the cell's style: `.cell()`, `.subtitleCell()` or `.valueCell()`.
    open func defaultContentConfiguration() -> UIListContentConfiguration {
        switch style {
        case .default: return .cell()
        case .subtitle: return .subtitleCell()
        case .value1, .value2: return .valueCell()
        }
    }

    private func installContentConfiguration() {
        configuredView = contentView.installContent(contentConfiguration, replacing: configuredView)
        setNeedsLayout()
    }

    // MARK: Accessory, backgrounds, separator

    /// Default `.none`.
    open var accessoryType = AccessoryType.none {
        didSet {
            accessoryHolder.type = accessoryType
            setNeedsLayout()
        }
    }
    /// A view shown in place of the accessory type, at its own size, centred vertically.
    open var accessoryView: UIView? {
        didSet {
            oldValue?.removeFromSuperview()
            if let accessoryView { addSubview(accessoryView) }
            setNeedsLayout()
        }
    }
    /// The accessory shown in editing mode in place of ``accessoryType`` (default `.none`).
    open var editingAccessoryType = AccessoryType.none { didSet { setNeedsLayout() } }
    /// A view shown in editing mode in place of the accessory, at its own size.
    open var editingAccessoryView: UIView? {
        didSet {
            oldValue?.removeFromSuperview()
            if let editingAccessoryView {
                // Hidden until the cell edits (then it fades in where the accessory was).
                if !editingState { editingAccessoryView.alpha = 0 }
                addSubview(editingAccessoryView)
            }
            setNeedsLayout()
        }
    }
    /// Default `.default`.
    open var selectionStyle = SelectionStyle.default
    /// Behind the content; nil shows the cell's background colour.
    open var backgroundView: UIView? {
        didSet { oldValue?.removeFromSuperview(); setNeedsLayout(); arrangeBackgrounds() }
    }
    /// Shown over the background while highlighted or selected (default `systemGray4`).
    open var selectedBackgroundView: UIView? {
        didSet { oldValue?.removeFromSuperview(); setNeedsLayout(); arrangeBackgrounds(); showSelectionState() }
    }
    /// Shown instead of ``selectedBackgroundView`` when the table allows multiple selection.
    open var multipleSelectionBackgroundView: UIView?
    /// The side margin of the built-in content and the accessory (points): the system margin of the
    /// screen (16, or 20 on screens 414 points wide or wider).
    private var margin: CGFloat { UIScreen.main.systemMargin }

    /// Points from the cell's edges to its separator (only left and right count). Default the system
    /// margin on the left (16 pt; 20 on screens 414 points wide or wider).
    open var separatorInset = UIEdgeInsets(top: 0, left: UIScreen.main.systemMargin, bottom: 0, right: 0) { didSet { ownsSeparatorInset = true; setNeedsLayout() } }
    /// Whether the app set ``separatorInset`` (else the table's applies).
    private var ownsSeparatorInset = false
    /// Accepted; indentation is not applied.
    open var indentationLevel = 0
    open var indentationWidth: CGFloat = 10
    /// Whether the cell shows editing mode. Setting it is `setEditing(_:animated: false)`.
    open var isEditing: Bool {
        get { editingState }
        set { setEditing(newValue, animated: false) }
    }
    private var editingState = false
    /// Enters or leaves editing mode: the editing control slides in from the leading edge (or out) as the
    /// content moves aside by ``editingIndentation``, the reorder control slides in from the trailing edge,
    /// and the editing accessory takes the accessory's place; animated over 0.3 s (estimated: Apple
    /// publishes no figure), or the enclosing animation's duration inside one. The table sets it for its
    /// cells (`UITableView.setEditing(_:animated:)`), with the row's editing style and whether it moves.
    open func setEditing(_ editing: Bool, animated: Bool) {
        // The controls are made where they slide in from, before the change is animated.
        if editing, editingControl == nil { UIView.performWithoutAnimation { makeEditingControls(); layoutIfNeeded() } }
        let changes = editing != editingState
        var next = shownStates
        if editing { next.insert(.showingEditControl) } else { next.remove(.showingEditControl) }
        if changes { willTransition(to: next) }
        editingState = editing
        if animated {
            UIView.animate(withDuration: 0.3, delay: 0, options: [.beginFromCurrentState, .allowUserInteraction], animations: {
                self.setNeedsLayout()
                self.layoutIfNeeded()
            }, completion: { _ in if changes { self.didTransition(to: next) } })
        } else {
            UIView.performWithoutAnimation {
                setNeedsLayout()
                layoutIfNeeded()
            }
            if changes { didTransition(to: next) }
        }
    }

    /// The states a cell shows in editing mode, as UIKit names them (its raw values).
    public struct StateMask: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// In editing mode.
        public static let showingEditControl = StateMask(rawValue: 1 << 0)
        /// Showing the Delete confirmation.
        public static let showingDeleteConfirmation = StateMask(rawValue: 1 << 1)
    }

    /// Whether the cell shows its Delete confirmation (after a tap on its delete control in editing mode).
    open var showingDeleteConfirmation: Bool { deleteConfirmationState }
    private var deleteConfirmationState = false

    /// Called as the cell's states change (``StateMask``: entering or leaving editing mode, the Delete
    /// confirmation showing or going), with the states it moves to; ``didTransition(to:)`` follows once
    /// the change has ended (after its animation). Subclasses override them to change their look alongside.
    open func willTransition(to state: StateMask) {}
    open func didTransition(to state: StateMask) {}

    private var shownStates: StateMask {
        var states: StateMask = []
        if editingState { states.insert(.showingEditControl) }
        if deleteConfirmationState { states.insert(.showingDeleteConfirmation) }
        return states
    }

    /// The table shows or takes away the cell's Delete confirmation.
    func setShowsDeleteConfirmation(_ shown: Bool) {
        guard shown != deleteConfirmationState else { return }
        var next = shownStates
        if shown { next.insert(.showingDeleteConfirmation) } else { next.remove(.showingDeleteConfirmation) }
        willTransition(to: next)
        deleteConfirmationState = shown
        didTransition(to: next)
    }
    /// Whether the reorder control shows in editing mode. Default false; the table shows it anyway for rows
    /// its data source's `canMoveRowAt` allows to move.
    open var showsReorderControl = false { didSet { setNeedsLayout() } }
    /// Whether the content is indented in editing mode. Default true.
    open var shouldIndentWhileEditing = true { didSet { setNeedsLayout() } }
    open var focusStyle = 0

    /// Points of the cell's sides the table's safe area leaves out (a phone in landscape: the island's),
    /// which the content view, the accessory, the controls and the table's separator inset keep clear of
    /// (`insetsContentViewsToSafeArea`). Set by the table.
    var tableSafeSides: (left: CGFloat, right: CGFloat) = (0, 0) {
        didSet { if tableSafeSides != oldValue { setNeedsLayout() } }
    }

    /// What the table says about the separator under this cell: whether it shows, its colour and the
    /// table's insets (the cell's own ``separatorInset`` wins when the app set one).
    var tableSeparator = TableSeparator(shows: true, color: nil, hairline: 1, inset: UIEdgeInsets(top: 0, left: UIScreen.main.systemMargin, bottom: 0, right: 0)) {
        didSet {
            guard tableSeparator != oldValue else { return }
            if tableSeparator.hairline != oldValue.hairline { placeContentView() }
            setNeedsLayout()
        }
    }

    // MARK: Selection

    /// Whether the cell shows selected. Setting it is `setSelected(_:animated: false)`.
    open var isSelected: Bool {
        get { selectedState }
        set { setSelected(newValue, animated: false) }
    }
    private var selectedState = false
    /// Whether the cell shows highlighted (a finger is down on it).
    open var isHighlighted: Bool {
        get { highlightedState }
        set { setHighlighted(newValue, animated: false) }
    }
    private var highlightedState = false
    /// Whether the table has shown the cell since it last came from the data source (`willDisplay`
    /// was sent).
    var displayed = false
    /// Set by the table while it shows the cell's separator hidden beside a highlighted row.
    var onSelectionChange: ((UITableViewCell) -> Void)?

    /// Shows the selected state; animated, the selected background fades over UIKit's 0.25 s (or the
    /// enclosing animation's duration, inside one).
    open func setSelected(_ selected: Bool, animated: Bool) {
        selectedState = selected
        changeSelectionState(animated: animated)
    }

    /// Shows the highlighted state (while a finger is down on the row).
    open func setHighlighted(_ highlighted: Bool, animated: Bool) {
        highlightedState = highlighted
        changeSelectionState(animated: animated)
    }

    private func changeSelectionState(animated: Bool) {
        if animated {
            UIView.animate(withDuration: 0.25, delay: 0, options: [.beginFromCurrentState, .allowUserInteraction], animations: { self.showSelectionState() })
        } else {
            UIView.performWithoutAnimation { showSelectionState() }
        }
        onSelectionChange?(self)
    }

    private func showSelectionState() {
        let shows = (selectedState || highlightedState) && selectionStyle != .none
        selectedBackgroundView?.alpha = shows ? 1 : 0
        for label in [_textLabel, _detailTextLabel].compactMap({ $0 }) { label.isHighlighted = shows }
        if tableSelectsMultipleWhileEditing { updateEditingControl() }
    }

    /// Resets the cell before the table reuses it: out of the highlighted and selected states, fully
    /// opaque, untransformed. Subclasses override it to reset their own state and call `super`.
    open func prepareForReuse() {
        UIView.performWithoutAnimation {
            alpha = 1
            transform = .identity
            highlightedState = false
            selectedState = false
            deleteConfirmationState = false
            showSelectionState()
        }
    }

    // MARK: Editing

    /// Points the content moves aside in editing mode (UIKit's 38).
    public static let editingIndentation: CGFloat = 38
    /// The editing style the table gives the row (its delegate's `editingStyleForRowAt`).
    var tableEditingStyle = EditingStyle.none { didSet { if tableEditingStyle != oldValue { updateEditingControl(); setNeedsLayout() } } }
    /// Whether the table's delegate lets the row indent (`shouldIndentWhileEditingRowAt`).
    var tableIndentsWhileEditing = true { didSet { setNeedsLayout() } }
    /// Whether the table's data source lets the row move (`canMoveRowAt`).
    var tableShowsReorderControl = false { didSet { setNeedsLayout() } }
    /// Whether the table selects several rows in editing mode (`allowsMultipleSelectionDuringEditing`): an
    /// editable row shows a selection circle instead of its editing style's control.
    var tableSelectsMultipleWhileEditing = false { didSet { if tableSelectsMultipleWhileEditing != oldValue { updateEditingControl(); setNeedsLayout() } } }

    private func makeEditingControls() {
        if editingAccessoryHolder == nil {
            let holder = TableAccessoryView(frame: .zero)
            holder.alpha = 0
            insertSubview(holder, aboveSubview: accessoryHolder)
            editingAccessoryHolder = holder
        }
        if editingControl == nil {
            let control = UIImageView(frame: .zero)
            control.contentMode = .center
            control.isUserInteractionEnabled = false
            control.alpha = 0
            insertSubview(control, aboveSubview: contentView)
            editingControl = control
            updateEditingControl()
        }
        if reorderControl == nil {
            let control = UIImageView(image: UIImage(systemName: "line.3.horizontal", withConfiguration: UIImage.SymbolConfiguration(pointSize: 17)))
            control.tintColor = .tertiaryLabel
            control.contentMode = .center
            control.isUserInteractionEnabled = false
            control.alpha = 0
            insertSubview(control, aboveSubview: contentView)
            reorderControl = control
        }
    }

    private func updateEditingControl() {
        guard let editingControl else { return }
        let configuration = UIImage.SymbolConfiguration(pointSize: 22)
        if tableSelectsMultipleWhileEditing, tableEditingStyle != .none {
            // A grey ring; once the row is selected a disc in the tint with a white check mark (white behind
            // the symbol's cut-out check, whatever the selected background).
            editingControl.image = UIImage(systemName: selectedState ? "checkmark.circle.fill" : "circle", withConfiguration: configuration)
            editingControl.tintColor = selectedState ? tintColor : .systemGray3
            editingControl.backgroundColor = selectedState ? .white : nil
            editingControl.layer.cornerRadius = 11
            return
        }
        editingControl.backgroundColor = nil
        switch tableEditingStyle {
        case .delete:
            editingControl.image = UIImage(systemName: "minus.circle.fill", withConfiguration: configuration)
            editingControl.tintColor = .systemRed
        case .insert:
            editingControl.image = UIImage(systemName: "plus.circle.fill", withConfiguration: configuration)
            editingControl.tintColor = .systemGreen
        case .none:
            editingControl.image = nil
        }
    }

    /// Points the content moves aside now: ``editingIndentation`` in editing mode when the cell and the
    /// table let it indent.
    private var leadingIndent: CGFloat {
        editingState && shouldIndentWhileEditing && tableIndentsWhileEditing ? Self.editingIndentation : 0
    }

    /// Whether the reorder control shows now.
    var showsReorderNow: Bool { editingState && (showsReorderControl || tableShowsReorderControl) }

    /// The editing and reorder controls at their places: in editing mode inside the cell, otherwise just
    /// outside it (where they slide from), transparent.
    private func placeEditingControls(height: CGFloat) {
        let side: CGFloat = 22
        if let editingControl {
            let shown = editingState && tableEditingStyle != .none
            let x = tableSafeSides.left + margin - 2 - (shown ? 0 : Self.editingIndentation)
            editingControl.frame = CGRect(x: x, y: ((height - side) / 2).rounded(), width: side, height: side)
            editingControl.alpha = shown ? 1 : 0
        }
        if let reorderControl {
            let shown = showsReorderNow
            let width = Self.editingIndentation
            reorderControl.frame = CGRect(x: bounds.width - tableSafeSides.right - width + (shown ? 0 : width), y: 0, width: width, height: height)
            reorderControl.alpha = shown ? 1 : 0
        }
    }

    // MARK: Layout

    /// The accessory's size (points), zero without one: in editing mode the editing accessory's (the
    /// reorder control takes its place when it shows).
    private var accessorySize: CGSize {
        if editingState {
            if showsReorderNow { return .zero }
            if let editingAccessoryView { return editingAccessoryView.bounds.size }
            return TableAccessoryView.size(of: editingAccessoryType)
        }
        if let accessoryView { return accessoryView.bounds.size }
        return TableAccessoryView.size(of: accessoryType)
    }

    /// The content view's width in a cell `width` points wide: the editing indentation, the reorder control
    /// and the accessory with its margins taken off.
    private func contentWidth(forCellWidth width: CGFloat) -> CGFloat {
        let accessory = accessorySize
        var available = width - leadingIndent - (showsReorderNow ? Self.editingIndentation : 0)
        if accessory.width > 0 { available -= accessory.width + margin + 8 }
        return max(0, available)
    }

    /// Places the backgrounds, content view, accessory and separator, and the built-in labels and image
    /// in the content view. Call `super` when you override it.
    open override func layoutSubviews() {
        super.layoutSubviews()
        let size = bounds.size
        backgroundView?.frame = CGRect(origin: .zero, size: size)
        selectedBackgroundView?.frame = CGRect(origin: .zero, size: size)
        arrangeBackgrounds()
        let hairline = tableSeparator.hairline
        let contentFrame = placeContentView()
        let contentHeight = contentFrame.height
        placeAccessories(height: contentHeight)
        placeEditingControls(height: contentHeight)
        separatorView.isHidden = !tableSeparator.shows
        if let color = tableSeparator.color { separatorView.backgroundColor = color }
        // (The table's inset counts from the safe area's sides; one the app set, from the cell's edges.)
        let inset = ownsSeparatorInset ? separatorInset : tableSeparator.inset
        let safeLeft = ownsSeparatorInset ? 0 : tableSafeSides.left, safeRight = ownsSeparatorInset ? 0 : tableSafeSides.right
        let left = safeLeft + inset.left + leadingIndent, right = safeRight + inset.right
        separatorView.frame = CGRect(x: left, y: size.height - hairline, width: max(0, size.width - left - right), height: hairline)
        layoutBuiltInContent(in: contentFrame.size)
    }

    /// The accessory and the editing accessory (a view, else the type's drawing) at the trailing edge, each
    /// opaque in its own mode and transparent in the other, so that a change of mode cross-fades them; the
    /// reorder control takes the editing accessory's place.
    private func placeAccessories(height: CGFloat) {
        func frame(for size: CGSize) -> CGRect {
            CGRect(x: bounds.width - tableSafeSides.right - margin - size.width, y: (height - size.height) / 2, width: size.width, height: size.height)
        }
        func show(_ view: UIView, _ shown: Bool) { if view.alpha != (shown ? 1 : 0) { view.alpha = shown ? 1 : 0 } }
        if accessoryHolder.type != accessoryType { accessoryHolder.type = accessoryType }
        if let accessoryView {
            accessoryView.frame = frame(for: accessoryView.bounds.size)
            accessoryHolder.frame = .zero
            // (Left as the app set it until the cell first edits.)
            if editingAccessoryHolder != nil { show(accessoryView, !editingState) }
        } else {
            accessoryHolder.frame = frame(for: TableAccessoryView.size(of: accessoryType))
        }
        show(accessoryHolder, !editingState)
        guard let editingAccessoryHolder else { return }
        let editingType = showsReorderControl || tableShowsReorderControl ? .none : editingAccessoryType
        if editingAccessoryHolder.type != editingType { editingAccessoryHolder.type = editingType }
        if let editingAccessoryView {
            editingAccessoryView.frame = frame(for: editingAccessoryView.bounds.size)
            editingAccessoryHolder.frame = .zero
            show(editingAccessoryView, editingState && !(showsReorderControl || tableShowsReorderControl))
        } else {
            editingAccessoryHolder.frame = frame(for: TableAccessoryView.size(of: editingType))
        }
        show(editingAccessoryHolder, editingState)
    }

    /// Sizes the content view: the cell less the accessory and the separator's pixel.
    @discardableResult
    private func placeContentView() -> CGRect {
        let size = bounds.size
        let sides = tableSafeSides
        let frame = CGRect(x: sides.left + leadingIndent, y: 0, width: contentWidth(forCellWidth: max(0, size.width - sides.left - sides.right)),
                           height: max(0, size.height - tableSeparator.hairline))
        if contentView.frame != frame { contentView.frame = frame }
        return frame
    }

    /// Puts the backgrounds at the back, the selected one above the other.
    private func arrangeBackgrounds() {
        if let selectedBackgroundView, selectedBackgroundView.superview !== self || subviews.first !== (backgroundView ?? selectedBackgroundView) {
            insertSubview(selectedBackgroundView, at: 0)
            UIView.performWithoutAnimation { showSelectionState() }
        }
        if let backgroundView, backgroundView.superview !== self || subviews.first !== backgroundView { insertSubview(backgroundView, at: 0) }
    }

    /// The built-in labels and image in a content view of `size`.
    private func layoutBuiltInContent(in size: CGSize) {
        var x = margin
        let right = size.width - margin
        if let imageView = _imageView, let image = imageView.image {
            let side = min(max(0, size.height - 8), image.size.height)
            let width = image.size.height > 0 ? min(image.size.width * side / image.size.height, 60) : 0
            imageView.frame = CGRect(x: x, y: (size.height - side) / 2, width: width, height: side)
            x += width + 12
        } else {
            _imageView?.frame = CGRect(x: x, y: size.height / 2, width: 0, height: 0)
        }
        let available = max(0, right - x)
        switch style {
        case .default:
            _textLabel?.frame = CGRect(x: x, y: 0, width: available, height: size.height)
        case .value1:
            let detail = _detailTextLabel?.sizeThatFits(CGSize(width: available, height: 0)) ?? .zero
            let detailWidth = min(available, detail.width)
            _detailTextLabel?.frame = CGRect(x: right - detailWidth, y: 0, width: detailWidth, height: size.height)
            _textLabel?.frame = CGRect(x: x, y: 0, width: max(0, available - detailWidth - (detailWidth > 0 ? 8 : 0)), height: size.height)
        case .value2:
            let textWidth = (available * 0.3).rounded()
            _textLabel?.frame = CGRect(x: x, y: 0, width: textWidth, height: size.height)
            _detailTextLabel?.frame = CGRect(x: x + textWidth + 6, y: 0, width: max(0, available - textWidth - 6), height: size.height)
        case .subtitle:
            let text = _textLabel?.sizeThatFits(CGSize(width: available, height: 0)) ?? .zero
            let detail = _detailTextLabel?.sizeThatFits(CGSize(width: available, height: 0)) ?? .zero
            let gap: CGFloat = text.height > 0 && detail.height > 0 ? 3 : 0
            let top = ((size.height - text.height - gap - detail.height) / 2).rounded()
            _textLabel?.frame = CGRect(x: x, y: top, width: available, height: text.height)
            _detailTextLabel?.frame = CGRect(x: x, y: top + text.height + gap, width: available, height: detail.height)
        }
    }

    /// The height a self-sizing row gives this cell at `width` points (the table's width): the content
    /// view's constraints plus the separator's hairline when its subviews are laid out by Auto Layout,
    /// else ``sizeThatFits(_:)`` (UIKit's rule for cells without constraints).
    func selfSizingHeight(forWidth width: CGFloat) -> CGFloat {
        let hairline = tableSeparator.hairline
        if contentView.hasConstraintLaidOutContent {
            let fitted = contentView.systemLayoutSizeFitting(CGSize(width: contentWidth(forCellWidth: width), height: 0),
                                                             withHorizontalFittingPriority: .required, verticalFittingPriority: .fittingSizeLevel)
            // Constraints that leave the height open fit nothing: the table gives such a row 44 (logged).
            return fitted.height > 0 ? fitted.height + hairline : 0
        }
        return sizeThatFits(CGSize(width: width, height: 0)).height
    }

    /// The content configuration's height (else the built-in labels' text with 11-pt margins above and
    /// below) at `size.width`, and the separator's hairline, at least 44 pt (UIKit's minimum for its own
    /// styles). Override it to size a cell
    /// laid out without constraints.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        let width = contentWidth(forCellWidth: size.width)
        let content = configuredView.map { $0.sizeThatFits(CGSize(width: width, height: 0)).height } ?? builtInHeight(contentWidth: width)
        return CGSize(width: size.width, height: max(44, content + tableSeparator.hairline))
    }

    private func builtInHeight(contentWidth cw: CGFloat) -> CGFloat {
        var x = margin
        if let image = _imageView?.image, image.size.height > 0 { x += min(image.size.width * min(36, image.size.height) / image.size.height, 60) + 12 }
        let available = max(0, cw - margin - x)
        let text = _textLabel?.sizeThatFits(CGSize(width: available, height: 0)).height ?? 0
        let detail = _detailTextLabel?.sizeThatFits(CGSize(width: available, height: 0)).height ?? 0
        let body: CGFloat
        switch style {
        case .subtitle: body = text + (text > 0 && detail > 0 ? 3 : 0) + detail
        default: body = max(text, detail)
        }
        return (body + 22).rounded(.up)
    }
}

/// What a table says about the separator under one of its cells.
struct TableSeparator: Equatable {
    var shows: Bool
    var color: UIColor?
    /// Points taken from the bottom of the cell for the separator, shown or not: one device pixel (0 when
    /// the table draws no separators).
    var hairline: CGFloat
    /// The table's separator inset.
    var inset: UIEdgeInsets

    static func == (a: TableSeparator, b: TableSeparator) -> Bool {
        a.shows == b.shows && a.color === b.color && a.hairline == b.hairline && a.inset == b.inset
    }
}

extension UIView {
    /// Whether any view under this one is laid out by constraints.
    var hasConstraintLaidOutContent: Bool {
        subviews.contains { !$0.translatesAutoresizingMaskIntoConstraints || $0.hasConstraintLaidOutContent }
    }
}

/// The disclosure chevron, checkmark or detail button a cell draws at its trailing edge: strokes with
/// round caps and joins, as iOS draws them (the chevron in the tertiary label colour, the checkmark in
/// the tint), and the info symbol (in the tint) for the detail button, 12 points before the chevron.
final class TableAccessoryView: UIView {
    private let shape = CAShapeLayer()
    /// The detail button's info symbol (22 points, in the tint colour).
    private let info = UIImageView(image: UIImage(systemName: "info.circle", withConfiguration: UIImage.SymbolConfiguration(pointSize: 20)))

    var type = UITableViewCell.AccessoryType.none {
        didSet { updateShape() }
    }

    override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
        isUserInteractionEnabled = false
        shape.fillColor = nil
        shape.lineWidth = 2
        shape.lineCap = .round
        shape.lineJoin = .round
        layer.addSublayer(shape)
        info.contentMode = .center
        addSubview(info)
    }

    required init?(coder: NSCoder) { nil }

    /// Points.
    static func size(of type: UITableViewCell.AccessoryType) -> CGSize {
        switch type {
        case .none: return .zero
        case .disclosureIndicator: return CGSize(width: 8, height: 13)
        case .detailDisclosureButton: return CGSize(width: 22 + 12 + 8, height: 22)
        case .checkmark: return CGSize(width: 14, height: 11)
        case .detailButton: return CGSize(width: 22, height: 22)
        }
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        updateShape()
    }

    private func updateShape() {
        var b = bounds
        shape.frame = b
        // The detail button: the info symbol at the leading end (alone, or before the chevron).
        info.isHidden = type != .detailButton && type != .detailDisclosureButton
        info.frame = CGRect(x: b.minX, y: b.midY - 11, width: 22, height: 22)
        if type == .detailDisclosureButton { b = CGRect(x: b.maxX - 8, y: b.midY - 6.5, width: 8, height: 13) }
        let path = UIBezierPath()
        switch type {
        case .none, .detailButton:
            shape.path = nil
            return
        case .disclosureIndicator, .detailDisclosureButton:
            path.move(to: CGPoint(x: b.minX + 1.5, y: b.minY + 1.5))
            path.addLine(to: CGPoint(x: b.maxX - 1.5, y: b.midY))
            path.addLine(to: CGPoint(x: b.minX + 1.5, y: b.maxY - 1.5))
            shape.strokeColor = UIColor.tertiaryLabel.cgColor
        case .checkmark:
            path.move(to: CGPoint(x: b.minX + 1, y: b.minY + b.height * 0.55))
            path.addLine(to: CGPoint(x: b.minX + b.width * 0.36, y: b.maxY - 1))
            path.addLine(to: CGPoint(x: b.maxX - 1, y: b.minY + 1))
            shape.strokeColor = tintColor.cgColor
        }
        shape.path = path.cgPath
    }
}
