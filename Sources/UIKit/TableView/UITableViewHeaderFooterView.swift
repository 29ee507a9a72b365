/// UIKit's reusable section header or footer: a content view, and a text label drawn the way the table's
/// style draws titles (a plain table: semibold 15 pt on a #F7F7F7 bar; grouped: 13-pt secondary
/// text, capitals over a section, 16 pt in from the rows).
///
/// What differs from UIKit: `init(reuseIdentifier:)` is `required` here, for the reason
/// `UITableViewCell.init(style:reuseIdentifier:)` is.
open class UITableViewHeaderFooterView: UIView {
    /// The identifier the table dequeues it by.
    public let reuseIdentifier: String?
    /// Add the view's own subviews here.
    public let contentView = UIView(frame: .zero)
    private var _textLabel: UILabel?
    private var _detailTextLabel: UILabel?
    /// Behind the content; nil shows the style's bar (or nothing).
    open var backgroundView: UIView? {
        didSet { oldValue?.removeFromSuperview(); if let backgroundView { insertSubview(backgroundView, at: 0) }; setNeedsLayout() }
    }
    /// Set by the table that made it for a title.
    var tableStyle = UITableView.Style.plain { didSet { styleDidChange() } }
    /// Whether it is under its section (a footer's title keeps its case).
    var isFooter = false { didSet { styleDidChange() } }

    public required init(reuseIdentifier: String?) {
        self.reuseIdentifier = reuseIdentifier
        super.init(frame: CGRect(x: 0, y: 0, width: 320, height: 28))
        contentView.isOpaque = false
        addSubview(contentView)
        styleDidChange()
    }

    public required init?(coder: NSCoder) { nil }

    /// The title; made on first use.
    open var textLabel: UILabel? {
        if let label = _textLabel { return label }
        let label = UILabel(frame: .zero)
        contentView.addSubview(label)
        _textLabel = label
        styleDidChange()
        return label
    }

    /// A second line of text (accepted, laid out under the title).
    open var detailTextLabel: UILabel? {
        if let label = _detailTextLabel { return label }
        let label = UILabel(frame: .zero)
        label.font = .systemFont(ofSize: 13)
        label.textColor = .secondaryLabel
        contentView.addSubview(label)
        _detailTextLabel = label
        return label
    }

    /// iOS 14's content: a configuration whose view fills the content view.
    open var contentConfiguration: UIContentConfiguration? {
        didSet { configuredView = contentView.installContent(contentConfiguration, replacing: configuredView) }
    }
    private var configuredView: (UIView & UIContentView)?

    /// The list header (or footer) configuration of the table's style.
    open func defaultContentConfiguration() -> UIListContentConfiguration {
        switch tableStyle {
        case .plain: return isFooter ? .plainFooter() : .plainHeader()
        case .grouped, .insetGrouped: return isFooter ? .groupedFooter() : .groupedHeader()
        }
    }

    /// Resets it before the table reuses it.
    open func prepareForReuse() {}

    private func styleDidChange() {
        switch tableStyle {
        case .plain:
            backgroundColor = UIColor(red: 0xF7 / 255, green: 0xF7 / 255, blue: 0xF7 / 255, alpha: 1)
            _textLabel?.font = .systemFont(ofSize: 15, weight: .semibold)
            _textLabel?.textColor = .label
        case .grouped, .insetGrouped:
            backgroundColor = nil
            isOpaque = false
            _textLabel?.font = .systemFont(ofSize: 13)
            _textLabel?.textColor = .secondaryLabel
        }
        setNeedsLayout()
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        let size = bounds.size
        contentView.frame = CGRect(origin: .zero, size: size)
        backgroundView?.frame = CGRect(origin: .zero, size: size)
        guard let label = _textLabel else { return }
        // The title keeps out of the safe area's sides (a phone in landscape), as UIKit's, and lines up
        // with the cells' text: the system margin in (16 points, 20 on screens 414 wide or wider), and the
        // inset-grouped sections' 16-point inset besides.
        let safe = horizontalSafeSides
        let margin = UIScreen.main.systemMargin
        if tableStyle == .plain {
            label.frame = CGRect(x: safe.left + margin, y: 0, width: max(0, size.width - safe.left - safe.right - 2 * margin), height: size.height)
        } else {
            let inset: CGFloat = tableStyle == .insetGrouped ? 16 + margin : margin
            if !isFooter, let text = label.text, text != text.uppercased() { label.text = text.uppercased() }
            label.frame = CGRect(x: safe.left + inset, y: isFooter ? 6 : max(0, size.height - 25),
                                 width: max(0, size.width - safe.left - safe.right - 2 * inset), height: 18)
        }
    }
}
