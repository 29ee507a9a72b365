import Foundation
import RasterCore
import SnapshotView

/// What `smokescreen lint` finds, frame by frame, in a transition: views that flicker, views that jump,
/// screen left uncovered, views that snap into place at the end or are still moving when it ends.
///
/// Two kinds of input: the presented view tree at every frame (a transition rendered now: findings
/// name views) and the frames' pixels (a render folder too: findings name regions). Thresholds are
/// ``Thresholds``; their defaults are documented there and in docs/previews-and-lint.md.
public struct Finding: Sendable, Equatable, Codable {
    /// The kinds of problem.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// Clearly visible → invisible → clearly visible, or alpha turning back twice, within the window.
        case flicker
        /// A move much faster than the frames around it: a teleport, or a change with no animation.
        case jump
        /// Part of the window shows its bare background in the middle that it does not at the start or end.
        case uncovered
        /// A view arrives at its place in one step at the very end.
        case snapsAtEnd = "snaps-at-end"
        /// A view still moving on the last frame of a render that cut its animation short.
        case endsLate = "ends-late"
        /// A view unseen for most of the transition that then appears within one frame: a stand-in
        /// animated only under opaque views drawn above it and gone at the end (whatever it showed appears
        /// only on the last frame), or any view, matched or not, that is absent, transparent or covered
        /// for at least half the frames and pops in (``Lint/appearances(_:times:frame:thresholds:)``).
        case hiddenUntilEnd = "hidden-until-end"
        /// Content that only moves but changes its look while it does: stripes (combing) or a tone
        /// flip against its own pixels before the move, carried the same way.
        case shimmer
    }
    /// The kind.
    public var kind: Kind
    /// The view (its path of names) or the region (`region x,y w×h px`).
    public var subject: String
    /// The frames concerned (indices).
    public var frames: [Int]
    /// Their times (seconds).
    public var times: [Double]
    /// What was measured.
    public var detail: String
}

/// The limits each check uses.
public struct Thresholds: Sendable, Equatable {
    /// Flicker: how close together the visible → invisible → visible frames must be (seconds). 0.25.
    public var flickerWindow = 0.25
    /// A view is visible when its on-screen alpha is above this. 0.01.
    public var visibleAlpha = 0.01
    /// Jump: the least distance (points) a step must cover to count. 20.
    public var jumpDistance = 20.0
    /// Jump: how many times faster than both neighbouring steps a step must be. 3.
    public var jumpRatio = 3.0
    /// Uncovered: the share of the frame that must be bare background to count, 0…1. 0.02.
    public var uncoveredFraction = 0.02
    /// Pixel flicker: how much a region's mean brightness must change (0…1) and change back. 0.2.
    public var flashContrast = 0.2
    /// Ends late: the least movement (points) in the last step. 0.5.
    public var lateDistance = 0.5
    /// Pixel flicker: the least number of 16x16 regions that must flash together (a small object moving
    /// fast through a region looks like a flash of that region alone). 4.
    public var flashRegions = 4
    /// Content jump: how far (as a share of its scroll view's visible height) every view on screen in a
    /// scroll view must move, both within the content and on screen, in one movement. 0.5.
    public var contentShiftFraction = 0.5
    /// Shimmer: the mean difference, in levels of 255, between a moved view's pixels and its pixels
    /// before the move carried the same way, that counts as a tone flip. 3.
    public var shimmerLevels = 3.0
    /// Shimmer: how much the mean difference of neighbouring rows must step, alternately up and down, in
    /// levels of 255, to count towards combing. 6.
    public var combingLevels = 6.0
    /// Shimmer: how many rows in a row must alternate so to count as combing. 6.
    public var combingRows = 6
    /// Pop-in (`hidden-until-end` of a view that appears at once): how much its place must change across
    /// the step it appears in, as a share of how much there is to see there (the mean brightness change,
    /// blurred, over the mean deviation of its final look); less means something showed it already. 0.35.
    public var popContrast = 0.35

    /// The defaults.
    public init() {}
}

