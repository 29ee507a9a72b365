import ArgumentParser
import FrameStore
import Foundation
import PNGIO
import RasterCore
import SmokescreenScenes
import SnapshotView
import TransitionCompositor

/// `smokescreen bench`: renders the reference scene (`shared/bench/SCENE.md`) through the whole pipeline
/// (draw, encode, write, on all cores), then draws it and encodes its frames with every compression
/// preset on their own, printing medians. Build with `-c release`; debug builds are 20-50x slower.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure rendering, drawing and PNG encoding of the reference scene (medians over several runs).")

    @Option(parsing: .unconditional, help: "Runs over all 30 frames; medians are taken over every frame of every run.")
    var runs = 5

    @Option(parsing: .unconditional, help: "Pixels per point: 1, 2 or 3.")
    var scale = 2

    @Option(help: "The assets folder (default: ./assets or the one beside the executable).")
    var assets: String?

    @Option(parsing: .unconditional, help: "Threads for the whole-pipeline runs (default: the number of cores).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "Measure drawing only (for profiling the painter).")
    var skipEncode = false

    @Flag(help: "Also encode with a grid of zlib levels, filters and strategies (to choose presets).")
    var sweep = false

    func validate() throws {
        guard (1...1000).contains(runs) else { throw ValidationError("--runs must be 1…1000, got \(runs)") }
        guard (1...3).contains(scale) else { throw ValidationError("--scale must be 1, 2 or 3, got \(scale)") }
    }

    func run() throws {
        let folder: String
        do { folder = try AssetLocator.directory(given: assets) } catch {
            printError(error.description)
            throw ExitCode(error.exitStatus)
        }
        let scene: ReferenceScene
        do { scene = try ReferenceScene(assetsDirectory: folder) } catch {
            FileHandle.standardError.write(Data("smokescreen: \(error)\n".utf8))
            throw ExitCode(65)
        }
        let frameCount = ReferenceScene.frameCount

        if !skipEncode {
            progress("whole pipeline: \(runs) runs")
            try benchPipeline(assets: folder)
        }
        progress("drawing: \(runs) runs of \(frameCount) frames")
        var canvas = try Bitmap(pointSize: ReferenceScene.pointSize, scale: Double(scale))
        print("reference scene: \(canvas.width)x\(canvas.height) px (@\(scale)x), \(frameCount) frames, \(runs) runs")

        // Drawing: every frame of every run, into one reused bitmap.
        canvas.draw { scene.draw(frame: 0, with: $0) }  // warm up caches and lazy statics
        var drawTimes: [Double] = [], runTotals: [Double] = []
        let (_, drawMemory) = MemoryLedger.measure {
            for _ in 0..<runs {
                var total = 0.0
                for i in 0..<frameCount {
                    let t = seconds { canvas.draw { scene.draw(frame: i, with: $0) } }
                    drawTimes.append(t); total += t
                }
                runTotals.append(total)
            }
        }
        print(String(format: "draw: %.3f ms/frame median (min %.3f, max %.3f); %.1f ms per 30 frames median; peak bitmap memory while drawing %d B",
                     median(drawTimes) * 1e3, drawTimes.min()! * 1e3, drawTimes.max()! * 1e3, median(runTotals) * 1e3, drawMemory.peakBytes))

        // A view tree of about 60 views: freezing it (reading every value through the presentation
        // seam) and drawing it.
        progress("the benchmark view tree")
        let tree = try BenchmarkTree.make(thumbnail: scene.thumbnail)
        var treeCanvas = try Bitmap(pointSize: BenchmarkTree.pointSize, scale: Double(scale))
        var freezeTimes: [Double] = [], treeTimes: [Double] = []
        for _ in 0..<(runs * frameCount) {
            var node: RenderNode?
            freezeTimes.append(seconds { node = tree.renderNode() })
            treeTimes.append(seconds { ViewRenderer.draw(node!, into: &treeCanvas) })
        }
        print(String(format: "view tree (%d views): freeze %.3f ms, draw %.3f ms per frame median",
                     tree.subtree.count, median(freezeTimes) * 1e3, median(treeTimes) * 1e3))

        if skipEncode { return }

        // Encoding: the frames of one run, with each preset and with libpng's own defaults for reference.
        let frames = try (0..<frameCount).map { try scene.render(frame: $0, scale: Double(scale)) }
        let baseline = (name: "libpng-default", compression: PNGCompression())  // zlib 6, all filters: libpng's defaults
        var baselineBytes = 0
        print("encode (per frame, median of \(runs) runs over \(frameCount) frames, one reused PNGEncoder per setting):")
        var candidates = [baseline] + PNGCompression.allPresets
        if sweep {
            let filters: [PNGFilters] = [.none, .sub, .up, .paeth, .all]
            for level in [1, 2, 3, 4, 6, 9] {
                for filter in filters {
                    for strategy in [PNGZlibStrategy.default, .filtered, .rle] {
                        let c = PNGCompression(zlibLevel: level, filters: filter, strategy: strategy)
                        if !candidates.contains(where: { $0.compression == c }) { candidates.append(("sweep", c)) }
                    }
                }
            }
        }
        progress("encoding with \(candidates.count) settings")
        for (name, compression) in candidates {
            // One encoder per setting, reused for every frame, as the pipeline uses one per thread.
            let encoder = PNGEncoder(compression: compression)
            var times: [Double] = [], bytes = 0
            for run in 0..<runs {
                for frame in frames {
                    var size = 0
                    times.append(try seconds { size = try encoder.encode(frame).count })
                    if run == 0 { bytes += size }
                }
            }
            if name == baseline.name { baselineBytes = bytes }
            print(String(format: "  %@ %7.2f ms/frame  %9d B for %d frames  (%.2fx libpng default)  %@",
                         name.padding(toLength: 15, withPad: " ", startingAt: 0) as NSString, median(times) * 1e3, bytes, frameCount, Double(bytes) / Double(baselineBytes),
                         compression.description as NSString))
        }
    }
}

extension Bench {
    /// The whole render as `smokescreen render reference` does it: build the frames, then draw, encode
    /// and write them on `jobs` threads into a temporary folder, with the default preset.
    func benchPipeline(assets: String) throws {
        let transition = ReferenceTransition()
        let settings = RenderSettings(scale: Double(scale), assetsDirectory: assets)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smokescreen-bench-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = FrameWriter(directory: folder, compression: .fast, jobs: jobs)
        var totals: [Double] = [], bytes = 0, peak = 0, frames = 0
        for _ in 0..<runs {
            var report: WriteReport?
            let (_, usage) = try MemoryLedger.measure("bench pipeline") {
                totals.append(try seconds { report = try writer.write(try transition.render(settings).sequence) })
            }
            bytes = report!.bytes
            frames = report!.written.count
            peak = max(peak, usage.peakBytes)
        }
        print(String(format: "pipeline: %d frames rendered, encoded (%@) and written on %d threads: %.1f ms median (min %.1f), %d B, peak bitmap memory %d B",
                     frames, PNGCompression.fast.description as NSString, jobs, median(totals) * 1e3, totals.min()! * 1e3, bytes, peak))
    }
}

/// A line on stderr saying what the benchmark does now, when stderr is a terminal (the whole run takes
/// tens of seconds).
func progress(_ message: String) {
    guard isatty(STDERR_FILENO) != 0 else { return }
    FileHandle.standardError.write(Data("bench: \(message)…\n".utf8))
}

/// Wall time of `body` in seconds.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
