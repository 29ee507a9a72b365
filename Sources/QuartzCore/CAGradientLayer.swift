internal import RasterCore
package import SnapshotView

/// A layer filled with a gradient between `colors` (CGColors) at `locations` (0…1, evenly spaced when
/// nil), from `startPoint` to `endPoint` (unit coordinates of the bounds; defaults (0.5, 0) and
/// (0.5, 1): top to bottom). Axial, radial and conic gradients are drawn, at 2 pixels a point and
/// stretched to the bounds (at most 1,024 pixels a side), colours mixed in straight sRGB.
open class CAGradientLayer: CALayer {
    /// The colours, as `CGColor`s (anything else counts as clear).
    open var colors: [Any]?
    /// Where each colour sits along the gradient, 0…1; nil spaces them evenly.
    open var locations: [NSNumber]?
    open var startPoint = CGPoint(x: 0.5, y: 0)
    open var endPoint = CGPoint(x: 0.5, y: 1)
    /// Default `.axial`.
    open var type = CAGradientLayerType.axial

    private var cache: (key: GradientKey, bitmap: Bitmap)?

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
        let stops = gradientStops()
        guard !stops.isEmpty else { return super.drawnContent() }
        let size = bounds.size
        let width = min(1024, max(1, Int((size.width * 2).rounded(.up)))), height = min(1024, max(1, Int((size.height * 2).rounded(.up))))
        let key = GradientKey(stops: stops, start: startPoint, end: endPoint, type: type.rawValue, width: width, height: height)
        if let cache, cache.key == key { return GradientContent(bitmap: cache.bitmap) }
        guard var bitmap = try? Bitmap(width: width, height: height) else { return nil }
        GradientKey.fill(&bitmap, key)
        cache = (key, bitmap)
        return GradientContent(bitmap: bitmap)
    }

    /// (location, colour) pairs in order of location.
    private func gradientStops() -> [GradientKey.Stop] {
        let list = (colors ?? []).map { ($0 as? CGColor)?.color ?? .clear }
        guard !list.isEmpty else { return [] }
        var stops: [GradientKey.Stop] = []
        for (i, color) in list.enumerated() {
            let evenly = list.count == 1 ? 0 : Double(i) / Double(list.count - 1)
            let given = locations.flatMap { i < $0.count ? $0[i].doubleValue : nil }
            stops.append(GradientKey.Stop(location: given.map { $0.isFinite ? $0 : evenly } ?? evenly, color: color))
        }
        return stops.sorted { $0.location < $1.location }
    }
}

/// What a gradient's pixels depend on.
struct GradientKey: Equatable {
    struct Stop: Equatable {
        let location: Double
        let color: Color
    }

    let stops: [Stop]
    let start: CGPoint
    let end: CGPoint
    let type: String
    let width: Int
    let height: Int

    /// The colour at `t` along the stops (clamped to the ends).
    static func color(at t: Double, in stops: [Stop]) -> Color {
        guard let first = stops.first, let last = stops.last else { return .clear }
        if t <= first.location { return first.color }
        if t >= last.location { return last.color }
        for i in 1..<stops.count where t <= stops[i].location {
            let a = stops[i - 1], b = stops[i]
            let f = b.location > a.location ? (t - a.location) / (b.location - a.location) : 1
            return Color(red: a.color.red + (b.color.red - a.color.red) * f, green: a.color.green + (b.color.green - a.color.green) * f,
                         blue: a.color.blue + (b.color.blue - a.color.blue) * f, alpha: a.color.alpha + (b.color.alpha - a.color.alpha) * f)
        }
        return last.color
    }

    /// Fills `bitmap` (the bounds at `width` × `height` pixels) with the gradient, sampled at pixel centres.
    static func fill(_ bitmap: inout Bitmap, _ key: GradientKey) {
        let w = Double(key.width), h = Double(key.height)
        let sx = Double(key.start.x), sy = Double(key.start.y), ex = Double(key.end.x), ey = Double(key.end.y)
        let dx = ex - sx, dy = ey - sy
        let lengthSquared = dx * dx + dy * dy
        bitmap.withUnsafeMutablePixels { pixels in
            for y in 0..<key.height {
                let v = (Double(y) + 0.5) / h
                for x in 0..<key.width {
                    let u = (Double(x) + 0.5) / w
                    let t: Double
                    switch key.type {
                    case CAGradientLayerType.radial.rawValue:
                        // An ellipse: from the start point to the radii that the end point gives.
                        let rx = abs(dx), ry = abs(dy)
                        let nx = rx > 0 ? (u - sx) / rx : 0, ny = ry > 0 ? (v - sy) / ry : 0
                        t = (nx * nx + ny * ny).squareRoot()
                    case CAGradientLayerType.conic.rawValue:
                        // Around the start point, from the direction of the end point, clockwise on screen.
                        let base = atan2(dy, dx)
                        var angle = atan2(v - sy, u - sx) - base
                        while angle < 0 { angle += 2 * .pi }
                        t = angle / (2 * .pi)
                    default:
                        t = lengthSquared > 0 ? ((u - sx) * dx + (v - sy) * dy) / lengthSquared : 0
                    }
                    pixels[y * key.width + x] = color(at: t, in: key.stops).premultiplied.packed
                }
            }
        }
    }
}

/// A gradient's pixels stretched over the bounds.
struct GradientContent: ViewContent {
    let bitmap: Bitmap
    func draw(in painter: Painter, bounds: Rect) { painter.draw(bitmap, in: bounds) }
}

/// The shape of a gradient.
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let axial = CAGradientLayerType(rawValue: "axial")
    public static let radial = CAGradientLayerType(rawValue: "radial")
    public static let conic = CAGradientLayerType(rawValue: "conic")
}
