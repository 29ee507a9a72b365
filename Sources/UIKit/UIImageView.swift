package import SnapshotView

/// UIKit's image view: shows an image in its bounds as its `contentMode` says (default `.scaleToFill`).
/// Not interactive by default, as UIKit's.
open class UIImageView: UIView {
    /// The image shown; nil shows nothing.
    open var image: UIImage? { didSet { showImage() } }
    /// Shown instead of ``image`` while ``isHighlighted``.
    open var highlightedImage: UIImage? { didSet { showImage() } }
    open var isHighlighted = false { didSet { showImage() } }

    /// The image shown: the highlighted one while highlighted, a symbol drawn with
    /// ``preferredSymbolConfiguration`` merged over its own (made when one of them changes).
    private var displayedImage: UIImage?

    /// A template image (a symbol's, or `.alwaysTemplate`) is shown in the tint colour.
    private func showImage() {
        displayedImage = isHighlighted ? highlightedImage ?? image : image
        if let preferredSymbolConfiguration, let symbol = displayedImage, symbol.isSymbolImage {
            displayedImage = symbol.withConfiguration(preferredSymbolConfiguration)
            invalidateIntrinsicContentSize()
        }
        imageBacking?.image = displayedImage.flatMap { $0.isTemplate ? $0.tinted(tintColor) : $0.bitmap }
    }

    /// A view showing `image`, sized to it (points).
    public init(image: UIImage?) {
        super.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
        isUserInteractionEnabled = false
        self.image = image
        showImage()  // a class's own initializer does not run its observers
    }

    public init(image: UIImage?, highlightedImage: UIImage?) {
        super.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
        isUserInteractionEnabled = false
        self.highlightedImage = highlightedImage
        self.image = image
        showImage()
    }

    public override init(frame: CGRect) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    public required init?(coder: NSCoder) { nil }

    private var imageBacking: ImageView? { backing as? ImageView }

    package override func makeBacking() -> View {
        let view = ImageView(image: nil, frame: .zero, contentMode: .scaleToFill, name: nil)
        view.isOpaque = false
        return view
    }

    package override func contentModeDidChange() { imageBacking?.contentMode = contentMode.snapshotContentMode }

    /// The shown image's size in points (none without an image).
    open override var intrinsicContentSize: CGSize {
        displayedImage?.size ?? CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric)
    }

    open override func sizeThatFits(_ size: CGSize) -> CGSize { displayedImage?.size ?? .zero }

    /// A template image is drawn again in the new tint colour.
    open override func tintColorDidChange() { showImage() }

    override func resolveColors() {
        super.resolveColors()
        showImage()
    }

    /// Applied to the symbol images it shows (merged over each image's own; ``image`` stays as given).
    /// Default nil.
    open var preferredSymbolConfiguration: UIImage.SymbolConfiguration? { didSet { showImage() } }


    // Image animations (`animationImages`) are not run.
    open var animationImages: [UIImage]? { didSet { if animationImages != nil { NotDrawn.note("UIImageView.animationImages") } } }
    open var animationDuration: TimeInterval = 0
    open func startAnimating() {}
    open func stopAnimating() {}
    open var isAnimating: Bool { false }
}

extension UIView.ContentMode {
    var snapshotContentMode: SnapshotView.ContentMode {
        switch self {
        case .scaleToFill: .scaleToFill
        case .scaleAspectFit: .scaleAspectFit
        case .scaleAspectFill: .scaleAspectFill
        case .redraw: .redraw
        case .center: .center
        case .top: .top
        case .bottom: .bottom
        case .left: .left
        case .right: .right
        case .topLeft: .topLeft
        case .topRight: .topRight
        case .bottomLeft: .bottomLeft
        case .bottomRight: .bottomRight
        }
    }
}
