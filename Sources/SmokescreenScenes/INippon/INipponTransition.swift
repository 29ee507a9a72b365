import Containers
import Foundation
import Motion
import RasterCore
import SnapshotView
import TransitionCompositor

/// The built-in transitions of seed 000: iNippon's History page, the way the app built it (scrolls that
/// unroll a table of events) and the sectioned table it was built to avoid.
public struct INipponTransition: Transition {
    /// Which demonstration.
    public enum Scene: String, Sendable, CaseIterable {
        /// A tap on a closed scroll unrolls it.
        case open = "inippon-history-open"
        /// A tap on the open scroll rolls it back up.
        case close = "inippon-history-close"
        /// One scroll open, a tap on another partly off screen: close, open, and the outer offset that
        /// brings it to the top.
        case switchScroll = "inippon-history-switch"
        /// Events switched between English and Japanese, one after another and overlapping.
        case language = "inippon-history-language"
        /// The sectioned-table version: rows made tall, scroll to the next header, tap it.
        case sectioned = "inippon-history-sectioned"
    }

    /// The scene rendered.
    public let scene: Scene
    /// The built-in transition of `scene`.
    public init(_ scene: Scene) { self.scene = scene }

    /// The scene's name, as `list` shows it.
    public var name: String { scene.rawValue }
    /// 320x480 points, an iPhone 4 screen.
    public var pointSize: Size { HistoryMetrics.screen }

    /// One line for `smokescreen list`.
    public var summary: String {
        switch scene {
        case .open: "iNippon's History: a tap unrolls the Asuka scroll, the scrolls below move down on the same timing"
        case .close: "iNippon's History: a tap on the open Asuka scroll rolls it back up"
        case .switchScroll: "iNippon's History: Heian open, a tap on Kamakura (partly off screen) closes Heian, then opens Kamakura at the top"
        case .language: "iNippon's History: Meiji events switched between English and Japanese, rows and scrolls below following"
        case .sectioned: "the History page as a sectioned table (the flicker the app avoided): tall rows, scroll to the next header, tap it"
        }
    }

    /// Where the scripted steps happen (seconds from the start), for tests and docs/pages.md.
    package enum Timeline {
        package static let firstTap = 0.2
        /// Language: the three toggles (the last one overlapping the third).
        static let toggles: [(time: Double, row: Int)] = [(0.2, 0), (0.7, 1), (1.2, 2), (1.35, 1)]
        /// Sectioned: the three pinches, the scroll down, the tap.
        static let pinches: [Double] = [0.2, 0.6, 1.0]
        package static let scrollDown = 1.5
        package static let tapHeader = 2.1
        /// Sectioned: the pinched rows' height (points).
        package static let pinchedHeight = 180.0
    }

    /// Open scroll and starting offset of the switch scene: Heian open, Kamakura's top 24 pt above the
    /// bottom of the screen.
    package static let switchOpen = 5, switchTapped = 6
    /// The language scene's period (Meiji, with the long event).
    package static let languagePeriod = 10
    /// The open and close scenes' period (Asuka).
    package static let openPeriod = 3

    /// Runs the scene's script on a virtual clock and freezes every frame.
    public func render(_ settings: RenderSettings) throws -> RenderedTransition {
        var keep: AnyObject?
        var rendered = try TransitionDriver.render(name: name, settings: settings, defaultFPS: defaultFPS, durations: [:], assets: []) { engine in
            let built = try build(engine: engine)
            keep = built.object
            let context = try TransitionContext(container: built.window, fromView: built.subject, toView: built.subject, engine: engine, scale: settings.scale)
            built.onError { [weak context] in context?.recordError($0) }
            for (time, step) in built.steps {
                engine.perform(afterDelay: time) { [weak context] in
                    do { try step() } catch { context?.recordError(error) }
                }
            }
            return context
        }
        rendered.sequence.fingerprint = fingerprint(ofFiles: [])
        // White content over the app's brown bar.
        StatusBarOverlay.apply(to: &rendered, settings: settings, style: .lightContent)
        _ = keep
        return rendered
    }

    /// The scene's screen in its starting state and its steps (seconds from the start).
    struct Built {
        let window: View
        /// The view the scene is about (the outer scroll view, or the table).
        let subject: View
        /// What keeps the scene's objects alive while it renders.
        let object: AnyObject
        let steps: [(Double, () throws -> Void)]
        /// Where errors from completions go.
        let onError: (@escaping (any Error) -> Void) -> Void
    }

    /// Builds the scene's screen in its starting state, with its steps.
    func build(engine: AnimationEngine) throws -> Built {
        var steps: [(Double, () throws -> Void)] = []
        func step(_ time: Double, _ body: @escaping () throws -> Void) { steps.append((time, body)) }
        switch scene {
        case .sectioned:
            let history = try SectionedHistory(engine: engine)
            for (k, time) in Timeline.pinches.enumerated() {
                step(time) { try history.setRowHeight(Timeline.pinchedHeight, forRowAt: IndexPath(row: k, section: 0)) }
            }
            step(Timeline.scrollDown) { history.table.setContentOffset(Point(x: 0, y: history.table.rectForHeader(inSection: 1).minY), animated: true) }
            step(Timeline.tapHeader) { try history.tapHeader(1) }
            return Built(window: history.window, subject: history.table, object: history, steps: steps) { history.onError = $0 }
        default:
            let page = try HistoryPage(engine: engine)
            switch scene {
            case .open:
                step(Timeline.firstTap) { try page.tapScroll(Self.openPeriod) }
            case .close:
                try page.open(Self.openPeriod, scrollToTop: false, duration: 0)
                step(Timeline.firstTap) { try page.tapScroll(Self.openPeriod) }
            case .switchScroll:
                try page.open(Self.switchOpen, scrollToTop: false, duration: 0)
                let tapped = page.scrolls[Self.switchTapped].frame.minY
                page.scrollView.contentOffset.y = tapped + 24 - HistoryMetrics.viewportHeight
                step(Timeline.firstTap) { try page.tapScroll(Self.switchTapped) }
            case .language:
                try page.open(Self.languagePeriod, scrollToTop: true, duration: 0)
                for (time, row) in Timeline.toggles { step(time) { page.tapEvent(row) } }
            case .sectioned:
                break
            }
            return Built(window: page.window, subject: page.scrollView, object: page, steps: steps) { page.onError = $0 }
        }
    }
}
