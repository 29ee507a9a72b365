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

/// A page curling over the page below it, drawn as a mesh of strips parallel to the axis: the flat
/// part, the cylinder in `stripCount` strips (each an affine piece of the page image, sampled
/// bilinearly), and the part turned over. Strips are drawn from the axis outwards, which is also from the
/// lowest to the highest, so each covers what lies under it; each overlaps the one before by
/// ``overlapPixels`` device pixels, so that two anti-aliased edges never meet and no crack shows. Each
/// strip is one image drawn through its band: the front from ``page``, the back from ``back`` (the page
/// washed once, not per strip), so no strip needs a layer of its own.
///
/// The front darkens where it turns away from the viewer and the back the same way, one shade per device
/// pixel once the strips are down; the back shows the page mirrored and washed out towards white
/// (``backWash``); the page below gets a shadow along the curl. The drawing's bounds are the page.
public struct PageCurlDrawing: ViewContent {
    /// The page's front, as a bitmap of the page's size (any scale).
    public var page: Bitmap
    /// The page's back as the curl shows it: ``page`` washed ``backWash`` of the way to white
    /// (``washedBack(of:)``). Made once per turn by whoever draws many frames of one page.
    public var back: Bitmap
    /// Where the page is.
    public var geometry: PageCurlGeometry
    /// Strips across the half cylinder. Default 32 (5.6° each: at most 0.15 % of R off the true arc).
    public var stripCount = 32
    /// How white the back is: 0.7 (a share of the way from the content to white).
    public static let backWash = 0.7
    /// The darkest shade of a strip seen edge-on (black alpha): 0.35.
    public static let edgeShade = 0.35
    /// The shadow on the page below: black alpha at the curl's edge: 0.25. It fades out over one radius
    /// as `shadowAlpha × (1 − f)^shadowExponent` (f: 0 at the curl's edge, 1 at the shadow's far side),
    /// drawn in bands one device pixel wide, so neighbouring device pixels differ by at most
    /// 255 × 0.25 × 1.25 / (radius in pixels) levels: 1.7 for the smallest radius of a 320 pt page
    /// (48 pt) at @1x, 0.8 at @2x.
    public static let shadowAlpha = 0.25
    /// The shadow's fall-off exponent: 1.25 (nearly linear, so no part is steep; its slope reaches 0 at
    /// the far side, so it ends without a visible line).
    public static let shadowExponent = 1.25
    /// Overlap of consecutive strips (device pixels): 1.5. A pixel that a strip's edge crosses reaches
    /// up to (|cos| + |sin|)/2 ≤ 0.71 px across an edge at any angle, so the next strip must begin at
    /// least 1.21 px before it to cover that pixel whole.
    public static let overlapPixels = 1.5

