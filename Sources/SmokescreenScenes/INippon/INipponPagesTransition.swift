import Choreography
import Containers
import Foundation
import Motion
import RasterCore
import SnapshotView
import TransitionCompositor
import Typesetting

/// The built-in transitions of seed 002: iNippon's ten pages in a page view controller, turned with the
/// page curl (or sliding), their pages kept in the seed's three-page window.
public struct INipponPagesTransition: Transition {
    /// Which demonstration.
    public enum Scene: String, Sendable, CaseIterable {
        /// A tap turns page 0 forward with the curl.
        case curl = "inippon-pages-curl"
        /// On page 3, a tap turns back: page 2 uncurls over it.
        case curlBack = "inippon-pages-curl-back"
        /// A drag that turns the page (the curl tilting with the finger) and one that lets it fall back.
        case curlInteractive = "inippon-pages-curl-interactive"
        /// Pages sliding side by side (`.scroll`): two taps forward.
        case scroll = "inippon-pages-scroll"
        /// Three flicks in quick succession: the second comes while the next page loads and is refused.
        case fastFlicks = "inippon-pages-fast-flicks"
        /// On page 0, a tap and a drag backwards: nothing happens.
        case firstPage = "inippon-pages-first-page"
    }

    /// The scene rendered.
    public let scene: Scene
    /// The built-in transition of `scene`.
    public init(_ scene: Scene) { self.scene = scene }

    /// The scene's name.
    public var name: String { scene.rawValue }
    /// 320x480 points: status and navigation bar, a 320x367 page, a tab bar.
    public var pointSize: Size { Size(width: 320, height: 480) }
    /// The page's size (points): 320x367, as the seed's backgrounds.
    public static let pageSize = Size(width: 320, height: 367)
    static let pageTop = 64.0

    /// One line for `smokescreen list`.
    public var summary: String {
        switch scene {
        case .curl: "iNippon's pages: a tap turns page 0 with the page curl"
        case .curlBack: "iNippon's pages: on page 3 a tap turns back, page 2 uncurling over it"
        case .curlInteractive: "iNippon's pages: a drag that turns the page with the curl following the finger, then one that falls back"
        case .scroll: "iNippon's pages with the scroll style: two taps forward, pages sliding side by side"
        case .fastFlicks: "iNippon's pages: three flicks in quick succession; the second comes while the next page loads and is refused"
        case .firstPage: "iNippon's pages: on page 0 a tap and a drag backwards do nothing"
        }
    }

    /// The render's fixed length (seconds): every turn and every load ends before it (loads take the
    /// measured decode time, so the renders must not end when they do).
    public var length: Double {
        switch scene {
        case .curl, .curlBack, .firstPage: 1.0
        case .curlInteractive: 2.4
        case .scroll: 1.4
        case .fastFlicks: 1.8
        }
    }

    /// What the scripts do when (seconds).
    enum Timeline {
        static let tap = 0.2
        static let secondTap = 0.8
        /// Interactive: a drag from 0.2 s over 0.45 s (released 0.65 s), then a short slow one from 1.4 s.
        static let finishingDrag = PageDrag(samples: [(0, 300, 300), (0.15, 250, 290), (0.3, 170, 270), (0.45, 90, 250)])
        static let cancellingDrag = PageDrag(samples: [(0, 300, 180), (0.2, 270, 185), (0.4, 240, 190), (0.6, 235, 190)])
        static let dragStarts: [Double] = [0.2, 1.4]
        /// Fast flicks: a quick drag at 0.2 s, one the moment the first turn ends, one 0.3 s later.
        static let flick = PageDrag(samples: [(0, 300, 200), (0.05, 260, 200), (0.1, 200, 200)])
        static let flickStarts: [Double] = [0.2]
        /// First page: a tap back at 0.2 s, a drag back at 0.5 s.
        static let backDrag = PageDrag(samples: [(0, 20, 200), (0.2, 120, 200), (0.3, 160, 200)])
    }

    /// What happened to each gesture of the script, in order (for tests): whether a turn started.
    package final class Record: @unchecked Sendable {
        package var accepted: [Bool] = []
        package var turns: [(from: Int, to: Int, completed: Bool)] = []
        package init() {}
    }

    public func render(_ settings: RenderSettings) throws -> RenderedTransition {
        try render(settings, record: nil)
    }

    package func render(_ settings: RenderSettings, record: Record?) throws -> RenderedTransition {
        var keep: [AnyObject] = []
        var inputs: [String] = []
        var assets: [BitmapRecord] = []
        var rendered = try TransitionDriver.render(name: name, settings: settings, defaultFPS: defaultFPS, durations: [:], assets: [],
                                                   endTime: length) { engine in
            let built = try build(engine: engine, settings: settings, record: record)
            keep = [built.store, built.pvc, built.observer]
            inputs = (0..<PageStore.count).map {
                "\(settings.assetsDirectory)/" + ImageAsset.variant(of: "inippon/pages/page\($0)", scale: settings.scale, in: settings.assetsDirectory).file
            }
            assets = built.store.loadedBackgrounds
            let context = try TransitionContext(container: built.window, fromView: built.pvc.view, toView: built.pvc.view, engine: engine, scale: settings.scale)
            built.store.onError = { [weak context] in context?.recordError($0) }
            return context
        }
        _ = keep
        rendered.bitmaps = assets + rendered.bitmaps
        rendered.sequence.fingerprint = fingerprint(ofFiles: inputs)
        // White content over the app's brown bar.
        StatusBarOverlay.apply(to: &rendered, settings: settings, style: .lightContent)
        return rendered
    }

