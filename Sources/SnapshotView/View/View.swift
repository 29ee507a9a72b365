import RasterCore

/// A rectangular area of an interface, with UIKit's geometry and drawing model.
///
/// All geometry is in points. `center` is in the superview's bounds coordinates; `bounds` is the view's
/// own coordinate space, whose origin is the scroll offset of its content; `transform` is applied about
/// the centre. `frame` is derived from those three.
///
/// Values set here are *model* values. Changes to animatable properties are reported to the installed
/// ``ViewChangeObserver`` (which is how animation blocks capture them); rendering reads them through a
/// ``PresentationSource``. Non-finite geometry (NaN or infinity) is ignored: the property keeps its value.
///
/// Views are not thread-safe; build and change a tree on one thread. Rendering freezes it into a
/// ``RenderNode`` that can be drawn on any thread.
open class View {
    /// A name to find the view by (``view(named:)``), and to show in tree dumps. Default nil.
    public var name: String?

    private var _center: Point
    private var _bounds: Rect
    private var _transform: Transform2D = .identity
    private var _alpha: Double = 1
    private var _backgroundColor: Color?
    private var _cornerRadius: Double = 0
    private var _borderWidth: Double = 0
    private var _borderColor: Color = .black
    private var _transform3D: Transform3D = .identity
    private var _backdrop: Backdrop = .none

    /// Hidden views (and their subviews) are not drawn. Default false. Not animatable, as in UIKit.
    public var isHidden = false
    /// Whether the view promises to fill its bounds with opaque pixels. Default true, as UIKit's default
    /// for views created in code; it does not change how the view draws.
    public var isOpaque = true
    /// Clips content and subviews to the bounds, rounded by `cornerRadius`. Default false.
    public var clipsToBounds = false
    /// Vibrancy: when set, the subviews are drawn in this colour through their alpha (their own colours
    /// left out), as a vibrancy effect's content is. Default nil: drawn as they are. Not animatable.
    public var vibrancyColor: Color?

    /// Not retained: a view's superview owns it, never the reverse.
    public internal(set) weak var superview: View?
    /// Back to front.
    public internal(set) var subviews: [View] = []

    /// Creates a view whose frame is `frame` (points): centre at its middle, bounds at the origin.
    public init(frame: Rect = .zero, name: String? = nil) {
        let f = frame.isFinite ? frame.standardized : .zero
        _center = Point(x: f.midX, y: f.midY)
        _bounds = Rect(origin: .zero, size: f.size)
        self.name = name
    }

    // MARK: Geometry

    /// The view's centre in the superview's bounds coordinates (points).
    public var center: Point {
        get { _center }
        set {
            guard newValue.isFinite else { return }
            let old = _center
            _center = newValue
            ViewChangeObservation.report(self, .center, .point(old), .point(newValue))
        }
    }

    /// The view's own coordinate space (points): `origin` is the top-left point of the content shown at
    /// the view's top-left corner (the scroll offset), `size` its width and height.
    public var bounds: Rect {
        get { _bounds }
        set {
            guard newValue.isFinite, !newValue.isNull else { return }
            let old = _bounds
            _bounds = newValue
            ViewChangeObservation.report(self, .bounds, .rect(old), .rect(newValue))
            boundsDidChange(from: old)
        }
    }

    /// Applied about the centre. Default identity.
    public var transform: Transform2D {
        get { _transform }
        set {
            guard newValue.isFinite else { return }
            let old = _transform
            _transform = newValue
            ViewChangeObservation.report(self, .transform, .transform(old), .transform(newValue))
        }
    }

    /// A 4x4 layer transform applied after ``transform``, about the centre, with Core Animation's layout
    /// (`CATransform3D`): perspective (`m34`), rotations about x and y. The view's drawing (its subtree
    /// flattened into its own plane, as Core Animation flattens a layer) is projected into the
    /// superview's plane; a point behind the eye is not drawn. Default identity. ``frame`` and the
    /// conversions between views do not include it (UIKit leaves `frame` undefined under a transform).
    public var transform3D: Transform3D {
        get { _transform3D }
        set {
            guard newValue.isFinite else { return }
            let old = _transform3D
            _transform3D = newValue
            ViewChangeObservation.report(self, .transform3D, .transform3D(old), .transform3D(newValue))
        }
    }

