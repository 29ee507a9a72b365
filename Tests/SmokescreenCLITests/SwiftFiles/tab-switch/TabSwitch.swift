// Tabs that slide in from the side of the tab tapped, through the tab bar controller's delegate,
// written for iOS.
import UIKit

class SlidingTabBarController: UITabBarController, UITabBarControllerDelegate {
    override func viewDidLoad() {
        super.viewDidLoad()
        delegate = self
        let colors: [UIColor] = [.systemOrange, .systemPurple, .systemGreen]
        viewControllers = ["Home", "Search", "Profile"].enumerated().map { index, title in
            let controller = UIViewController()
            controller.view.backgroundColor = colors[index]
            controller.tabBarItem = UITabBarItem(title: title, image: nil, tag: index)
            return controller
        }
    }

    func tabBarController(_ tabBarController: UITabBarController, animationControllerForTransitionFrom fromVC: UIViewController,
                          to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        let from = viewControllers?.firstIndex(of: fromVC) ?? 0, to = viewControllers?.firstIndex(of: toVC) ?? 0
        return SlideAnimator(towardsRight: to > from)
    }
}

class SlideAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    let towardsRight: Bool
    init(towardsRight: Bool) { self.towardsRight = towardsRight }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.3 }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let fromView = transitionContext.view(forKey: .from), let toView = transitionContext.view(forKey: .to) else { return }
        let width = transitionContext.containerView.bounds.width
        let offset = towardsRight ? width : -width
        toView.frame = transitionContext.containerView.bounds.offsetBy(dx: offset, dy: 0)
        transitionContext.containerView.addSubview(toView)
        UIView.animate(withDuration: 0.3, delay: 0, options: .curveEaseOut, animations: {
            toView.frame = transitionContext.containerView.bounds
            fromView.frame = fromView.frame.offsetBy(dx: -offset, dy: 0)
        }, completion: { _ in
            fromView.frame = transitionContext.containerView.bounds
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
}
