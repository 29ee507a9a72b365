import Foundation
import RasterCore
import SnapshotView

extension Lint {
    /// One view of one frame's tree, flattened in drawing order.
    struct PlacedView {
        var key: String
        var path: String
        /// Window points: the bounding box, and that box cut by every clipping ancestor.
        var frame: Rect
        var visible: Rect
        var transform: [Double]
        var alpha: Double
        /// Its alpha on screen: its own times every ancestor's, 0 when it or an ancestor is hidden.
        var opacity: Double = 1
        var backgroundColor: String?
        /// A label: text is set with its baseline on whole device pixels (as hinted text is), so moving
        /// text steps from pixel row to pixel row instead of gliding; it is left out of the comparison.
        var isText: Bool
        /// Whether it fills its frame: an opaque background colour or an image.
        var fills: Bool
        /// Drawing order, and the end of the subtree (exclusive): descendants are `order + 1 ..< subtreeEnd`.
        var order: Int
        var subtreeEnd: Int
    }

    static func placedViews(_ tree: ViewDescription) -> [PlacedView] {
        var out: [PlacedView] = []
        func visit(_ node: ViewDescription, path: String, clip: Rect, hidden: Bool, opacity: Double) {
            let hidden = hidden || node.hidden
            let opacity = hidden ? 0 : opacity * node.alpha
            let frame = node.frame.count == 4 ? Rect(x: node.frame[0], y: node.frame[1], width: node.frame[2], height: node.frame[3]) : .null
            let index = out.count
            out.append(PlacedView(key: trackKey(path: path, identity: node.identity), path: path, frame: frame,
                                  visible: frame.intersection(clip), transform: node.transform,
                                  alpha: hidden ? 0 : node.alpha, opacity: opacity, backgroundColor: node.backgroundColor,
                                  isText: node.text != nil || node.type == "Label",
                                  fills: node.image != nil || (node.backgroundColor?.hasSuffix("FF") ?? false), order: index, subtreeEnd: index + 1))
            let inner = node.clipsToBounds ? clip.intersection(frame) : clip
            for (child, childPath) in children(of: node, path: path) { visit(child, path: childPath, clip: inner, hidden: hidden, opacity: opacity) }
            out[index].subtreeEnd = out.count
        }
        let root = tree.frame.count == 4 ? Rect(x: tree.frame[0], y: tree.frame[1], width: tree.frame[2], height: tree.frame[3]) : .null
        visit(tree, path: tree.name ?? tree.type, clip: root, hidden: false, opacity: 1)
        return out
    }

    /// How an axis-aligned move maps a point of the later frame back to the earlier one:
    /// `earlier = (later − laterOrigin) × ratio + earlierOrigin`, per axis.
    struct AxisMove {
        var laterOrigin: Point, earlierOrigin: Point, ratio: (x: Double, y: Double)
        init?(from earlier: Rect, to later: Rect) {
            guard earlier.width > 0, earlier.height > 0, later.width > 0, later.height > 0 else { return nil }
            laterOrigin = later.origin
            earlierOrigin = earlier.origin
            ratio = (earlier.width / later.width, earlier.height / later.height)
        }
        func back(_ p: Point) -> Point {
            Point(x: (p.x - laterOrigin.x) * ratio.x + earlierOrigin.x, y: (p.y - laterOrigin.y) * ratio.y + earlierOrigin.y)
        }
        /// Whether `earlier` → `later` is this same move, within `tolerance` points.
        func carries(_ earlier: Rect, to later: Rect, tolerance: Double) -> Bool {
            let a = back(later.origin), b = back(Point(x: later.maxX, y: later.maxY))
            return abs(a.x - earlier.minX) <= tolerance && abs(a.y - earlier.minY) <= tolerance
                && abs(b.x - earlier.maxX) <= tolerance && abs(b.y - earlier.maxY) <= tolerance
        }
        var isStill: Bool { laterOrigin == earlierOrigin && ratio == (1, 1) }
    }