    /// Where ``transform`` and ``transform3D`` turn about, as an offset from the bounds' centre (points; z
    /// towards the viewer), with the view placed so that this point is where it would be untransformed: Core
    /// Animation's `anchorPoint` and `anchorPointZ`, with `center` the position the anchor point would have
    /// at the centre. Default zero (the centre). Not animatable.
    public var transformAnchor = Point.zero
    /// The anchor's depth (points, towards the viewer): Core Animation's `anchorPointZ`. Default 0.
    public var transformAnchorDepth = 0.0

    /// A 4x4 transform applied to every subview, about this view's centre in its bounds coordinates
    /// (Core Animation's `sublayerTransform`: the usual home of a shared perspective). Default identity;
    /// not animatable.
    public var sublayerTransform: Transform3D = .identity

    /// Which corners ``cornerRadius`` rounds (Core Animation's `maskedCorners`); default all four. Not
    /// animatable.
    public var roundedCorners: Corners = .all

    /// Whether the subviews keep their depth instead of being flattened into this view's plane: Core
    /// Animation's `CATransformLayer`. Such a view draws nothing of its own (no background, border, content,
    /// shadow or mask); each subview is projected straight into the superview's space through this view's
    /// transform, and they draw from the farthest to the nearest (by the depth of their centres; planes that
    /// cross are not split). Default false.
    public var preservesDepth = false

    /// The shape of the rounded corners (Core Animation's `cornerCurve`): circular (the default) or iOS's
    /// continuous corner; for the background, border, clip and so the mask and shadow alike. Not animatable.
    public var cornerCurve: CornerCurve = .circular

    /// The shadow the view casts under its drawing, as Core Animation's layer shadow; nil (the default) for
    /// none. Not animatable.
    public var shadow: Shadow?

    /// What a frame shows of ``shadow`` while something animates it outside the view's own properties (a
    /// layer's explicit shadow animations); nil (the default) shows ``shadow``.
    package var shadowPresenter: (() -> Shadow?)?

    /// A view whose alpha masks this one's drawing (background, content, subviews, border), as Core
    /// Animation's layer `mask`: its geometry is in this view's bounds coordinates, it has no superview and
    /// is drawn only as the mask; where it draws nothing, nothing of this view shows. Default nil.
    public var mask: View?

    /// The view's depth among its siblings (Core Animation's `zPosition`, points): siblings draw in
    /// ascending order of it, those with equal values in their order (the default, 0, for all: the order
    /// of ``subviews``); under a perspective in the superview's ``sublayerTransform`` it is also a depth.
    /// Not animatable.
    public var zPosition: Double = 0

    /// Whether the view is drawn when its back faces the viewer (turned more than a quarter about x or y).
    /// Default true, as Core Animation's `isDoubleSided`.
    public var isDoubleSided = true

    /// The rectangle the view occupies in its superview's bounds coordinates (points). With a transform
    /// other than identity it is the bounding box of the transformed bounds. Setting it sets `center`
    /// and `bounds.size` (with a transform, UIKit leaves the result undefined; here the transform is
    /// kept and the untransformed size becomes `frame.size`).
    public var frame: Rect {
        get { View.frame(center: _center, size: _bounds.size, transform: _transform, anchor: transformAnchor) }
        set {
            guard newValue.isFinite, !newValue.isNull else { return }
            let f = newValue.standardized
            center = Point(x: f.midX, y: f.midY)
            bounds = Rect(origin: _bounds.origin, size: f.size)
        }
    }

    static func frame(center: Point, size: Size, transform: Transform2D, anchor: Point = .zero) -> Rect {
        let local = Rect(x: -size.width / 2 - anchor.x, y: -size.height / 2 - anchor.y, width: size.width, height: size.height)
        let box = transform.isIdentity ? local : transform.apply(to: local)
        return box.offsetBy(dx: center.x + anchor.x, dy: center.y + anchor.y)
    }

    /// Called after `bounds` changes; subclasses that depend on it (scroll views) override.
    open func boundsDidChange(from old: Rect) {}

