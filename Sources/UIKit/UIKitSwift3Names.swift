// The names UIKit's types had before Swift 4.2 nested them, still found in published transition code.
// Apple's SDK has made them errors; here they compile, with a deprecation warning that names the new one.

@available(swift, deprecated: 4.2, renamed: "UIView.AnimationOptions")
public typealias UIViewAnimationOptions = UIView.AnimationOptions
@available(swift, deprecated: 4.2, renamed: "UIView.KeyframeAnimationOptions")
public typealias UIViewKeyframeAnimationOptions = UIView.KeyframeAnimationOptions
@available(swift, deprecated: 4.2, renamed: "UIView.AnimationCurve")
public typealias UIViewAnimationCurve = UIView.AnimationCurve
@available(swift, deprecated: 4.2, renamed: "UIView.ContentMode")
public typealias UIViewContentMode = UIView.ContentMode
@available(swift, deprecated: 4.2, renamed: "UIView.AutoresizingMask")
public typealias UIViewAutoresizing = UIView.AutoresizingMask
@available(swift, deprecated: 4.2, renamed: "UIGestureRecognizer.State")
public typealias UIGestureRecognizerState = UIGestureRecognizer.State
@available(swift, deprecated: 4.2, renamed: "UIControl.Event")
public typealias UIControlEvents = UIControl.Event
@available(swift, deprecated: 4.2, renamed: "UIControl.State")
public typealias UIControlState = UIControl.State
@available(swift, deprecated: 4.2, renamed: "UINavigationController.Operation")
public typealias UINavigationControllerOperation = UINavigationController.Operation
@available(swift, deprecated: 4.2, renamed: "UIBlurEffect.Style")
public typealias UIBlurEffectStyle = UIBlurEffect.Style
@available(swift, deprecated: 4.2, renamed: "UIButton.ButtonType")
public typealias UIButtonType = UIButton.ButtonType

/// A pinch: two fingers. The stage has one finger, so a pinch never begins (listed in the stage's
/// `notDrawn` when one is made); `scale` stays 1 and `velocity` 0.
open class UIPinchGestureRecognizer: UIGestureRecognizer {
    open var scale: CGFloat = 1
    open var velocity: CGFloat { 0 }

    public override init(target: Any?, action: Selector?) {
        super.init(target: target, action: action)
        NotDrawn.note("UIPinchGestureRecognizer (the stage has one finger: it never begins)")
    }
}

/// A rotation: two fingers; it never begins on the stage's one finger (noted, as a pinch).
open class UIRotationGestureRecognizer: UIGestureRecognizer {
    open var rotation: CGFloat = 0
    open var velocity: CGFloat { 0 }

    public override init(target: Any?, action: Selector?) {
        super.init(target: target, action: action)
        NotDrawn.note("UIRotationGestureRecognizer (the stage has one finger: it never begins)")
    }
}
