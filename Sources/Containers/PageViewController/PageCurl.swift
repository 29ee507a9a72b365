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

    /// A turn `progress` (0: flat, 1: turned over past the spine) of a page `size`, its axis turned by
    /// `angle` radians from the vertical (positive: the bottom of the axis towards the spine), pivoting
    /// at height `pivotY` (points; default the page's middle).
    ///
    /// The radius grows from ``startRadius`` to ``endRadius`` of the width with the progress; the axis
    /// moves from the free edge (nothing curled at 0) to πR past the spine (nothing left flat at 1).
    public init(progress: Double, pageSize size: Size, angle: Double = 0, pivotY: Double? = nil) {
        let p = progress.isFinite ? min(1, max(0, progress)) : 0
        let w = max(size.width, 1e-9)
        pageSize = size
        radius = w * (Self.startRadius + (Self.endRadius - Self.startRadius) * p)
        let a = angle.isFinite ? angle : 0
        towardsEdge = Point(x: cos(a), y: -sin(a))
        // With a tilted axis the corners reach further: move the axis out by the overhang so that a turn
        // at 0 is flat and at 1 is gone.
        let overhang = size.height * abs(tan(min(abs(a), 1.2)))
        let x = (w + overhang) - p * (w + 2 * overhang + Double.pi * radius)
        axisPoint = Point(x: x, y: pivotY ?? size.height / 2)
    }

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
/// ``overlapPixels`` device pixels, so that two anti-aliased edges never meet and no crack shows. A strip
/// that is washed or shaded is drawn as one group (a layer through its edge), so its seam shows no line.
///
/// The front darkens where it turns away from the viewer; the back shows the page mirrored and washed
/// out towards white (``backWash``), darkened the same way; the page below gets a shadow along the curl.
/// The drawing's bounds are the page.
public struct PageCurlDrawing: OperationContent {
    /// The page's front, as a bitmap of the page's size (any scale).
    public var page: Bitmap
    /// Where the page is.
    public var geometry: PageCurlGeometry
    /// Strips across the half cylinder. Default 32 (5.6° each: at most 0.15 % of R off the true arc).
    public var stripCount = 32
    /// How white the back is: 0.7 (a share of the way from the content to white).
    public static let backWash = 0.7
    /// The darkest shade of a strip seen edge-on (black alpha): 0.35.
    public static let edgeShade = 0.35
    /// The shadow on the page below: black alpha at the curl's edge, fading out over half the radius: 0.3.
    public static let shadowAlpha = 0.3
    /// Overlap of consecutive strips (device pixels): 1.5. A pixel that a strip's edge crosses reaches
    /// up to (|cos| + |sin|)/2 ≤ 0.71 px across an edge at any angle, so the next strip must begin at
    /// least 1.21 px before it to cover that pixel whole.
    public static let overlapPixels = 1.5

    /// A curl of `page` at `geometry`.
    public init(page: Bitmap, geometry: PageCurlGeometry, stripCount: Int = 32) {
        self.page = page
        self.geometry = geometry
        self.stripCount = max(2, min(512, stripCount))
    }

    public func extent(in bounds: Rect) -> Rect { bounds }
    public var isSingleShape: Bool { false }

    /// The curl for bounds at the origin and a device pixel of one point.
    public func operations(in bounds: Rect) -> [DrawingOperation] { operations(in: bounds, device: .identity) }

    /// The curl as drawing operations: the shadow's bands, then each strip clipped to its band, a washed
    /// or shaded strip as one layer. `device` (the painter's transform) gives a device pixel's size, which
    /// the strips overlap by.
    public func operations(in bounds: Rect, device t: Transform2D) -> [DrawingOperation] {
        let g = geometry
        let n = g.towardsEdge, d = g.axisDirection
        let far = g.farthestDistance, near = g.nearestDistance
        guard far > near, g.radius > 0 else { return [] }
        // A device pixel in points, from the painter's transform (its scale).
        let pixel = 1 / max(1e-9, sqrt(abs(t.determinant)))
        let overlap = Self.overlapPixels * pixel
        let reach = (g.pageSize.width + g.pageSize.height) * 2 + 4 * g.radius
        var ops: [DrawingOperation] = []
        let pageRect = Rect(origin: .zero, size: g.pageSize)

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
            if back || shade > 0.002 {
                // The page, its wash and its shade as one group through the strip's edge: drawn one by
                // one, each would meet the strip before at a partly covered seam and leave a line there.
                let outline = Path(rect: pageRect).applying(placement)
                var group: [DrawingOperation] = [.imageOnce(page, placement)]
                if back { group.append(.path(outline, Color(white: 1, alpha: Self.backWash))) }
                if shade > 0.002 { group.append(.path(outline, Color(white: 0, alpha: shade))) }
                ops.append(.clippedToPath(band(start, u1), [.layer(group)]))
            } else {
                ops.append(.clippedToPath(band(start, u1), [.imageOnce(page, placement)]))
            }
        }

        let r = g.radius, half = Double.pi * r
        // The shadow on the page below, beyond the curl's outermost line.
        let edge = far >= half / 2 ? r : g.projectedDistance(far)
        if far > 0 {
            let width = r / 2
            let steps = 8
            ops.append(.clippedToPath(Path(rect: pageRect), (0..<steps).map { i in
                let f0 = Double(i) / Double(steps), f1 = Double(i + 1) / Double(steps)
                let alpha = Self.shadowAlpha * (1 - (f0 + f1) / 2) * (1 - (f0 + f1) / 2)
                return .path(band(edge + width * f0, edge + width * f1), Color(white: 0, alpha: alpha))
            }))
        }
        // The flat part, up to the axis.
        if near < 0 { strip(near - 1, min(0, far), near - 1, min(0, far), back: false, shade: 0, overlapBefore: false) }
        // The cylinder, front then back, from the axis outwards.
        if far > 0 {
            let end = min(far, half)
            let count = max(1, Int((Double(stripCount) * end / half).rounded(.up)))
            for i in 0..<count {
                let s0 = end * Double(i) / Double(count), s1 = end * Double(i + 1) / Double(count)
                let mid = (s0 + s1) / 2 / r
                let back = mid > Double.pi / 2
                let shade = Self.edgeShade * (1 - abs(cos(mid)))
                strip(s0, s1, g.projectedDistance(s0), g.projectedDistance(s1), back: back, shade: shade, overlapBefore: near < 0 || i > 0)
            }
            // Turned over: flat again, mirrored, on top.
            if far > half { strip(half, far + 1, 0, half - far - 1, back: true, shade: 0, overlapBefore: true) }
        }
        return [.transformed(Transform2D(translationX: bounds.minX, y: bounds.minY), ops)]
    }
}
