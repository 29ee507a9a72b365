import RasterCore
import SnapshotView

extension Lint {
    /// Views animated out of sight: a view whose alpha or frame changes during the transition, covered
    /// by opaque views drawn above it in every frame where it is clearly visible (alpha ≥ 0.5), and gone
    /// by the last frame (a stand-in on a smokescreen, removed with it), where another view appears on
    /// the last frame, in one step, that was never seen before (covered or invisible in every earlier
    /// frame). The stand-in's animation is never seen; what it stood for pops in at the end.
    ///
    /// A view covers when it is drawn above (later, not a subview), and fills its frame (an opaque
    /// background colour or an image); covered means that at each of 3x3 points spread over the view's
    /// visible part, the covering views' alphas together leave at most 1 % showing through.
    static func hiddenAnimations(_ trees: [ViewDescription], times: [Double], thresholds: Thresholds) -> [Finding] {
        guard trees.count > 2 else { return [] }
        struct Track {
            var path = "", frames: [Int] = [], clearlyVisible = 0, covered = 0, changes = 0, seen = false
            var coverers: [String] = []
            var lastState: (frame: [Double], alpha: Double)?
            var lastRegion = Rect.null
        }
        var tracks: [String: Track] = [:]
        let lastIndex = trees.count - 1
        var appearing: [(key: String, path: String, region: Rect)] = []
        for (index, tree) in trees.enumerated() {
            let views = placedViews(tree)
            let fillers = views.filter { $0.alpha > 0 && $0.fills && !$0.visible.isEmpty }
            for view in views {
                let clearlyVisible = view.alpha >= 0.5 && !view.visible.isEmpty
                let (isCovered, by) = clearlyVisible ? coverage(of: view, fillers: fillers) : (false, [])
                var track = tracks[view.key] ?? Track()
                if index == lastIndex {
                    if clearlyVisible, !isCovered, !track.seen { appearing.append((view.key, view.path, view.visible)) }
                    tracks[view.key] = track
                    continue
                }
                track.path = view.path
                track.frames.append(index)
                let state = ([view.frame.minX, view.frame.minY, view.frame.width, view.frame.height], view.alpha)
                if let last = track.lastState, last.alpha != state.1 || distance(last.frame, state.0) > 0.01 { track.changes += 1 }
                track.lastState = state
                if clearlyVisible {
                    track.clearlyVisible += 1
                    track.lastRegion = view.visible
                    if isCovered {
                        track.covered += 1
                        for name in by where !track.coverers.contains(name) { track.coverers.append(name) }
                    } else {
                        track.seen = true
                    }
                }
                tracks[view.key] = track
            }
        }
        let presentAtEnd = Set(placedViews(trees[lastIndex]).map(\.key))
        var findings: [Finding] = []
        for (key, track) in tracks.sorted(by: { $0.value.path < $1.value.path }) {
            guard !presentAtEnd.contains(key), track.clearlyVisible > 0, track.covered == track.clearlyVisible, track.changes > 0,
                  let first = track.frames.first, let last = track.frames.last else { continue }
            // What pops in where it was.
            let region = track.lastRegion
            // The smallest view that appears over a good part of where it was.
            guard let popped = appearing.sorted(by: { $0.region.width * $0.region.height < $1.region.width * $1.region.height }).first(where: { !$0.region.intersection(region).isEmpty
                && $0.region.intersection(region).width * $0.region.intersection(region).height >= 0.25 * min(region.width * region.height, $0.region.width * $0.region.height) })
            else { continue }
            let frames = [first, last, lastIndex]
            let shown = track.coverers.prefix(3).map { $0.split(separator: "/").last.map(String.init) ?? $0 }
            findings.append(Finding(kind: .hiddenUntilEnd, subject: track.path, frames: frames, times: frames.map { times[$0] },
                                    detail: "animated in frames \(first)–\(last) but covered whenever visible by opaque views above it ("
                                        + shown.joined(separator: ", ") + (track.coverers.count > 3 ? ", …" : "")
                                        + "), and gone on the last frame, where '\(popped.path.split(separator: "/").last.map(String.init) ?? popped.path)' appears in one step"))
        }
        return findings
    }