/// The checks.
public enum Lint {
    /// Findings from the presented trees of a render, one per frame, at `times` (seconds). `complete`:
    /// whether everything had ended by the last frame; when not (a fixed-length render), views still
    /// moving on it end late.
    public static func views(_ trees: [ViewDescription], times: [Double], complete: Bool = true,
                             thresholds: Thresholds = Thresholds()) -> [Finding] {
        guard trees.count == times.count, trees.count > 1 else { return [] }
        // Every view's frame and alpha at each frame it is in, followed by identity (the same object),
        // named by its path of names.
        // A reused cell renamed for another row is another view: the key is the object and its names.
        var tracks: [String: [(index: Int, frame: [Double], alpha: Double, sized: Bool)]] = [:]
        var names: [String: String] = [:]
        for (index, tree) in trees.enumerated() {
            walk(tree, path: "", alpha: 1, hidden: false) { path, identity, node, alpha in
                let key = trackKey(path: path, identity: identity)
                // Size changes count only for views that fill their size (a background or an image).
                let sized = node.image != nil || (node.backgroundColor.map { !$0.hasSuffix("00") } ?? false)
                tracks[key, default: []].append((index, node.frame, alpha, sized))
                names[key] = names[key] ?? path
            }
        }
        let viewport = trees[0].frame.count == 4 ? (trees[0].frame[2], trees[0].frame[3]) : (1.0, 1.0)
        /// Chromium's layout-shift score of one step: impact fraction (the union of the two rects over the
        /// viewport) × distance fraction (the move over the viewport's larger side).
        func shiftScore(_ a: [Double], _ b: [Double]) -> Double {
            guard a.count == 4, b.count == 4, viewport.0 > 0, viewport.1 > 0 else { return 0 }
            let x0 = max(0, min(a[0], b[0])), y0 = max(0, min(a[1], b[1]))
            let x1 = min(viewport.0, max(a[0] + a[2], b[0] + b[2])), y1 = min(viewport.1, max(a[1] + a[3], b[1] + b[3]))
            let impact = max(0, x1 - x0) * max(0, y1 - y0) / (viewport.0 * viewport.1)
            return min(1, impact) * max(abs(a[0] - b[0]), abs(a[1] - b[1])) / max(viewport.0, viewport.1)
        }
        var findings: [Finding] = []
        for (key, samples) in tracks.sorted(by: { (names[$0.key] ?? $0.key, $0.key) < (names[$1.key] ?? $1.key, $1.key) }) {
            let path = names[key] ?? key
            // Flicker: clearly visible (alpha ≥ 0.5), then invisible, then clearly visible again, within the
            // window (a fade out and back in passes through faint frames: not flicker).
            var k = 1
            while k < samples.count {
                defer { k += 1 }
                guard samples[k].alpha <= thresholds.visibleAlpha, samples[k - 1].alpha >= 0.5,
                      samples[k].index == samples[k - 1].index + 1,
                      let back = (k + 1..<samples.count).first(where: { samples[$0].alpha > thresholds.visibleAlpha }),
                      samples[back].alpha >= 0.5,
                      times[samples[back].index] - times[samples[k - 1].index] <= thresholds.flickerWindow else { continue }
                let frames = [samples[k - 1].index, samples[k].index, samples[back].index]
                findings.append(Finding(kind: .flicker, subject: path, frames: frames, times: frames.map { times[$0] },
                                        detail: "visible, then invisible at frame \(frames[1]), then visible again within \(format(thresholds.flickerWindow)) s"))
                k = back
            }
            // Flicker too: alpha turning back more than once within the window (1 → 0.5 → 1 → 0.5).
            // (A change long after the last one starts afresh: a fade, then later a tap, is no turn.)
            var turns: [Int] = []
            var lastSign = 0.0, lastChange = 0
            for k in 1..<samples.count where samples[k].index == samples[k - 1].index + 1 {
                let change = samples[k].alpha - samples[k - 1].alpha
                guard abs(change) >= 0.05 else { continue }
                let sign: Double = change > 0 ? 1 : -1
                if times[samples[k - 1].index] - times[samples[lastChange].index] > thresholds.flickerWindow { lastSign = 0 }
                if lastSign != 0 && sign != lastSign { turns.append(k - 1) }
                lastSign = sign
                lastChange = k
            }
            for t in 0..<max(0, turns.count - 1) {
                let (a, b) = (samples[turns[t]].index, samples[turns[t + 1]].index)
                guard times[b] - times[a] <= thresholds.flickerWindow,
                      !findings.contains(where: { $0.kind == .flicker && $0.subject == path && $0.frames.contains(a) }) else { continue }
                findings.append(Finding(kind: .flicker, subject: path, frames: [a, b], times: [times[a], times[b]],
                                        detail: "alpha turns back at frames \(a) and \(b), within \(format(thresholds.flickerWindow)) s"))
            }
            // Jumps: a step much faster than the steps around it, and long.
            let steps: [(from: Int, to: Int, distance: Double, speed: Double)] = zip(samples, samples.dropFirst()).compactMap { a, b in
                guard b.index == a.index + 1, a.alpha > thresholds.visibleAlpha || b.alpha > thresholds.visibleAlpha else { return nil }
                let d = distance(a.frame, b.frame, sized: a.sized || b.sized)
                let dt = max(1e-6, times[b.index] - times[a.index])
                return (a.index, b.index, d, d / dt)
            }
            for (k, step) in steps.enumerated() where step.distance >= thresholds.jumpDistance {
                let before = k > 0 && steps[k - 1].to == step.from ? steps[k - 1].speed : 0
                let after = k + 1 < steps.count && steps[k + 1].from == step.to ? steps[k + 1].speed : nil
                let isLast = step.to == times.count - 1
                if isLast, after == nil, step.speed > thresholds.jumpRatio * before {
                    findings.append(Finding(kind: .snapsAtEnd, subject: path, frames: [step.from, step.to], times: [times[step.from], times[step.to]],
                                            detail: "moves \(format(step.distance)) pt in the last step, \(before == 0 ? "after standing still" : "\(format(step.speed / before))x faster than the step before")"))
                } else if step.speed > thresholds.jumpRatio * max(before, after ?? 0) {
                    let from = samples.first { $0.index == step.from }?.frame ?? [], to = samples.first { $0.index == step.to }?.frame ?? []
                    findings.append(Finding(kind: .jump, subject: path, frames: [step.from, step.to], times: [times[step.from], times[step.to]],
                                            detail: "moves \(format(step.distance)) pt in one frame, \(max(before, after ?? 0) == 0 ? "with no motion around it" : "\(format(step.speed / max(before, after ?? 0)))x faster than the frames around it"); layout-shift score \(String(format: "%.4f", shiftScore(from, to)))"))
                }
            }
            // Ends late: still moving in the last step.
            if !complete, let last = steps.last, last.to == times.count - 1, last.distance >= thresholds.lateDistance,
               !findings.contains(where: { $0.subject == path && $0.kind == .snapsAtEnd }) {
                findings.append(Finding(kind: .endsLate, subject: path, frames: [last.from, last.to], times: [times[last.from], times[last.to]],
                                        detail: "still moving on the last frame (\(format(last.distance)) pt in the last step)"))
            }
        }
        findings += uncovered(trees, times: times, thresholds: thresholds)
        findings += contentJumps(trees, times: times, thresholds: thresholds)
        findings += hiddenAnimations(trees, times: times, thresholds: thresholds)
        return findings
    }