    // MARK: Appearance

    /// 0…1 (values outside are clamped when drawing). Default 1. A view with alpha 0 is not drawn.
    public var alpha: Double {
        get { _alpha }
        set {
            guard newValue.isFinite else { return }
            let old = _alpha
            _alpha = newValue
            ViewChangeObservation.report(self, .alpha, .double(old), .double(newValue))
        }
    }

    /// Filled behind content and subviews, rounded by `cornerRadius`. Default nil (nothing drawn).
    public var backgroundColor: Color? {
        get { _backgroundColor }
        set {
            let old = _backgroundColor
            _backgroundColor = newValue
            ViewChangeObservation.report(self, .backgroundColor, .color(old ?? .clear), .color(newValue ?? .clear))
        }
    }

    /// Radius of the corners of the background, border and clip (points). Default 0.
    public var cornerRadius: Double {
        get { _cornerRadius }
        set {
            guard newValue.isFinite else { return }
            let old = _cornerRadius
            _cornerRadius = max(0, newValue)
            ViewChangeObservation.report(self, .cornerRadius, .double(old), .double(_cornerRadius))
        }
    }

    /// Width of the border drawn inside the bounds, on top of the subviews (points). Default 0.
    public var borderWidth: Double {
        get { _borderWidth }
        set {
            guard newValue.isFinite else { return }
            let old = _borderWidth
            _borderWidth = max(0, newValue)
            ViewChangeObservation.report(self, .borderWidth, .double(old), .double(_borderWidth))
        }
    }

    /// The material behind the view's background and content: what is drawn behind it, blurred, saturated
    /// and tinted (``Backdrop``), inside its rounded bounds. Default ``Backdrop/none``. Animatable.
    public var backdrop: Backdrop {
        get { _backdrop }
        set {
            guard newValue.sigma.isFinite, newValue.saturation.isFinite else { return }
            let old = _backdrop
            _backdrop = Backdrop(sigma: max(0, newValue.sigma), saturation: min(max(0, newValue.saturation), Painter.maxBackdropSaturation), tint: newValue.tint)
            ViewChangeObservation.report(self, .backdrop, .backdrop(old), .backdrop(_backdrop))
        }
    }

    /// Default black, as CALayer's.
    public var borderColor: Color {
        get { _borderColor }
        set {
            let old = _borderColor
            _borderColor = newValue
            ViewChangeObservation.report(self, .borderColor, .color(old), .color(newValue))
        }
    }

    // MARK: Model values by property

    /// The model value of an animatable property.
    public func modelValue(of property: ViewProperty) -> AnimatableValue {
        switch property {
        case .center: .point(_center)
        case .bounds: .rect(_bounds)
        case .transform: .transform(_transform)
        case .alpha: .double(_alpha)
        case .backgroundColor: .color(_backgroundColor ?? .clear)
        case .cornerRadius: .double(_cornerRadius)
        case .borderWidth: .double(_borderWidth)
        case .borderColor: .color(_borderColor)
        case .transform3D: .transform3D(_transform3D)
        case .backdrop: .backdrop(_backdrop)
        }
    }

    /// Sets an animatable property from a value of the matching kind; a value of another kind is ignored.
    /// A fully transparent background colour sets no background (nil), the value it reads back as.
    /// Reported to the installed observer like any other change.
    public func setModelValue(_ value: AnimatableValue, of property: ViewProperty) {
        switch (property, value) {
        case (.center, .point(let p)): center = p
        case (.bounds, .rect(let r)): bounds = r
        case (.transform, .transform(let t)): transform = t
        case (.alpha, .double(let v)): alpha = v
        case (.backgroundColor, .color(let c)): backgroundColor = c.alpha == 0 ? nil : c  // clear is "no background"
        case (.cornerRadius, .double(let v)): cornerRadius = v
        case (.borderWidth, .double(let v)): borderWidth = v
        case (.borderColor, .color(let c)): borderColor = c
        case (.transform3D, .transform3D(let t)): transform3D = t
        case (.backdrop, .backdrop(let b)): backdrop = b
        default: break
        }
    }

    // MARK: Content

