/// How severe an alert is (iOS 16), with Apple's raw values; kept (Mac Catalyst draws critical ones
/// differently).
public enum UIAlertControllerSeverity: Int, Sendable { case `default` = 0, critical = 1 }

/// An alert's button: a title, a style, whether it is enabled, and what it does.
open class UIAlertAction: NSObject {
    /// The styles, with Apple's raw values.
    public enum Style: Int, Sendable { case `default` = 0, cancel = 1, destructive = 2 }

    public let title: String?
    public let style: Style
    let handler: ((UIAlertAction) -> Void)?
    /// A disabled action is dimmed and cannot be tapped. Default true.
    open var isEnabled = true { didSet { onChange?() } }
    var onChange: (() -> Void)?

    public init(title: String?, style: Style, handler: ((UIAlertAction) -> Void)? = nil) {
        self.title = title
        self.style = style
        self.handler = handler
        super.init()
    }
}

/// UIKit's alert controller: an alert (centred, 270 points wide) or an action sheet (along the bottom),
/// presented with `present(_:animated:completion:)` over a dimmed screen as iOS presents it, its
/// actions' handlers run once a tapped action has dismissed it.
///
/// Alerts: a rounded card of the thick material with the title (17-pt semibold), the message (13 pt),
/// text fields, and 44-point buttons under hairlines, two side by side when they fit, else stacked (the
/// cancel action last, or first of two); it appears scaling from 1.2 to 1 as it fades in over 0.4 s and
/// fades out over 0.25 s. Action sheets: a group of 57-point rows (20-pt titles) under a header
/// (13 pt, secondary label colour), and the cancel action in a group of its own 8 points below, 8 points
/// from the screen's sides and above its bottom (or its safe area); they slide up over 0.4 s and down
/// over 0.3 s. The screen is dimmed to 20 % black. These figures are estimates from iOS's screens, not
/// published ones (docs/uikit.md, Controls).
open class UIAlertController: UIViewController {
    /// The styles, with Apple's raw values.
    public enum Style: Int, Sendable { case actionSheet = 0, alert = 1 }

    enum Metrics {
        static let alertWidth: CGFloat = 270
        static let alertCornerRadius: CGFloat = 14
        static let alertButtonHeight: CGFloat = 44
        static let sheetRowHeight: CGFloat = 57
        static let sheetCornerRadius: CGFloat = 13
        static let sheetMargin: CGFloat = 8
        static let dimming: CGFloat = 0.2
        static let alertAppear: TimeInterval = 0.4
        static let alertDisappear: TimeInterval = 0.25
        static let sheetAppear: TimeInterval = 0.4
        static let sheetDisappear: TimeInterval = 0.3
        static let alertStartScale: CGFloat = 1.2
    }

    public let preferredStyle: Style
    open var message: String? { didSet { if isViewLoaded { rebuild() } } }
    open private(set) var actions: [UIAlertAction] = []
    open private(set) var textFields: [UITextField]?
    /// Drawn bold (in place of the cancel action). Must be one of ``actions``.
    open var preferredAction: UIAlertAction? { didSet { if isViewLoaded { rebuild() } } }
    /// iOS 16's severity (kept; drawn the same).
    open var severity = UIAlertControllerSeverity.default

    private let transitions = AlertTransitions()
    package let dimmingView = UIView()
    /// The card (an alert) or the groups (a sheet) that move when presented.
    package let cardView = UIView()
    private var tappedAction: UIAlertAction?

    public init(title: String?, message: String?, preferredStyle: Style) {
        self.preferredStyle = preferredStyle
        super.init(nibName: nil, bundle: nil)
        self.title = title
        self.message = message
        modalPresentationStyle = .overFullScreen
        transitioningDelegate = transitions
    }

    public required init?(coder: NSCoder) { nil }

    open func addAction(_ action: UIAlertAction) {
        if action.style == .cancel, actions.contains(where: { $0.style == .cancel }) {
            UIKitLog.warn("UIAlertController can only have one action with a style of UIAlertActionStyleCancel")
            return
        }
        actions.append(action)
        action.onChange = { [weak self] in if self?.isViewLoaded == true { self?.rebuild() } }
        if isViewLoaded { rebuild() }
    }