    /// Content that jumps under a scroll position: views inside a scroll view that move, in one
    /// movement (a run of frames in which they move), by at least ``Thresholds/contentShiftFraction`` of
    /// the scroll view's visible height both within its content and on screen. A scroll moves views on
    /// screen but not within the content, a view kept in place while the content scrolls (a floating
    /// button) moves within the content but not on screen: neither counts. What counts is content above
    /// the visible area growing or shrinking while the offset stays (or is only clamped): everything the
    /// reader was looking at is carried away. One finding per scroll view and movement, with how many
    /// views moved.
    static func contentJumps(_ trees: [ViewDescription], times: [Double], thresholds: Thresholds) -> [Finding] {
        struct Sample {
            let index: Int, window: [Double], content: [Double], alpha: Double
            /// The nearest scroll view: its path and window frame.
            let scroll: String, scrollFrame: [Double]
            var visibleHeight: Double { scrollFrame[3] }
        }
        var tracks: [String: [Sample]] = [:]
        var names: [String: String] = [:]
        for (index, tree) in trees.enumerated() {
            func visit(_ node: ViewDescription, path: String, alpha: Double, scroll: (path: String, frame: [Double], offset: [Double])?) {
                let alpha = node.hidden ? 0 : alpha * node.alpha
                if let scroll, node.frame.count == 4, scroll.frame.count == 4, scroll.offset.count == 2 {
                    let key = trackKey(path: path, identity: node.identity)
                    let content = [node.frame[0] - scroll.frame[0] + scroll.offset[0], node.frame[1] - scroll.frame[1] + scroll.offset[1]]
                    tracks[key, default: []].append(Sample(index: index, window: node.frame, content: content, alpha: alpha,
                                                           scroll: scroll.path, scrollFrame: scroll.frame))
                    names[key] = names[key] ?? path
                }
                let inner = node.contentOffset.map { (path, node.frame, $0) } ?? scroll
                for (child, childPath) in children(of: node, path: path) { visit(child, path: childPath, alpha: alpha, scroll: inner) }
            }
            visit(tree, path: tree.name ?? tree.type, alpha: 1, scroll: nil)
        }
        // Movements: runs of consecutive frames in which a view moves, far enough within the content
        // and on screen to count, grouped by scroll view and first frame.
        var candidates: [String: (scroll: String, from: Int, to: Int, height: Double)] = [:]
        for samples in tracks.values {
            var start = 0
            while start < samples.count {
                var end = start
                while end + 1 < samples.count, samples[end + 1].index == samples[end].index + 1,
                      samples[end + 1].scroll == samples[start].scroll,
                      distance(samples[end].window, samples[end + 1].window, sized: false) >= thresholds.lateDistance {
                    end += 1
                }
                defer { start = end + 1 }
                guard end > start else { continue }
                let a = samples[start], b = samples[end]
                let limit = thresholds.contentShiftFraction * a.visibleHeight
                guard a.alpha > thresholds.visibleAlpha, a.visibleHeight > 0, distance(a.window, b.window, sized: false) >= limit,
                      max(abs(a.content[0] - b.content[0]), abs(a.content[1] - b.content[1])) >= limit else { continue }
                let group = "\(a.scroll) \(a.index)"
                var entry = candidates[group] ?? (a.scroll, a.index, b.index, a.visibleHeight)
                entry.to = max(entry.to, b.index)
                candidates[group] = entry
            }
        }
        // A movement is a jump when nothing the reader sees in the scroll view stays: every view on
        // screen in it at the first frame (and still there at the last) moved that far.
        var byFrame: [Int: [String: Sample]] = [:]
        for (key, samples) in tracks { for sample in samples { byFrame[sample.index, default: [:]][key] = sample } }
        var findings: [Finding] = []
        for c in candidates.values.sorted(by: { ($0.from, $0.scroll) < ($1.from, $1.scroll) }) {
            let limit = thresholds.contentShiftFraction * c.height
            guard let first = byFrame[c.from], let last = byFrame[c.to] else { continue }
            var moved: [(String, Double, Double)] = []
            var anchored = false
            for (key, a) in first where a.scroll == c.scroll && a.alpha > thresholds.visibleAlpha {
                guard let b = last[key] else { continue }
                // On screen: inside the scroll view's visible area at the first frame.
                let s = a.scrollFrame
                guard a.window[1] + a.window[3] > s[1], a.window[1] < s[1] + s[3],
                      a.window[0] + a.window[2] > s[0], a.window[0] < s[0] + s[2] else { continue }
                let windowMove = distance(a.window, b.window, sized: false)
                let contentMove = max(abs(a.content[0] - b.content[0]), abs(a.content[1] - b.content[1]))
                if windowMove < limit || contentMove < limit { anchored = true; break }
                moved.append((names[key] ?? key, windowMove, contentMove))
            }
            guard !anchored, !moved.isEmpty else { continue }
            let least = moved.min { $0.2 < $1.2 }!
            findings.append(Finding(kind: .jump, subject: c.scroll, frames: [c.from, c.to], times: [times[c.from], times[c.to]],
                                    detail: "everything on screen in it (\(moved.count) views) moves at least \(format(least.2)) pt within its content and \(format(least.1)) pt on screen in \(format(times[c.to] - times[c.from])) s (\(format(least.2 / c.height)) times its visible height) while its offset does not follow: the content jumps under the reader"))
        }
        return findings
    }