    /// Tells the record of finished turns.
    final class TurnObserver: PageViewControllerDelegate {
        let store: PageStore
        let record: Record?
        init(store: PageStore, record: Record?) { self.store = store; self.record = record }
        func pageViewController(_ pvc: PageViewController, didFinishAnimating finished: Bool, previousViewControllers: [ViewController], transitionCompleted completed: Bool) {
            let from = (previousViewControllers.first as? INipponPageController)?.index ?? -1
            let to = (pvc.viewControllers.first as? INipponPageController)?.index ?? -1
            // `to`: the page shown after the turn (the same page when it fell back).
            record?.turns.append((from, to, completed))
            store.pageViewController(pvc, didFinishAnimating: finished, previousViewControllers: previousViewControllers, transitionCompleted: completed)
        }
    }

    struct Built {
        let window: View
        let pvc: PageViewController
        let store: PageStore
        let observer: TurnObserver
    }

    func build(engine: AnimationEngine, settings: RenderSettings, record: Record?) throws -> Built {
        let start = scene == .curlBack ? 3 : 0
        let store = try PageStore(strategy: .window, scale: settings.scale, assetsDirectory: settings.assetsDirectory, engine: engine, start: start)
        let pvc = PageViewController(transitionStyle: scene == .scroll ? .scroll : .pageCurl, engine: engine, size: Self.pageSize)
        pvc.snapshotScale = settings.scale
        let observer = TurnObserver(store: store, record: record)
        pvc.dataSource = store
        pvc.delegate = observer
        store.pageViewController = pvc
        pvc.setViewControllers([try loadedPage(store, start)], direction: .forward, animated: false)

        let window = View(frame: Rect(origin: .zero, size: pointSize), name: "window")
        window.backgroundColor = .white
        let bar = View(frame: Rect(x: 0, y: 0, width: pointSize.width, height: Self.pageTop), name: "navigationBar")
        bar.backgroundColor = HistoryMetrics.bar
        try bar.addSubview(Label(text: "Today  今日", style: TextStyle(font: .boldSystem(size: 17), color: HistoryMetrics.paper, alignment: .center),
                                 frame: Rect(x: 40, y: 20, width: pointSize.width - 80, height: 44), name: "title"))
        let tabBar = View(frame: Rect(x: 0, y: Self.pageTop + Self.pageSize.height, width: pointSize.width,
                                      height: pointSize.height - Self.pageTop - Self.pageSize.height), name: "tabBar")
        tabBar.backgroundColor = Color(red8: 0x1E, green8: 0x1A, blue8: 0x18)
        for (k, item) in ["Today 今日", "History 歴史", "Words 言葉"].enumerated() {
            try tabBar.addSubview(Label(text: item, style: TextStyle(font: .system(size: 11), color: k == 0 ? HistoryMetrics.paper : Color(white: 0.6), alignment: .center),
                                        frame: Rect(x: Double(k) * pointSize.width / 3, y: 0, width: pointSize.width / 3, height: 49), name: "tab\(k)"))
        }
        pvc.view.frame = Rect(x: 0, y: Self.pageTop, width: Self.pageSize.width, height: Self.pageSize.height)
        try window.addSubview(pvc.view)
        try window.addSubview(bar)
        try window.addSubview(tabBar)

        // The render runs to its length even when everything ended before it (a fixed length only cuts
        // what still runs): the frames do not depend on how long the last load took.
        engine.addDisplayLink(duration: length) { _ in }
        func at(_ time: Double, _ gesture: @escaping () -> Bool) {
            engine.perform(afterDelay: time) {
                let accepted = gesture()
                record?.accepted.append(accepted)
            }
        }
        let tl = Timeline.self
        switch scene {
        case .curl, .curlBack:
            at(tl.tap) { pvc.tap(scene == .curl ? .forward : .reverse) }
        case .scroll:
            at(tl.tap) { pvc.tap(.forward) }
            at(tl.secondTap) { pvc.tap(.forward) }
        case .curlInteractive:
            at(tl.dragStarts[0]) { pvc.drag(.forward, following: tl.finishingDrag) }
            at(tl.dragStarts[1]) { pvc.drag(.forward, following: tl.cancellingDrag) }
        case .fastFlicks:
            // The first flick; the second the moment its turn ends (its page is loading then); the third
            // 0.3 s later, when it has loaded.
            at(tl.flickStarts[0]) { pvc.drag(.forward, following: tl.flick) }
            let firstEnds = tl.flickStarts[0] + Self.flickDuration(width: Self.pageSize.width, pvc: pvc)
            at(firstEnds) { pvc.drag(.forward, following: tl.flick) }
            at(firstEnds + 0.3) { pvc.drag(.forward, following: tl.flick) }
        case .firstPage:
            at(tl.tap) { pvc.tap(.reverse) }
            at(0.5) { pvc.drag(.reverse, following: tl.backDrag) }
        }
        return Built(window: window, pvc: pvc, store: store, observer: observer)
    }

    /// How long a flick's turn lasts: the drag, then the rest of the curl at the flick's speed.
    static func flickDuration(width: Double, pvc: PageViewController) -> Double {
        let swipe = Timeline.flick.swipe(.forward)
        return swipe.duration + swipe.release(width: width).duration
    }
}

/// Page `index` of `store` (loaded).
private func loadedPage(_ store: PageStore, _ index: Int) throws -> INipponPageController {
    guard let page = store.loaded[index] else { throw RenderError.failed(what: "inippon-pages", reason: "page \(index) did not load") }
    return page
}

extension PageStore {
    /// The decoded backgrounds held now, for the memory report.
    var loadedBackgrounds: [BitmapRecord] {
        loaded.sorted { $0.key < $1.key }.map { BitmapRecord(kind: .asset, name: files[$0.key] ?? "page\($0.key)", bitmap: $0.value.background) }
    }
}
