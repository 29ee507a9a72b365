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
}