    /// Whether `view` is covered by the filling views drawn above it, and by which.
    static func coverage(of view: PlacedView, fillers: [PlacedView]) -> (Bool, [String]) {
        let above = fillers.filter { $0.order > view.order && !($0.order < view.subtreeEnd) }
        guard !above.isEmpty else { return (false, []) }
        let r = view.visible
        var by: [String] = []
        for i in 0..<3 {
            for j in 0..<3 {
                let x: Double = r.minX + r.width * (0.1 + 0.4 * Double(i))
                let y: Double = r.minY + r.height * (0.1 + 0.4 * Double(j))
                var through = 1.0
                for c in above where c.visible.contains(Point(x: x, y: y)) {
                    through *= 1 - min(1, c.alpha)
                    if !by.contains(c.path) { by.append(c.path) }
                }
                if through > 0.01 { return (false, []) }
            }
        }
        return (true, by)
    }

    /// Views that appear in one step after being unseen for most of the transition. A view that draws
    /// something (a background, an image or text) is followed to the last run of frames in which it is
    /// seen, which must last until the end or until it leaves the tree (a stand-in handed over to the
    /// view it stood for). It counts when it was unseen (absent, hidden, fully transparent, or covered by
    /// opaque views above it; not merely scrolled or clipped out of sight) in at least half the frames,
    /// and arrived at once: unseen in the frame before, at half its alpha or more in the first. Matched
    /// or not, whatever the style.
    ///
    /// What showed it before is looked at. A view of about its size (within a quarter) that is seen in
    /// the frame before and gone in the first, less than ``Thresholds/jumpDistance`` away, is what it took
    /// over from: a handover, not a finding. With `frame` (the frames' pixels), its place (2 points
    /// around it, where it is last seen) must also change across the step by at least
    /// ``Thresholds/popContrast`` times how much there is to see there (mean brightness change over mean
    /// deviation; both blurred 5x5 px and the frame before shifted up to 3 points, so a hairline handed
    /// over from a resampled snapshot, or a stand-in still settling, is no change) and already look as it
    /// does at its last (a view uncovered bit by bit, or sliding in, does not). Such an arrival is
    /// `hidden-until-end`; when a departing view farther away looked exactly the same (pixel for pixel,
    /// within a point), the content moved without being seen to move: a `jump`, or `snaps-at-end` on
    /// the last frame.
    public static func appearances(_ trees: [ViewDescription], times: [Double], frame: ((Int) throws -> Bitmap)? = nil,
                                   thresholds: Thresholds = Thresholds()) throws -> [Finding] {
        guard trees.count == times.count, trees.count > 2 else { return [] }
        struct Sample { var seen: Bool; var hiddenOrCovered: Bool; var opacity: Double; var visible: Rect }
        var samples: [String: [Int: Sample]] = [:]
        var paths: [String: String] = [:]
        var draws: Set<String> = []
        var placed: [[PlacedView]] = []
        for tree in trees {
            let views = placedViews(tree)
            placed.append(views)
            let fillers = views.filter { $0.alpha > 0 && $0.fills && !$0.visible.isEmpty }
            let index = placed.count - 1
            for view in views {
                paths[view.key] = paths[view.key] ?? view.path
                if view.fills || view.isText { draws.insert(view.key) }
                let transparent = view.opacity <= thresholds.visibleAlpha
                let covered = !transparent && !view.visible.isEmpty && coverage(of: view, fillers: fillers).0
                samples[view.key, default: [:]][index] = Sample(seen: !transparent && !covered && !view.visible.isEmpty,
                                                                hiddenOrCovered: transparent || covered, opacity: view.opacity, visible: view.visible)
            }
        }
        let last = trees.count - 1
        // The frames looked at, as brightness: a few at most (the step of each candidate and the last).
        var planes: [Int: BrightnessPlane] = [:]
        func plane(_ index: Int) throws -> BrightnessPlane? {
            guard let frame else { return nil }
            if let kept = planes[index] { return kept }
            if planes.count >= 6 { planes = planes.filter { $0.key == last } }
            let made = BrightnessPlane(try frame(index))
            planes[index] = made
            return made
        }
        var findings: [Finding] = []
        for key in samples.keys.sorted(by: { (paths[$0] ?? $0, $0) < (paths[$1] ?? $1, $1) }) where draws.contains(key) {
            let track = samples[key]!
            // The last run in which it is seen, to the end or until it leaves the tree (a stand-in
            // handed over to the view it stood for).
            guard let lastSeen = (0...last).last(where: { track[$0]?.seen == true }),
                  (lastSeen + 1...last + 1).allSatisfy({ $0 > last || track[$0] == nil }) else { continue }
            var k = lastSeen
            while k > 0, track[k - 1]?.seen == true { k -= 1 }
            guard k > 0, let arrival = track[k], arrival.opacity >= 0.5, let end = track[lastSeen] else { continue }
            // Unseen: absent, transparent or covered (scrolled or clipped out of sight is not hiding).
            let unseen = (0..<k).filter { track[$0].map { $0.hiddenOrCovered } ?? true }.count
            guard 2 * unseen >= trees.count else { continue }
            // With a margin: a hairline handed over from a resampled stand-in to the crisp line differs in
            // its own pixel rows far more than in its place as a reader sees it.
            let region = end.visible.insetBy(dx: -2, dy: -2)
            // What it takes over from: a view that draws, of about its size (within a quarter), seen in the
            // frame before and gone in this one (a snapshot swapped for the view it stood for). Nearby, a
            // handover; far away, the content moved in one step: a jump (a snap on the last frame).
            let place = arrival.visible
            func similar(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= max(4, 0.25 * max(a, b)) }
            let departing = placed[k - 1].filter { other in
                other.key != key && (other.fills || other.isText) && other.opacity >= 0.5 && samples[other.key]?[k - 1]?.seen == true
                    && samples[other.key]?[k]?.seen != true && similar(other.visible.width, place.width) && similar(other.visible.height, place.height)
            }
            // Nearby: a handover (a snapshot swapped for the view it stood for, or one still settling).
            let distances = departing.map { max(abs($0.visible.midX - place.midX), abs($0.visible.midY - place.midY)) }
            if let nearest = distances.min(), nearest < thresholds.jumpDistance { continue }
            var detail = ""
            var kind = Finding.Kind.hiddenUntilEnd
            if let before = try plane(k - 1), let after = try plane(k), let finalPixels = try plane(last) {
                // Its place must change in the step, compared blurred (5x5 px, within 3 points): a hairline
                // handed over from a resampled snapshot to the crisp line is the same picture to a reader;
                // text or a shape that was not there is not. And look then as it does at its last.
                let shift = Int((3 * before.scale).rounded())
                let content = max(0.04, brightnessDeviation(finalPixels, over: region) ?? 0)
                let step = blurredChange(before, after, over: region, shift: shift, enough: thresholds.popContrast * content) ?? 0
                let rest = blurredChange(after, finalPixels, over: region, shift: 0, enough: 0) ?? 1
                guard step >= thresholds.popContrast * content, rest <= 0.25 * step else { continue }
                detail = "; its place changes by \(format(step * 100))% in that step"
                // Far away: what looked the same there, pixel for pixel (within a point), moved here in one
                // step without being seen to move.
                let own = brightnessDeviation(after, over: place) ?? 0
                let moved = zip(departing, distances).filter { other, _ in
                    let offset = (Int(((other.visible.minX - place.minX) * before.scale).rounded()),
                                  Int(((other.visible.minY - place.minY) * before.scale).rounded()))
                    guard let change = blurredChange(before, after, over: place, offset: offset, shift: Int(before.scale.rounded()),
                                                     radius: 0, enough: 0.01) else { return false }
                    return change <= max(0.02, 0.25 * own)
                }.min { $0.1 < $1.1 }
                if let (from, distance) = moved {
                    kind = k == last ? .snapsAtEnd : .jump
                    detail = "takes over from '\(from.path.split(separator: "/").last.map(String.init) ?? from.path)', which looked the same "
                        + "\(format(distance)) pt away, in one step: the content moves without being seen to move"
                }
            }
            let frames = [k - 1, k]
            findings.append(Finding(kind: kind, subject: paths[key] ?? key, frames: frames, times: frames.map { times[$0] },
                                    detail: kind != .hiddenUntilEnd ? detail
                                        : "unseen (absent, hidden, transparent or covered) in \(unseen) of the \(k) frames before it, "
                                        + "then appears at once in frame \(k) and stays\(detail)"))
        }
        return findings
    }

