extension UIView {
    /// Changes a view's content with a transition, as UIKit's: `animations` makes its changes at once
    /// (not animated one by one), and the view goes from how it looked before to how it looks after with
    /// the transition in `options` (`.transitionCrossDissolve`, `.transitionFlipFromLeft`/`Right`/`Top`/
    /// `Bottom`), over `duration` seconds with `options`' curve (ease in, ease out by default).
    /// `completion` runs at the end.
    ///
    /// Flips are drawn flattened: the view narrows to its middle line and widens again showing the
    /// new content, without perspective (noted). Curls are drawn as a cross dissolve (noted).
    public class func transition(with view: UIView, duration: TimeInterval, options: UIView.AnimationOptions = [],
                                 animations: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        guard areAnimationsEnabled, StageContext.engine != nil, duration > 0, let before = view.snapshotView(afterScreenUpdates: false) else {
            UIView.performWithoutAnimation { animations?() }
            completion?(true)
            return
        }
        UIView.performWithoutAnimation { animations?() }
        // The old look on top of the view, over its new content.
        before.transform = .identity
        before.frame = view.bounds
        UIView.performWithoutAnimation { view.addSubview(before) }
        var curveOnly = UIView.AnimationOptions(rawValue: options.rawValue & (0xF << 16))
        curveOnly.insert(.overrideInheritedOptions)
        switch options.transition {
        case 1, 2, 6, 7:
            NotDrawn.note("UIView.transition flips (drawn flattened, without perspective)")
            let horizontal = options.transition == 1 || options.transition == 2
            let kept = view.transform
            let edge = horizontal ? CGAffineTransform(scaleX: 0.001, y: 1) : CGAffineTransform(scaleX: 1, y: 0.001)
            animateKeyframes(withDuration: duration, delay: 0, options: KeyframeAnimationOptions(rawValue: curveOnly.rawValue), animations: {
                addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) { view.transform = edge.concatenating(kept) }
                addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { view.transform = kept }
            })
            // The same curve, so that the old look goes exactly when the view is edge on.
            let discrete = KeyframeAnimationOptions(rawValue: curveOnly.rawValue | KeyframeAnimationOptions.calculationModeDiscrete.rawValue)
            animateKeyframes(withDuration: duration, delay: 0, options: discrete, animations: {
                addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0) { before.alpha = 0 }
            }, completion: { finished in
                UIView.performWithoutAnimation { before.removeFromSuperview() }
                completion?(finished)
            })
        default:
            if options.transition == 3 || options.transition == 4 { NotDrawn.note("UIView.transition curls (drawn as a cross dissolve)") }
            animate(withDuration: duration, delay: 0, options: curveOnly, animations: { before.alpha = 0 }, completion: { finished in
                UIView.performWithoutAnimation { before.removeFromSuperview() }
                completion?(finished)
            })
        }
    }

    /// Replaces `fromView` by `toView` in its superview with a transition of the superview (see
    /// ``transition(with:duration:options:animations:completion:)``): `toView` takes `fromView`'s place and
    /// `fromView` leaves its superview, or, with `.showHideTransitionViews`, `fromView` is hidden and
    /// `toView` shown.
    public class func transition(from fromView: UIView, to toView: UIView, duration: TimeInterval, options: UIView.AnimationOptions = [],
                                 completion: ((Bool) -> Void)? = nil) {
        guard let container = fromView.superview else {
            completion?(true)
            return
        }
        transition(with: container, duration: duration, options: options, animations: {
            if options.contains(.showHideTransitionViews) {
                fromView.isHidden = true
                toView.isHidden = false
            } else {
                container.insertSubview(toView, aboveSubview: fromView)
                fromView.removeFromSuperview()
            }
        }, completion: completion)
    }
}
