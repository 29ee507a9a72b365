import CRasterKernels
import Foundation
import RasterCore
import SnapshotView

/// Where a curling page is, as a cylinder lying on it: the page is flat up to the cylinder's axis, wraps
/// around the cylinder past it (the front turning away, then the back coming over the top), and lies
/// flat again, upside down and mirrored, once it has gone half way round.
///
/// Coordinates are the page's, in points, origin at its top-left, the spine at x = 0. The axis is a line
/// on the page through ``axisPoint`` along ``axisDirection``; ``towardsEdge`` is the unit normal to it
/// pointing at the free edge. A page point at signed distance `s` from the axis (positive towards the
/// edge) lands, seen from above, at distance ``projectedDistance(_:)`` from the axis.
public struct PageCurlGeometry: Hashable, Sendable {
    /// The page's size (points).
    public var pageSize: Size
    /// A point on the axis (page points).
    public var axisPoint: Point
    /// Unit normal to the axis, pointing towards the free edge (the part that curls).
    public var towardsEdge: Point
    /// The cylinder's radius (points).
    public var radius: Double

    /// The radius at the start of a turn, as a share of the page's width: 0.15.
    public static let startRadius = 0.15
    /// The radius at the end of a turn: 0.3 (the curl opens up as the page goes over).
    public static let endRadius = 0.3

    /// A turn `progress` (0: flat, 1: turned over and gone past the spine) of a page `size`, its axis turned by
    /// `angle` radians from the vertical (positive: the bottom of the axis towards the spine), pivoting
    /// at height `pivotY` (points; default the page's middle).
    ///
    /// The radius grows from ``startRadius`` to ``endRadius`` of the width with the progress; the axis
    /// moves from the free edge (nothing curled at 0) to where the cylinder and the shadow it casts have
    /// just left the page (nothing drawn at 1), so every moment of a turn shows motion.
    public init(progress: Double, pageSize size: Size, angle: Double = 0, pivotY: Double? = nil) {
        let p = progress.isFinite ? min(1, max(0, progress)) : 0
        let w = max(size.width, 1e-9)
        pageSize = size
        radius = w * (Self.startRadius + (Self.endRadius - Self.startRadius) * p)
        let a = angle.isFinite ? max(-1.2, min(1.2, angle)) : 0
        towardsEdge = Point(x: cos(a), y: -sin(a))
        let y0 = pivotY ?? size.height / 2
        // With a tilted axis the corners reach further: start the axis out by the overhang so that a turn
        // at 0 is flat.
        let overhang = size.height * abs(tan(a))
        let start = w + overhang
        // The end: every point of the page at least 2R from the axis (R of cylinder, R of shadow beyond
        // it), measured from the spine's nearer corner. Ending at πR past the spine instead, as a paper
        // model suggests, left the last 40 % of a turn's progress with nothing on screen.
        let nearCornerOffset = min(-(0 - y0) * sin(a), -(size.height - y0) * sin(a))
        let end = (nearCornerOffset - Self.shadowReach * w * Self.endRadius) / cos(a)
        axisPoint = Point(x: start - p * (start - end), y: y0)
    }

    /// How far past the axis a curl draws, in radii: the cylinder (1) and its cast shadow (1).
    static let shadowReach = 2.0

    /// The axis's direction (unit), `towardsEdge` turned a quarter clockwise.
    public var axisDirection: Point { Point(x: towardsEdge.y, y: -towardsEdge.x) }

    /// The signed distance of page point `p` from the axis, towards the edge (points).
    public func distance(of p: Point) -> Double {
        (p.x - axisPoint.x) * towardsEdge.x + (p.y - axisPoint.y) * towardsEdge.y
    }

    /// Where a page point at distance `s` from the axis lands, seen from above, as a distance from the
    /// axis: `s` when flat (s ≤ 0), R·sin(s/R) on the cylinder, πR − s once turned over (s ≥ πR).
    public func projectedDistance(_ s: Double) -> Double {
        if s <= 0 { return s }
        if s >= Double.pi * radius { return Double.pi * radius - s }
        return radius * sin(s / radius)
    }

    /// Where page point `p` lands (page points).
    public func project(_ p: Point) -> Point {
        let s = distance(of: p)
        let shift = projectedDistance(s) - s
        return Point(x: p.x + towardsEdge.x * shift, y: p.y + towardsEdge.y * shift)
    }

    /// How strong the shadow the curl casts is, 0…1: 1 while the curl's edge is over the page, falling
    /// linearly to 0 as the page's near corner at the spine gets a radius past that edge (where a turn
    /// ends), so that the shadow fades with the page gone instead of staying at full strength at the
    /// spine, and still moves until the turn's last frame.
    public var shadowStrength: Double {
        let far = farthestDistance
        let edge = far >= Double.pi * radius / 2 ? radius : projectedDistance(far)
        guard radius > 0 else { return 1 }
        return min(1, max(0, 1 - (nearestDistance - edge) / radius))
    }

