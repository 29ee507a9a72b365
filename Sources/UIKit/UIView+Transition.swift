extension UIView {
    /// How far the eye is from a view that `transition(with:…)` flips (points; `m34 = -1/flipEyeDistance`).
    /// Estimated: UIKit does not publish its flip's perspective.
    static let flipEyeDistance: CGFloat = 1000

    /// Changes a view's content with a transition, as UIKit's: `animations` makes its changes at once
    /// (not animated one by one), and the view goes from how it looked before to how it looks after with
    /// the transition in `options` (`.transitionCrossDissolve`, `.transitionFlipFromLeft`/`Right`/`Top`/
    /// `Bottom`), over `duration` seconds with `options`' curve (ease in, ease out by default).
    /// `completion` runs at the end.
    ///
    /// Flips turn the view in perspective (the eye ``flipEyeDistance`` points away: UIKit's is not
    /// published, this is estimated), the old look for the first half and the new one for the second.
    /// Curls are drawn as a cross dissolve (noted).
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
            // The view turns about its vertical axis (from left or right) or horizontal one (from top or
            // bottom) in perspective: a quarter turn away showing the old look, then a quarter turn in from
            // the other side showing the new. From left, the left side comes to the front (the right one,
            // +x, turns away: a positive turn about y); from top, the top comes to the front (a negative
            // turn about x).
            let angle: CGFloat = .pi / 2 * (options.transition == 1 || options.transition == 7 ? 1 : -1)
            let (ax, ay): (CGFloat, CGFloat) = options.transition <= 2 ? (0, 1) : (1, 0)
            let kept = view.layer.transform
            var perspective = CATransform3DIdentity
            perspective.m34 = -1 / flipEyeDistance
            func turned(_ a: CGFloat) -> CATransform3D {
                CATransform3DConcat(CATransform3DConcat(CATransform3DMakeRotation(a, ax, ay, 0), perspective), kept)
            }
            // Edge-on half way (nothing shows), so the jump from one side to the other is not seen.
            UIView.performWithoutAnimation { view.layer.transform = turned(0) }
            animateKeyframes(withDuration: duration, delay: 0, options: KeyframeAnimationOptions(rawValue: curveOnly.rawValue), animations: {
                addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) { view.layer.transform = turned(angle) }
                addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0) { view.layer.transform = turned(-angle) }
                addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { view.layer.transform = turned(0) }
            })
            // The same curve, so that the old look goes exactly when the view is edge on.
            let discrete = KeyframeAnimationOptions(rawValue: curveOnly.rawValue | KeyframeAnimationOptions.calculationModeDiscrete.rawValue)
            animateKeyframes(withDuration: duration, delay: 0, options: discrete, animations: {
                addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0) { before.alpha = 0 }
            }, completion: { finished in
                UIView.performWithoutAnimation {
                    before.removeFromSuperview()
                    view.layer.transform = kept
                }
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
