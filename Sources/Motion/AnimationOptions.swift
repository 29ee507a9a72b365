/// How many times an animation plays.
public enum AnimationRepeat: Hashable, Sendable, CustomStringConvertible {
    /// Once (the default).
    case none
    /// `count` cycles in all, as Core Animation's `repeatCount` (fractions allowed: 2.5 stops halfway
    /// through the third cycle). With autoreverse a cycle is there and back. A count that is NaN or not
    /// positive plays once; an infinite count repeats forever.
    case count(Double)
    /// Until removed (UIKit's `.repeat`); the completion then gets `finished == false`.
    case forever

    /// The number of cycles: 1, the sanitized count, or infinity.
    var cycles: Double {
        switch self {
        case .none: 1
        case .forever: .infinity
        case .count(let n): n.isNaN || n <= 0 ? 1 : n
        }
    }

    public var description: String {
        switch self {
        case .none: "once"
        case .count(let n): "×\(Spring.format(cycles == .infinity ? n : cycles))"
        case .forever: "forever"
        }
    }
}

/// Options of an animation block, as `UIView.AnimationOptions`. Combine them like an option set:
/// `[.curveLinear, .repeat, .autoreverse]`; when two set the curve or the repetition, the later wins.
///
/// The final state of a repeating or autoreversing animation is the model value, as in UIKit: an
/// autoreversing animation that ends back at its start value shows the model (its to-value) once it
/// ends, so set the model back in the completion to end where it started.
public struct AnimationOptions: Hashable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The timing curve; nil means inherited from an enclosing block, or `.easeInEaseOut` (UIKit's default).
    public var curve: TimingCurve?
    /// Default `.none` (play once).
    public var repetition: AnimationRepeat = .none
    /// Play each cycle forward then backward (each direction takes the duration). Default false.
    public var autoreverses = false
    /// Start from what is on screen instead of adding to animations in flight: the new animation
    /// replaces the in-flight animations of the same properties (whose blocks, if left with nothing to
    /// animate, complete with `finished == false`) and starts from the current presentation value.
    public var beginsFromCurrentState = false
    /// In a nested block, use this block's duration instead of the enclosing block's.
    public var overridesInheritedDuration = false
    /// In a nested block, use this block's curve (or spring) instead of the enclosing block's.
    public var overridesInheritedCurve = false
    /// In a nested block, inherit nothing but the start time: not the curve, not the repetition.
    public var overridesInheritedOptions = false

    /// No options: UIView's defaults.
    public init() {}

    /// The union of `elements`, as a UIKit option set literal (`[.curveEaseOut, .autoreverse]`).
    public init(arrayLiteral elements: AnimationOptions...) {
        self.init()
        for element in elements { formUnion(element) }
    }

    /// Adds `other`'s options; its curve and repetition, when set, replace these.
    public mutating func formUnion(_ other: AnimationOptions) {
        if let c = other.curve { curve = c }
        if other.repetition != .none { repetition = other.repetition }
        autoreverses = autoreverses || other.autoreverses
        beginsFromCurrentState = beginsFromCurrentState || other.beginsFromCurrentState
        overridesInheritedDuration = overridesInheritedDuration || other.overridesInheritedDuration
        overridesInheritedCurve = overridesInheritedCurve || other.overridesInheritedCurve
        overridesInheritedOptions = overridesInheritedOptions || other.overridesInheritedOptions
    }

    /// These options with `other`'s added; `other`'s curve and repeat win where both set one.
    public func union(_ other: AnimationOptions) -> AnimationOptions {
        var copy = self
        copy.formUnion(other)
        return copy
    }

    /// The block's curve: any cubic Bézier.
    public static func curve(_ c: TimingCurve) -> AnimationOptions { var o = AnimationOptions(); o.curve = c; return o }
    /// UIKit's `.curveLinear`.
    public static var curveLinear: AnimationOptions { .curve(.linear) }
    /// UIKit's `.curveEaseIn`.
    public static var curveEaseIn: AnimationOptions { .curve(.easeIn) }
    /// UIKit's `.curveEaseOut`.
    public static var curveEaseOut: AnimationOptions { .curve(.easeOut) }
    /// UIKit's `.curveEaseInOut` (the default when no curve is given).
    public static var curveEaseInOut: AnimationOptions { .curve(.easeInEaseOut) }
    /// Repeat forever.
    public static var `repeat`: AnimationOptions { var o = AnimationOptions(); o.repetition = .forever; return o }
    /// `count` cycles in all (see ``AnimationRepeat/count(_:)``).
    public static func repeatCount(_ count: Double) -> AnimationOptions {
        var o = AnimationOptions(); o.repetition = .count(count); return o
    }
    /// UIKit's `.autoreverse`: each repetition runs forwards, then backwards.
    public static var autoreverse: AnimationOptions { var o = AnimationOptions(); o.autoreverses = true; return o }
    /// UIKit's `.beginFromCurrentState`: start from the presentation value, not the model.
    public static var beginFromCurrentState: AnimationOptions { var o = AnimationOptions(); o.beginsFromCurrentState = true; return o }
    /// UIKit's `.overrideInheritedDuration`: a nested block keeps its own duration.
    public static var overrideInheritedDuration: AnimationOptions { var o = AnimationOptions(); o.overridesInheritedDuration = true; return o }
    /// UIKit's `.overrideInheritedCurve`: a nested block keeps its own curve.
    public static var overrideInheritedCurve: AnimationOptions { var o = AnimationOptions(); o.overridesInheritedCurve = true; return o }
    /// UIKit's `.overrideInheritedOptions`: a nested block keeps its own options.
    public static var overrideInheritedOptions: AnimationOptions { var o = AnimationOptions(); o.overridesInheritedOptions = true; return o }

    public var description: String {
        var parts: [String] = []
        if let curve { parts.append("curve \(curve)") }
        if repetition != .none { parts.append("repeat \(repetition)") }
        if autoreverses { parts.append("autoreverse") }
        if beginsFromCurrentState { parts.append("beginFromCurrentState") }
        if overridesInheritedDuration { parts.append("overrideInheritedDuration") }
        if overridesInheritedCurve { parts.append("overrideInheritedCurve") }
        if overridesInheritedOptions { parts.append("overrideInheritedOptions") }
        return "[" + parts.joined(separator: ", ") + "]"
    }
}

/// How a keyframe animation moves between its keyframes (UIKit's `calculationMode…` options).
public enum KeyframeCalculationMode: String, Hashable, Sendable {
    /// Straight interpolation within each keyframe; values hold between keyframes.
    case linear
    /// Each keyframe's value appears at the end of its keyframe, with no interpolation.
    case discrete
}
