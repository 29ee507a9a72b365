internal import RasterCore
import Foundation
package import SnapshotView

/// A layer filled with a gradient between `colors` (CGColors) at `locations` (0…1, evenly spaced when
/// nil), from `startPoint` to `endPoint` (unit coordinates of the bounds; defaults (0.5, 0) and
/// (0.5, 1): top to bottom). Axial, radial and conic gradients are drawn at the device's pixels (at most
/// 4,096 a side), colours mixed in straight sRGB as Core Graphics mixes them, dithered to 8 bits so a slow
/// gradient shows no bands. `colors`, `locations`, `startPoint` and `endPoint` animate, explicitly and (on
/// a layer no view owns) implicitly.
open class CAGradientLayer: CALayer {
    /// The colours, as `CGColor`s (anything else counts as clear).
    open var colors: [Any]? { didSet { contentChanged("colors", from: oldValue) } }
    /// Where each colour sits along the gradient, 0…1; nil spaces them evenly.
    open var locations: [NSNumber]? { didSet { contentChanged("locations", from: oldValue) } }
    /// Unit coordinates of the bounds. Default (0.5, 0).
    open var startPoint = CGPoint(x: 0.5, y: 0) { didSet { contentChanged("startPoint", from: oldValue) } }
    /// Unit coordinates of the bounds. Default (0.5, 1).
    open var endPoint = CGPoint(x: 0.5, y: 1) { didSet { contentChanged("endPoint", from: oldValue) } }
    /// Default `.axial`.
    open var type = CAGradientLayerType.axial

    /// The last gradient drawn, kept while nothing it depends on changes (shared with the content the
    /// render threads draw).
    private let cache = GradientCache()

    public override init() { super.init() }
    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAGradientLayer {
            colors = other.colors
            locations = other.locations
            startPoint = other.startPoint
            endPoint = other.endPoint
            type = other.type
        }
    }

    open override class func makeForView() -> CALayer { CAGradientLayer() }
    override class func presentationCopy(of layer: CALayer) -> CALayer { CAGradientLayer(layer: layer) }

    package override func drawnContent() -> (any ViewContent)? {
        // An explicit animation of a content property shows its value now (Core Animation's presentation).
        let shownColors = presentedContentValue(forKeyPath: "colors") as? [Any] ?? colors
        let shownLocations = presentedContentValue(forKeyPath: "locations") as? [Any] ?? locations
        let start = presentedContentValue(forKeyPath: "startPoint").flatMap(AnimationValue.point) ?? startPoint
        let end = presentedContentValue(forKeyPath: "endPoint").flatMap(AnimationValue.point) ?? endPoint
        let stops = Self.stops(colors: shownColors, locations: shownLocations)
        guard !stops.isEmpty else { return super.drawnContent() }
        let kind: Gradient.Kind = type == .radial ? .radial : type == .conic ? .conic : .axial
        let shape = Gradient(kind: kind, stops: stops, start: Point(x: Double(start.x), y: Double(start.y)), end: Point(x: Double(end.x), y: Double(end.y)))
        return GradientContent(shape: shape, cache: cache)
    }

    override var contentKeyPaths: Set<String> { ["colors", "locations", "startPoint", "endPoint"] }

    override func contentModelValue(forKeyPath keyPath: String) -> Any? {
        switch keyPath {
        case "colors": colors
        case "locations": locations
        case "startPoint": startPoint
        case "endPoint": endPoint
        default: nil
        }
    }

    /// (location, colour) pairs in order of location.
    static func stops(colors: [Any]?, locations: [Any]?) -> [Gradient.Stop] {
        let list = (colors ?? []).map { AnimationValue.color($0)?.color ?? .clear }
        guard !list.isEmpty else { return [] }
        var stops: [Gradient.Stop] = []
        for (i, color) in list.enumerated() {
            let evenly = list.count == 1 ? 0 : Double(i) / Double(list.count - 1)
            let given = locations.flatMap { i < $0.count ? AnimationValue.number($0[i]) : nil }
            stops.append(Gradient.Stop(location: given.map { $0.isFinite ? $0 : evenly } ?? evenly, color: color))
        }
        return stops.sorted { $0.location < $1.location }
    }
}

/// The shape of a gradient.
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let axial = CAGradientLayerType(rawValue: "axial")
    public static let radial = CAGradientLayerType(rawValue: "radial")
    public static let conic = CAGradientLayerType(rawValue: "conic")
}
