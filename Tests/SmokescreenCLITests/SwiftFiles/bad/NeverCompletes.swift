import SmokescreenStage

/// An animator that forgets to call completeTransition.
final class ForgetfulAnimator: NSObject, UIViewControllerAnimatedTransitioning, UIViewControllerTransitioningDelegate {
    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.3 }
    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let view = transitionContext.view(forKey: .to)!
        transitionContext.containerView.addSubview(view)
        UIView.animate(withDuration: 0.3) { view.alpha = 1 }
    }
    func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning? { self }
}

let forgetful = ForgetfulAnimator()

func run(on stage: Stage) throws {
    let root = UIViewController()
    stage.show(root)
    let next = UIViewController()
    next.transitioningDelegate = forgetful
    next.modalPresentationStyle = .fullScreen
    root.present(next, animated: true)
}
