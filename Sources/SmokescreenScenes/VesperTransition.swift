import BoundedInput
import Foundation
import Motion
import RasterCore
import SnapshotView
import TransitionCompositor

/// Vesper's full-screen transitions between the notes timeline and a note's detail view
/// (`shared/seeds/004_…txt`), done on a smokescreen with the real views swapped underneath.
///
/// Three animation blocks, whose timings come from `assets/vesper/durations.plist` (or `--durations`):
/// - `navigationBar`: the timeline's bar cross-fades into the detail's;
/// - `tableView`: the other notes fade out and slide away (those above up, those below down);
/// - `selectedNote`: the selected note's thumbnail grows into the detail image, and its title and body
///   move to their detail places, cross-fading into the detail's text.
///
/// Each block increments the smokescreen's use count before it starts and decrements it in its
/// completion, so the smokescreen is removed, revealing the real detail view, when the longest block
/// ends, whichever that is. Detail→timeline plays the same pieces the other way.
public struct VesperTransition: Transition {
    public enum Direction: Sendable { case timelineToDetail, detailToTimeline }

    public let direction: Direction
    public init(_ direction: Direction) { self.direction = direction }

    /// The blocks, as named in the durations plist.
    public static let blockNames = ["navigationBar", "tableView", "selectedNote"]
    /// The plist, relative to the assets folder.
    public static let durationsAsset = "vesper/durations.plist"

    public var name: String { direction == .timelineToDetail ? "vesper-timeline-to-detail" : "vesper-detail-to-timeline" }
    public var summary: String {
        direction == .timelineToDetail
            ? "Vesper: the other notes disappear while the selected note grows into its detail view (3 blocks on a smokescreen)"
            : "Vesper: the detail view shrinks back into its note while the timeline returns (3 blocks on a smokescreen)"
    }
    public var pointSize: Size { VesperScene.pointSize }

    /// True: the blocks' timings come from `assets/vesper/durations.plist`.
    public var readsDurationsFile: Bool { true }

    public func render(_ settings: RenderSettings) throws -> RenderedTransition {
        let durationsFile = settings.durationsFile ?? "\(settings.assetsDirectory)/\(VesperTransition.durationsAsset)"
        let timings = try BlockTimings.load(contentsOf: durationsFile, required: VesperTransition.blockNames, warn: settings.warn)
        let scene: VesperScene
        // A PNGError names its file and reason itself.
        do { scene = try VesperScene(assetsDirectory: settings.assetsDirectory, scale: settings.scale) } catch let error as any ExitStatusError {
            throw error
        } catch {
            throw RenderError.badInput(path: "\(settings.assetsDirectory)/vesper", reason: "\(error)")
        }
        var durations: [String: Double] = [:]
        for (name, t) in timings {
            durations["\(name).duration"] = t.duration
            durations["\(name).delay"] = t.delay
        }
        let assets = scene.images.sorted { $0.key < $1.key }.map { BitmapRecord(kind: .asset, name: scene.imageFiles[$0.key] ?? $0.key, bitmap: $0.value) }
        let inputs = [durationsFile] + scene.imageFiles.values.sorted().map { "\(settings.assetsDirectory)/\($0)" }
        var rendered = try TransitionDriver.render(name: name, settings: settings, durations: durations, assets: assets) { engine in
            do {
                return try perform(scene: scene, timings: timings, engine: engine, scale: settings.scale)
            } catch let error as RenderError {
                throw error
            } catch {
                throw RenderError.failed(what: name, reason: "\(error)")
            }
        }
        rendered.sequence.fingerprint = fingerprint(ofFiles: inputs)
        return rendered
    }

    private enum Side { case timeline, detail }

    /// A view on the smokescreen and how it looks on either side of the transition.
    private struct Piece {
        let view: View
        var timeline: (frame: Rect, alpha: Double)
        var detail: (frame: Rect, alpha: Double)
        func apply(_ side: Side) {
            let state = side == .timeline ? timeline : detail
            view.frame = state.frame
            view.alpha = state.alpha
        }
    }

