/// UIKit's reusable view of a collection view: what a cell and a header or footer are.
///
/// What differs from UIKit: `init(frame:)` is `required` here, because Swift on Linux can make a
/// registered class only through a required initializer; a subclass writes `required override
/// init(frame:)` (`smokescreen render`'s source pass writes `required` for `override init(frame:)` in
/// classes whose superclass's name ends in `Cell` or `ReusableView`).
open class UICollectionReusableView: UIView {
    /// The identifier it is dequeued by.
    open internal(set) var reuseIdentifier: String?

    public required override init(frame: CGRect) {
        super.init(frame: frame)
    }

    public required init?(coder: NSCoder) { nil }

    /// Resets it before reuse; subclasses override it and call `super`.
    open func prepareForReuse() {}

    /// The layout's attributes for it, after the collection view applied the frame, transform, alpha,
    /// z-index and hidden state; subclasses override it to read their own attributes.
    open func apply(_ layoutAttributes: UICollectionViewLayoutAttributes) {}

    /// The attributes the cell wants (self-sizing); the default returns them unchanged.
    open func preferredLayoutAttributesFitting(_ layoutAttributes: UICollectionViewLayoutAttributes) -> UICollectionViewLayoutAttributes {
        layoutAttributes
    }

    /// Whether the collection view has sent `willDisplay` for it since it came from the data source.
    var displayed = false
}

/// UIKit's collection view cell: a content view (add subviews there), an optional background and
/// selected background (shown while highlighted or selected), and the highlighted and selected states.
/// It draws nothing of its own: the app's subviews are the cell.
open class UICollectionViewCell: UICollectionReusableView {
    /// What the cell shows: add subviews here.
    public let contentView: UIView
    /// Behind the content.
    open var backgroundView: UIView? {
        didSet { oldValue?.removeFromSuperview(); arrangeBackgrounds() }
    }
    /// Over the background while highlighted or selected.
    open var selectedBackgroundView: UIView? {
        didSet { oldValue?.removeFromSuperview(); arrangeBackgrounds() }
    }

    public required init(frame: CGRect) {
        contentView = UIView(frame: CGRect(origin: .zero, size: frame.size))
        super.init(frame: frame)
        contentView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        addSubview(contentView)
    }

    public required init?(coder: NSCoder) { nil }

    /// iOS 14's content: a configuration whose view fills the content view.
    open var contentConfiguration: UIContentConfiguration? {
        didSet { configuredView = contentView.installContent(contentConfiguration, replacing: configuredView) }
    }
    private var configuredView: (UIView & UIContentView)?
    open var automaticallyUpdatesContentConfiguration = true

    /// Whether the cell shows selected (the collection view sets it).
    open var isSelected = false { didSet { showState() } }
    /// Whether a finger is down on it (the collection view sets it).
    open var isHighlighted = false { didSet { showState() } }

    private func showState() {
        selectedBackgroundView?.isHidden = !(isSelected || isHighlighted)
    }

    private func arrangeBackgrounds() {
        if let selectedBackgroundView {
            selectedBackgroundView.frame = bounds
            selectedBackgroundView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            insertSubview(selectedBackgroundView, at: 0)
        }
        if let backgroundView {
            backgroundView.frame = bounds
            backgroundView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            insertSubview(backgroundView, at: 0)
        }
        showState()
    }

    open override func prepareForReuse() {
        super.prepareForReuse()
        UIView.performWithoutAnimation {
            isSelected = false
            isHighlighted = false
        }
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        contentView.frame = bounds
        backgroundView?.frame = bounds
        selectedBackgroundView?.frame = bounds
    }
}