    /// The largest signed distance any point of the page has from the axis (the far corner).
    public var farthestDistance: Double {
        let corners = [Point(x: 0, y: 0), Point(x: pageSize.width, y: 0), Point(x: 0, y: pageSize.height),
                       Point(x: pageSize.width, y: pageSize.height)]
        return corners.map(distance(of:)).max() ?? 0
    }
    /// The smallest (the near corner).
    public var nearestDistance: Double {
        let corners = [Point(x: 0, y: 0), Point(x: pageSize.width, y: 0), Point(x: 0, y: pageSize.height),
                       Point(x: pageSize.width, y: pageSize.height)]
        return corners.map(distance(of:)).min() ?? 0
    }
}

/// A page curling over the page below it, drawn one device pixel at a time: each pixel at distance u from
/// the axis (as projected) looks at the page where the cylinder puts it, the back (come over the top, or
/// turned over and lying flat) over the front, each sampled bilinearly and anti-aliased at the page's
/// edges by their distance in device pixels. No strips, masks or layers: one pass (`crk_page_curl`) blends
/// the curl and its shadow straight into the frame, or, under an anti-aliased clip or an alpha, into a
/// buffer of its own that is then composited through the painter.
///
/// The front darkens where it turns away from the viewer and the back the same way, one shade per device
/// pixel; the back shows the page mirrored and washed out towards white (``backWash``); the page below
/// gets a shadow along the curl. The drawing's bounds are the page.
public struct PageCurlDrawing: ViewContent {
    /// The page's front, as a bitmap of the page's size (any scale).
    public var page: Bitmap
    /// The page's back as the curl shows it: ``page`` washed ``backWash`` of the way to white
    /// (``washedBack(of:)``). Made once per turn by whoever draws many frames of one page.
    public var back: Bitmap
    /// Where the page is.
    public var geometry: PageCurlGeometry
    /// How white the back is: 0.7 (a share of the way from the content to white).
    public static let backWash = 0.7
    /// The darkest shade of the cylinder, where it is seen edge-on (black alpha): 0.35.
    public static let edgeShade = 0.35
    /// The shadow on the page below: black alpha at the curl's edge: 0.25 (times the geometry's
    /// ``PageCurlGeometry/shadowStrength``, which takes it away once the page has gone). It fades out over one radius
    /// as `shadowAlpha × (1 − f)^shadowExponent` (f: 0 at the curl's edge, 1 at the shadow's far side),
    /// one value per device pixel, so neighbouring device pixels differ by at most
    /// 255 × 0.25 × 1.25 / (radius in pixels) levels: 1.7 for the smallest radius of a 320 pt page
    /// (48 pt) at @1x, 0.8 at @2x.
    public static let shadowAlpha = 0.25
    /// The shadow's fall-off exponent: 1.25 (nearly linear, so no part is steep; its slope reaches 0 at
    /// the far side, so it ends without a visible line).
    public static let shadowExponent = 1.25

    /// A curl of `page` at `geometry`; `back`, if given, must be ``washedBack(of:)`` of `page` (made here
    /// when not: one pass over the page's pixels).
    public init(page: Bitmap, back: Bitmap? = nil, geometry: PageCurlGeometry) {
        self.page = page
        self.back = back ?? Self.washedBack(of: page)
        self.geometry = geometry
    }

    /// `page` as its back shows through the paper: white at ``backWash`` alpha over every pixel
    /// (source-over, premultiplied, rounded once per channel).
    public static func washedBack(of page: Bitmap) -> Bitmap {
        let painter = Painter(bitmap: page)
        painter.fill(Rect(x: 0, y: 0, width: Double(page.width) / page.scale, height: Double(page.height) / page.scale),
                     color: Color(white: 1, alpha: backWash))
        return painter.finish()
    }

    public func extent(in bounds: Rect) -> Rect { bounds }
    public var isSingleShape: Bool { false }

    /// The shadow's black alpha at `f` of its width from the curl's edge (0…1).
    public static func shadowAlpha(at f: Double) -> Double {
        shadowAlpha * pow(max(0, 1 - min(1, f)), shadowExponent)
    }

    /// ``shadowAlpha(at:)`` tabulated for the per-pixel pass (`pow` per pixel was a tenth of a curl
    /// frame): 4,097 samples, interpolated linearly, within 2e-6 of the function (0.0005 levels).
    package static let shadowProfile = SampledProfile(count: 4096) { shadowAlpha(at: $0) }

    /// The largest buffer one curl draws through (pixels): 64 Mpx, far above any page on any screen.
    static let maxPixels = 1 << 26

