import Containers
import Foundation
import Motion
import PNGIO
import RasterCore
import SnapshotView
import TransitionCompositor

/// What seed 002's pages cost, as numbers: per scale and per way of keeping pages, the decoded bytes of
/// one background, the peak bitmap bytes while turning through all ten pages, and the time to load one
/// page (`smokescreen memory inippon-pages`).
public struct PagesMemoryReport: Codable, Sendable {
    /// The name `smokescreen memory` takes for this report.
    public static let name = "inippon-pages"

    /// One way of keeping pages, at one scale.
    public struct Strategy: Codable, Sendable {
        /// `all-loaded`, `three-page-window` or `on-demand`.
        public var name: String
        /// The most pages (decoded backgrounds) held at once while turning through all ten.
        public var pagesHeldAtPeak: Int
        /// Peak bitmap bytes while turning through all ten pages (curl frames drawn): backgrounds,
        /// the curl's snapshot, frame buffers and what drawing allocates on the way.
        public var peakBytes: Int
        /// Pages loaded before the first is shown.
        public var loadsAtLaunch: Int
        /// Loads that happen when a turn asks for its page, so the turn waits for them.
        public var loadsDuringTurns: Int
        /// Loads that happen after a turn, while turning is off.
        public var loadsAfterTurns: Int
    }

    /// One scale.
    public struct Scale: Codable, Sendable {
        /// 1, 2 or 3.
        public var scale: Int
        /// A background's size in pixels.
        public var width: Int, height: Int
        /// Decoded bytes of one background: width × height × 4.
        public var backgroundBytes: Int
        /// The median time to load one page: decode its background and draw it once (milliseconds).
        public var loadMilliseconds: Double
        /// The same as 60 fps frame budgets (16.7 ms each).
        public var frameBudgets: Double
        /// How many loads the median is of.
        public var loadsMeasured: Int
        /// The three strategies.
        public var strategies: [Strategy]
    }

    /// Pages in the book.
    public var pages: Int
    /// The unit of each figure, by key.
    public var units: [String: String] = [
        "backgroundBytes": "bytes", "peakBytes": "bytes", "loadMilliseconds": "milliseconds",
        "frameBudgets": "frames of 1/60 s", "width": "pixels", "height": "pixels",
    ]
    /// @1x, @2x, @3x.
    public var scales: [Scale]

    /// Measures every scale in `scales` with the backgrounds under `assetsDirectory`; each load time is
    /// the median of `loads` loads (at least 1); the turns are drawn at `fps` frames per second (default
    /// 20: each frame allocates and frees the same, so more frames take longer and change nothing).
    public static func measure(assetsDirectory: String, scales: [Int] = [1, 2, 3], loads: Int = 7, fps: Double = 20) throws -> PagesMemoryReport {
        var result: [Scale] = []
        for scale in scales {
            let s = Double(scale)
            let probe = try PageStore(strategy: .onDemand, scale: s, assetsDirectory: assetsDirectory, engine: nil)
            let background = try probe.loaded[0].map { $0.background } ?? { throw RenderError.failed(what: name, reason: "page 0 did not load") }()
            // Fresh loads of different pages (each decodes and draws for real; nothing is cached).
            var times: [Double] = []
            for k in 0..<max(1, loads) {
                let store = try PageStore(strategy: .onDemand, scale: s, assetsDirectory: assetsDirectory, engine: nil, start: k % PageStore.count)
                times += store.loadTimes
            }
            times.sort()
            let median = times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
            let strategies = try PageLoading.allCases.map { try turnThrough(strategy: $0, scale: s, assetsDirectory: assetsDirectory, fps: fps) }
            result.append(Scale(scale: scale, width: background.width, height: background.height,
                                backgroundBytes: background.width * background.height * 4, loadMilliseconds: median * 1000,
                                frameBudgets: median * 60, loadsMeasured: times.count, strategies: strategies))
        }
        return PagesMemoryReport(pages: PageStore.count, scales: result)
    }

    /// Turns from page 0 to the last with the curl, drawing the page area at every frame, with bitmaps
    /// counted from the launch.
    static func turnThrough(strategy: PageLoading, scale: Double, assetsDirectory: String, fps: Double) throws -> Strategy {
        var held = 0, launch = 0, during = 0, after = 0
        let (_, usage) = try MemoryLedger.measure("pages \(strategy.rawValue)") { () throws -> Void in
            let engine = AnimationEngine(fps: fps)
            let store = try PageStore(strategy: strategy, scale: scale, assetsDirectory: assetsDirectory, engine: engine)
            store.disablesTurningWhileLoading = false
            launch = store.loadTimes.count
            let pvc = PageViewController(transitionStyle: .pageCurl, engine: engine, size: INipponPagesTransition.pageSize)
            pvc.snapshotScale = scale
            pvc.dataSource = store
            pvc.delegate = store
            store.pageViewController = pvc
            guard let first = store.loaded[0] else { return }
            pvc.setViewControllers([first], direction: .forward, animated: false)
            held = store.loaded.count
            var frame = 0
            for _ in 1..<PageStore.count {
                let before = store.loadTimes.count
                guard pvc.tap(.forward) else { break }
                during += store.loadTimes.count - before
                held = max(held, store.loaded.count)
                let afterStart = store.loadTimes.count
                while pvc.isTurning {
                    frame += 1
                    engine.advance(to: Double(frame) / fps)
                    // A frame of the screen, as the writer draws it.
                    _ = try ViewRenderer.render(pvc.view, scale: scale, presentation: engine)
                    held = max(held, store.loaded.count)
                }
                after += store.loadTimes.count - afterStart
                held = max(held, store.loaded.count)
            }
        }
        return Strategy(name: strategy.rawValue, pagesHeldAtPeak: held, peakBytes: usage.peakBytes, loadsAtLaunch: launch,
                        loadsDuringTurns: during, loadsAfterTurns: after)
    }
}
