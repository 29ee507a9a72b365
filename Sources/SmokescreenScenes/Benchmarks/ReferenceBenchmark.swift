import Foundation
import FrameStore
import PNGIO
import RasterCore
import SnapshotView
import TransitionCompositor

/// The measurements of `smokescreen bench` on the reference scene (`shared/bench/SCENE.md`): the whole
/// pipeline, drawing, a view tree, and PNG encoding with every preset. Times are wall-clock seconds,
/// medians over every frame of every run; measure release builds only.
public struct ReferenceBenchmark {
    /// Runs over all 30 frames. Default 5.
    public var runs: Int
    /// Pixels per point. Default 2.
    public var scale: Int
    /// Threads for the whole-pipeline runs. Default: the number of cores.
    public var jobs: Int
    /// The assets folder holding `reference/thumb_200.png`.
    public var assetsDirectory: String
    /// Told what the benchmark does now, before each long part. Default nil.
    public var progress: ((String) -> Void)?

    let scene: ReferenceScene

    /// Loads the scene's thumbnail from `assetsDirectory`.
    public init(assetsDirectory: String, runs: Int = 5, scale: Int = 2, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                progress: ((String) -> Void)? = nil) throws {
        self.assetsDirectory = assetsDirectory
        self.runs = runs
        self.scale = scale
        self.jobs = jobs
        self.progress = progress
        scene = try ReferenceScene(assetsDirectory: assetsDirectory)
    }

    /// The whole render, as `smokescreen render reference` does it.
    public struct Pipeline: Sendable {
        /// Frames rendered, encoded with the `fast` preset and written per run.
        public var frames: Int
        /// Seconds per run: median and fastest.
        public var medianSeconds: Double, minSeconds: Double
        /// Bytes of PNG written per run.
        public var bytes: Int
        /// The most bitmap bytes alive at once.
        public var peakBytes: Int
    }

    /// Drawing every frame into one reused bitmap.
    public struct Drawing: Sendable {
        /// The frame's size in pixels.
        public var width: Int, height: Int
        /// Seconds per frame: median, fastest, slowest.
        public var medianSeconds: Double, minSeconds: Double, maxSeconds: Double
        /// Seconds per run of all frames, median.
        public var medianRunSeconds: Double
        /// The most bitmap bytes alive at once while drawing (beyond what existed before).
        public var peakBytes: Int
    }

    /// ``BenchmarkTree``: freezing it through the presentation seam and drawing it.
    public struct ViewTree: Sendable {
        /// Views in the tree.
        public var views: Int
        /// Seconds per frame, medians.
        public var freezeSeconds: Double, drawSeconds: Double
    }

    /// Encoding the frames of one run with one setting, through one reused encoder.
    public struct Encoding: Sendable {
        /// The preset's name, `libpng-default`, or `sweep`.
        public var name: String
        /// The zlib level, filters and strategy.
        public var compression: PNGCompression
        /// Seconds per frame, median.
        public var medianSeconds: Double
        /// Bytes for all the frames.
        public var bytes: Int
        /// ``bytes`` over the bytes with libpng's own defaults.
        public var relativeToLibpngDefaults: Double
    }

    /// Renders, encodes and writes every frame `runs` times into a temporary folder.
    public func pipeline() throws -> Pipeline {
        progress?("whole pipeline: \(runs) runs")
        let transition = ReferenceTransition()
        let settings = RenderSettings(scale: Double(scale), assetsDirectory: assetsDirectory)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smokescreen-bench-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = FrameWriter(directory: folder, compression: .fast, jobs: jobs)
        var totals: [Double] = [], bytes = 0, peak = 0, frames = 0
        for _ in 0..<runs {
            var report: WriteReport?
            let (_, usage) = try MemoryLedger.measure("bench pipeline") {
                totals.append(try Self.seconds { report = try writer.write(try transition.render(settings).sequence) })
            }
            bytes = report?.bytes ?? 0
            frames = report?.written.count ?? 0
            peak = max(peak, usage.peakBytes)
        }
        return Pipeline(frames: frames, medianSeconds: Self.median(totals), minSeconds: totals.min() ?? 0, bytes: bytes, peakBytes: peak)
    }