    public func draw(in painter: Painter, bounds: Rect) {
        let g = geometry
        let size = g.pageSize
        guard size.width > 0, size.height > 0, size.width.isFinite, size.height.isFinite, g.radius.isFinite,
              g.axisPoint.x.isFinite, g.axisPoint.y.isFinite, page.width > 0, page.height > 0,
              back.width == page.width, back.height == page.height else { return }
        // Page points to device pixels, and back.
        let toDevice = Transform2D(translationX: bounds.minX, y: bounds.minY).concatenating(painter.transform)
        guard toDevice.isFinite, let toPage = toDevice.inverted(), toPage.isFinite else { return }
        // The axis's normal must be a unit vector (the C pass divides by gradients made from it).
        let normalLength = (g.towardsEdge.x * g.towardsEdge.x + g.towardsEdge.y * g.towardsEdge.y).squareRoot()
        guard normalLength.isFinite, abs(normalLength - 1) < 1e-6, g.radius >= 0 else { return }
        let far = g.farthestDistance
        let outer = far >= Double.pi * g.radius / 2 ? g.radius : g.projectedDistance(far)
        // What is drawn: the page swept back across the axis by the most any point of it moves (points move
        // towards the spine, the farthest the most), with its shadow inside the page.
        let shift = max(0, far - g.projectedDistance(far))
        let n = g.towardsEdge
        var corners: [Point] = []
        for p in [Point(x: 0, y: 0), Point(x: size.width, y: 0), Point(x: 0, y: size.height), Point(x: size.width, y: size.height)] {
            corners.append(toDevice.apply(to: p))
            corners.append(toDevice.apply(to: Point(x: p.x - n.x * shift, y: p.y - n.y * shift)))
        }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(),
              maxX - minX < 1e7, maxY - minY < 1e7 else { return }
        let clip = painter.clipBoundingBox
        // (Clamped to the clip as doubles first: a page placed absurdly far away must not trap converting.)
        func within(_ v: Double, _ lo: Int, _ hi: Int) -> Int { Int(min(Double(hi), max(Double(lo), v))) }
        let x0 = within((minX - 1).rounded(.down), clip.minX, clip.maxX), x1 = within((maxX + 1).rounded(.up), clip.minX, clip.maxX)
        let y0 = within((minY - 1).rounded(.down), clip.minY, clip.maxY), y1 = within((maxY + 1).rounded(.up), clip.minY, clip.maxY)
        guard x1 > x0, y1 > y0, (x1 - x0) * (y1 - y0) <= Self.maxPixels else { return }
        let box = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        let pixelsPerPoint = abs(toDevice.determinant).squareRoot()
        let strength = g.shadowStrength
        let profile = strength < 1 ? Self.shadowProfile.scaled(by: strength) : Self.shadowProfile
        page.withUnsafePixels { front in
            back.withUnsafePixels { backPixels in
                profile.withSamples { samples in
                    var curl = crk_curl(
                        device_to_page_a: toPage.a, device_to_page_b: toPage.b, device_to_page_c: toPage.c, device_to_page_d: toPage.d,
                        origin_x: toDevice.tx, origin_y: toDevice.ty, pixels_per_point: pixelsPerPoint,
                        axis_x: g.axisPoint.x, axis_y: g.axisPoint.y, normal_x: n.x, normal_y: n.y,
                        radius: g.radius, page_width: size.width, page_height: size.height, farthest: far, outer: outer,
                        edge_shade: Self.edgeShade, front: front.baseAddress, back: backPixels.baseAddress,
                        image_width: Int32(page.width), image_height: Int32(page.height), image_scale: page.scale,
                        shadow: samples.baseAddress, shadow_count: Int32(samples.count - 1))
                    // Straight into the frame when nothing but source-over is asked (no clip mask, no alpha);
                    // else into a buffer of its own, composited through the painter.
                    let direct = painter.withSourceOverPixels(in: box) { pixels, stride, area in
                        crk_page_curl(&curl, pixels, Int32(stride), Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height))
                    }
                    guard !direct, var buffer = try? Bitmap(width: box.width, height: box.height, scale: page.scale) else { return }
                    buffer.withUnsafeMutablePixels { out in
                        crk_page_curl(&curl, out.baseAddress, Int32(box.width), Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height))
                    }
                    painter.draw(buffer, atDevicePixel: (box.x, box.y))
                }
            }
        }
    }
}

/// A function on 0…1 sampled at `count + 1` evenly spaced points and read back by linear interpolation
/// (clamped to 0…1 outside).
package struct SampledProfile: Sendable {
    private let samples: [Double]

    init(count: Int, _ f: (Double) -> Double) {
        let n = max(1, count)
        samples = (0...n).map { f(Double($0) / Double(n)) }
    }

    package func value(at x: Double) -> Double {
        let n = samples.count - 1
        let position = min(1, max(0, x.isNaN ? 0 : x)) * Double(n)
        let i = min(n - 1, Int(position))
        let t = position - Double(i)
        return samples[i] + (samples[i + 1] - samples[i]) * t
    }

    /// Every sample times `factor` (the same values as sampling the function times `factor`, without
    /// evaluating it again).
    func scaled(by factor: Double) -> SampledProfile { SampledProfile(samples: samples.map { $0 * factor }) }

    private init(samples: [Double]) { self.samples = samples }

    /// The `count + 1` samples, for code that interpolates them itself.
    func withSamples<R>(_ body: (UnsafeBufferPointer<Double>) -> R) -> R { samples.withUnsafeBufferPointer(body) }
}
