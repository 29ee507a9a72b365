package import RasterCore
package import SnapshotView
internal import Motion

/// Core Animation's layer, with Apple's names and semantics, drawn by Smokescreen's renderer: every
/// layer is backed by one of Smokescreen's views (``backing``), its sublayers by that view's subviews, in
/// order. A superlayer keeps its sublayers; a layer keeps its backing.
///
/// Drawn: `frame`, `bounds`, `position`, `anchorPoint`, `anchorPointZ`, `opacity`, `isHidden`,
/// `masksToBounds`, `cornerRadius`, `borderWidth`, `borderColor`, `backgroundColor`, `transform` (3-D,
/// with perspective), `sublayerTransform`, `isDoubleSided`, `zPosition` (order and depth), `mask`,
/// shadows (`shadowColor`, `shadowOpacity`, `shadowOffset`, `shadowRadius`, `shadowPath`; animated),
/// `maskedCorners`, `cornerCurve`, sublayers, and the content of ``CAShapeLayer`` (filled and stroked)
/// and `contents` images. See docs/uikit.md.
open class CALayer: NSObject {
    /// The Smokescreen view that draws this layer.
    package private(set) var backing: View
    private var _sublayers: [CALayer] = []
    /// The layer this one is a sublayer of.
    public private(set) weak var superlayer: CALayer?
    /// The view this layer belongs to (UIKit's layer delegate), if any; weak, as Core Animation's delegate.
    package weak var owningView: AnyObject?
    /// Draws the layer's content in place of its own when it has any (a view's `draw(_:)`).
    package weak var contentDelegate: (any LayerContentDelegate)?
    private var _anchorPoint = CGPoint(x: 0.5, y: 0.5)
    /// Core Animation's explicit animations added and not removed (CALayer+Animations.swift).
    var explicitAnimations: [RunningAnimation] = []
    /// When the layer last joined a tree (seconds of the stage's clock): implicit animations start in
    /// the turns after it, as Core Animation animates only layers already on screen.
    var attachedAt = Double.infinity
    private var _transform = CATransform3DIdentity

    public override init() {
        backing = LayerView()
        super.init()
        (backing as? LayerView)?.layer = self
        presentShadow()
    }

    /// A copy of `layer`'s drawn properties (Core Animation makes presentation layers so).
    public init(layer: Any) {
        backing = LayerView()
        super.init()
        (backing as? LayerView)?.layer = self
        presentShadow()
        if let other = layer as? CALayer {
            frame = other.frame
            opacity = other.opacity
            isHidden = other.isHidden
            masksToBounds = other.masksToBounds
            cornerRadius = other.cornerRadius
            backgroundColor = other.backgroundColor
            borderWidth = other.borderWidth
            borderColor = other.borderColor
        }
    }

    /// A new layer of this class, for a view whose `layerClass` it is. A subclass of Core Animation's own
    /// (``CAShapeLayer``, ``CAGradientLayer``) makes its kind; a layer class written by the app makes a
    /// plain `CALayer` here (noted), as Swift cannot call an initializer it does not require.
    open class func makeForView() -> CALayer {
        if self != CALayer.self { NotDrawn.note("a view's layerClass \(self) (a plain CALayer is used)") }
        return CALayer()
    }

    /// Replaces the default backing with a view of the owner's kind (a UIKit class draws images, text):
    /// only before anything was added to it.
    package func adopt(_ view: View) {
        precondition(_sublayers.isEmpty && superlayer == nil, "a layer's backing is replaced only while it is alone")
        view.frame = backing.frame
        view.preservesDepth = backing.preservesDepth
        backing = view
        (view as? LayerView)?.layer = self
        presentShadow()
    }

    /// Lets frames show the shadow as its explicit animations have it now.
    private func presentShadow() {
        backing.shadowPresenter = { [weak self] in self?.presentedShadow() }
    }

    // MARK: Hierarchy

    /// The sublayers, back to front; nil when there are none (as Core Animation's).
    public var sublayers: [CALayer]? {
        get { _sublayers.isEmpty ? nil : _sublayers }
        set {
            for layer in _sublayers { layer.removeFromSuperlayer() }
            for layer in newValue ?? [] { addSublayer(layer) }
        }
    }