    /// Content that only moves must keep its look: for every view with an opaque background that is
    /// fully opaque on screen and whose presented change from one frame to the next is a translation or
    /// an axis-aligned scale, its pixels in the later frame are compared with the earlier frame's
    /// pixels carried by the same move (sampled bilinearly): a motion-compensated difference. Parts
    /// where something else could change the pixels are left out: views drawn above it, subviews that
    /// do not move with it or change their alpha or background, and labels (text is set with its baseline
    /// on whole device pixels, so moving text steps rather than glides; that is by design).
    ///
    /// Two things are findings, both measured in levels of 255 on the mean of red, green and blue:
    /// a *tone flip*, the whole view brighter or darker after the move (mean difference at least
    /// ``Thresholds/shimmerLevels``), and *combing*, rows alternately darker and lighter (at least
    /// ``Thresholds/combingRows`` rows in a row whose mean difference alternates in sign by at least
    /// ``Thresholds/combingLevels``). Only smooth content is compared: where the earlier pixels blended
    /// for a sample differ by more than 16 levels (an edge), resampling blurs what redrawing keeps
    /// sharp, and that is not a defect.
    ///
    /// `frame(i)` gives the pixels of frame `i`, drawn from `trees[i]`; geometry in the trees is in
    /// points, mapped to pixels by each bitmap's scale.
    public static func shimmer(_ trees: [ViewDescription], times: [Double], frame: (Int) throws -> Bitmap,
                               thresholds: Thresholds = Thresholds()) rethrows -> [Finding] {
        guard trees.count == times.count, trees.count > 1 else { return [] }
        var findings: [Finding] = []
        var reported = Set<String>()
        var earlierViews = placedViews(trees[0])
        var earlierPixels: BrightnessPlane?
        for k in 1..<trees.count {
            let laterViews = placedViews(trees[k])
            defer { earlierViews = laterViews }
            let earlierByKey = Dictionary(earlierViews.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
            // Only frames where some candidate moved are drawn.
            var candidates: [(PlacedView, PlacedView, AxisMove)] = []
            for view in laterViews {
                guard !view.isText, let before = earlierByKey[view.key], view.alpha >= 0.999, before.alpha >= 0.999,
                      let color = view.backgroundColor, color.hasSuffix("FF"), color == before.backgroundColor,
                      view.transform.count == 6, view.transform[1] == 0, view.transform[2] == 0,
                      before.transform.count == 6, before.transform[1] == 0, before.transform[2] == 0,
                      let move = AxisMove(from: before.frame, to: view.frame), !move.isStill else { continue }
                candidates.append((before, view, move))
            }
            guard !candidates.isEmpty else { earlierPixels = nil; continue }
            let earlier = try earlierPixels ?? BrightnessPlane(frame(k - 1))
            let later = try BrightnessPlane(frame(k))
            earlierPixels = later
            for (before, view, move) in candidates where !reported.contains(view.key) {
                guard let measured = compensatedDifference(view: view, before: before, move: move, laterViews: laterViews,
                                                           earlierByKey: earlierByKey, earlier: earlier, later: later,
                                                           combingLevels: thresholds.combingLevels) else { continue }
                let tone = abs(measured.mean) >= thresholds.shimmerLevels
                        let combed = measured.combedRows >= thresholds.combingRows
                guard tone || combed else { continue }
                reported.insert(view.key)
                var what: [String] = []
                if tone { what.append("\(measured.mean < 0 ? "darker" : "brighter") by \(format(abs(measured.mean))) levels on average (a tone flip)") }
                if combed {
                    what.append("\(measured.combedRows) rows alternately darker and lighter by up to \(format(measured.combStep)) levels (combing)")
                }
                let shift = Point(x: view.frame.minX - before.frame.minX, y: view.frame.minY - before.frame.minY)
                findings.append(Finding(
                    kind: .shimmer, subject: view.path, frames: [k - 1, k], times: [times[k - 1], times[k]],
                    detail: "moved by (\(format(shift.x)), \(format(shift.y))) pt; compared with its pixels before the move, "
                        + "carried the same way, over \(measured.pixels) px: " + what.joined(separator: "; ")))
            }
        }
        return findings
    }

    struct CompensatedDifference {
        /// Mean signed difference, later minus carried earlier, in levels of 255.
        var mean: Double
        /// The longest run of rows whose mean difference alternates in sign, and the smallest step in it.
        var combedRows: Int
        var combStep: Double
        var pixels: Int
    }

    static func compensatedDifference(view: PlacedView, before: PlacedView, move: AxisMove, laterViews: [PlacedView],
                                      earlierByKey: [String: PlacedView], earlier: BrightnessPlane, later: BrightnessPlane,
                                      combingLevels: Double) -> CompensatedDifference? {
        let scale = later.scale
        guard scale > 0, earlier.scale == scale, earlier.width == later.width, earlier.height == later.height else { return nil }
        // What else can change these pixels: views drawn above, and subviews that do not move with it.
        var excluded: [Rect] = []
        for other in laterViews where other.order != view.order && other.alpha > 0 && !other.frame.isEmpty {
            let isAncestor = other.order < view.order && view.order < other.subtreeEnd
            if isAncestor { continue }
            let isDescendant = other.order > view.order && other.order < view.subtreeEnd
            if other.order < view.order { continue }  // below: hidden by the opaque background
            if isDescendant, !other.isText, let was = earlierByKey[other.key], abs(was.alpha - other.alpha) < 1e-6,
               was.backgroundColor == other.backgroundColor, was.transform == other.transform,
               move.carries(was.frame, to: other.frame, tolerance: 0.01) {
                continue
            }
            excluded.append(other.visible.isNull ? other.frame : other.visible)
            if let was = earlierByKey[other.key] {
                // Where it was, seen from the later frame: the earlier pixels there are not the view's.
                let a = Point(x: (was.frame.minX - move.earlierOrigin.x) / move.ratio.x + move.laterOrigin.x,
                              y: (was.frame.minY - move.earlierOrigin.y) / move.ratio.y + move.laterOrigin.y)
                excluded.append(Rect(x: a.x, y: a.y, width: was.frame.width / move.ratio.x, height: was.frame.height / move.ratio.y))
            }
        }
        // Views that appeared or vanished between the frames, drawn above: their earlier place too.
        let laterKeys = Set(laterViews.map(\.key))
        for (key, was) in earlierByKey where !laterKeys.contains(key) && was.order > before.order && was.alpha > 0 {
            let a = Point(x: (was.frame.minX - move.earlierOrigin.x) / move.ratio.x + move.laterOrigin.x,
                          y: (was.frame.minY - move.earlierOrigin.y) / move.ratio.y + move.laterOrigin.y)
            excluded.append(Rect(x: a.x, y: a.y, width: was.frame.width / move.ratio.x, height: was.frame.height / move.ratio.y))
        }
        let deviceExcluded = excluded.map { r in
            (x0: Int((r.minX * scale).rounded(.down)) - 1, y0: Int((r.minY * scale).rounded(.down)) - 1,
             x1: Int((r.maxX * scale).rounded(.up)) + 1, y1: Int((r.maxY * scale).rounded(.up)) + 1)
        }
        // The view's visible area now and where it came from, one pixel in from each edge (the edges are
        // anti-aliased against what is around the view).
        let region = view.visible
        let source = before.visible
        guard !region.isEmpty, !source.isEmpty else { return nil }
        let x0 = max(0, Int((region.minX * scale).rounded(.up)) + 1), y0 = max(0, Int((region.minY * scale).rounded(.up)) + 1)
        let x1 = min(later.width, Int((region.maxX * scale).rounded(.down)) - 1), y1 = min(later.height, Int((region.maxY * scale).rounded(.down)) - 1)
        guard x1 - x0 >= 4, y1 - y0 >= 4 else { return nil }
        let sx0 = source.minX * scale + 1, sy0 = source.minY * scale + 1, sx1 = source.maxX * scale - 1, sy1 = source.maxY * scale - 1

        var rowSums = [Double](repeating: 0, count: y1 - y0), rowCounts = [Int](repeating: 0, count: y1 - y0)
        var total = 0.0, count = 0
        for y in y0..<y1 {
            let rowExcluded = deviceExcluded.filter { $0.y0 <= y && y < $0.y1 }
            for x in x0..<x1 {
                if rowExcluded.contains(where: { $0.x0 <= x && x < $0.x1 }) { continue }
                // The pixel's centre, back in the earlier frame, in device pixels.
                let p = move.back(Point(x: (Double(x) + 0.5) / scale, y: (Double(y) + 0.5) / scale))
                let px = p.x * scale, py = p.y * scale
                guard px >= sx0, px <= sx1, py >= sy0, py <= sy1 else { continue }
                let (carried, spread) = earlier.bilinear(x: px - 0.5, y: py - 0.5)
                // Near an edge, resampling blurs what redrawing keeps sharp: only smooth content counts.
                if spread > edgeLevels { continue }
                let now = Double(later.values[y * later.width + x])
                let d = now - carried
                rowSums[y - y0] += d
                rowCounts[y - y0] += 1
                total += d
                count += 1
            }
        }
        guard count >= 64 else { return nil }
        // Combing: the longest run of rows (each with enough pixels) whose mean difference steps up and
        // down by at least `combingLevels`, alternately.
        let usable = max(8, (x1 - x0) / 4)
        var best = 0, bestStep = 0.0, run = 0, runStep = Double.infinity
        var previous: Double?, previousSign = 0.0
        for r in 0..<rowSums.count {
            guard rowCounts[r] >= usable else { previous = nil; run = 0; previousSign = 0; continue }
            let mean = rowSums[r] / Double(rowCounts[r])
            defer { previous = mean }
            guard let previous else { run = 1; runStep = .infinity; previousSign = 0; continue }
            let step = mean - previous
            let sign: Double = step > 0 ? 1 : -1
            if abs(step) < combingLevels {
                run = 1; runStep = .infinity; previousSign = 0
                continue
            }
            if sign == previousSign { run = 1; runStep = .infinity }
            run += 1
            runStep = min(runStep, abs(step))
            previousSign = sign
            if run > best { best = run; bestStep = runStep }
        }
        return CompensatedDifference(mean: total / Double(count), combedRows: best, combStep: bestStep, pixels: count)
    }

    /// Pixels whose earlier neighbourhood spans more than this many levels are edges, left out: 16.
    static let edgeLevels = 16.0
}

/// A frame's brightness, the mean of red, green and blue (0…255) of each pixel, for the shimmer check.
/// (The pixels compared are opaque, so premultiplied values are the colours.)
struct BrightnessPlane {
    let width: Int, height: Int, scale: Double
    let values: [Float]

