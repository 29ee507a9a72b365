import UIKit

// A sample written as iOS code is: a sheet presented over a screen with a custom presentation
// controller (a dimming view faded alongside) and a spring from the bottom. Only UIKit.

/// Presents the sheet with its own presentation and animators.
final class SheetTransitioningDelegate: NSObject, UIViewControllerTransitioningDelegate {
    func presentationController(forPresented presented: UIViewController, presenting: UIViewController?,
                                source: UIViewController) -> UIPresentationController? {
        SheetPresentationController(presentedViewController: presented, presenting: presenting)
    }

    func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        SheetAnimator(isPresenting: true)
    }

    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        SheetAnimator(isPresenting: false)
    }
}

/// The sheet covers the lower 60 % of the screen over a dimming view.
final class SheetPresentationController: UIPresentationController {
    private let dimmingView = UIView()

    override var frameOfPresentedViewInContainerView: CGRect {
        guard let bounds = containerView?.bounds else { return .zero }
        let height = (bounds.height * 0.6).rounded()
        // Its bottom corners hang below the screen, so only the top ones show rounded.
        return CGRect(x: 0, y: bounds.height - height, width: bounds.width, height: height + 16)
    }

    override func presentationTransitionWillBegin() {
        guard let containerView else { return }
        dimmingView.backgroundColor = UIColor.black.withAlphaComponent(0.4)
        dimmingView.frame = containerView.bounds
        dimmingView.alpha = 0
        containerView.insertSubview(dimmingView, at: 0)
        presentedViewController.transitionCoordinator?.animate(alongsideTransition: { _ in self.dimmingView.alpha = 1 })
    }

    override func dismissalTransitionWillBegin() {
        presentedViewController.transitionCoordinator?.animate(alongsideTransition: { _ in self.dimmingView.alpha = 0 })
    }

    override func containerViewWillLayoutSubviews() {
        super.containerViewWillLayoutSubviews()
        presentedView?.frame = frameOfPresentedViewInContainerView
        dimmingView.frame = containerView?.bounds ?? .zero
    }
}

/// A spring up from below the screen, and a quicker slide back down.
final class SheetAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    let isPresenting: Bool

    init(isPresenting: Bool) { self.isPresenting = isPresenting }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { isPresenting ? 0.5 : 0.3 }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let container = transitionContext.containerView
        let key: UITransitionContextViewControllerKey = isPresenting ? .to : .from
        guard let sheet = transitionContext.viewController(forKey: key), let sheetView = transitionContext.view(forKey: isPresenting ? .to : .from) else {
            transitionContext.completeTransition(false)
            return
        }
        let shown = isPresenting ? transitionContext.finalFrame(for: sheet) : sheetView.frame
        let hidden = shown.offsetBy(dx: 0, dy: container.bounds.height - shown.minY)
        if isPresenting {
            sheetView.frame = hidden
            container.addSubview(sheetView)
            UIView.animate(withDuration: 0.5, delay: 0, usingSpringWithDamping: 0.82, initialSpringVelocity: 0, options: [], animations: {
                sheetView.frame = shown
            }, completion: { _ in transitionContext.completeTransition(!transitionContext.transitionWasCancelled) })
        } else {
            UIView.animate(withDuration: 0.3, delay: 0, options: [.curveEaseIn], animations: {
                sheetView.frame = hidden
            }, completion: { _ in transitionContext.completeTransition(!transitionContext.transitionWasCancelled) })
        }
    }
}

/// The screen underneath: a list of rows; `showSheet()` presents the sheet.
final class SheetHostViewController: UIViewController {
    let sheetDelegate = SheetTransitioningDelegate()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemGroupedBackground
        for index in 0..<6 {
            let row = UIView(frame: CGRect(x: 10, y: 30 + CGFloat(index) * 40, width: 160, height: 32))
            row.backgroundColor = .secondarySystemGroupedBackground
            row.layer.cornerRadius = 6
            let dot = UIView(frame: CGRect(x: 8, y: 8, width: 16, height: 16))
            dot.backgroundColor = index.isMultiple(of: 2) ? .systemTeal : .systemOrange
            dot.layer.cornerRadius = 8
            row.addSubview(dot)
            view.addSubview(row)
        }
    }

    func showSheet() {
        let sheet = SheetViewController()
        sheet.modalPresentationStyle = .custom
        sheet.transitioningDelegate = sheetDelegate
        present(sheet, animated: true)
    }
}

/// The sheet: a grabber and a title.
final class SheetViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        view.layer.cornerRadius = 14
        view.clipsToBounds = true
        let grabber = UIView(frame: CGRect(x: 0, y: 6, width: 36, height: 5))
        grabber.backgroundColor = .systemGray3
        grabber.layer.cornerRadius = 2.5
        grabber.tag = 1
        view.addSubview(grabber)
        let title = UILabel(frame: CGRect(x: 16, y: 20, width: 200, height: 24))
        title.text = "Share"
        title.font = .systemFont(ofSize: 17, weight: .semibold)
        view.addSubview(title)
    }

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        view.viewWithTag(1)?.center.x = view.bounds.midX
    }
}