    /// Adds a text field (alerts only, as UIKit's), configured by `configurationHandler`.
    open func addTextField(configurationHandler: ((UITextField) -> Void)? = nil) {
        guard preferredStyle == .alert else {
            UIKitLog.warn("Text fields can only be added to an alert controller of style UIAlertControllerStyleAlert")
            return
        }
        let field = UITextField()
        field.font = .systemFont(ofSize: 13)
        field.borderStyle = .none
        configurationHandler?(field)
        textFields = (textFields ?? []) + [field]
        if isViewLoaded { rebuild() }
    }

    open override func loadView() {
        view = UIView()
        view.backgroundColor = nil
        dimmingView.backgroundColor = UIColor(white: 0, alpha: Metrics.dimming)
        view.addSubview(dimmingView)
        view.addSubview(cardView)
        rebuild()
    }

    open override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        layOut()
    }

    // MARK: Content

    /// The actions in the order they are drawn, and which one is bold.
    private var orderedActions: [UIAlertAction] {
        let cancel = actions.filter { $0.style == .cancel }, others = actions.filter { $0.style != .cancel }
        if preferredStyle == .alert, others.count == 1, cancel.count == 1 { return cancel + others }
        return others + cancel
    }

    private var boldAction: UIAlertAction? { preferredAction ?? actions.first { $0.style == .cancel } }

    private func button(for action: UIAlertAction, size: CGFloat) -> AlertActionButton {
        let button = AlertActionButton(action: action)
        button.label.text = action.title
        button.label.font = .systemFont(ofSize: size, weight: action === boldAction ? .semibold : .regular)
        button.label.textColor = !action.isEnabled ? .tertiaryLabel : (action.style == .destructive ? .systemRed : view.tintColor)
        button.isEnabled = action.isEnabled
        button.addAction(UIAction { [weak self] _ in self?.tapped(action) }, for: .touchUpInside)
        return button
    }

    private func label(_ text: String?, size: CGFloat, weight: UIFont.Weight, color: UIColor) -> UILabel? {
        guard let text, !text.isEmpty else { return nil }
        let label = UILabel()
        label.text = text
        label.font = .systemFont(ofSize: size, weight: weight)
        label.textColor = color
        label.textAlignment = .center
        label.numberOfLines = 0
        return label
    }

    /// The card's content: built again when anything in it changes.
    private var parts: (header: [UIView], fields: [UITextField], buttons: [AlertActionButton], cancel: AlertActionButton?, background: [UIView]) =
        ([], [], [], nil, [])

    private func rebuild() {
        cardView.subviews.forEach { $0.removeFromSuperview() }
        let alert = preferredStyle == .alert
        let header = alert
            ? [label(title, size: 17, weight: .semibold, color: .label), label(message, size: 13, weight: .regular, color: .label)].compactMap { $0 }
            : [label(title, size: 13, weight: .semibold, color: .secondaryLabel), label(message, size: 13, weight: .regular, color: .secondaryLabel)].compactMap { $0 }
        let ordered = orderedActions
        let cancelAction = alert ? nil : ordered.last { $0.style == .cancel }
        let buttons = ordered.filter { $0 !== cancelAction }.map { button(for: $0, size: alert ? 17 : 20) }
        let cancel = cancelAction.map { button(for: $0, size: 20) }
        var backgrounds: [UIView] = []
        let groups = alert || (cancel == nil) ? 1 : (buttons.isEmpty && header.isEmpty ? 1 : 2)
        for index in 0..<groups {
            let isCancelGroup = !alert && index == groups - 1 && cancel != nil
            let background: UIView
            if isCancelGroup {
                background = UIView()
                background.backgroundColor = .secondarySystemGroupedBackground
            } else {
                background = UIVisualEffectView(effect: UIBlurEffect(style: alert ? .systemThickMaterial : .systemMaterial))
            }
            background.layer.cornerRadius = alert ? Metrics.alertCornerRadius : Metrics.sheetCornerRadius
            background.clipsToBounds = true
            cardView.addSubview(background)
            backgrounds.append(background)
        }
        for view in header { cardView.addSubview(view) }
        let fields = textFields ?? []
        for field in fields { cardView.addSubview(field) }
        for button in buttons { cardView.addSubview(button) }
        if let cancel { cardView.addSubview(cancel) }
        parts = (header, fields, buttons, cancel, backgrounds)
        view.setNeedsLayout()
    }

    /// Whether an alert's two buttons sit side by side: exactly two, each title fitting half the width.
    private var sideBySide: Bool {
        guard preferredStyle == .alert, parts.buttons.count == 2 else { return false }
        return parts.buttons.allSatisfy { $0.label.sizeThatFits(.zero).width <= Metrics.alertWidth / 2 - 16 }
    }

    /// Hairlines and text-field boxes, placed again at each layout.
    private var decorations: [UIView] = []

    private func layOut() {
        decorations.forEach { $0.removeFromSuperview() }
        decorations = []
        let bounds = view.bounds
        dimmingView.frame = bounds
        let hairline = 1 / max(1, UIScreen.main.scale)
        let alert = preferredStyle == .alert
        let width = alert ? Metrics.alertWidth : min(bounds.width - 2 * Metrics.sheetMargin, 400)
        var y: CGFloat = 0
        // The header: 20 points above and below an alert's text (16 at the sides), 14 for a sheet's.
        let padding: CGFloat = alert ? 20 : 14
        if !parts.header.isEmpty || !parts.fields.isEmpty {
            y += padding
            for (index, view) in parts.header.enumerated() {
                let size = view.sizeThatFits(CGSize(width: width - 32, height: 0))
                view.frame = CGRect(x: 16, y: y, width: width - 32, height: size.height)
                y += size.height + (index < parts.header.count - 1 ? (alert ? 2 : 4) : 0)
            }
            for field in parts.fields {
                y += 12
                field.frame = CGRect(x: 16, y: y, width: width - 32, height: 26)
                let box = UIView(frame: field.frame.insetBy(dx: -4, dy: 0))
                box.backgroundColor = .tertiarySystemBackground
                box.layer.borderWidth = hairline
                box.layer.borderColor = UIColor.separator.cgColor
                box.isUserInteractionEnabled = false
                cardView.insertSubview(box, belowSubview: field)
                decorations.append(box)
                y += 26
            }
            y += padding
        }
        let row = alert ? Metrics.alertButtonHeight : Metrics.sheetRowHeight
        var separators: [CGRect] = []
        if sideBySide {
            separators.append(CGRect(x: 0, y: y, width: width, height: hairline))
            parts.buttons[0].frame = CGRect(x: 0, y: y, width: width / 2, height: row)
            parts.buttons[1].frame = CGRect(x: width / 2, y: y, width: width / 2, height: row)
            separators.append(CGRect(x: width / 2, y: y, width: hairline, height: row))
            y += row
        } else {
            for (index, button) in parts.buttons.enumerated() {
                if y > 0 || index > 0 { separators.append(CGRect(x: 0, y: y, width: width, height: hairline)) }
                button.frame = CGRect(x: 0, y: y, width: width, height: row)
                y += row
            }
        }
        let mainHeight = y
        var total = mainHeight
        if let cancel = parts.cancel {
            let top = mainHeight > 0 ? mainHeight + Metrics.sheetMargin : 0
            cancel.frame = CGRect(x: 0, y: top, width: width, height: row)
            total = top + row
        }
        if let main = parts.background.first {
            main.frame = parts.cancel != nil && parts.background.count == 2 ? CGRect(x: 0, y: 0, width: width, height: mainHeight)
                : CGRect(x: 0, y: 0, width: width, height: parts.cancel.map { $0.frame.maxY } ?? mainHeight)
        }
        if parts.background.count == 2, let cancel = parts.cancel { parts.background[1].frame = cancel.frame }
        for frame in separators {
            let line = UIView(frame: frame)
            line.backgroundColor = .separator
            line.isUserInteractionEnabled = false
            cardView.addSubview(line)
            decorations.append(line)
        }
        let bottomInset = max(view.safeAreaInsets.bottom, Metrics.sheetMargin)
        let origin = alert ? CGPoint(x: (bounds.width - width) / 2, y: (bounds.height - total) / 2)
            : CGPoint(x: (bounds.width - width) / 2, y: bounds.height - bottomInset - total)
        let center = CGPoint(x: origin.x + width / 2, y: origin.y + total / 2)
        cardView.bounds = CGRect(x: 0, y: 0, width: width, height: total)
        cardView.center = center
    }

    // MARK: Tapping

    /// A tapped action dismisses the alert; its handler runs when the dismissal ends, as UIKit's.
    private func tapped(_ action: UIAlertAction) {
        guard action.isEnabled, tappedAction == nil else { return }
        tappedAction = action
        dismiss(animated: true) { [weak self] in
            action.handler?(action)
            self?.tappedAction = nil
        }
    }

    /// A sheet's cancel action runs when the dimmed screen outside it is tapped, as UIKit's.
    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        if preferredStyle == .actionSheet, let touch = touches.first, !cardView.frame.contains(touch.location(in: view)),
           let cancel = actions.first(where: { $0.style == .cancel }) {
            tapped(cancel)
            return
        }
        super.touchesEnded(touches, with: event)
    }
}