    /// Adds `layer` on top of the others (after removing it from its superlayer).
    open func addSublayer(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(_sublayers.count))
    }

    /// Inserts `layer` at `index` (clamped to the sublayers' count).
    open func insertSublayer(_ layer: CALayer, at index: UInt32) {
        guard layer !== self else { return }
        layer.removeFromSuperlayer()
        let position = min(Int(index), _sublayers.count)
        _sublayers.insert(layer, at: position)
        layer.superlayer = self
        layer.attachedAt = StageContext.now
        // Only a cycle fails here (a layer added to its own sublayer), which Core Animation does not check
        // either: nothing is added then.
        if (try? backing.insertSubview(layer.backing, at: position)) == nil {
            _sublayers.remove(at: position)
            layer.superlayer = nil
        }
    }

    /// Inserts `layer` just below `sibling` (on top when `sibling` is not a sublayer).
    open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        guard let sibling, let index = _sublayers.firstIndex(where: { $0 === sibling }) else { addSublayer(layer); return }
        let adjust = layer.superlayer === self && (_sublayers.firstIndex(where: { $0 === layer }) ?? Int.max) < index ? 1 : 0
        insertSublayer(layer, at: UInt32(index - adjust))
    }

    /// Inserts `layer` just above `sibling` (on top when `sibling` is not a sublayer).
    open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        guard let sibling, let index = _sublayers.firstIndex(where: { $0 === sibling }) else { addSublayer(layer); return }
        let adjust = layer.superlayer === self && (_sublayers.firstIndex(where: { $0 === layer }) ?? Int.max) < index ? 1 : 0
        insertSublayer(layer, at: UInt32(index + 1 - adjust))
    }

    /// Replaces `old` by `new` in place.
    open func replaceSublayer(_ old: CALayer, with new: CALayer) {
        guard let index = _sublayers.firstIndex(where: { $0 === old }) else { return }
        old.removeFromSuperlayer()
        insertSublayer(new, at: UInt32(index))
    }

    /// Removes the layer from its superlayer.
    open func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent._sublayers.removeAll { $0 === self }
        superlayer = nil
        backing.removeFromSuperview()
    }

    // MARK: Geometry (points)

    /// In the superlayer's coordinates.
    open var frame: CGRect {
        get { CGRect(backing.frame) }
        set {
            guard newValue.origin.x.isFinite, newValue.origin.y.isFinite, newValue.width.isFinite, newValue.height.isFinite else { return }
            implicitly(["position", "bounds"]) { backing.frame = newValue.standardized.rect }
        }
    }

    /// The layer's own coordinates: origin and size.
    open var bounds: CGRect {
        get { CGRect(backing.bounds) }
        set {
            guard newValue.origin.x.isFinite, newValue.origin.y.isFinite, newValue.width.isFinite, newValue.height.isFinite else { return }
            implicitly(["bounds"]) {
                backing.bounds = newValue.standardized.rect
                if !CATransform3DIsIdentity(_transform) || _anchorPoint != CGPoint(x: 0.5, y: 0.5) || anchorPointZ != 0 { applyTransform() }
            }
        }
    }

    /// Where the anchor point sits in the superlayer (the centre with the default anchor point).
    open var position: CGPoint {
        get {
            let c = backing.center, s = backing.bounds.size
            return CGPoint(x: c.x + (Double(_anchorPoint.x) - 0.5) * s.width, y: c.y + (Double(_anchorPoint.y) - 0.5) * s.height)
        }
        set {
            guard newValue.x.isFinite, newValue.y.isFinite else { return }
            let s = backing.bounds.size
            implicitly(["position"]) {
                backing.center = Point(x: Double(newValue.x) - (Double(_anchorPoint.x) - 0.5) * s.width,
                                       y: Double(newValue.y) - (Double(_anchorPoint.y) - 0.5) * s.height)
            }
        }
    }

    /// The point of the bounds (0…1 of its size) that `position` places and transforms turn about;
    /// default (0.5, 0.5). Changing it keeps `position`, so the layer moves, as in Core Animation.
    /// Transforms are drawn about the centre whatever it is (noted as not drawn otherwise).
    open var anchorPoint: CGPoint {
        get { _anchorPoint }
        set {
            guard newValue.x.isFinite, newValue.y.isFinite else { return }
            let kept = position
            _anchorPoint = newValue
            position = kept
            applyTransform()
        }
    }

    /// Points along z for the anchor point (what a 3-D transform turns about, in depth); default 0.
    open var anchorPointZ: CGFloat = 0 { didSet { if anchorPointZ.isFinite { applyTransform() } else { anchorPointZ = oldValue } } }

    /// The layer's depth in its superlayer (points); default 0. Sublayers draw in ascending order of it
    /// (in their order where equal), and a perspective in the superlayer's `sublayerTransform` shows it.
    open var zPosition: CGFloat = 0 {
        didSet {
            guard zPosition.isFinite else { zPosition = oldValue; return }
            backing.zPosition = Double(zPosition)
            applyTransform()
        }
    }

    /// The layer's transform about its anchor point, drawn whole: perspective (`m34`), rotations about x
    /// and y (the layer and its sublayers flattened into its plane and projected, as Core Animation does).
    open var transform: CATransform3D {
        get { _transform }
        set {
            implicitly(["transform"]) { setTransformNow(newValue) }
        }
    }

    private func setTransformNow(_ newValue: CATransform3D) {
        guard newValue.entries.allSatisfy(\.isFinite) else { return }
        _transform = newValue
        applyTransform()
    }

    /// The anchor point relative to the bounds' centre (points).
    private var anchorOffset: Point {
        let s = backing.bounds.size
        return Point(x: (Double(_anchorPoint.x) - 0.5) * s.width, y: (Double(_anchorPoint.y) - 0.5) * s.height)
    }

    /// `t` as the backing view draws it (about its ``View/transformAnchor``, set from the anchor point): an
    /// affine transform is the view's `transform`; anything else its `transform3D` (the other identity).
    func drawnTransforms(of t: CATransform3D) -> (flat: Transform2D, deep: Transform3D) {
        CATransform3DIsAffine(t) ? (CATransform3DGetAffineTransform(t).transform2D, .identity) : (.identity, t.transform3D)
    }

    /// The layer transform that ``drawnTransforms(of:)`` turns into `flat` and `deep`.
    func layerTransform(flat: Transform2D, deep: Transform3D) -> CATransform3D {
        CATransform3D(Transform3D(flat).concatenating(deep))
    }

    /// Puts the transform and the anchor on the backing view (after a change of transform, anchor point or
    /// bounds).
    func applyTransform() {
        let (flat, deep) = drawnTransforms(of: _transform)
        guard flat.isFinite, deep.isFinite else { return }
        if backing.transform != flat { backing.transform = flat }
        if backing.transform3D != deep { backing.transform3D = deep }
        backing.transformAnchor = anchorOffset
        backing.transformAnchorDepth = Double(anchorPointZ)
    }

    /// The transform as an affine transform (`CATransform3DGetAffineTransform(transform)`).
    open func affineTransform() -> CGAffineTransform { CATransform3DGetAffineTransform(_transform) }
    open func setAffineTransform(_ m: CGAffineTransform) { transform = CATransform3DMakeAffineTransform(m) }

    /// Applied to every sublayer about this layer's centre (Core Animation applies it about the anchor
    /// point: the same for the default one): the usual home of a perspective shared by the sublayers.
    /// Default identity; not animated.
    open var sublayerTransform: CATransform3D = CATransform3DIdentity {
        didSet {
            guard sublayerTransform.entries.allSatisfy(\.isFinite) else { sublayerTransform = oldValue; return }
            backing.sublayerTransform = sublayerTransform.transform3D
        }
    }

    // MARK: Appearance

    /// 0…1; default 1.
    open var opacity: Float {
        get { Float(backing.alpha) }
        set { if newValue.isFinite { implicitly(["opacity"]) { backing.alpha = Double(min(1, max(0, newValue))) } } }
    }

    open var isHidden: Bool {
        get { backing.isHidden }
        set { backing.isHidden = newValue }
    }

    /// Clips sublayers (and content) to the bounds, rounded by `cornerRadius`.
    open var masksToBounds: Bool {
        get { backing.clipsToBounds }
        set { backing.clipsToBounds = newValue }
    }

    open var cornerRadius: CGFloat {
        get { CGFloat(backing.cornerRadius) }
        set { if newValue.isFinite { implicitly(["cornerRadius"]) { backing.cornerRadius = Double(newValue) } } }
    }

    /// Which corners `cornerRadius` rounds (for the background, border, `masksToBounds` clip and the shadow
    /// of the content); default all four.
    open var maskedCorners: CACornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner] {
        didSet { backing.roundedCorners = Corners(rawValue: UInt8(truncatingIfNeeded: maskedCorners.rawValue & 15)) }
    }

    /// `.circular` (the default) or `.continuous`: iOS's corner whose curvature rises gradually from the
    /// sides, for the background, border, `masksToBounds` clip, mask and shadow alike (docs/uikit.md's
    /// "Continuous corners" says how it is built).
    open var cornerCurve: CALayerCornerCurve = .circular {
        didSet { backing.cornerCurve = cornerCurve == .continuous ? .continuous : .circular }
    }

    open var backgroundColor: CGColor? {
        get { backing.backgroundColor.map(CGColor.init) }
        set { implicitly(["backgroundColor"]) { backing.backgroundColor = newValue.flatMap { $0.alpha > 0 ? $0.color : nil } } }
    }

    /// Points, drawn inside the bounds above the sublayers.
    open var borderWidth: CGFloat {
        get { CGFloat(backing.borderWidth) }
        set { if newValue.isFinite { implicitly(["borderWidth"]) { backing.borderWidth = Double(newValue) } } }
    }

    open var borderColor: CGColor? {
        get { CGColor(backing.borderColor) }
        set { implicitly(["borderColor"]) { backing.borderColor = newValue?.color ?? .clear } }
    }

    // Shadows: drawn under the layer. Each property animates explicitly (`CABasicAnimation(keyPath:
    // "shadowOpacity")`, keyframes, groups) and, on a layer no view owns, implicitly; `shadowPath` animates
    // point by point as a shape layer's `path` does.

    /// The shadow's colour; default opaque black.
    open var shadowColor: CGColor? = CGColor.black { didSet { applyShadow(); contentChanged("shadowColor", from: oldValue) } }
    /// 0…1; default 0 (no shadow).
    open var shadowOpacity: Float = 0 { didSet { applyShadow(); contentChanged("shadowOpacity", from: CGFloat(oldValue)) } }
    /// Points in the layer's coordinates; default (0, −3): upwards, as Core Animation's.
    open var shadowOffset = CGSize(width: 0, height: -3) { didSet { applyShadow(); contentChanged("shadowOffset", from: oldValue) } }
    /// The blur in points: the standard deviation of the Gaussian (a CSS blur of twice as many); default 3.
    open var shadowRadius: CGFloat = 3 { didSet { applyShadow(); contentChanged("shadowRadius", from: oldValue) } }
    /// The shadow's shape in the layer's coordinates; nil (the default): the alpha of everything the layer
    /// draws, which costs a second drawing of it every frame.
    open var shadowPath: CGPath? { didSet { applyShadow(); contentChanged("shadowPath", from: oldValue) } }

    /// The key paths of the shadow's properties.
    static let shadowKeyPaths: Set<String> = ["shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius", "shadowPath"]

    /// Puts the shadow on the backing view.
    private func applyShadow() {
        backing.shadow = Self.shadow(color: shadowColor, opacity: Double(shadowOpacity), offset: shadowOffset, radius: shadowRadius, path: shadowPath)
    }

    /// The shadow those properties draw, or nil when it would not show.
    static func shadow(color: CGColor?, opacity: Double, offset: CGSize, radius: CGFloat, path: CGPath?) -> Shadow? {
        let opacity = opacity.isFinite ? min(1, max(0, opacity)) : 0
        guard opacity > 0, let color = color?.color, color.alpha > 0, radius.isFinite, offset.width.isFinite, offset.height.isFinite else { return nil }
        return Shadow(color: color.withAlpha(color.alpha * opacity), offset: Size(width: Double(offset.width), height: Double(offset.height)),
                      radius: min(max(0, Double(radius)), 1000), path: path?.path)
    }

    /// The shadow a frame shows now: the model's, with whatever explicit animations show of its properties.
    func presentedShadow() -> Shadow? {
        guard explicitAnimations.contains(where: { running in Self.keyPaths(of: running.animation).contains { Self.shadowKeyPaths.contains($0) } }) else {
            return backing.shadow
        }
        let color = presentedContentValue(forKeyPath: "shadowColor").flatMap(AnimationValue.color) ?? shadowColor
        let opacity = presentedContentValue(forKeyPath: "shadowOpacity").flatMap(AnimationValue.number) ?? Double(shadowOpacity)
        let offset = presentedContentValue(forKeyPath: "shadowOffset").flatMap(AnimationValue.size) ?? shadowOffset
        let radius = presentedContentValue(forKeyPath: "shadowRadius").flatMap(AnimationValue.number).map { CGFloat($0) } ?? shadowRadius
        let path = presentedContentValue(forKeyPath: "shadowPath").flatMap(AnimationValue.path) ?? shadowPath
        return Self.shadow(color: color, opacity: opacity, offset: offset, radius: radius, path: path)
    }

    /// A layer whose alpha masks this one (its background, contents, sublayers and border): its frame is
    /// in this layer's coordinates and it is in no layer tree; where it draws nothing, nothing of this layer
    /// shows. A `CAShapeLayer` with an animated `path` is a growing reveal. Default nil.
    open var mask: CALayer? { didSet { backing.mask = mask?.backing } }

    /// Whether the back of a turned layer shows (mirrored); default true. A layer that is not double-sided
    /// is not drawn while its back faces the viewer.
    open var isDoubleSided = true { didSet { backing.isDoubleSided = isDoubleSided } }

    /// Kept for code that sets it: every edge is anti-aliased here, turned or not, as with `true` (Core
    /// Animation's default, false, leaves a turned layer's edges aliased unless Info.plist says otherwise).
    open var allowsEdgeAntialiasing = false

    /// Kept for code that sets them; rasterization changes nothing here.
    open var shouldRasterize = false
    open var rasterizationScale: CGFloat = 1
    open var contentsScale: CGFloat = 1
    open var isOpaque = false
    open var name: String?

    /// An image (a `CGImage`) drawn to fill the bounds.
    open var contents: Any? { didSet { contentsDidChange() } }

    package func contentsDidChange() {
        (backing as? LayerView)?.contentImage = (contents as? CGImage)?.bitmap
    }

    /// What this layer draws in its bounds (nil: nothing); subclasses draw shapes and gradients.
    package func drawnContent() -> (any ViewContent)? {
        guard let image = (backing as? LayerView)?.contentImage else { return nil }
        return LayerImageContent(image: image)
    }

    // MARK: Coordinates

    /// `point` of this layer's coordinates in `layer`'s.
    open func convert(_ point: CGPoint, to layer: CALayer?) -> CGPoint {
        guard let layer else { return point }
        return CGPoint((try? backing.convert(point.point, to: layer.backing)) ?? point.point)
    }

    open func convert(_ point: CGPoint, from layer: CALayer?) -> CGPoint {
        guard let layer else { return point }
        return CGPoint((try? backing.convert(point.point, from: layer.backing)) ?? point.point)
    }

    open func convert(_ rect: CGRect, to layer: CALayer?) -> CGRect {
        guard let layer else { return rect }
        return CGRect((try? backing.convert(rect.rect, to: layer.backing)) ?? rect.rect)
    }

    open func convert(_ rect: CGRect, from layer: CALayer?) -> CGRect {
        guard let layer else { return rect }
        return CGRect((try? backing.convert(rect.rect, from: layer.backing)) ?? rect.rect)
    }

    // MARK: Hit testing

    /// Whether `p`, a point in this layer's coordinates (points), is inside the layer: within its bounds,
    /// as Core Animation's default (edges half-open, as `CGRect.contains`). A subclass overrides it to
    /// test a shape of its own; ``hitTest(_:)`` asks it.
    open func contains(_ p: CGPoint) -> Bool { bounds.contains(p) }

    /// The farthest descendant of this layer, or this layer itself, that contains `p`, a point in the
    /// superlayer's coordinates (points; for a layer without one, the space its `position` is in), as
    /// Core Animation's `hitTest(_:)`: a hidden layer and its sublayers are skipped; a layer that masks to
    /// its bounds passes on only the points inside them; sublayers are tried front first (the last drawn,
    /// by `zPosition` then order); a point that maps behind the eye or into a plane seen edge on is in no
    /// point of a layer. Opacity does not count (a transparent layer is still hit). Nil when no layer
    /// contains the point.
    open func hitTest(_ p: CGPoint) -> CALayer? {
        guard !isHidden, let local = pointFromSuperlayerSpace(p) else { return nil }
        if masksToBounds, !contains(local) { return nil }
        let front = _sublayers.enumerated().sorted { ($0.element.zPosition, $0.offset) > ($1.element.zPosition, $1.offset) }
        for (_, layer) in front {
            if let hit = layer.hitTest(local) { return hit }
        }
        return contains(local) ? self : nil
    }

    /// `p` in the superlayer's coordinates (or, without one, the space of `position`) expressed in this
    /// layer's, through every transform on the way; nil when it maps nowhere in the layer.
    private func pointFromSuperlayerSpace(_ p: CGPoint) -> CGPoint? {
        if let superlayer {
            return (try? backing.convert(p.point, from: superlayer.backing)).map(CGPoint.init)
        }
        guard let inverse = backing.chainToSuperview.flattened.inverted(), let local = inverse.apply(to: p.point) else { return nil }
        return CGPoint(local)
    }

    // MARK: Presentation and animations

    /// A copy of the layer as it shows now on the stage's clock (its in-flight animations applied), as
    /// Core Animation's presentation layer; the layer itself holds the model values. The copy is of
    /// Core Animation's own class for the layer (`CALayer`, `CAShapeLayer`, `CAGradientLayer`), so for a
    /// layer class of the app's own this is nil.
    open func presentation() -> Self? {
        let copy = Self.presentationCopy(of: self)
        let shown = StageContext.presentation
        let view = backing
        ViewChangeObservation.withoutObserver {
            for property in ViewProperty.allCases {
                copy.backing.setModelValue(shown.presentationValue(of: property, of: view, model: view.modelValue(of: property)), of: property)
            }
        }
        // The transform shown, as the copy's own (what `transform` and `affineTransform()` read): the model's
        // when nothing animates it.
        let model = drawnTransforms(of: _transform)
        let shownFlat = copy.backing.transform, shownDeep = copy.backing.transform3D
        copy._transform = shownFlat == model.flat && shownDeep == model.deep ? _transform : layerTransform(flat: shownFlat, deep: shownDeep)
        return copy as? Self
    }

    /// A copy of `layer`'s drawn properties, of Core Animation's class for it.
    class func presentationCopy(of layer: CALayer) -> CALayer { CALayer(layer: layer) }

    /// Adds `anim` under `key` (replacing an animation with that key): it shows on the layer's
    /// presentation from its `beginTime` (now when 0) and is removed when it ends, unless
    /// `isRemovedOnCompletion` is false; the model values do not change. Key paths the renderer cannot
    /// show are listed in the stage's `notDrawn`. See CALayer+Animations.swift.
    open func add(_ anim: CAAnimation, forKey key: String?) { addExplicit(anim, forKey: key) }

    /// The explicit animation under `key`, if any.
    open func animation(forKey key: String) -> CAAnimation? { explicitAnimations.first { $0.key == key }?.animation }

    /// Removes the explicit animation under `key`: its delegate hears it stop unfinished.
    open func removeAnimation(forKey key: String) {
        if let running = explicitAnimations.first(where: { $0.key == key }) { stop(running, finished: false) }
    }

    /// Key paths a layer draws from itself (its content: a shape layer's `path`), not through a view
    /// property.
    var contentKeyPaths: Set<String> { [] }

    /// A content key path's model value.
    func contentModelValue(forKeyPath keyPath: String) -> Any? { nil }

    // MARK: Key-value coding (Core Animation's; Foundation on Linux has none)

    private var customValues: [String: Any] = [:]

    /// The layer's value for `key`: one of its animatable properties (`"opacity"`, `"position"`,
    /// `"transform.scale"`…), or a value stored with ``setValue(_:forKey:)`` (a layer keeps any key).
    open func value(forKey key: String) -> Any? { modelValue(forKeyPath: key) ?? customValues[key] }
    open func value(forKeyPath keyPath: String) -> Any? { value(forKey: keyPath) }

    /// Sets an animatable property by its key (`"opacity"`, `"cornerRadius"`, `"position"`…), or keeps
    /// any other key's value for ``value(forKey:)``.
    open func setValue(_ value: Any?, forKey key: String) {
        switch key {
        case "opacity": if let v = AnimationValue.number(value) { opacity = Float(v) }
        case "cornerRadius": if let v = AnimationValue.number(value) { cornerRadius = CGFloat(v) }
        case "borderWidth": if let v = AnimationValue.number(value) { borderWidth = CGFloat(v) }
        case "position": if let v = AnimationValue.point(value) { position = v }
        case "bounds": if let v = AnimationValue.rect(value) { bounds = v }
        case "transform": if let v = AnimationValue.transform(value) { transform = v }
        case "backgroundColor": backgroundColor = AnimationValue.color(value)
        case "borderColor": borderColor = AnimationValue.color(value)
        default: customValues[key] = value
        }
    }

    open func setValue(_ value: Any?, forKeyPath keyPath: String) { setValue(value, forKey: keyPath) }

    /// Whether a change of `key` redraws the layer: false here (layers draw every frame).
    open class func needsDisplay(forKey key: String) -> Bool { false }
    /// The default value of `key` for new layers: none.
    open class func defaultValue(forKey key: String) -> Any? { nil }
    /// The action for a change of `key` (Core Animation's implicit animation): the one in ``actions``
    /// for it (an `NSNull` there means none), else ``defaultAction(forKey:)``.
    open func action(forKey event: String) -> CAAction? {
        if let action = actions?[event] { return action is NSNull ? nil : action }
        return Self.defaultAction(forKey: event)
    }

    /// A basic animation of the transaction's duration (0.25 s by default) for an animatable key, as
    /// Core Animation's; none for other keys.
    open class func defaultAction(forKey event: String) -> CAAction? {
        guard CALayer.viewProperty(for: event) != nil || contentActionKeys.contains(event) else { return nil }
        let animation = CABasicAnimation(keyPath: event)
        animation.timingFunction = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction(name: .default)
        return animation
    }

    /// The shadow's, shape and gradient layers' animatable properties: they animate implicitly as the layer's own do.
    static let contentActionKeys: Set<String> = ["path", "fillColor", "strokeColor", "lineWidth", "strokeStart", "strokeEnd", "lineDashPhase", "miterLimit",
                                                 "colors", "locations", "startPoint", "endPoint", "shadowColor", "shadowOpacity",
                                                 "shadowOffset", "shadowRadius", "shadowPath"]

    /// Actions by key: an animation to run in place of the default, or `NSNull()` for none.
    open var actions: [String: CAAction]?

    /// The layer itself: it holds the model values.
    open func model() -> Self { self }

    /// Removes the animations of the layer's properties (the view's, for a view's layer): they show
    /// their model values at once, and the animation blocks that animated only them complete with
    /// `finished == false`.
    open func removeAllAnimations() {
        StageContext.engine?.removeAnimations(of: backing)
        for running in explicitAnimations { stop(running, finished: false) }
    }

    /// The keys of the explicit animations added (`add(_:forKey:)`), then "animation" while a
    /// `UIView` animation runs on the layer; nil when there are none.
    open func animationKeys() -> [String]? {
        var keys = explicitAnimations.map(\.key)
        if let engine = StageContext.engine, engine.isAnimating(backing) { keys.append("animation") }
        return keys.isEmpty ? nil : keys
    }

    // MARK: Display

    /// Draws the layer and its sublayers as they show now into `ctx`, over the layer's bounds (at the
    /// screen's scale, as Core Animation renders a layer tree into a bitmap context).
    open func render(in ctx: CGContext) {
        guard let image = try? backing.snapshot(scale: StageContext.displayScale, presentation: StageContext.presentation) else { return }
        ctx.draw(CGImage(bitmap: image), in: CGRect(origin: .zero, size: bounds.size))
    }

    /// Redrawing is every frame here: nothing to schedule.
    open func setNeedsDisplay() {}
    open func setNeedsLayout() {}
    open func layoutIfNeeded() {}
    open func layoutSublayers() {}
    open func display() {}
    open var needsDisplayOnBoundsChange = false
}