    /// Uncovered screen from the trees: the window's area (on an 8-point grid) that no view fills with
    /// an opaque background or an image at full alpha, where both the first and the last frame fill it.
    static func uncovered(_ trees: [ViewDescription], times: [Double], thresholds: Thresholds) -> [Finding] {
        guard let root = trees.first, root.frame.count == 4 else { return [] }
        let cell = 8.0
        let columns = max(1, Int((root.frame[2] / cell).rounded(.up))), rows = max(1, Int((root.frame[3] / cell).rounded(.up)))
        func covered(_ tree: ViewDescription) -> [Bool] {
            var grid = [Bool](repeating: false, count: columns * rows)
            func fill(_ node: ViewDescription, clip: [Double]) {
                let f = node.frame
                guard f.count == 4, !node.hidden, node.alpha > 0 else { return }
                // What a clipping ancestor cuts off is not covered.
                let x0 = max(f[0], clip[0]), y0 = max(f[1], clip[1]), x1 = min(f[0] + f[2], clip[2]), y1 = min(f[1] + f[3], clip[3])
                let opaqueBackground = node.backgroundColor.map { $0.count == 9 && $0.hasSuffix("FF") } ?? false
                if node.alpha >= 0.999, opaqueBackground || node.image != nil, x1 > x0, y1 > y0 {
                    // Cells whose centre the view covers.
                    let c0 = max(0, Int((x0 / cell).rounded(.up) - 0.5)), c1 = min(columns, Int((x1 / cell - 0.5).rounded(.down)) + 1)
                    let r0 = max(0, Int((y0 / cell).rounded(.up) - 0.5)), r1 = min(rows, Int((y1 / cell - 0.5).rounded(.down)) + 1)
                    if c0 < c1 && r0 < r1 { for r in r0..<r1 { for c in c0..<c1 { grid[r * columns + c] = true } } }
                }
                let inner = node.clipsToBounds ? [x0, y0, x1, y1] : clip
                for child in node.subviews { fill(child, clip: inner) }
            }
            // The window's own background is the bare background: only its subviews cover.
            for child in tree.subviews { fill(child, clip: [0, 0, root.frame[2], root.frame[3]]) }
            return grid
        }
        let grids = trees.map(covered)
        guard let first = grids.first, let last = grids.last else { return [] }
        var findings: [Finding] = []
        for (index, grid) in grids.enumerated().dropFirst().dropLast() {
            let bare = (0..<grid.count).filter { !grid[$0] && first[$0] && last[$0] }
            let fraction = Double(bare.count) / Double(grid.count)
            guard fraction >= thresholds.uncoveredFraction else { continue }
            let xs = bare.map { $0 % columns }, ys = bare.map { $0 / columns }
            let box = "x \(format(Double(xs.min()!) * cell)) y \(format(Double(ys.min()!) * cell)) \(format(Double(xs.max()! - xs.min()! + 1) * cell))×\(format(Double(ys.max()! - ys.min()! + 1) * cell)) pt"
            findings.append(Finding(kind: .uncovered, subject: "window \(box)", frames: [index], times: [times[index]],
                                    detail: "\(format(fraction * 100))% of the window shows its bare background, covered at the start and the end"))
        }
        return findings
    }

