import RasterCore

/// A view as it is presented at one moment, for people debugging a transition and for tools
/// (`smokescreen inspect --json`). Geometry is in points.
public struct ViewDescription: Codable, Sendable, Equatable {
    /// The view's name, or nil.
    public var name: String?
    /// The view's class: `View`, `Label`, `ImageView`, `ScrollView`, `Smokescreen`, …
    public var type: String
    /// `[x, y, width, height]` in the coordinates of the described tree's root (the window), after every
    /// transform: the bounding box of the view's bounds.
    public var frame: [Double]
    /// `[x, y, width, height]`: the view's own coordinate space; the origin is the scroll offset.
    public var bounds: [Double]
    /// `[a, b, c, d, tx, ty]`, as CGAffineTransform.
    public var transform: [Double]
    /// The view's alpha times every ancestor's: how opaque it is on screen.
    public var alpha: Double
    /// The view's own alpha.
    public var ownAlpha: Double
    /// Whether the view is hidden (its subtree is described all the same).
    public var hidden: Bool
    /// `#RRGGBBAA`, or nil for no background.
    public var backgroundColor: String?
    /// Whether the view clips its content and subviews to its bounds.
    public var clipsToBounds: Bool
    /// A label's text.
    public var text: String?
    /// An image view's image: `WxH@Sx` (pixels and scale), or nil.
    public var image: String?
    /// An image view's content mode.
    public var contentMode: String?
    /// A scroll view's `[x, y]` offset.
    public var contentOffset: [Double]?
    /// Back to front.
    public var subviews: [ViewDescription]
    /// Which view object this is, for following one view from frame to frame within one run (it is not
    /// in the JSON, and means nothing across runs). Nil for descriptions read back from JSON.
    public var identity: Int?

    enum CodingKeys: String, CodingKey {
        case name, type, frame, bounds, transform, alpha, ownAlpha, hidden, backgroundColor, clipsToBounds, text, image, contentMode,
             contentOffset, subviews
    }
}

extension View {
    /// This view and its subtree as presented by `presentation` (default: the model values), hidden
    /// views included and marked; frames are in this view's coordinates, as if it were the window.
    public func presentationDescription(presentation: some PresentationSource = ModelPresentation()) -> ViewDescription {
        describe(presentation: presentation, toRoot: .identity, parentAlpha: 1, isRoot: true)
    }

    private func describe(presentation: some PresentationSource, toRoot parent: Transform2D, parentAlpha: Double, isRoot: Bool) -> ViewDescription {
        func value(_ p: ViewProperty) -> AnimatableValue { presentation.presentationValue(of: p, of: self, model: modelValue(of: p)) }
        let center = value(.center).pointValue ?? self.center
        let bounds = value(.bounds).rectValue ?? self.bounds
        let transform = value(.transform).transformValue ?? self.transform
        let ownAlpha = value(.alpha).doubleValue ?? alpha
        // The root's own position does not move it in its own coordinates.
        let toParent = isRoot ? Transform2D(translationX: -bounds.minX, y: -bounds.minY)
            : View.transformToSuperview(center: center, bounds: bounds, transform: transform, anchor: transformAnchor)
        let toRoot = toParent.concatenating(parent)
        let effective = parentAlpha * (isHidden ? 0 : min(1, max(0, ownAlpha.isNaN ? 0 : ownAlpha)))
        let frame = toRoot.apply(to: bounds)
        var description = ViewDescription(
            name: name, type: String(describing: Swift.type(of: self)),
            frame: [frame.minX, frame.minY, frame.width, frame.height],
            bounds: [bounds.minX, bounds.minY, bounds.width, bounds.height],
            transform: [transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty],
            alpha: effective, ownAlpha: ownAlpha, hidden: isHidden,
            backgroundColor: (value(.backgroundColor).colorValue ?? backgroundColor).map(Self.hex),
            clipsToBounds: clipsToBounds, text: nil, image: nil, contentMode: nil, contentOffset: nil,
            subviews: subviews.map { $0.describe(presentation: presentation, toRoot: toRoot, parentAlpha: effective, isRoot: false) })
        description.identity = ObjectIdentifier(self).hashValue
        if let label = self as? Label { description.text = label.text }
        if let imageView = self as? ImageView {
            description.image = imageView.image.map { "\($0.width)x\($0.height)@\(Self.number($0.scale))x" }
            description.contentMode = imageView.contentMode.rawValue
        }
        if self is ScrollView { description.contentOffset = [bounds.minX, bounds.minY] }
        return description
    }

    static func hex(_ color: Color) -> String {
        func byte(_ v: Double) -> String {
            let b = Int((min(1, max(0, v)) * 255).rounded())
            return String(b, radix: 16, uppercase: true).count == 1 ? "0" + String(b, radix: 16, uppercase: true) : String(b, radix: 16, uppercase: true)
        }
        return "#" + byte(color.red) + byte(color.green) + byte(color.blue) + byte(color.alpha)
    }

    static func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}