/// One action's button: its title centred, a light fill while pressed.
package final class AlertActionButton: UIControl {
    package let action: UIAlertAction
    package let label = UILabel()

    init(action: UIAlertAction) {
        self.action = action
        super.init(frame: .zero)
        label.textAlignment = .center
        addSubview(label)
    }

    package required init?(coder: NSCoder) { nil }

    override func stateDidChange() {
        backgroundColor = isHighlighted ? UIColor(white: 0.5, alpha: 0.15) : nil
    }

    /// `alert.view.tintColor = …` recolours the enabled, non-destructive titles, as UIKit's.
    package override func tintColorDidChange() {
        super.tintColorDidChange()
        if action.isEnabled, action.style != .destructive { label.textColor = tintColor }
    }

    package override func layoutSubviews() {
        super.layoutSubviews()
        let size = label.sizeThatFits(CGSize(width: bounds.width - 16, height: 0))
        label.frame = CGRect(x: 8, y: (bounds.height - size.height) / 2, width: bounds.width - 16, height: size.height)
    }
}

/// How an alert controller is presented and dismissed: its own animators, over a full-screen
/// presentation (the presenting view stays).
final class AlertTransitions: NSObject, UIViewControllerTransitioningDelegate {
    func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning? { AlertAnimator(presenting: true) }

    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? { AlertAnimator(presenting: false) }
}