    /// A curl of `page` at `geometry`; `back`, if given, must be ``washedBack(of:)`` of `page` (made here
    /// when not: one pass over the page's pixels).
    public init(page: Bitmap, back: Bitmap? = nil, geometry: PageCurlGeometry, stripCount: Int = 32) {
        self.page = page
        self.back = back ?? Self.washedBack(of: page)
        self.geometry = geometry
        self.stripCount = max(2, min(512, stripCount))
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

    /// ``shadowAlpha(at:)`` tabulated for the per-pixel mask (`pow` per pixel was a tenth of a curl
    /// frame): 4,097 samples, interpolated linearly, within 2e-6 of the function (0.0005 levels).
    static let shadowProfile = SampledProfile(count: 4096) { shadowAlpha(at: $0) }

    public func draw(in painter: Painter, bounds: Rect) {
        let g = geometry
        let n = g.towardsEdge, d = g.axisDirection
        let far = g.farthestDistance, near = g.nearestDistance
        guard far > near, g.radius > 0 else { return }
        // A device pixel in points, from the painter's transform (its scale).
        let t = painter.transform
        let pixel = 1 / max(1e-9, sqrt(abs(t.determinant)))
        let overlap = Self.overlapPixels * pixel
        let reach = (g.pageSize.width + g.pageSize.height) * 2 + 4 * g.radius
        painter.save()
        painter.translate(x: bounds.minX, y: bounds.minY)
        let pageRect = Rect(origin: .zero, size: g.pageSize)

        // The curl's outer line (as projected): the top of the cylinder, or the page's far edge before
        // the page has curled a quarter round.
        let outer = far >= Double.pi * g.radius / 2 ? g.radius : g.projectedDistance(far)
        /// The band of the screen between distances u0 and u1 from the axis (as projected).
        func band(_ u0: Double, _ u1: Double) -> Path {
            let lo = min(u0, u1), hi = max(u0, u1)
            var path = Path()
            let corners = [(lo, -reach), (hi, -reach), (hi, reach), (lo, reach)].map { u, v in
                Point(x: g.axisPoint.x + n.x * u + d.x * v, y: g.axisPoint.y + n.y * u + d.y * v)
            }
            path.move(to: corners[0])
            for c in corners.dropFirst() { path.addLine(to: c) }
            path.closeSubpath()
            return path
        }
        /// Clips to ``band(_:_:)``: a straight axis's band is a rectangle, rasterized as one (the same
        /// exact coverage as its path, for less work: the strips' clips are most of a curl frame).
        func clipToBand(_ u0: Double, _ u1: Double) {
            if n.y == 0, n.x == 1 {
                let lo = min(u0, u1), hi = max(u0, u1)
                painter.clip(to: Rect(x: g.axisPoint.x + lo, y: g.axisPoint.y - reach, width: hi - lo, height: 2 * reach))
            } else {
                painter.clip(to: band(u0, u1))
            }
        }
        /// The page's strip [s0, s1] drawn where it lands, its distances mapped linearly from u0 to u1.
        func strip(_ s0: Double, _ s1: Double, _ u0: Double, _ u1: Double, back: Bool, shade: Double, overlapBefore: Bool) {
            guard s1 > s0 else { return }
            let k = (u1 - u0) / (s1 - s0)
            // q = a + d (d·(p−a)) + n (u0 + k (n·(p−a) − s0))
            let m11 = d.x * d.x + k * n.x * n.x, m12 = d.x * d.y + k * n.x * n.y
            let m22 = d.y * d.y + k * n.y * n.y
            let a = g.axisPoint
            let shift = u0 - k * s0
            let tx = a.x - (m11 * a.x + m12 * a.y) + n.x * shift
            let ty = a.y - (m12 * a.x + m22 * a.y) + n.y * shift
            // The flat part maps the page onto itself: exactly, so that it is copied, not resampled.
            let placement = k == 1 && u0 == s0 ? Transform2D.identity : Transform2D(a: m11, b: m12, c: m12, d: m22, tx: tx, ty: ty)
            // Extend the strip back over the one before (never past the flat part's far side).
            let sign: Double = u1 >= u0 ? 1 : -1
            // (Never past the top of the cylinder: nothing of the page is seen beyond u = R.)
            let start = overlapBefore ? min(g.radius, u0 - sign * overlap) : u0
            // A strip that reaches the curl's outer line runs 2 px past it: the outer line is cut once, by
            // the clip of the layer the cylinder is drawn in, so its anti-aliasing is not stacked.
            var lo = min(start, u1), hi = max(start, u1)
            if hi >= outer - 1e-9 { hi = outer + 2 * pixel }
            if lo >= outer - 1e-9 { lo = outer - 1e-9 }
            painter.save()
            clipToBand(lo, hi)
            let image = back ? self.back : page
            if shade > 0.002 {
                // (A rotated painter: no per-pixel shading.) The image and its shade as one group through
                // the strip's edge: drawn one by one, each would meet the strip before at a partly covered
                // seam and leave a line there.
                painter.withLayer(opacity: 1) {
                    painter.drawOnce(image, transform: placement)
                    painter.fill(Path(rect: pageRect).applying(placement), color: Color(white: 0, alpha: shade))
                }
            } else {
                painter.drawOnce(image, transform: placement)
            }
            painter.restore()
        }

        let r = g.radius, half = Double.pi * r
        // The shadow on the page below, beyond the curl's outermost line.
        let edge = outer
        if far > 0 {
            let width = r
            painter.save()
            painter.clip(to: Path(rect: pageRect))
            if !drawShadowMask(in: painter, edge: edge, width: width) {
                // A rotated or skewed painter: one band per device pixel across the shadow.
                let steps = max(1, min(4096, Int((width / pixel).rounded(.up))))
                for i in 0..<steps {
                    let f0 = Double(i) / Double(steps), f1 = Double(i + 1) / Double(steps)
                    painter.fill(band(edge + width * f0, edge + width * f1), color: Color(white: 0, alpha: Self.shadowAlpha(at: (f0 + f1) / 2)))
                }
            }
            painter.restore()
        }
        // The flat part, up to the axis.
        if near < 0 { strip(near - 1, min(0, far), near - 1, min(0, far), back: false, shade: 0, overlapBefore: false) }
        // The cylinder, front then back, from the axis outwards, in one layer cut once at the outer line
        // (stacked strips each cut there would each add their partial coverage: a hard, jagged edge).
        if far > 0 {
            painter.save()
            clipToBand(-reach, outer)
            painter.beginLayer()
            let end = min(far, half)
            let count = max(1, Int((Double(stripCount) * end / half).rounded(.up)))
            // The shading per device pixel once the strips are down; per strip where the painter rotates.
            let shadesPerPixel = masksBands(in: painter)
            for i in 0..<count {
                let s0 = end * Double(i) / Double(count), s1 = end * Double(i + 1) / Double(count)
                let mid = (s0 + s1) / 2 / r
                let back = mid > Double.pi / 2
                let shade = shadesPerPixel ? 0 : Self.edgeShade * (1 - abs(cos(mid)))
                strip(s0, s1, g.projectedDistance(s0), g.projectedDistance(s1), back: back, shade: shade, overlapBefore: near < 0 || i > 0)
            }
            if shadesPerPixel { _ = shadeCylinder(in: painter, outer: outer) }
            // Turned over: flat again, mirrored, on top.
            if far > half { strip(half, far + 1, 0, half - far - 1, back: true, shade: 0, overlapBefore: true) }
            painter.endLayer()
            painter.restore()
        }
        painter.restore()
    }

    /// The shadow as one coverage mask, each device pixel's alpha computed at its centre (one rounding,
    /// so neighbours differ only by the profile's slope), for a painter that only scales and translates
    /// (the painter is already translated to the page's origin). False when it cannot.
    private func drawShadowMask(in painter: Painter, edge: Double, width: Double) -> Bool {
        guard let m = bandMask(in: painter, from: edge, to: edge + width, value: { u, pixelsPerPoint in
            let f = (u - edge) / width
            guard f < 1 else { return 0 }
            // The pixel the curl's edge crosses is covered in part (the curl is drawn over it).
            let near = min(1, max(0, (u - edge) * pixelsPerPoint + 0.5))
            return Self.shadowProfile.value(at: max(0, f)) * near
        }) else { return false }
        m.mask.withUnsafeBufferPointer { buffer in
            painter.fill(coverageMask: buffer, width: m.width, height: m.height, atDevicePixel: m.origin, color: .black)
        }
        return true
    }

    /// The cylinder's shading, darkening what is drawn of it where it turns away from the viewer, one
    /// value per device pixel: ``edgeShade`` × (1 − |cos θ|), where a point seen at distance u from the
    /// axis lies at sin θ = u / R — the same for the front and the back above it, so it depends on u
    /// alone. Shading each strip by its middle instead left steps of 4–15 levels between strips at @2x.
    /// False for a painter that does more than scale and translate.
    private func shadeCylinder(in painter: Painter, outer: Double) -> Bool {
        let r = geometry.radius
        guard r > 0, let m = bandMask(in: painter, from: 0, to: outer, value: { u, _ in
            let x = min(1, max(0, u / r))
            return Self.edgeShade * (1 - (1 - x * x).squareRoot())
        }) else { return false }
        m.mask.withUnsafeBufferPointer { buffer in
            painter.darken(coverageMask: buffer, width: m.width, height: m.height, atDevicePixel: m.origin)
        }
        return true
    }

    /// Whether ``bandMask(in:from:to:value:)`` can work for `painter`: one that only scales (positively)
    /// and translates, with an axis not lying along the rows.
    private func masksBands(in painter: Painter) -> Bool {
        let t = painter.transform
        return t.b == 0 && t.c == 0 && t.a > 0 && t.d > 0 && geometry.towardsEdge.x > 1e-6 && t.isFinite
    }

    /// A mask over the device pixels of the page whose centres lie between distances `u0` and `u1` from
    /// the axis (and a pixel either side), each byte `value(u, device pixels per point)` at the pixel's
    /// centre; nil for a painter that does more than scale and translate (already translated to the
    /// page's origin). An empty mask when nothing of the band is on the page.
    private func bandMask(in painter: Painter, from u0: Double, to u1: Double,
                          value: (Double, Double) -> Double) -> (mask: [UInt8], width: Int, height: Int, origin: (x: Int, y: Int))? {
        let t = painter.transform, g = geometry, n = g.towardsEdge
        guard masksBands(in: painter), u1 > u0 else { return nil }
        let pageW = g.pageSize.width, pageH = g.pageSize.height
        let pxMin = Int((t.tx).rounded(.down)), pxMax = Int((t.tx + t.a * pageW).rounded(.up))
        let pyMin = Int((t.ty).rounded(.down)), pyMax = Int((t.ty + t.d * pageH).rounded(.up))
        let empty: (mask: [UInt8], width: Int, height: Int, origin: (x: Int, y: Int)) = ([], 0, 0, (0, 0))
        guard pxMax > pxMin, pyMax > pyMin, pxMax - pxMin <= 16384, pyMax - pyMin <= 16384 else { return empty }
        // Each row's span of device pixels that the band reaches.
        var spans: [(Int, Int)] = []
        var lo = Int.max, hi = Int.min
        for py in pyMin..<pyMax {
            let y = (Double(py) + 0.5 - t.ty) / t.d
            let base = (y - g.axisPoint.y) * n.y - g.axisPoint.x * n.x
            let x0 = (u0 - base) / n.x, x1 = (u1 - base) / n.x
            let a = max(pxMin, Int((t.a * x0 + t.tx).rounded(.down)) - 1)
            let b = min(pxMax, Int((t.a * x1 + t.tx).rounded(.up)) + 1)
            spans.append((a, b))
            if b > a { lo = min(lo, a); hi = max(hi, b) }
        }
        guard hi > lo else { return empty }
        let w = hi - lo, h = pyMax - pyMin
        var mask = [UInt8](repeating: 0, count: w * h)
        for (row, (a, b)) in spans.enumerated() where b > a {
            let y = (Double(pyMin + row) + 0.5 - t.ty) / t.d
            for px in a..<b {
                let x = (Double(px) + 0.5 - t.tx) / t.a
                let u = (x - g.axisPoint.x) * n.x + (y - g.axisPoint.y) * n.y
                let v = value(u, t.a)
                // (v ≥ 0: adding a half and truncating rounds to nearest, without libm's round per pixel.)
                if v > 0 { mask[row * w + (px - lo)] = UInt8(min(1, v) * 255 + 0.5) }
            }
        }
        return (mask, w, h, (lo, pyMin))
    }
}

/// A function on 0…1 sampled at `count + 1` evenly spaced points and read back by linear interpolation
/// (clamped to 0…1 outside).
struct SampledProfile: Sendable {
    private let samples: [Double]

    init(count: Int, _ f: (Double) -> Double) {
        let n = max(1, count)
        samples = (0...n).map { f(Double($0) / Double(n)) }
    }

    func value(at x: Double) -> Double {
        let n = samples.count - 1
        let position = min(1, max(0, x.isNaN ? 0 : x)) * Double(n)
        let i = min(n - 1, Int(position))
        let t = position - Double(i)
        return samples[i] + (samples[i + 1] - samples[i]) * t
    }
}
