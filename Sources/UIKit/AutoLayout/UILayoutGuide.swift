/// What constraints can relate: views and layout guides. A layout item's frame variables live in its
/// parent's coordinate space: a view's superview, a guide's owning view.
protocol LayoutItem: AnyObject {
    /// The view whose coordinate space the item's frame is in.
    var layoutParent: UIView? { get }
}

/// A rectangle in a view's coordinate space that takes part in Auto Layout without being a view: the
/// empty space between views, a column to line things up on. UIKit's `UILayoutGuide`; the safe area,
/// layout margins and readable content guides of a view are guides too.
open class UILayoutGuide: NSObject, LayoutItem {
    /// The view the guide belongs to (set by ``UIView/addLayoutGuide(_:)``).
    open internal(set) weak var owningView: UIView?
    /// A name for logs. Default "".
    open var identifier = ""
    /// What the guide lays out by (a system guide's edges follow its view; a guide of your own, its
    /// constraints).
    enum Role { case custom, safeArea, layoutMargins, readableContent, scrollContent, scrollFrame }
    var role = Role.custom

    public override init() { super.init() }
    public required init?(coder: NSCoder) { nil }

    var layoutParent: UIView? { owningView }

    /// The guide's rectangle in its owning view's coordinates (points), as the last layout pass solved it.
    open var layoutFrame: CGRect {
        guard let owningView else { return .zero }
        return LayoutEngine.solvedFrame(of: self) ?? LayoutEngine.systemGuideFrame(self, in: owningView) ?? .zero
    }

    public var leadingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .leading) }
    public var trailingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .trailing) }
    public var leftAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .left) }
    public var rightAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .right) }
    public var topAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .top) }
    public var bottomAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .bottom) }
    public var widthAnchor: NSLayoutDimension { NSLayoutDimension(item: self, attribute: .width) }
    public var heightAnchor: NSLayoutDimension { NSLayoutDimension(item: self, attribute: .height) }
    public var centerXAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .centerX) }
    public var centerYAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .centerY) }

    /// Whether the guide's frame is not fixed by its constraints along `axis`.
    open var hasAmbiguousLayout: Bool {
        LayoutEngine.isAmbiguous(self, vertical: false) || LayoutEngine.isAmbiguous(self, vertical: true)
    }

    open override var description: String {
        "<UILayoutGuide: layoutFrame = \(layoutFrame), identifier = '\(identifier)'>"
    }
}

/// iOS 7's top and bottom layout guides (`topLayoutGuide`, `bottomLayoutGuide`): the part of a
/// controller's view the bars cover.
public protocol UILayoutSupport: NSObjectProtocol {
    /// Points: the safe area's inset at that edge.
    var length: CGFloat { get }
    var topAnchor: NSLayoutYAxisAnchor { get }
    var bottomAnchor: NSLayoutYAxisAnchor { get }
    var heightAnchor: NSLayoutDimension { get }
}

/// A controller's top or bottom layout guide: a guide of its view from the view's edge to the safe area's.
final class ControllerLayoutSupport: NSObject, UILayoutSupport {
    private weak var view: UIView?
    private let top: Bool
    private lazy var guide: UILayoutGuide = {
        let guide = UILayoutGuide()
        guide.identifier = top ? "_UIViewControllerTopLayoutGuide" : "_UIViewControllerBottomLayoutGuide"
        guard let view else { return guide }
        view.addLayoutGuide(guide)
        let safe = view.safeAreaLayoutGuide
        NSLayoutConstraint.activate(top
            ? [guide.topAnchor.constraint(equalTo: view.topAnchor), guide.bottomAnchor.constraint(equalTo: safe.topAnchor),
               guide.leadingAnchor.constraint(equalTo: view.leadingAnchor), guide.trailingAnchor.constraint(equalTo: view.trailingAnchor)]
            : [guide.topAnchor.constraint(equalTo: safe.bottomAnchor), guide.bottomAnchor.constraint(equalTo: view.bottomAnchor),
               guide.leadingAnchor.constraint(equalTo: view.leadingAnchor), guide.trailingAnchor.constraint(equalTo: view.trailingAnchor)])
        return guide
    }()

    init(view: UIView, top: Bool) {
        self.view = view
        self.top = top
        super.init()
    }

    var length: CGFloat { top ? view?.safeAreaInsets.top ?? 0 : view?.safeAreaInsets.bottom ?? 0 }
    var topAnchor: NSLayoutYAxisAnchor { guide.topAnchor }
    var bottomAnchor: NSLayoutYAxisAnchor { guide.bottomAnchor }
    var heightAnchor: NSLayoutDimension { guide.heightAnchor }
}

extension UIViewController {
    /// The controller's top or bottom layout guide, made once.
    func layoutSupport(top: Bool) -> UILayoutSupport {
        if let made = top ? madeTopLayoutGuide : madeBottomLayoutGuide { return made }
        let support = ControllerLayoutSupport(view: view, top: top)
        if top { madeTopLayoutGuide = support } else { madeBottomLayoutGuide = support }
        return support
    }
}