    /// Findings from the frames' pixels (any render, a render folder too): regions that flash, and, given
    /// the window's `background`, bare background in the middle.
    ///
    /// A flash: a 16x16-pixel region whose pixels change by at least ``Thresholds/flashContrast`` (mean
    /// absolute brightness difference) from one frame to the next and are back within a quarter of that
    /// one or two frames later: a change that undoes itself (motion does not: later frames differ from
    /// earlier ones more, not less). Bare background: regions all of `background` in the middle that are
    /// not at the start or the end (without `background`, not checked: the colour cannot be told from the
    /// pixels alone). `frame(index)` draws or reads frame `index` of `count` (each is asked for once, in
    /// order); `times` are the frames' times in seconds.
    public static func pixels(count: Int, times: [Double], frame: (Int) throws -> Bitmap, background: PremultipliedRGBA8? = nil,
                              thresholds: Thresholds = Thresholds()) rethrows -> [Finding] {
        guard count > 2 else { return [] }
        let block = 16
        var history: [[Float]] = []  // brightness 0…1 of every pixel, of the last three frames
        var bare: [[Bool]] = []
        var columns = 0, rows = 0, width = 0, height = 0
        // How far content may move in one frame and still be told from a flash: frames read from PNG files
        // do not know their scale, so a share of the frame (a 20th of its shorter side, at least 12 px).
        var reach = 12
        var findings: [Finding] = []
        func difference(_ a: [Float], _ b: [Float]) -> [Double] {
            var sums = [Double](repeating: 0, count: columns * rows), n = [Int](repeating: 0, count: columns * rows)
            for y in 0..<height {
                for x in 0..<width {
                    let cell = (y / block) * columns + x / block
                    sums[cell] += Double(abs(a[y * width + x] - b[y * width + x]))
                    n[cell] += 1
                }
            }
            return zip(sums, n).map { $0 / Double(max(1, $1)) }
        }
        for index in 0..<count {
            let bitmap = try frame(index)
            if index == 0 {
                (width, height) = (bitmap.width, bitmap.height)
                reach = max(12, min(width, height) / 20)
                columns = (width + block - 1) / block
                rows = (height + block - 1) / block
            }
            guard bitmap.width == width, bitmap.height == height else { continue }
            var luma = [Float](repeating: 0, count: width * height)
            var isBare = [Bool](repeating: true, count: columns * rows)
            for y in 0..<height {
                for x in 0..<width {
                    let p = bitmap[x, y]
                    luma[y * width + x] = (0.299 * Float(p.r) + 0.587 * Float(p.g) + 0.114 * Float(p.b)) / 255
                    if p != background { isBare[(y / block) * columns + x / block] = false }
                }
            }
            if background != nil { bare.append(isBare) }
            history.append(luma)
            if history.count > 4 { history.removeFirst() }
            // Frame f = index − 1 (or index − 2) flashed when it differs from f − 1 and frame index is back.
            for lag in [1, 2] where history.count >= lag + 2 {
                let before = history[history.count - lag - 2], flashed = history[history.count - lag - 1], after = history[history.count - 1]
                let out = difference(flashed, before)
                let candidates = (0..<out.count).filter { out[$0] >= thresholds.flashContrast }
                guard !candidates.isEmpty else { continue }
                let back = difference(after, before)
                // A region whose change is the same content moved a little (text sliding by, rows
                // scrolling) did not flash, however alike the frames around it look.
                let flagged = candidates.filter {
                    back[$0] < thresholds.flashContrast / 4
                        && !movedContent(cell: $0, from: before, to: flashed, columns: columns, width: width, height: height, block: block,
                                         reach: reach, within: thresholds.flashContrast / 2)
                }
                let f = index - lag
                guard flagged.count >= thresholds.flashRegions, times[index] - times[f - 1] <= thresholds.flickerWindow,
                      !findings.contains(where: { $0.kind == .flicker && $0.frames.contains(f) }) else { continue }
                findings.append(Finding(kind: .flicker, subject: region(flagged, columns: columns, block: block, width: width, height: height),
                                        frames: Array((f - 1)...index), times: ((f - 1)...index).map { times[$0] },
                                        detail: "\(flagged.count) region\(flagged.count == 1 ? "" : "s") of \(block)x\(block) px change by \(format(thresholds.flashContrast * 100))% or more at frame \(f) and change back"))
            }
        }
        if background != nil, bare.count == count {
            let total = columns * rows
            for f in 1..<(count - 1) {
                let cells = (0..<total).filter { bare[f][$0] && !bare[0][$0] && !bare[count - 1][$0] }
                let fraction = Double(cells.count) / Double(max(1, total))
                if fraction >= thresholds.uncoveredFraction {
                    findings.append(Finding(kind: .uncovered, subject: region(cells, columns: columns, block: block, width: width, height: height),
                                            frames: [f], times: [times[f]],
                                            detail: "\(format(fraction * 100))% of the frame shows the bare background, covered at the start and the end"))
                }
            }
        }
        return findings
    }