    private func perform(scene: VesperScene, timings: [String: BlockTiming], engine: AnimationEngine, scale: Double) throws -> TransitionContext {
        let timeline = try scene.makeTimeline(), detail = try scene.makeDetail()
        let window = View(frame: Rect(origin: .zero, size: VesperScene.pointSize), name: "window")
        window.backgroundColor = .white
        let toDetail = direction == .timelineToDetail
        let context = try TransitionContext(container: window, fromView: toDetail ? timeline : detail,
                                            toView: toDetail ? detail : timeline, engine: engine, scale: scale)
        func named(_ root: View, _ name: String) throws -> View {
            guard let v = root.view(named: name) else { throw RenderError.failed(what: self.name, reason: "no view named '\(name)'") }
            return v
        }
        let selected = VesperScene.selectedNote
        let backdrop = View(frame: window.bounds, name: "backdrop")
        backdrop.backgroundColor = .white
        try context.addToSmokescreen(backdrop)

        var nav: [Piece] = [], table: [Piece] = []
        // Snapshots and rects (in smokescreen points) of each side's text, taken while that side is in
        // the container: a rect converts only between views of one tree.
        var texts: [String: (snapshot: ImageView, rect: Rect)] = [:]
        var imageRects: [Side: Rect] = [:]

        func captureTimeline() throws {
            let bar = try context.placeSnapshot(of: try named(timeline, "navigationBar"), name: "timeline bar")
            nav.append(Piece(view: bar, timeline: (bar.frame, 1), detail: (bar.frame, 0)))
            let list = try named(timeline, "table"), visible = try context.rect(of: list)
            let cell = try named(timeline, "note \(selected)")
            let selectedTop = try context.rect(of: cell).minY
            for other in list.subviews where other !== cell {
                let rect = try context.rect(of: other)
                guard rect.intersects(visible) else { continue }
                let snap = try context.placeSnapshot(of: other, name: "\(other.name ?? "cell") snapshot")
                let away = rect.minY < selectedTop ? -40.0 : 80.0
                table.append(Piece(view: snap, timeline: (rect, 1), detail: (rect.offsetBy(dx: 0, dy: away), 0)))
            }
            // The selected cell without its text and thumbnail: its background and separator fade too.
            let parts = ["title", "body", "thumbnail"].compactMap { timeline.view(named: "note \(selected) \($0)") }
            parts.forEach { $0.isHidden = true }
            let shell = try context.placeSnapshot(of: cell, name: "selected cell")
            parts.forEach { $0.isHidden = false }
            table.append(Piece(view: shell, timeline: (shell.frame, 1), detail: (shell.frame, 0)))
            for part in ["title", "body"] {
                let source = try named(timeline, "note \(selected) \(part)")
                texts["timeline \(part)"] = (try context.placeSnapshot(of: source, clearBackground: true, name: "timeline \(part)"),
                                             try context.rect(of: source))
            }
            if let thumb = timeline.view(named: "note \(selected) thumbnail") { imageRects[.timeline] = try context.rect(of: thumb) }
        }
        func captureDetail() throws {
            let bar = try context.placeSnapshot(of: try named(detail, "detail navigationBar"), name: "detail bar")
            nav.append(Piece(view: bar, timeline: (bar.frame, 0), detail: (bar.frame, 1)))
            for part in ["title", "body"] {
                let source = try named(detail, "detail \(part)")
                texts["detail \(part)"] = (try context.placeSnapshot(of: source, clearBackground: true, name: "detail \(part)"),
                                           try context.rect(of: source))
            }
            if let image = detail.view(named: "detail image") { imageRects[.detail] = try context.rect(of: image) }
        }
        if toDetail { try captureTimeline() } else { try captureDetail() }
        try context.swapViews()
        if toDetail { try captureDetail() } else { try captureTimeline() }

        // The selected note. Its image is a live image view, not a snapshot: aspect fill re-places the
        // picture in every frame's bounds, where a stretched snapshot would distort it.
        var note: [Piece] = []
        if let thumb = timeline.view(named: "note \(selected) thumbnail") as? ImageView,
           let small = imageRects[.timeline], let large = imageRects[.detail] {
            let moving = ImageView(image: thumb.image, frame: small, contentMode: .scaleAspectFill, name: "moving image")
            moving.clipsToBounds = true
            moving.cornerRadius = thumb.cornerRadius
            try context.addToSmokescreen(moving)
            note.append(Piece(view: moving, timeline: (small, 1), detail: (large, 1)))
        }
        // Title and body: each rendering travels the whole way, scaled about its top-left corner by the
        // ratio of the font sizes, fading out (the timeline's) or in (the detail's).
        for (part, growth) in [("title", 22.0 / 17), ("body", 17.0 / 15)] {
            let (a, small) = texts["timeline \(part)"]!, (b, large) = texts["detail \(part)"]!
            note.append(Piece(view: a, timeline: (small, 1), detail: (Rect(origin: large.origin, size: small.size * growth), 0)))
            note.append(Piece(view: b, timeline: (Rect(origin: small.origin, size: large.size * (1 / growth)), 0), detail: (large, 1)))
        }
        // Bars on top, so the departing notes slide under them.
        for piece in nav { context.smokescreen.bringSubviewToFront(piece.view) }

        ViewChangeObservation.withoutObserver { (nav + table + note).forEach { $0.apply(toDetail ? .timeline : .detail) } }
        for (name, pieces) in [("navigationBar", nav), ("tableView", table), ("selectedNote", note)] {
            try context.animateBlock(name, timing: timings[name]!, animations: { pieces.forEach { $0.apply(toDetail ? .detail : .timeline) } })
        }
        return context
    }
}