    /// The least mean absolute difference (0…1) between `b` and `a` moved by `offset` and then by up to
    /// `shift` pixels each way, both blurred by a box of `radius` pixels around each (default 2: 5x5 px), over `region` (points, mapped by the frames' scale; sampled
    /// every other pixel), trying the nearest shifts first and stopping at one below `enough`; nil when
    /// the frames differ in size or the region is empty.
    static func blurredChange(_ a: BrightnessPlane, _ b: BrightnessPlane, over region: Rect, offset: (x: Int, y: Int) = (0, 0),
                              shift: Int, radius: Int = 2, enough: Double) -> Double? {
        guard a.width == b.width, a.height == b.height, !region.isEmpty else { return nil }
        let s = a.scale
        let x0 = max(0, Int((region.minX * s).rounded(.down))), x1 = min(a.width, Int((region.maxX * s).rounded(.up)))
        let y0 = max(0, Int((region.minY * s).rounded(.down))), y1 = min(a.height, Int((region.maxY * s).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        let sa = SummedArea(a, x0: x0 + offset.x - shift - 2, y0: y0 + offset.y - shift - 2, x1: x1 + offset.x + shift + 2, y1: y1 + offset.y + shift + 2)
        let sb = SummedArea(b, x0: x0 - 2, y0: y0 - 2, x1: x1 + 2, y1: y1 + 2)
        let shifts = (-shift...shift).flatMap { dy in (-shift...shift).map { (dx: $0, dy: dy) } }
            .sorted { max(abs($0.dx), abs($0.dy)) < max(abs($1.dx), abs($1.dy)) }
        let step = (x1 - x0) * (y1 - y0) > 256 ? 2 : 1
        var best = Double.infinity
        for (dx, dy) in shifts {
            var sum = 0.0, n = 0
            for y in stride(from: y0, to: y1, by: step) {
                for x in stride(from: x0, to: x1, by: step) {
                    sum += abs(sa.mean(x: x + offset.x + dx, y: y + offset.y + dy, radius: radius) - sb.mean(x: x, y: y, radius: radius))
                    n += 1
                }
            }
            if n > 0 { best = min(best, sum / Double(n) / 255) }
            if best < enough { break }
        }
        return best.isFinite ? best : nil
    }

    /// The mean absolute deviation of brightness (0…1) over `region`: how much there is to see in it.
    static func brightnessDeviation(_ a: BrightnessPlane, over region: Rect) -> Double? {
        let s = a.scale
        let x0 = max(0, Int((region.minX * s).rounded(.down))), x1 = min(a.width, Int((region.maxX * s).rounded(.up)))
        let y0 = max(0, Int((region.minY * s).rounded(.down))), y1 = min(a.height, Int((region.maxY * s).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        var sum: Float = 0
        for y in y0..<y1 { for x in x0..<x1 { sum += a.values[y * a.width + x] } }
        let mean = sum / Float((x1 - x0) * (y1 - y0))
        var deviation: Float = 0
        for y in y0..<y1 { for x in x0..<x1 { deviation += abs(a.values[y * a.width + x] - mean) } }
        return Double(deviation) / Double((x1 - x0) * (y1 - y0)) / 255
    }
}

/// A summed-area table of a brightness plane over a window of it (clamped to the plane), for box means
/// in constant time.
struct SummedArea {
    let x0: Int, y0: Int, width: Int, height: Int
    let sums: [Double]

    init(_ plane: BrightnessPlane, x0 wantedX0: Int, y0 wantedY0: Int, x1 wantedX1: Int, y1 wantedY1: Int) {
        x0 = max(0, wantedX0)
        y0 = max(0, wantedY0)
        width = max(0, min(plane.width, wantedX1) - x0)
        height = max(0, min(plane.height, wantedY1) - y0)
        var sums = [Double](repeating: 0, count: (width + 1) * (height + 1))
        for y in 0..<height {
            var row = 0.0
            for x in 0..<width {
                row += Double(plane.values[(y + y0) * plane.width + x + x0])
                sums[(y + 1) * (width + 1) + x + 1] = sums[y * (width + 1) + x + 1] + row
            }
        }
        self.sums = sums
    }

    /// The mean over the box of `radius` around (`x`, `y`) in plane coordinates, cut to the window.
    func mean(x: Int, y: Int, radius: Int) -> Double {
        let left = max(0, x - radius - x0), right = min(width, x + radius + 1 - x0)
        let top = max(0, y - radius - y0), bottom = min(height, y + radius + 1 - y0)
        guard right > left, bottom > top else { return 0 }
        let w = width + 1
        let total = sums[bottom * w + right] - sums[top * w + right] - sums[bottom * w + left] + sums[top * w + left]
        return total / Double((right - left) * (bottom - top))
    }
}