    /// Draws every frame of every run into one reused bitmap.
    public func drawing() throws -> Drawing {
        progress?("drawing: \(runs) runs of \(ReferenceScene.frameCount) frames")
        var canvas = try Bitmap(pointSize: ReferenceScene.pointSize, scale: Double(scale))
        canvas.draw { scene.draw(frame: 0, with: $0) }  // warm up caches and lazy statics
        var times: [Double] = [], runTotals: [Double] = []
        let (_, memory) = MemoryLedger.measure {
            for _ in 0..<runs {
                var total = 0.0
                for i in 0..<ReferenceScene.frameCount {
                    let t = Self.seconds { canvas.draw { scene.draw(frame: i, with: $0) } }
                    times.append(t)
                    total += t
                }
                runTotals.append(total)
            }
        }
        return Drawing(width: canvas.width, height: canvas.height, medianSeconds: Self.median(times), minSeconds: times.min() ?? 0,
                       maxSeconds: times.max() ?? 0, medianRunSeconds: Self.median(runTotals), peakBytes: memory.peakBytes)
    }

    /// Freezes and draws ``BenchmarkTree`` as many times as there are frames in all runs.
    public func viewTree() throws -> ViewTree {
        progress?("the benchmark view tree")
        let tree = try BenchmarkTree.make(thumbnail: scene.thumbnail)
        var canvas = try Bitmap(pointSize: BenchmarkTree.pointSize, scale: Double(scale))
        var freezeTimes: [Double] = [], drawTimes: [Double] = []
        for _ in 0..<(runs * ReferenceScene.frameCount) {
            var node: RenderNode?
            freezeTimes.append(Self.seconds { node = tree.renderNode() })
            if let node { drawTimes.append(Self.seconds { ViewRenderer.draw(node, into: &canvas) }) }
        }
        return ViewTree(views: tree.subtree.count, freezeSeconds: Self.median(freezeTimes), drawSeconds: Self.median(drawTimes))
    }

    /// Encodes the frames of one run with libpng's defaults, every preset and, with `sweep`, a grid of
    /// zlib levels, filters and strategies (how the presets were chosen).
    public func encodings(sweep: Bool) throws -> [Encoding] {
        let frames = try (0..<ReferenceScene.frameCount).map { try scene.render(frame: $0, scale: Double(scale)) }
        let baseline = (name: "libpng-default", compression: PNGCompression())  // zlib 6, all filters: libpng's defaults
        var candidates = [baseline] + PNGCompression.allPresets
        if sweep {
            for level in [1, 2, 3, 4, 6, 9] {
                for filter in [PNGFilters.none, .sub, .up, .paeth, .all] {
                    for strategy in [PNGZlibStrategy.default, .filtered, .rle] {
                        let c = PNGCompression(zlibLevel: level, filters: filter, strategy: strategy)
                        if !candidates.contains(where: { $0.compression == c }) { candidates.append(("sweep", c)) }
                    }
                }
            }
        }
        progress?("encoding with \(candidates.count) settings")
        var results: [Encoding] = []
        var baselineBytes = 1
        for (name, compression) in candidates {
            // One encoder per setting, reused for every frame, as the pipeline uses one per thread.
            let encoder = PNGEncoder(compression: compression)
            var times: [Double] = [], bytes = 0
            for run in 0..<runs {
                for frame in frames {
                    var size = 0
                    times.append(try Self.seconds { size = try encoder.encode(frame).count })
                    if run == 0 { bytes += size }
                }
            }
            if name == baseline.name { baselineBytes = max(1, bytes) }
            results.append(Encoding(name: name, compression: compression, medianSeconds: Self.median(times), bytes: bytes,
                                    relativeToLibpngDefaults: Double(bytes) / Double(baselineBytes)))
        }
        return results
    }

    /// Wall time of `body` in seconds.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// The median of `values`; NaN when empty.
    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
