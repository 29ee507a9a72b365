// An interactive swipe-down dismissal written for iOS (target–action with #selector and @objc, a
// percent-driven interactor, a transitioning delegate): rendered by `smokescreen render` unchanged.
import UIKit

/// Presents a card that slides up, and slides down with a pan that follows the finger.
class HostViewController: UIViewController {
    let transition = SlideTransition()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemIndigo
    }

    @objc func openCard() {
        let card = CardViewController()
        card.modalPresentationStyle = .fullScreen
        card.transitioningDelegate = transition
        transition.interactor.attach(to: card)
        present(card, animated: true, completion: nil)
    }
}

class CardViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        let handle = UIView(frame: CGRect(x: 0, y: 12, width: 40, height: 5))
        handle.backgroundColor = .systemGray3
        handle.layer.cornerRadius = 2.5
        handle.center.x = view.bounds.midX
        handle.autoresizingMask = [.flexibleLeftMargin, .flexibleRightMargin]
        view.addSubview(handle)
    }
}

class SwipeInteractor: UIPercentDrivenInteractiveTransition {
    var hasStarted = false
    weak var controller: UIViewController?

    func attach(to controller: UIViewController) {
        self.controller = controller
        let pan = UIPanGestureRecognizer(target: self, action: #selector(handlePan(_:)))
        controller.view.addGestureRecognizer(pan)
    }

    @objc func handlePan(_ gesture: UIPanGestureRecognizer) {
        guard let view = gesture.view else { return }
        let progress = max(0, min(1, gesture.translation(in: view).y / view.bounds.height))
        switch gesture.state {
        case .began:
            hasStarted = true
            controller?.dismiss(animated: true, completion: nil)
        case .changed:
            update(progress)
        case .ended:
            hasStarted = false
            if progress > 0.3 || gesture.velocity(in: view).y > 800 { finish() } else { cancel() }
        default:
            hasStarted = false
            cancel()
        }
    }
}

class SlideTransition: NSObject, UIViewControllerTransitioningDelegate {
    let interactor = SwipeInteractor()

    func animationController(forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        SlideAnimator(presenting: true)
    }

    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        SlideAnimator(presenting: false)
    }

    func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? {
        interactor.hasStarted ? interactor : nil
    }
}

class SlideAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    let presenting: Bool
    init(presenting: Bool) { self.presenting = presenting }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.4 }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let container = transitionContext.containerView
        if presenting {
            guard let toView = transitionContext.view(forKey: .to), let toVC = transitionContext.viewController(forKey: .to) else { return }
            let final = transitionContext.finalFrame(for: toVC)
            toView.frame = final.offsetBy(dx: 0, dy: container.bounds.height)
            container.addSubview(toView)
            UIView.animate(withDuration: 0.4, delay: 0, usingSpringWithDamping: 0.9, initialSpringVelocity: 0, options: [], animations: {
                toView.frame = final
            }, completion: { _ in transitionContext.completeTransition(!transitionContext.transitionWasCancelled) })
        } else {
            guard let fromView = transitionContext.view(forKey: .from) else { return }
            if let toView = transitionContext.view(forKey: .to) { container.insertSubview(toView, belowSubview: fromView) }
            UIView.animate(withDuration: 0.4, delay: 0, options: .curveLinear, animations: {
                fromView.frame.origin.y = container.bounds.height
            }, completion: { _ in transitionContext.completeTransition(!transitionContext.transitionWasCancelled) })
        }
    }
}
