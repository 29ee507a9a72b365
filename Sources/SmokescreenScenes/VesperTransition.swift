import BoundedInput
import Choreography
import Containers
import Foundation
import Motion
import RasterCore
import SnapshotView
import TransitionCompositor

/// Vesper's full-screen transitions (`shared/seeds/004_…txt`): between the notes timeline and a note's
/// detail view, and between the detail view and its picture, each described once as a `Choreography`
/// and played forwards or reversed by `ChoreographyRenderer` on a smokescreen.
///
/// Timeline ↔ detail has three phases, whose timings come from `assets/vesper/durations.plist` (or
/// `--durations`):
/// - `navigationBar`: the detail's bar fades in over the timeline's, which stays opaque, while the
///   timeline's title slides into the back button's place and becomes its text, as a navigation bar's
///   push does;
/// - `tableView`: the other notes fade out and slide away (those above up, those below down); the
///   selected note's cell fades where it is;
/// - `selectedNote`: the thumbnail grows into the detail image (a live aspect-fill image), and the title
///   and body move to their detail places under it; the body, whose line count changes, fades out
///   before the detail's fades in.
///
/// Detail → timeline is the same description reversed: every animation runs over its mirrored interval,
/// so the notes come back while the selected note settles into its cell.
/// Detail ↔ picture: the image grows to fill the screen, aspect-fit on black (`picture`), while the bar
/// and text fade (`chrome`).
public struct VesperTransition: Transition {
    /// Which of the four transitions.
    public enum Direction: Sendable, CaseIterable {
        /// The default: the note grows into its detail view.
        case timelineToDetail
        /// The same, reversed.
        case detailToTimeline
        /// The detail image grows to a full-screen picture.
        case detailToPicture
        /// The same, reversed.
        case pictureToDetail
    }

    /// Which of the four transitions this is.
    public let direction: Direction
    /// A back swipe the transition follows instead of the clock (only `detailToTimeline` is a back
    /// navigation), or nil.
    public let gesture: EdgePanGesture?

    /// The transition in `direction`.
    public init(_ direction: Direction) {
        self.direction = direction
        gesture = nil
    }

    /// The transition in `direction`, following `gesture`.
    public init(_ direction: Direction, following gesture: EdgePanGesture) {
        self.direction = direction
        self.gesture = gesture
    }

    /// `vesper-detail-to-timeline-interactive`: Vesper's pop following a back swipe released past half
    /// way (``backSwipe``), starting at ``swipeStartTime``.
    public static var detailToTimelineInteractive: VesperTransition {
        VesperTransition(.detailToTimeline, following: VesperTransition.backSwipe)
    }

    /// 0 → 230 pt in 0.6 s, released moving right at 400 pt/s: it finishes.
    public static let backSwipe = EdgePanGesture(samples: [(0, 0), (0.15, 40), (0.45, 170), (0.6, 230)])
    /// When the swipe starts (seconds).
    public static let swipeStartTime = 0.2

    /// The phases of timeline ↔ detail, as named in the durations plist.
    public static let blockNames = ["navigationBar", "tableView", "selectedNote"]
    /// The phases of detail ↔ picture.
    public static let pictureBlockNames = ["picture", "chrome"]
    /// The plist, relative to the assets folder.
    public static let durationsAsset = "vesper/durations.plist"

    /// `vesper-timeline-to-detail`, `vesper-detail-to-timeline`, `vesper-detail-to-picture` or `vesper-picture-to-detail`.
    public var name: String {
        if gesture != nil { return baseName + "-interactive" }
        return baseName
    }

    private var baseName: String {
        switch direction {
        case .timelineToDetail: "vesper-timeline-to-detail"
        case .detailToTimeline: "vesper-detail-to-timeline"
        case .detailToPicture: "vesper-detail-to-picture"
        case .pictureToDetail: "vesper-picture-to-detail"
        }
    }

