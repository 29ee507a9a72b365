/// What a presented controller keeps of its presentation: who presented it, its presentation
/// controller and container, and where the presenting view was when it left the screen.
struct PresentationRecord {
    let style: UIModalPresentationStyle
    let controller: UIPresentationController
    let container: UITransitionView
    /// Where the presenting controller's view was before the presentation took it off the screen.
    var presentersPlace: (superview: UIView, index: Int)?
}

extension UIViewController {
    // MARK: Presenting

    /// The controller that presented this one (or one of its ancestors), if any.
    var presentingController: UIViewController? {
        var controller: UIViewController? = self
        while let c = controller {
            if let presenter = c.presenter { return presenter }
            controller = c.parent
        }
        return nil
    }

    /// The presentation controller of this controller's presentation, while it is presented (or being
    /// presented).
    var currentPresentationController: UIPresentationController? { presentationRoot.presentationRecord?.controller }

    /// The running transition this controller (or an ancestor, or the controller it is presented
    /// from) takes part in, to animate alongside it; nil when none runs.
    var runningCoordinator: UIViewControllerTransitionCoordinator? {
        var controller: UIViewController? = self
        while let c = controller {
            if let transition = c.activeTransition, !transition.isCompleted { return transition }
            controller = c.parent
        }
        return nil
    }

    /// The navigation controller this controller is in (itself or an ancestor's), if any.
    var enclosingNavigationController: UINavigationController? { ancestor(of: UINavigationController.self) }

    /// The nearest controller above this one (its parent, or the parent's…) of type `T`.
    func ancestor<T: UIViewController>(of type: T.Type) -> T? {
        var controller = parent
        while let c = controller {
            if let found = c as? T { return found }
            controller = c.parent
        }
        return nil
    }

    /// The top of this controller's parent chain: the controller presentations are made from.
    var presentationRoot: UIViewController {
        var root = self
        while let parent = root.parent { root = parent }
        return root
    }

