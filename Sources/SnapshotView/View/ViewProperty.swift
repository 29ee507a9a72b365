import RasterCore

/// The animatable properties of a ``View``, as UIKit animates them.
///
/// `frame` is not here: like UIKit, it is derived from `center`, `bounds` and `transform`, which is what
/// animates. A scroll view's content offset is `bounds.origin`.
public enum ViewProperty: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Points, in the superview's bounds coordinates.
    case center
    /// Points: origin (the scroll offset of the content) and size.
    case bounds
    /// Applied about the centre.
    case transform
    /// 0…1.
    case alpha
    /// Clear when the view has none.
    case backgroundColor
    /// Points.
    case cornerRadius
    /// Points.
    case borderWidth
    /// A colour.
    case borderColor
    /// A 4x4 layer transform applied after ``transform``, about the centre (perspective, rotations about
    /// x and y).
    case transform3D
    /// The material behind the view: a blur of what is behind it, a saturation and a tint (``Backdrop``).
    case backdrop

    public var description: String { rawValue }
}

/// A value of a ``ViewProperty``: what an animation interpolates between.
public enum AnimatableValue: Hashable, Sendable, CustomStringConvertible {
    /// Alpha, corner radius, border width.
    case double(Double)
    /// The centre, in the superview's points.
    case point(Point)
    /// The bounds, in points.
    case rect(Rect)
    /// The transform.
    case transform(Transform2D)
    /// Background or border colour.
    case color(Color)
    /// A 4x4 layer transform.
    case transform3D(Transform3D)
    /// A backdrop material.
    case backdrop(Backdrop)

    public var description: String {
        switch self {
        case .double(let v): "\(v)"
        case .point(let p): "\(p)"
        case .rect(let r): "\(r)"
        case .transform(let t): "\(t)"
        case .color(let c): "\(c)"
        case .transform3D(let t): "\(t)"
        case .backdrop(let b): "\(b)"
        }
    }

    /// The number, when this is one.
    public var doubleValue: Double? { if case .double(let v) = self { v } else { nil } }
    /// The point, when this is one.
    public var pointValue: Point? { if case .point(let v) = self { v } else { nil } }
    /// The rectangle, when this is one.
    public var rectValue: Rect? { if case .rect(let v) = self { v } else { nil } }
    /// The transform, when this is one.
    public var transformValue: Transform2D? { if case .transform(let v) = self { v } else { nil } }
    /// The 4x4 transform, when this is one.
    public var transform3DValue: Transform3D? { if case .transform3D(let v) = self { v } else { nil } }
    /// The colour, when this is one.
    public var colorValue: Color? { if case .color(let v) = self { v } else { nil } }
    /// The backdrop, when this is one.
    public var backdropValue: Backdrop? { if case .backdrop(let v) = self { v } else { nil } }
}

/// What a view shows behind its content as a material (`UIVisualEffectView`'s blur): what is drawn behind
/// it, blurred by a Gaussian of `sigma` points, its saturation scaled by `saturation`, with `tint` drawn
/// over. ``none`` (σ 0, saturation 1, clear) shows nothing; the values between two backdrops are mixed
/// lane by lane, so a blur animates in from none.
public struct Backdrop: Hashable, Sendable, CustomStringConvertible {
    /// Points; at least 0.
    public var sigma: Double
    /// 1 keeps the colours; above 1 makes them more vivid; 0 makes them grey.
    public var saturation: Double
    /// Drawn over the blurred backdrop.
    public var tint: Color

    /// A material; each argument defaults to showing nothing.
    public init(sigma: Double = 0, saturation: Double = 1, tint: Color = .clear) {
        self.sigma = sigma; self.saturation = saturation; self.tint = tint
    }

    /// No material.
    public static let none = Backdrop()

    /// Whether drawing it changes anything.
    public var isVisible: Bool { sigma > 0 || saturation != 1 || tint.alpha > 0 }

    public var description: String { "backdrop σ \(sigma) pt, saturation \(saturation), tint \(tint)" }

    /// The materials of UIKit's blur effects, by thickness.
    public enum Material: String, CaseIterable, Sendable {
        case ultraThin, thin, regular, thick, chrome
        /// The pre-iOS 13 styles.
        case light, extraLight, dark, extraDark
    }