    /// Whether region `cell` of `to` is region `cell` of `from` moved by up to `reach` pixels each way
    /// (the nearest shifts tried first): some shift brings the mean brightness difference under `within`
    /// (0…1). A region that is flat in `to` (something vanished into a plain background) is never called
    /// moved.
    static func movedContent(cell: Int, from: [Float], to: [Float], columns: Int, width: Int, height: Int, block: Int,
                             reach: Int, within: Double) -> Bool {
        let x0 = (cell % columns) * block, y0 = (cell / columns) * block
        let x1 = min(width, x0 + block), y1 = min(height, y0 + block)
        var low: Float = 1, high: Float = 0
        for y in y0..<y1 { for x in x0..<x1 { low = min(low, to[y * width + x]); high = max(high, to[y * width + x]) } }
        guard Double(high - low) >= within else { return false }
        for ring in 1...max(1, reach) {
            for dy in -ring...ring {
            for dx in -ring...ring where max(abs(dx), abs(dy)) == ring {
                var sum: Float = 0, n = 0
                let top = max(y0, -dy), bottom = min(y1, height - dy), left = max(x0, -dx), right = min(x1, width - dx)
                guard top < bottom, left < right else { continue }
                for y in top..<bottom {
                    let a = (y + dy) * width, b = y * width
                    for x in left..<right {
                        sum += abs(from[a + x + dx] - to[b + x])
                        n += 1
                    }
                }
                if n * 2 >= (x1 - x0) * (y1 - y0), Double(sum) / Double(n) < within { return true }
            }
            }
        }
        return false
    }

