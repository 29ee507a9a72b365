import SmokescreenStage
import XCTest

/// One log for several controllers and objects, to check the order of their callbacks.
final class CallLog {
    var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
    /// The entries without the layout callbacks (which come at every layout pass).
    var withoutLayout: [String] { entries.filter { !$0.contains("LayoutSubviews") } }
}

/// A controller that writes its callbacks into a shared log, its view a plain colour.
class LoggedController: UIViewController {
    let log: CallLog
    let name: String
    let color: UIColor

    init(_ name: String, log: CallLog, color: UIColor = .systemBlue) {
        self.name = name
        self.log = log
        self.color = color
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() { view.backgroundColor = color; log.add("\(name).viewDidLoad") }
    override func viewWillAppear(_ animated: Bool) { log.add("\(name).viewWillAppear(\(animated))") }
    override func viewDidAppear(_ animated: Bool) { log.add("\(name).viewDidAppear(\(animated))") }
    override func viewWillDisappear(_ animated: Bool) { log.add("\(name).viewWillDisappear(\(animated))") }
    override func viewDidDisappear(_ animated: Bool) { log.add("\(name).viewDidDisappear(\(animated))") }
    override func viewWillLayoutSubviews() { log.add("\(name).viewWillLayoutSubviews") }
    override func willMove(toParent parent: UIViewController?) { log.add("\(name).willMove(toParent: \(parent == nil ? "nil" : "parent"))") }
    override func didMove(toParent parent: UIViewController?) { log.add("\(name).didMove(toParent: \(parent == nil ? "nil" : "parent"))") }
}

/// An animator that fades the incoming view in (presenting) or the outgoing one out, linearly, and logs
/// what it is asked; `completes: false` never calls `completeTransition`, `cancels` completes with false.
final class FadeAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    let duration: TimeInterval
    let presenting: Bool
    let log: CallLog
    var completes = true
    var cancels = false
    private(set) var context: UIViewControllerContextTransitioning?

    init(duration: TimeInterval, presenting: Bool, log: CallLog) {
        self.duration = duration
        self.presenting = presenting
        self.log = log
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { duration }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        context = transitionContext
        log.add("animateTransition")
        let container = transitionContext.containerView
        if presenting {
            let toVC = transitionContext.viewController(forKey: .to)!
            let toView = transitionContext.view(forKey: .to)!
            toView.frame = transitionContext.finalFrame(for: toVC)
            toView.alpha = 0
            container.addSubview(toView)
            UIView.animate(withDuration: duration, delay: 0, options: .curveLinear, animations: { toView.alpha = 1 }) { _ in self.finish() }
        } else {
            let fromView = transitionContext.view(forKey: .from)!
            UIView.animate(withDuration: duration, delay: 0, options: .curveLinear, animations: { fromView.alpha = 0 }) { _ in self.finish() }
        }
    }

    private func finish() {
        guard completes, let context else { return }
        context.completeTransition(!cancels && !context.transitionWasCancelled)
    }

    func animationEnded(_ transitionCompleted: Bool) { log.add("animationEnded(\(transitionCompleted))") }
}

/// A transitioning delegate that hands out fade animators and, for `.custom`, a presentation controller.
final class FadeTransitions: NSObject, UIViewControllerTransitioningDelegate {
    let log: CallLog
    let duration: TimeInterval
    var presentationControllerClass: DimmingPresentationController.Type?
    private(set) var presentAnimator: FadeAnimator?

    init(log: CallLog, duration: TimeInterval = 0.4) {
        self.log = log
        self.duration = duration
    }

    func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        let animator = FadeAnimator(duration: duration, presenting: true, log: log)
        presentAnimator = animator
        return animator
    }

    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        FadeAnimator(duration: duration, presenting: false, log: log)
    }

    func presentationController(forPresented presented: UIViewController, presenting: UIViewController?,
                                source: UIViewController) -> UIPresentationController? {
        presentationControllerClass.map { $0.init(presentedViewController: presented, presenting: presenting, log: log) }
    }
}

/// A presentation controller that shows the presented view in the bottom half over a dimming view whose
/// alpha animates alongside.
class DimmingPresentationController: UIPresentationController {
    let log: CallLog
    let dimmingView = UIView()

    required init(presentedViewController: UIViewController, presenting: UIViewController?, log: CallLog) {
        self.log = log
        super.init(presentedViewController: presentedViewController, presenting: presenting)
        dimmingView.backgroundColor = .black
    }

    override var frameOfPresentedViewInContainerView: CGRect {
        guard let bounds = containerView?.bounds else { return .zero }
        return CGRect(x: 0, y: bounds.height / 2, width: bounds.width, height: bounds.height / 2)
    }

    override func presentationTransitionWillBegin() {
        log.add("presentationTransitionWillBegin")
        guard let containerView else { return }
        dimmingView.frame = containerView.bounds
        dimmingView.alpha = 0
        containerView.addSubview(dimmingView)
        presentedViewController.transitionCoordinator?.animate(alongsideTransition: { _ in self.dimmingView.alpha = 0.5 }, completion: { context in
            self.log.add("alongside completion (cancelled: \(context.isCancelled))")
        })
    }

    override func presentationTransitionDidEnd(_ completed: Bool) { log.add("presentationTransitionDidEnd(\(completed))") }

    override func dismissalTransitionWillBegin() {
        log.add("dismissalTransitionWillBegin")
        presentedViewController.transitionCoordinator?.animate(alongsideTransition: { _ in self.dimmingView.alpha = 0 })
    }

    override func dismissalTransitionDidEnd(_ completed: Bool) {
        log.add("dismissalTransitionDidEnd(\(completed))")
        if completed { dimmingView.removeFromSuperview() }
    }

    override func containerViewWillLayoutSubviews() {
        log.add("containerViewWillLayoutSubviews")
        presentedView?.frame = frameOfPresentedViewInContainerView
    }
}

extension UIView {
    /// The frame shown now (the presentation's).
    var shownFrame: CGRect { layer.presentation()!.frame }
    /// The opacity shown now.
    var shownAlpha: Float { layer.presentation()!.opacity }
}