    /// One line for `smokescreen list`.
    public var summary: String {
        if gesture != nil { return "Vesper: the detail-to-timeline pop following a back swipe (its three phases scrubbed by the finger), released past half way" }
        return switch direction {
        case .timelineToDetail: "Vesper: the other notes disappear while the selected note grows into its detail view (3 phases on a smokescreen)"
        case .detailToTimeline: "Vesper: the same, reversed: the note settles back into the timeline as the other notes return"
        case .detailToPicture: "Vesper: the detail image grows to a full-screen picture on black while the rest fades"
        case .pictureToDetail: "Vesper: the full-screen picture shrinks back into the detail view"
        }
    }

    /// 375x667 points.
    public var pointSize: Size { VesperScene.pointSize }

    /// True: the phases' timings come from `assets/vesper/durations.plist`.
    public var readsDurationsFile: Bool { true }

    private var isPicture: Bool { direction == .detailToPicture || direction == .pictureToDetail }
    private var phaseNames: [String] { isPicture ? Self.pictureBlockNames : Self.blockNames }

    /// The description of timeline → detail with these phase timings.
    public static func timelineToDetail(_ timings: [String: BlockTiming]) -> Choreography {
        let note = "note \(VesperScene.selectedNote)"
        return Choreography(
            phases: blockNames.map { Choreography.Phase($0, timing: timings[$0] ?? BlockTiming(duration: 0)) },
            matches: [
                .init(from: "navigationBar", to: "detail navigationBar", phase: "navigationBar", style: .opaqueCrossFade),
                // As a navigation bar pushes: the title slides into the back button's place and becomes its text.
                .init(from: "navigationBar title", to: "detail navigationBar back", phase: "navigationBar", style: .text),
                .init(from: "\(note) thumbnail", to: "detail image", phase: "selectedNote", style: .liveImage),
                .init(from: "\(note) title", to: "detail title", phase: "selectedNote", style: .text),
                .init(from: "\(note) body", to: "detail body", phase: "selectedNote", style: .text),
            ],
            unmatched: [
                .init(.views([note]), phase: "tableView", effects: [.fade]),
                .init(.subviews(of: "table"), phase: "tableView", effects: [.fade, .slideAway(from: "\(note) thumbnail", above: 40, below: 80)]),
            ],
            // The picture covers the title and body, as the image view added last does on a device; the bar
            // stays above everything, and the travelling title above the bar.
            onTop: ["detail image", "navigationBar", "navigationBar title"])
    }

    /// The description of detail → picture with these phase timings: the image grows; under it the
    /// detail (its bar and white background, as one piece) fades out in the `chrome` phase over the
    /// picture screen's black, which lies opaque underneath from the start — so the screen never passes
    /// through a flat mid-grey with ghost text over it; the title and body fade out with it on the same
    /// curve, under the growing picture (the image view is the front-most view on a device; reversed, the
    /// shrinking picture uncovers them as they fade in).
    public static func detailToPicture(_ timings: [String: BlockTiming]) -> Choreography {
        var choreography = Choreography(
            phases: pictureBlockNames.map { Choreography.Phase($0, timing: timings[$0] ?? BlockTiming(duration: 0)) },
            matches: [.init(from: "detail image", to: "picture image", phase: "picture", style: .liveImage)],
            unmatched: [.init(.views(["detail title", "detail body"]), phase: "chrome", effects: [.fade])],
            onTop: ["detail image"])
        choreography.stageFade = .fromStageFadesOut(phase: "chrome")
        return choreography
    }

    /// The phase timings of timeline ↔ detail in `assets/vesper/durations.plist` under `assetsDirectory`,
    /// read as a render reads them: what tests derive their expectations from, so that a designer's
    /// edit of the plist changes only the goldens.
    public static func timings(assetsDirectory: String) throws -> [String: BlockTiming] {
        try BlockTimings.load(contentsOf: "\(assetsDirectory)/\(durationsAsset)", required: blockNames, alsoKnown: pictureBlockNames)
    }

    /// When the last of `timings` ends (seconds): the transition's end.
    public static func endTime(of timings: [String: BlockTiming]) -> Double {
        timings.values.map(\.end).max() ?? 0
    }