    /// What the view draws between its background and its subviews, in its bounds coordinates, or nil.
    /// `ImageView` and `Label` override this; custom views can too.
    open func makeContent() -> (any ViewContent)? { nil }

    /// Whether the content is drawn once into a bitmap on the view's own pixel grid (UIKit's backing
    /// store for a view that overrides `draw(_:)`) and that bitmap is then placed, instead of the content
    /// being drawn straight at the view's position on screen. It matters only where the view lands
    /// between device pixels or is scaled: content made of abutting anti-aliased shapes keeps its look
    /// there, resampled, instead of showing seams that change with the sub-pixel offset. Default false;
    /// ``DrawingView`` returns true.
    open var drawsContentIntoBackingStore: Bool { false }

    /// A one-line description for tree dumps: the class, name and frame.
    open var summary: String {
        var parts = ["\(type(of: self))"]
        if let name { parts.append("'\(name)'") }
        parts.append("frame \(frame)")
        if !_transform.isIdentity { parts.append("transform \(_transform)") }
        if _alpha != 1 { parts.append("alpha \(_alpha)") }
        if isHidden { parts.append("hidden") }
        return parts.joined(separator: " ")
    }
}

/// What a view draws itself (an image, text), frozen for rendering: it must not refer to the view.
public protocol ViewContent: Sendable {
    /// Draws into `painter`, whose user space is the view's bounds coordinates (points); `bounds` is the
    /// view's presentation bounds.
    func draw(in painter: Painter, bounds: Rect)
    /// Where the content draws for `bounds` (points); by default the bounds.
    func extent(in bounds: Rect) -> Rect
    /// Whether the content is one shape that cannot overlap itself (an image). Content drawn as several
    /// shapes (text, custom drawing) is composited as a group when its view's alpha is below 1, as
    /// UIKit's backing store is. Default false.
    var isSingleShape: Bool { get }
    /// Whether ``draw(in:bounds:)`` starts by painting every point of `bounds` with an opaque colour, so
    /// that nothing under the content can show: a frame drawn from such a view need not be cleared first.
    /// Default false.
    func paintsOpaquely(over bounds: Rect) -> Bool
    /// Whether `other` draws exactly what this content draws, for any bounds (the live preview keeps a
    /// frame whose tree draws the same after a reload). Default false: not known.
    func drawsTheSame(as other: any ViewContent) -> Bool
    /// Whether the content is the layer's background drawn another way (a `CAGradientLayer`'s gradient),
    /// which Core Animation rounds by the corner radius as it rounds the background colour, without
    /// `masksToBounds`; other content (an image, text, a drawing) is clipped only by `masksToBounds`.
    /// Default false.
    var roundsWithCorners: Bool { get }
}

extension ViewContent {
    /// False: content is not assumed to cover what is under it.
    public func paintsOpaquely(over bounds: Rect) -> Bool { false }
    /// False: only `clipsToBounds` clips the content to the rounded corners.
    public var roundsWithCorners: Bool { false }
}

/// A shadow under a view's drawing, with Core Animation's parameters.
public struct Shadow: Sendable, Equatable {
    /// Its colour, with the shadow's opacity already multiplied into the alpha.
    public var color: Color
    /// Points, in the view's bounds coordinates (Core Animation's default is (0, −3): upwards).
    public var offset: Size
    /// The blur, points: the standard deviation of the Gaussian (Core Animation's `shadowRadius`: a CSS
    /// `box-shadow` blur of twice as many pixels).
    public var radius: Double
    /// Its shape in the view's bounds coordinates; nil: the alpha of everything the view draws.
    public var path: Path?

    public init(color: Color, offset: Size, radius: Double, path: Path? = nil) {
        self.color = color
        self.offset = offset
        self.radius = radius
        self.path = path
    }
}

/// Corners of a rectangle, with the raw values of Core Animation's `CACornerMask` (min x and min y is the
/// top left on a y-down screen).
public struct Corners: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let topLeft = Corners(rawValue: 1)
    public static let topRight = Corners(rawValue: 2)
    public static let bottomLeft = Corners(rawValue: 4)
    public static let bottomRight = Corners(rawValue: 8)
    public static let all: Corners = [.topLeft, .topRight, .bottomLeft, .bottomRight]
}
