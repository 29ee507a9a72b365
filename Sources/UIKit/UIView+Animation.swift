internal import Motion

extension UIView {
    /// UIKit's animation options: curves, repetition, inheritance and transitions, with Apple's raw
    /// values.
    public struct AnimationOptions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let layoutSubviews = AnimationOptions(rawValue: 1 << 0)
        public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
        public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
        public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
        public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
        public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
        public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)
        public static let allowAnimatedContent = AnimationOptions(rawValue: 1 << 7)
        public static let showHideTransitionViews = AnimationOptions(rawValue: 1 << 8)
        public static let overrideInheritedOptions = AnimationOptions(rawValue: 1 << 9)

        public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
        public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
        public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
        public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

        public static let transitionFlipFromLeft = AnimationOptions(rawValue: 1 << 20)
        public static let transitionFlipFromRight = AnimationOptions(rawValue: 2 << 20)
        public static let transitionCurlUp = AnimationOptions(rawValue: 3 << 20)
        public static let transitionCurlDown = AnimationOptions(rawValue: 4 << 20)
        public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
        public static let transitionFlipFromTop = AnimationOptions(rawValue: 6 << 20)
        public static let transitionFlipFromBottom = AnimationOptions(rawValue: 7 << 20)

        public static let preferredFramesPerSecondDefault = AnimationOptions(rawValue: 0 << 24)
        public static let preferredFramesPerSecond60 = AnimationOptions(rawValue: 3 << 24)
        public static let preferredFramesPerSecond30 = AnimationOptions(rawValue: 7 << 24)

        /// The curve the options name (bits 16–19).
        var curve: TimingCurve {
            switch (rawValue >> 16) & 0xF {
            case 1: .easeIn
            case 2: .easeOut
            case 3: .linear
            default: .easeInEaseOut
            }
        }

        /// Whether a curve was named (any of bits 16–19, or `.curveEaseInOut` alone cannot be told from
        /// none: UIKit's default is that curve anyway).
        var namesCurve: Bool { (rawValue >> 16) & 0xF != 0 }

        /// The transition the options name (bits 20–23), 0 for none.
        var transition: UInt { (rawValue >> 20) & 0xF }

        /// Motion's options for these.
        var motion: Motion.AnimationOptions {
            var options = Motion.AnimationOptions()
            options.curve = namesCurve ? curve : nil
            if contains(.repeat) { options.repetition = .forever }
            options.autoreverses = contains(.autoreverse)
            options.beginsFromCurrentState = contains(.beginFromCurrentState)
            options.overridesInheritedDuration = contains(.overrideInheritedDuration)
            options.overridesInheritedCurve = contains(.overrideInheritedCurve)
            options.overridesInheritedOptions = contains(.overrideInheritedOptions)
            return options
        }
    }

    /// UIKit's named curves.
    public enum AnimationCurve: Int, Sendable {
        case easeInOut, easeIn, easeOut, linear

        var timing: TimingCurve {
            switch self {
            case .easeInOut: .easeInEaseOut
            case .easeIn: .easeIn
            case .easeOut: .easeOut
            case .linear: .linear
            }
        }
    }

    /// Options of `animateKeyframes`: the block options, and how values pass through the keyframes.
    public struct KeyframeAnimationOptions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let layoutSubviews = KeyframeAnimationOptions(rawValue: 1 << 0)
        public static let allowUserInteraction = KeyframeAnimationOptions(rawValue: 1 << 1)
        public static let beginFromCurrentState = KeyframeAnimationOptions(rawValue: 1 << 2)
        public static let `repeat` = KeyframeAnimationOptions(rawValue: 1 << 3)
        public static let autoreverse = KeyframeAnimationOptions(rawValue: 1 << 4)
        public static let overrideInheritedDuration = KeyframeAnimationOptions(rawValue: 1 << 5)
        public static let overrideInheritedOptions = KeyframeAnimationOptions(rawValue: 1 << 9)

        public static let calculationModeLinear = KeyframeAnimationOptions(rawValue: 0 << 10)
        public static let calculationModeDiscrete = KeyframeAnimationOptions(rawValue: 1 << 10)
        public static let calculationModePaced = KeyframeAnimationOptions(rawValue: 2 << 10)
        public static let calculationModeCubic = KeyframeAnimationOptions(rawValue: 3 << 10)
        public static let calculationModeCubicPaced = KeyframeAnimationOptions(rawValue: 4 << 10)

        var calculationMode: KeyframeCalculationMode {
            switch (rawValue >> 10) & 0x7 {
            case 1: return .discrete
            case 0: return .linear
            default:
                // Paced and cubic pass through the same values; their easing between keyframes is linear here.
                NotDrawn.note("UIView.KeyframeAnimationOptions paced and cubic calculation modes (linear between keyframes)")
                return .linear
            }
        }

        var motion: Motion.AnimationOptions {
            var options = Motion.AnimationOptions()
            // Keyframe animations run linearly overall unless a curve option is given (bits 16–19 as UIView's).
            options.curve = (rawValue >> 16) & 0xF == 0 ? nil : UIView.AnimationOptions(rawValue: rawValue & (0xF << 16)).curve
            if contains(.repeat) { options.repetition = .forever }
            options.autoreverses = contains(.autoreverse)
            options.beginsFromCurrentState = contains(.beginFromCurrentState)
            options.overridesInheritedDuration = contains(.overrideInheritedDuration)
            options.overridesInheritedOptions = contains(.overrideInheritedOptions)
            return options
        }
    }

    nonisolated(unsafe) private static var animationsEnabled = true

    /// Whether animation blocks animate (`setAnimationsEnabled(_:)`).
    public class var areAnimationsEnabled: Bool { animationsEnabled }
    public class func setAnimationsEnabled(_ enabled: Bool) { animationsEnabled = enabled }

    /// Runs `animations` and either records its changes on the stage's clock, or applies them at once
    /// (without a stage, or with animations disabled) and completes at once.
    private static func run(_ body: (AnimationEngine) -> Void, animations: () -> Void, completion: ((Bool) -> Void)?) {
        guard animationsEnabled, let engine = StageContext.engine else {
            animations()
            completion?(true)
            return
        }
        body(engine)
    }

    // MARK: Blocks

    /// Animates the changes `animations` makes over `duration` seconds after `delay`, with `options`' curve
    /// (ease in, ease out by default), as UIKit's: the model values are the new ones at once, what is
    /// shown follows the stage's clock, and `completion` runs at the end (with `false` when the
    /// animations were removed first). A duration of 0 or less applies the changes at once.
    public class func animate(withDuration duration: TimeInterval, delay: TimeInterval, options: UIView.AnimationOptions = [],
                            animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        run({ $0.animate(duration: duration, delay: delay, options: options.motion, animations: animations, completion: completion) },
            animations: animations, completion: completion)
    }

    public class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: completion)
    }

    public class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: nil)
    }

    /// A spring: `dampingRatio` (1 no overshoot, lower oscillates) and `velocity` relative to the distance
    /// (1 = the whole distance in one second), landing at `duration` seconds (the mapping: docs/uikit.md).
    public class func animate(withDuration duration: TimeInterval, delay: TimeInterval, usingSpringWithDamping dampingRatio: CGFloat,
                            initialSpringVelocity velocity: CGFloat, options: UIView.AnimationOptions = [],
                            animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        run({ $0.animate(duration: duration, delay: delay, usingSpringWithDamping: Double(dampingRatio), initialSpringVelocity: Double(velocity),
                         options: options.motion, animations: animations, completion: completion) },
            animations: animations, completion: completion)
    }

    /// iOS 17's spring: a perceptual `duration` and a `bounce` (0 none, towards 1 bouncier, below 0 over-damped);
    /// the block runs until the spring settles.
    public class func animate(springDuration duration: TimeInterval = 0.5, bounce: CGFloat = 0, initialSpringVelocity velocity: CGFloat = 0,
                            delay: TimeInterval = 0, options: UIView.AnimationOptions = [],
                            animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        run({ engine in
            let spring = Spring(perceptualDuration: duration, bounce: Double(bounce), initialVelocity: Double(velocity))
            engine.animate(duration: spring.duration, delay: delay, timing: .physicalSpring(spring), options: options.motion,
                           animations: animations, completion: completion)
        }, animations: animations, completion: completion)
    }

    // MARK: Keyframes

    /// A keyframe animation: inside `animations`, ``addKeyframe(withRelativeStartTime:relativeDuration:animations:)``
    /// sets values reached at fractions of `duration`; the whole runs with `options`' calculation mode.
    public class func animateKeyframes(withDuration duration: TimeInterval, delay: TimeInterval, options: UIView.KeyframeAnimationOptions = [],
                                     animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        run({ $0.animateKeyframes(duration: duration, delay: delay, options: options.motion, calculationMode: options.calculationMode,
                                  animations: animations, completion: completion) },
            animations: animations, completion: completion)
    }

    /// A keyframe of the keyframe animation whose closure is running: the changes `animations` makes are
    /// reached at `frameStartTime + frameDuration` (fractions of the whole; values past 1 are cut at the
    /// end). Outside a keyframe animation, the changes apply as they would without it.
    public class func addKeyframe(withRelativeStartTime frameStartTime: Double, relativeDuration frameDuration: Double,
                                animations: @escaping () -> Void) {
        guard let engine = StageContext.engine else { animations(); return }
        engine.addKeyframe(withRelativeStartTime: frameStartTime, relativeDuration: frameDuration, animations: animations)
    }

    /// Lays the view out now: animated over `duration` seconds (or the enclosing block's), or at once.
    func layOutNow(animatedOver duration: TimeInterval?) {
        if let duration {
            UIView.animate(withDuration: duration, delay: 0, options: [.beginFromCurrentState]) { self.layoutIfNeeded() }
        } else {
            UIView.performWithoutAnimation { layoutIfNeeded() }
        }
    }

    // MARK: Without animation

    /// Runs `actionsWithoutAnimation` with animations disabled (blocks nested in it apply at once).
    public class func performWithoutAnimation(_ actionsWithoutAnimation: () -> Void) {
        guard let engine = StageContext.engine else { actionsWithoutAnimation(); return }
        engine.performWithoutAnimation(actionsWithoutAnimation)
    }

    /// The duration of the animation block whose closure is running (0 outside one).
    public class var inheritedAnimationDuration: TimeInterval { StageContext.engine?.inheritedDuration ?? 0 }
}