    /// Reads the durations plist, builds the two screens and plays the direction's choreography.
    public func render(_ settings: RenderSettings) throws -> RenderedTransition {
        let durationsFile = settings.durationsFile ?? "\(settings.assetsDirectory)/\(VesperTransition.durationsAsset)"
        let others = isPicture ? Self.blockNames : Self.pictureBlockNames
        let timings = try BlockTimings.load(contentsOf: durationsFile, required: phaseNames, alsoKnown: others, warn: settings.warn)
        // A PNGError names its file and reason itself.
        let scene = try VesperScene(assetsDirectory: settings.assetsDirectory, scale: settings.scale,
                                    preparing: isPicture ? [.detail] : [.timeline, .detail])
        var durations: [String: Double] = [:]
        for (name, t) in timings {
            durations["\(name).duration"] = t.duration
            durations["\(name).delay"] = t.delay
        }
        let assets = scene.images.sorted { $0.key < $1.key }.map { BitmapRecord(kind: .asset, name: scene.imageFiles[$0.key] ?? $0.key, bitmap: $0.value) }
        let inputs = [durationsFile] + scene.imageFiles.values.sorted().map { "\(settings.assetsDirectory)/\($0)" }
        let (from, to, choreography): (View, View, Choreography)
        switch direction {
        case .timelineToDetail: (from, to, choreography) = (try scene.makeTimeline(), try scene.makeDetail(), Self.timelineToDetail(timings))
        case .detailToTimeline: (from, to, choreography) = (try scene.makeTimeline(), try scene.makeDetail(), Self.timelineToDetail(timings).reversed())
        case .detailToPicture: (from, to, choreography) = (try scene.makeDetail(), try scene.makePicture(), Self.detailToPicture(timings))
        case .pictureToDetail: (from, to, choreography) = (try scene.makeDetail(), try scene.makePicture(), Self.detailToPicture(timings).reversed())
        }
        var rendered = try gesture.map {
            try renderInNavigation(choreography: choreography, from: from, to: to, settings: settings, durations: durations,
                                   assets: assets, gesture: $0)
        } ?? ChoreographyRenderer.render(name: name, choreography: choreography, from: from, to: to, settings: settings,
                                         durations: durations, assets: assets)
        rendered.sequence.fingerprint = fingerprint(ofFiles: inputs)
        // Dark content throughout: over the picture's black it disappears, as a photo viewer's is hidden.
        StatusBarOverlay.apply(to: &rendered, settings: settings, style: .darkContent)
        return rendered
    }

    /// The interactive pop: the detail on a navigation stack above the timeline (the controller's own bar
    /// hidden, as Vesper's screens draw theirs), popped by `gesture` with the choreography as the custom
    /// transition (``ChoreographyAnimator``).
    private func renderInNavigation(choreography: Choreography, from timeline: View, to detail: View, settings: RenderSettings,
                                    durations: [String: Double], assets: [BitmapRecord], gesture: EdgePanGesture) throws -> RenderedTransition {
        let delegate = AnimatorDelegate(ChoreographyAnimator(name: name, choreography: choreography, scale: settings.scale), for: .pop)
        return try TransitionDriver.render(name: name, settings: settings, durations: durations, assets: assets) { engine in
            let nav = NavigationController(rootViewController: ScreenController(screen: timeline, title: "Timeline"), engine: engine,
                                           size: VesperScene.pointSize)
            nav.isNavigationBarHidden = true
            nav.delegate = delegate
            let window = nav.view
            window.name = "window"
            nav.pushViewController(ScreenController(screen: detail, title: "Note"), animated: false)
            let context = try TransitionContext(container: window, fromView: nav.containerView, toView: nav.containerView,
                                                engine: engine, scale: settings.scale)
            context.inspectionState = {
                ["progress": nav.transitionProgress ?? (nav.viewControllers.count == 1 ? 1 : 0),
                 "interactive": nav.activeCoordinator?.isInteractive == true ? 1 : 0]
            }
            engine.perform(afterDelay: Self.swipeStartTime) {
                nav.popInteractively(following: gesture)
                _ = delegate
                if let error = nav.transitionError { context.recordError(error) }
            }
            return context
        }
    }
}