/// The alert's appearance (scale from 1.2 and fade in) and disappearance (fade out); the sheet's slide
/// up and down; the dimming fading with either.
final class AlertAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    let presenting: Bool

    init(presenting: Bool) {
        self.presenting = presenting
        super.init()
    }

    private func alert(_ context: UIViewControllerContextTransitioning?) -> UIAlertController? {
        context?.viewController(forKey: presenting ? .to : .from) as? UIAlertController
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        let isAlert = alert(transitionContext)?.preferredStyle != .actionSheet
        typealias M = UIAlertController.Metrics
        return presenting ? (isAlert ? M.alertAppear : M.sheetAppear) : (isAlert ? M.alertDisappear : M.sheetDisappear)
    }

    func animateTransition(using context: UIViewControllerContextTransitioning) {
        guard let controller = alert(context), let view = controller.view else {
            context.completeTransition(true)
            return
        }
        let duration = transitionDuration(using: context)
        let card = controller.cardView, dim = controller.dimmingView
        if presenting {
            context.containerView.addSubview(view)
            view.frame = context.finalFrame(for: controller)
            view.layoutIfNeeded()
        }
        let offscreen = view.bounds.height - card.frame.minY
        UIView.performWithoutAnimation {
            dim.alpha = presenting ? 0 : 1
            if controller.preferredStyle == .alert {
                card.alpha = presenting ? 0 : 1
                card.transform = presenting ? CGAffineTransform(scaleX: UIAlertController.Metrics.alertStartScale, y: UIAlertController.Metrics.alertStartScale) : .identity
            } else {
                card.transform = presenting ? CGAffineTransform(translationX: 0, y: offscreen) : .identity
            }
        }
        let animations = {
            dim.alpha = self.presenting ? 1 : 0
            if controller.preferredStyle == .alert {
                card.alpha = self.presenting ? 1 : 0
                card.transform = .identity
            } else {
                card.transform = self.presenting ? .identity : CGAffineTransform(translationX: 0, y: offscreen)
            }
        }
        let done: (Bool) -> Void = { _ in context.completeTransition(!context.transitionWasCancelled) }
        if presenting {
            UIView.animate(withDuration: duration, delay: 0, usingSpringWithDamping: 1, initialSpringVelocity: 0, options: [], animations: animations, completion: done)
        } else {
            UIView.animate(withDuration: duration, delay: 0, options: [.curveEaseOut], animations: animations, completion: done)
        }
    }
}