    /// A material for the light or dark appearance. Apple publishes the materials' names and their order
    /// from most to least translucent, not their numbers, so these are estimated: every material blurs by
    /// σ 10 pt and scales saturation by 1.8 (the figures of iOS 7's light backdrop settings), then draws a
    /// tint over it: white (#1C1C1E in the dark appearance) at 30, 50, 65 and 80 % for ultra thin, thin,
    /// regular and thick (35, 55, 70, 85 % dark), near-white #F7F7F7 (#1F1F1F) at 75 % (80 %) for chrome;
    /// `light` is the light ultra-thin material, `extraLight` #F7F7F7 at 60 %, `dark` #1C1C1E at 73 %,
    /// `extraDark` at 80 %, whatever the appearance.
    public static func material(_ material: Material, dark: Bool) -> Backdrop {
        let white = Color(red8: 255, green8: 255, blue8: 255), black = Color(red8: 28, green8: 28, blue8: 30)
        let nearWhite = Color(red8: 247, green8: 247, blue8: 247), nearBlack = Color(red8: 31, green8: 31, blue8: 31)
        func tinted(_ c: Color, _ alpha: Double) -> Backdrop {
            Backdrop(sigma: 10, saturation: 1.8, tint: Color(red: c.red, green: c.green, blue: c.blue, alpha: alpha))
        }
        switch material {
        case .ultraThin: return dark ? tinted(black, 0.35) : tinted(white, 0.30)
        case .thin: return dark ? tinted(black, 0.55) : tinted(white, 0.50)
        case .regular: return dark ? tinted(black, 0.70) : tinted(white, 0.65)
        case .thick: return dark ? tinted(black, 0.85) : tinted(white, 0.80)
        case .chrome: return dark ? tinted(nearBlack, 0.80) : tinted(nearWhite, 0.75)
        case .light: return tinted(white, 0.30)
        case .extraLight: return tinted(nearWhite, 0.60)
        case .dark: return tinted(black, 0.73)
        case .extraDark: return tinted(black, 0.80)
        }
    }
}

/// Told of every change to an animatable property while it is installed with
/// ``ViewChangeObservation/observing(_:_:)``. This is how an animation block learns what its closure
/// changed (the from- and to-values) without views knowing about animations.
public protocol ViewChangeObserver: AnyObject {
    /// `view`'s `property` changed from `old` to `new` (the model already holds `new`).
    func view(_ view: View, changed property: ViewProperty, from old: AnimatableValue, to new: AnimatableValue)
}

/// Installs ``ViewChangeObserver``s for the duration of a closure.
public enum ViewChangeObservation {
    // Boxed so the task-local value is Sendable; the observer is only ever called synchronously, on the
    // thread that installed it, from inside `observing`.
    final class Box: @unchecked Sendable {
        let observer: any ViewChangeObserver
        init(_ observer: any ViewChangeObserver) { self.observer = observer }
    }

    @TaskLocal static var current: Box?

    /// Runs `body` with `observer` told of every animatable change made inside it (replacing any outer
    /// observer for that time; an animation engine nests blocks by installing one observer per block).
    public static func observing<R>(_ observer: any ViewChangeObserver, _ body: () throws -> R) rethrows -> R {
        try $current.withValue(Box(observer), operation: body)
    }

    /// Runs `body` with no observer: changes made inside it are not reported (UIKit's
    /// `performWithoutAnimation`).
    public static func withoutObserver<R>(_ body: () throws -> R) rethrows -> R {
        try $current.withValue(nil, operation: body)
    }

    static func report(_ view: View, _ property: ViewProperty, _ old: AnimatableValue, _ new: AnimatableValue) {
        guard let box = current, old != new else { return }
        box.observer.view(view, changed: property, from: old, to: new)
    }
}

/// Supplies the values that rendering uses: the seam through which an animation engine shows a tree at
/// time t (its presentation values) while the views hold their model values.
public protocol PresentationSource {
    /// The value of `property` of `view` to render, given its model value.
    func presentationValue(of property: ViewProperty, of view: View, model: AnimatableValue) -> AnimatableValue
}

/// Renders model values: what a tree looks like with no animation running.
public struct ModelPresentation: PresentationSource {
    /// The model presentation.
    public init() {}
    /// The model value, always.
    public func presentationValue(of property: ViewProperty, of view: View, model: AnimatableValue) -> AnimatableValue { model }
}