/// An action a layer runs for a change (an animation is one).
public protocol CAAction {
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

extension CAAnimation: CAAction {
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        (anObject as? CALayer)?.add(self, forKey: event)
    }
}

extension NSNull: CAAction {
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

/// Which corners a layer's `cornerRadius` rounds.
public struct CACornerMask: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1)
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 2)
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 4)
    public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 8)
}

/// The shape of a layer's rounded corners.
public struct CALayerCornerCurve: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let circular = CALayerCornerCurve(rawValue: "circular")
    public static let continuous = CALayerCornerCurve(rawValue: "continuous")
}

/// The view that backs a plain ``CALayer``: it draws the layer's content (a shape, an image) between
/// its background and its sublayers.
package final class LayerView: View {
    package weak var layer: CALayer?
    package var contentImage: Bitmap?

    package init() {
        super.init(frame: .zero, name: nil)
        isOpaque = false
    }

    package override func makeContent() -> (any ViewContent)? {
        guard let layer else { return nil }
        return layer.contentDelegate?.drawnContent(of: layer) ?? layer.drawnContent()
    }
}

/// What draws a layer's content in its stead: UIKit's view, whose `draw(_:)` does.
package protocol LayerContentDelegate: AnyObject {
    /// The content to draw for `layer`, or nil to draw the layer's own.
    func drawnContent(of layer: CALayer) -> (any ViewContent)?
}