    /// Presents `viewControllerToPresent` over the window, as UIKit's: with the animation controller and
    /// presentation controller of its `transitioningDelegate` (`.custom` style), or its
    /// `modalTransitionStyle`. Callbacks in UIKit's order: `presentationTransitionWillBegin`, the
    /// presenting controller's `viewWillDisappear` (when its view leaves the screen) and the presented
    /// one's `viewWillAppear`, the animation, then `presentationTransitionDidEnd`, `viewDidDisappear`,
    /// `viewDidAppear`, the animator's `animationEnded` and `completion`.
    ///
    /// What UIKit refuses with a console message is refused here with the same message on standard
    /// error (listed in the stage's `warnings`): a presentation from a controller already presenting, or
    /// whose view is not in a window, or of a controller already presented or in a container.
    func presentController(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)?) {
        let presented = viewControllerToPresent
        let presenting = presentationRoot
        if let current = presenting.presentedViewController {
            UIKitLog.warn("Attempt to present \(presented) on \(presenting) which is already presenting \(current)")
            return
        }
        if let transition = presenting.activeTransition, !transition.isCompleted {
            UIKitLog.warn("Attempt to present \(presented) on \(presenting) while a transition is in progress (\(transition))")
            return
        }
        guard presented.presenter == nil, presented.parent == nil, presented.presented == nil, presented.viewIfLoaded?.window == nil else {
            UIKitLog.warn("Application tried to present modally a view controller \(presented) that is already presented, on screen or a child of a container")
            return
        }
        guard let window = presenting.viewIfLoaded?.window else {
            UIKitLog.warn("Attempt to present \(presented) on \(presenting) whose view is not in the window hierarchy")
            return
        }

        var style = presented.modalPresentationStyle
        switch style {
        case .automatic, .pageSheet:
            // A plain controller's .automatic is a page sheet, as since iOS 13.
            style = .pageSheet
        case .formSheet:
            break
        case .popover, .none, .blurOverFullScreen:
            NotDrawn.note("UIModalPresentationStyle .\(style) (presented full screen)")
            style = .fullScreen
        case .currentContext:
            NotDrawn.note("UIModalPresentationStyle .currentContext (presented over the whole window)")
            style = .fullScreen
        case .overCurrentContext:
            NotDrawn.note("UIModalPresentationStyle .overCurrentContext (presented over the whole window)")
            style = .overFullScreen
        case .fullScreen, .overFullScreen, .custom:
            break
        }
        let delegate = presented.transitioningDelegate
        let controller: UIPresentationController
        if style == .custom {
            controller = delegate?.presentationController(forPresented: presented, presenting: presenting, source: self)
                ?? UIPresentationController(presentedViewController: presented, presenting: presenting)
        } else if style == .pageSheet || style == .formSheet, let sheet = presented.sheetPresentationController {
            controller = sheet
        } else {
            controller = BuiltInPresentationController(presented: presented, presenting: presenting, style: style,
                                                       removesPresentersView: style == .fullScreen)
        }
        controller.presentingViewController = presenting
        let animator: UIViewControllerAnimatedTransitioning? = flag
            ? delegate?.animationController(forPresented: presented, presenting: presenting, source: self)
                ?? Self.builtInAnimator(style: style, transition: presented.modalTransitionStyle, isPresenting: true)
            : nil
        let interaction = animator.flatMap { delegate?.interactionControllerForPresentation(using: $0) }

        let container = UITransitionView(frame: window.bounds)
        container.presentationController = controller
        container.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        UIView.performWithoutAnimation { window.addSubview(container) }
        controller.containerView = container
        presenting.presented = presented
        presented.presenter = presenting
        presented.presentationRecord = PresentationRecord(style: style, controller: controller, container: container)
        presented.flags.insert(.beingPresented)

        let removesPresenter = controller.shouldRemovePresentersView
        let presentingView = presenting.view!
        let presentedView = controller.presentedView ?? presented.view!
        let presentingFrame = presentingView.convert(presentingView.bounds, to: container)
        let transition = ControllerTransition(
            kind: .presentation, container: container, from: presenting, to: presented,
            fromView: removesPresenter ? presentingView : nil, toView: presentedView, animator: animator,
            interactionController: interaction, style: style,
            initialFrames: [(presenting, presentingFrame)],
            finalFrames: [(presented, controller.frameOfPresentedViewInContainerView), (presenting, removesPresenter ? .zero : presentingFrame)]
        ) { completed in
            presented.flags.remove(.beingPresented)
            defer {
                presenting.appearanceManagedByTransition = false
                presented.appearanceManagedByTransition = false
            }
            if completed {
                if removesPresenter, let superview = presentingView.superview {
                    presented.presentationRecord?.presentersPlace = (superview, superview.subviews.firstIndex { $0 === presentingView } ?? 0)
                    UIView.performWithoutAnimation { presentingView.removeFromSuperview() }
                }
                controller.presentationTransitionDidEnd(true)
                if removesPresenter { presenting.endAppearanceTransition() }
                presented.endAppearanceTransition()
            } else {
                UIView.performWithoutAnimation {
                    presentedView.removeFromSuperview()
                    container.removeFromSuperview()
                }
                presenting.presented = nil
                presented.presenter = nil
                presented.presentationRecord = nil
                controller.containerView = nil
                controller.presentationTransitionDidEnd(false)
                presented.beginAppearanceTransition(false, animated: flag)
                presented.endAppearanceTransition()
                if removesPresenter {
                    presenting.beginAppearanceTransition(true, animated: flag)
                    presenting.endAppearanceTransition()
                }
            }
        }
        transition.ended = completion

        presenting.appearanceManagedByTransition = true
        presented.appearanceManagedByTransition = true
        if removesPresenter { presenting.beginAppearanceTransition(false, animated: flag) }
        presented.beginAppearanceTransition(true, animated: flag)
        controller.presentationTransitionWillBegin()
        if animator == nil {
            UIView.performWithoutAnimation {
                presentedView.frame = controller.frameOfPresentedViewInContainerView
                container.addSubview(presentedView)
            }
        } else {
            // UIKit lays the incoming view out at its final frame before the animator sees it.
            UIView.performWithoutAnimation {
                presentedView.frame = controller.frameOfPresentedViewInContainerView
                presentedView.layoutIfNeeded()
            }
        }
        transition.start()
    }

    /// Dismisses the controller this one presented, or, when it presented none, the presentation this
    /// one is part of; `completion` runs when the dismissal ends. With the animation controller of the
    /// presented controller's `transitioningDelegate`, or its `modalTransitionStyle` run backwards.
    /// Controllers presented above the dismissed one go with it, without animation. Nothing happens when
    /// there is nothing to dismiss.
    func dismissPresentation(animated flag: Bool, completion: (() -> Void)?) {
        let root = presentationRoot
        guard let presented = root.presentedViewController ?? (root.presenter != nil ? root : nil),
              let presenting = presented.presenter, let record = presented.presentationRecord else { return }
        if let transition = presented.activeTransition ?? presenting.activeTransition, !transition.isCompleted {
            UIKitLog.warn("Attempt to dismiss \(presented) while a transition is in progress (\(transition))")
            return
        }
        // What was presented on top of it goes first, at once (UIKit takes the whole stack down).
        if presented.presentedViewController != nil { presented.dismissPresentation(animated: false, completion: nil) }

        let controller = record.controller
        let container = record.container
        let delegate = presented.transitioningDelegate
        let animator: UIViewControllerAnimatedTransitioning? = flag
            ? delegate?.animationController(forDismissed: presented)
                ?? Self.builtInAnimator(style: record.style, transition: presented.modalTransitionStyle, isPresenting: false)
            : nil
        var interaction = animator.flatMap { delegate?.interactionControllerForDismissal(using: $0) }
        // A swipe down on a sheet drives its own slide down.
        if interaction == nil, animator is SheetSlideAnimator, let swipe = (controller as? UISheetPresentationController)?.swipeInteractor {
            interaction = swipe
        }
        let removedPresenter = controller.shouldRemovePresentersView
        let presentingView = presenting.view!
        let presentedView = controller.presentedView ?? presented.view!
        // The transition sends the appearance callbacks, not the views' moves in and out of the window.
        presenting.appearanceManagedByTransition = true
        presented.appearanceManagedByTransition = true
        // The presenting view comes back beneath the container for the dismissal to reveal.
        if removedPresenter, presentingView.superview == nil, let place = record.presentersPlace {
            UIView.performWithoutAnimation {
                if container.superview === place.superview {
                    place.superview.insertSubview(presentingView, belowSubview: container)
                } else {
                    place.superview.insertSubview(presentingView, at: place.index)
                }
            }
        }
        let presentingFrame = presentingView.convert(presentingView.bounds, to: container)
        presented.flags.insert(.beingDismissed)
        let transition = ControllerTransition(
            kind: .dismissal, container: container, from: presented, to: presenting,
            fromView: presentedView, toView: removedPresenter ? presentingView : nil, animator: animator,
            interactionController: interaction, style: record.style,
            initialFrames: [(presented, presentedView.frame), (presenting, presentingFrame)],
            finalFrames: [(presenting, presentingFrame)]
        ) { completed in
            presented.flags.remove(.beingDismissed)
            defer {
                presenting.appearanceManagedByTransition = false
                presented.appearanceManagedByTransition = false
            }
            if completed {
                UIView.performWithoutAnimation {
                    presentedView.removeFromSuperview()
                    // An animator that moved the presenting view into the container gives it back.
                    if removedPresenter, presentingView.superview === container, let place = record.presentersPlace {
                        if container.superview === place.superview {
                            place.superview.insertSubview(presentingView, belowSubview: container)
                        } else {
                            place.superview.insertSubview(presentingView, at: place.index)
                        }
                    }
                    container.removeFromSuperview()
                }
                presenting.presented = nil
                presented.presenter = nil
                presented.presentationRecord = nil
                controller.dismissalTransitionDidEnd(true)
                controller.containerView = nil
                // The sheet and its controller hold each other; a next presentation makes a new sheet.
                presented.sheetController = nil
                presented.endAppearanceTransition()
                if removedPresenter { presenting.endAppearanceTransition() }
            } else {
                if removedPresenter { UIView.performWithoutAnimation { presentingView.removeFromSuperview() } }
                controller.dismissalTransitionDidEnd(false)
                presented.beginAppearanceTransition(true, animated: flag)
                presented.endAppearanceTransition()
                if removedPresenter {
                    presenting.beginAppearanceTransition(false, animated: flag)
                    presenting.endAppearanceTransition()
                }
            }
        }
        transition.ended = completion
        presented.beginAppearanceTransition(false, animated: flag)
        if removedPresenter { presenting.beginAppearanceTransition(true, animated: flag) }
        controller.dismissalTransitionWillBegin()
        transition.start()
    }

    /// The animation of a presentation without an animation controller: a sheet slides up to its detent
    /// on the sheet's spring (``SheetSlideAnimator``) when it covers vertically; otherwise the
    /// `modalTransitionStyle`'s.
    static func builtInAnimator(style: UIModalPresentationStyle, transition: UIModalTransitionStyle,
                                isPresenting: Bool) -> UIViewControllerAnimatedTransitioning {
        if (style == .pageSheet || style == .formSheet), transition == .coverVertical { return SheetSlideAnimator(isPresenting: isPresenting) }
        return ModalTransitionAnimator(style: transition, isPresenting: isPresenting)
    }

    /// Shows `vc` the way the context says: pushed by the navigation controller this one is in, or
    /// presented.
    func showController(_ vc: UIViewController) {
        if let navigation = self as? UINavigationController ?? navigationController {
            navigation.pushViewController(vc, animated: true)
        } else {
            present(vc, animated: true)
        }
    }

    /// Descriptions of the transitions started and not completed, oldest first (for the stage).
    package static var runningTransitions: [String] { ControllerTransition.running.map(\.description) }

    /// Forgets the transitions of an earlier stage (a new stage starts with none running).
    package static func forgetRunningTransitions() { ControllerTransition.running = [] }

    /// What UIKit logged since the last call (for the stage).
    package static func takeWarnings() -> [String] { UIKitLog.take() }
}