    init(_ bitmap: Bitmap) {
        width = bitmap.width
        height = bitmap.height
        scale = bitmap.scale
        values = bitmap.withUnsafePixels { pixels in
            pixels.map { p in Float((p & 0xFF) + (p >> 8 & 0xFF) + (p >> 16 & 0xFF)) / 3 }
        }
    }

    /// Bilinear brightness at `x`, `y` in pixel-centre coordinates (pixel i's centre is i), clamped to
    /// the frame, and how far apart the four pixels it blends are (0 on smooth content).
    func bilinear(x: Double, y: Double) -> (value: Double, spread: Double) {
        let fx = x.rounded(.down), fy = y.rounded(.down)
        let tx = x - fx, ty = y - fy
        let x0 = min(max(Int(fx), 0), width - 1), x1 = min(max(Int(fx) + 1, 0), width - 1)
        let y0 = min(max(Int(fy), 0), height - 1), y1 = min(max(Int(fy) + 1, 0), height - 1)
        let p00 = Double(values[y0 * width + x0]), p10 = Double(values[y0 * width + x1])
        let p01 = Double(values[y1 * width + x0]), p11 = Double(values[y1 * width + x1])
        let top = p00 * (1 - tx) + p10 * tx
        let bottom = p01 * (1 - tx) + p11 * tx
        return (top * (1 - ty) + bottom * ty, max(p00, p10, p01, p11) - min(p00, p10, p01, p11))
    }
}