    /// Visits every view with its path of names, window frame and on-screen alpha (0 when hidden).
    static func walk(_ node: ViewDescription, path: String, alpha: Double, hidden: Bool, visit: (String, Int?, ViewDescription, Double) -> Void) {
        let hidden = hidden || node.hidden
        let here = path.isEmpty ? (node.name ?? node.type) : path
        visit(here, node.identity, node, hidden ? 0 : node.alpha)
        for (child, childPath) in children(of: node, path: here) { walk(child, path: childPath, alpha: alpha, hidden: hidden, visit: visit) }
    }

    /// The subviews of `node` with their paths of names: a name that repeats among siblings gets `#2`, `#3`, ….
    static func children(of node: ViewDescription, path: String) -> [(ViewDescription, String)] {
        var counts: [String: Int] = [:]
        return node.subviews.map { child in
            let base = child.name ?? child.type
            let n = counts[base, default: 0]
            counts[base] = n + 1
            return (child, path + "/" + (n == 0 ? base : "\(base)#\(n + 1)"))
        }
    }

    /// What follows a view from frame to frame: the object and its names (a reused cell renamed for
    /// another row is another view), or its path when the object is not known.
    static func trackKey(path: String, identity: Int?) -> String {
        let plain = path.split(separator: "/").map { $0.split(separator: "#").first.map(String.init) ?? "" }.joined(separator: "/")
        return identity.map { "\($0) \(plain)" } ?? path
    }

    /// How far a frame moved (points): its origin, and with `sized` (a view that fills its frame) any edge.
    static func distance(_ a: [Double], _ b: [Double], sized: Bool = true) -> Double {
        guard a.count == 4, b.count == 4 else { return 0 }
        let origin = max(abs(a[0] - b[0]), abs(a[1] - b[1]))
        guard sized else { return origin }
        return max(origin, abs(a[0] + a[2] - b[0] - b[2]), abs(a[1] + a[3] - b[1] - b[3]))
    }

    static func region(_ cells: [Int], columns: Int, block: Int, width: Int, height: Int) -> String {
        let xs = cells.map { $0 % columns }, ys = cells.map { $0 / columns }
        let x0 = (xs.min() ?? 0) * block, y0 = (ys.min() ?? 0) * block
        let x1 = min(width, ((xs.max() ?? 0) + 1) * block), y1 = min(height, ((ys.max() ?? 0) + 1) * block)
        return "region x \(x0) y \(y0) \(x1 - x0)×\(y1 - y0) px"
    }

    static func format(_ v: Double) -> String {
        var text = String(format: "%.2f", v)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