/// A layer's `contents` image stretched over its bounds.
struct LayerImageContent: ViewContent {
    let image: Bitmap
    func draw(in painter: Painter, bounds: Rect) { painter.draw(image, in: bounds) }
    /// The same pixels (a layer turned in 3-D keeps its layer between frames by this).
    func drawsTheSame(as other: any ViewContent) -> Bool { (other as? LayerImageContent)?.image == image }
}

/// What a stage's views and layers were given that the renderer does not draw yet: each noted once, read
/// and cleared by the stage that renders (so a render lists what it could not show, never silently).
package enum NotDrawn {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var noted: [String] = []

    /// Notes `what` (a property, with the value that would show) once.
    package static func note(_ what: String) {
        lock.withLock { if !noted.contains(what) { noted.append(what) } }
    }

    /// What was noted since the last call, in order.
    package static func take() -> [String] {
        lock.withLock {
            defer { noted = [] }
            return noted
        }
    }
}

/// Seconds of the stage's virtual clock (Core Animation's media time): the time animations start and
/// end at here.
public func CACurrentMediaTime() -> CFTimeInterval { StageContext.now }

/// Core Foundation's interval in seconds.
public typealias CFTimeInterval = Double

/// C's `HUGE` (infinity as a `Float`), which iOS code uses for a `repeatCount` that never ends.
public let HUGE = Float.infinity
