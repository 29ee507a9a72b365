import ArgumentParser
import FrameStore
import Foundation
import PNGIO
import RasterCore
import SmokescreenScenes
import SnapshotView
import TransitionCompositor

/// `smokescreen bench`: parses its options and prints `ReferenceBenchmark`'s measurements of the reference
/// scene (`shared/bench/SCENE.md`): the whole pipeline, drawing, a view tree, and encoding with every
/// preset. Build with `-c release`; debug builds are 20-50x slower.
package struct Bench: ParsableCommand {
    /// Every option at its default, as ArgumentParser makes the command before it parses.
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure rendering, drawing and PNG encoding of the reference scene (medians over several runs).")

    @Option(parsing: .unconditional, help: "Runs over all 30 frames; medians are taken over every frame of every run.")
    var runs = 5

    @Option(parsing: .unconditional, help: ArgumentHelp(stringLiteral: scaleHelp))
    package var scale = defaultScale

    @Option(help: "The assets folder (default: ./assets or the one beside the executable).")
    var assets: String?

    @Option(parsing: .unconditional, help: "Threads for the whole-pipeline runs (default: the number of cores).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "Measure drawing only (for profiling the painter).")
    var skipEncode = false

    @Flag(help: "Also encode with a grid of zlib levels, filters and strategies (to choose presets).")
    var sweep = false

    @Flag(help: "Measure the table view instead: a 10,000-row table with a batch of 100 updates against a 20-row table, 30 frames each.")
    var tables = false

    @Flag(help: "Measure text layout instead: microseconds per label for a corpus of Latin, Japanese, Arabic and Hebrew labels, new and repeated.")
    var text = false

    @Flag(help: "Measure the page curl instead: the 24 frames of a curl, straight and tilted, against a flat frame of the same size.")
    var pages = false

    @Flag(help: "Measure perspective instead: a full-screen page turned about its vertical axis (24 angles, m34 = -1/500) against the same page drawn flat; then about its horizontal axis and a tilted one.")
    var perspective = false

    @Flag(help: "Measure a layer shadow instead: a full-screen page under a still card with a shadow path, against the same frame without the shadow; then the same shadow made from the card's content (no path); then both with the card moving.")
    var shadow = false

    @Flag(help: "Measure a blurred bar instead: a full-screen page moving under a 64-pt bar with the system material, against the same frames with a plain translucent bar.")
    var backdrop = false

    @Flag(help: "Measure Auto Layout's solver instead: a screen of 500 constraints solved from scratch, and one constant changed and solved again.")
    var constraints = false

    @Flag(help: "Measure the summary instead: draw, encode, write, whole process (all cores, one, @3x) and peak memory of the reference scene, Vesper, a table update and the page curl.")
    var summary = false

    @Flag(help: "No progress lines on stderr, only the results.")
    var quiet = false

    @Flag(help: "With --summary: print JSON.")
    var json = false

    @Flag(help: "With --summary: print the performance table of docs/performance.md (Markdown).")
    var markdown = false

    /// Progress lines, unless --quiet.
    var say: @Sendable (String) -> Void {
        if quiet { return { _ in } }
        return { progress($0) }
    }

    package func validate() throws {
        guard !(json && markdown) else { throw ValidationError("--json and --markdown: choose one") }
        guard summary || !(json || markdown) else { throw ValidationError("--json and --markdown go with --summary") }
        guard !(summary && (tables || pages || text || constraints || perspective || shadow || backdrop)) else { throw ValidationError("--summary already measures a table update and the page curl: drop --tables, --pages, --text, --constraints, --perspective, --shadow and --backdrop") }
        guard (1...1000).contains(runs) else { throw ValidationError("--runs must be 1…1000, got \(runs)") }
        guard (1...3).contains(scale) else { throw ValidationError("--scale must be 1, 2 or 3, got \(scale)") }
    }

    package func run() throws {
        if summary {
            let folder: String
            do { folder = try AssetLocator.directory(given: assets) } catch {
                printError(error.description)
                throw ExitCode(error.exitStatus)
            }
            let bench = PipelineBenchmark(assetsDirectory: folder, runs: runs, scale: scale, jobs: jobs)
            let result = try reportingErrors { try bench.run(progress: say) }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(result), as: UTF8.self))
            } else {
                print(markdown ? result.markdownTable : result.text)
            }
            return
        }
        if pages {
            let folder: String
            do { folder = try AssetLocator.directory(given: assets) } catch {
                printError(error.description)
                throw ExitCode(error.exitStatus)
            }
            say("the page curl at @\(scale)x")
            let r = try reportingErrors { try CurlBenchmark(assetsDirectory: folder, runs: runs, scale: scale).run() }
            print(String(format: "page curl, %dx%d px (@%dx), %d frames, %d runs: straight %.3f ms/frame, tilted %.3f ms/frame median; flat frame %.3f ms",
                         r.width, r.height, scale, r.frames, runs, r.straightSeconds * 1e3, r.tiltedSeconds * 1e3, r.flatSeconds * 1e3))
            print(String(format: "curl / flat: straight %.2fx, tilted %.2fx", r.straightSeconds / r.flatSeconds, r.tiltedSeconds / r.flatSeconds))
        }
        if perspective {
            let folder: String
            do { folder = try AssetLocator.directory(given: assets) } catch {
                printError(error.description)
                throw ExitCode(error.exitStatus)
            }
            say("a full-screen perspective flip at @\(scale)x")
            let r = try reportingErrors { try PerspectiveBenchmark(assetsDirectory: folder, runs: runs, scale: scale).run() }
            print(String(format: "perspective flip, %dx%d px (@%dx), %d angles, %d runs: %.3f ms/frame turned, %.3f ms/frame flat (medians)",
                         r.width, r.height, scale, r.frames, runs, r.turnedSeconds * 1e3, r.flatSeconds * 1e3))
            print(String(format: "turned / flat: %.2fx (target: at most 3x)", r.turnedSeconds / r.flatSeconds))
            print(String(format: "about the horizontal axis: %.3f ms/frame, %.2fx; about a tilted axis (the general sampler): %.3f ms/frame, %.2fx",
                         r.horizontalSeconds * 1e3, r.horizontalSeconds / r.flatSeconds, r.tiltedSeconds * 1e3, r.tiltedSeconds / r.flatSeconds))
        }
        if shadow {
            let folder: String
            do { folder = try AssetLocator.directory(given: assets) } catch {
                printError(error.description)
                throw ExitCode(error.exitStatus)
            }
            say("a still card's shadow over a full-screen page at @\(scale)x")
            let r = try reportingErrors { try ShadowBenchmark(assetsDirectory: folder, runs: runs, scale: scale).run() }
            print(String(format: "shadow, %dx%d px (@%dx), %d frames, %d runs: %.3f ms/frame with the shadow, %.3f ms/frame without (medians)",
                         r.width, r.height, scale, r.frames, runs, r.shadowSeconds * 1e3, r.plainSeconds * 1e3))
            print(String(format: "with / without: %.2fx (target: at most 1.2x)", r.shadowSeconds / r.plainSeconds))
            print(String(format: "the same shadow from the card's content (no path): %.3f ms/frame with it, %.3f ms/frame without, %.2fx",
                         r.contentShadowSeconds * 1e3, r.contentPlainSeconds * 1e3, r.contentShadowSeconds / r.contentPlainSeconds))
            print(String(format: "the card moving 0.31 pt a frame: %.3f ms/frame with its path's shadow (%.2fx), %.3f with its content's (%.2fx), %.3f without",
                         r.movingShadowSeconds * 1e3, r.movingShadowSeconds / r.movingPlainSeconds, r.movingContentShadowSeconds * 1e3,
                         r.movingContentShadowSeconds / r.movingPlainSeconds, r.movingPlainSeconds * 1e3))
        }
        if backdrop {
            let folder: String
            do { folder = try AssetLocator.directory(given: assets) } catch {
                printError(error.description)
                throw ExitCode(error.exitStatus)
            }
            say("a blurred bar over a moving full-screen page at @\(scale)x")
            let r = try reportingErrors { try BackdropBenchmark(assetsDirectory: folder, runs: runs, scale: scale).run() }
            print(String(format: "blurred bar, %dx%d px (@%dx), %d frames, %d runs: %.3f ms/frame with the blur, %.3f ms/frame with a plain bar (medians)",
                         r.width, r.height, scale, r.frames, runs, r.blurredSeconds * 1e3, r.plainSeconds * 1e3))
            print(String(format: "blurred / plain: %.2fx (target: at most 2x)", r.blurredSeconds / r.plainSeconds))
        }
        if text {
            let r = try reportingErrors { try TextBenchmark(runs: runs, progress: say).run() }
            print(String(format: "text layout, %d labels at 17 pt, %d runs: %.1f µs per new label, %.1f µs per repeated label (medians over %d layouts)",
                         TextBenchmark.corpus.count, runs, r.firstMicroseconds, r.repeatedMicroseconds, r.layouts))
        }
        if constraints {
            let r = try reportingErrors { try ConstraintBenchmark(runs: runs).run() }
            print(String(format: "constraints: a screen of %d constraints solved from scratch in %.3f ms; one constant changed and solved again in %.2f µs (medians, %d runs; targets 2 ms and 20 µs)",
                         r.constraints, r.scratchSeconds * 1e3, r.changeSeconds * 1e6, runs))
        }
        if tables {
            let (small, large) = try reportingErrors { try TableBenchmark(runs: runs, scale: scale, progress: say).run() }
            for c in [small, large] {
                print(String(format: "table of %d rows, %d updates in one batch, %d frames frozen and drawn (@%dx): %.1f ms median (min %.1f), %d cells made",
                             c.rows, c.updates, c.frames, scale, c.medianSeconds * 1e3, c.minSeconds * 1e3, c.cellsCreated))
            }
            print(String(format: "10,000 rows / 20 rows: %.2fx (target: within 2x)", large.medianSeconds / small.medianSeconds))
        }
        // --pages and --tables run one after the other; either replaces the reference scene's run.
        if pages || tables || text || constraints || perspective || shadow || backdrop { return }
        let folder: String
        do { folder = try AssetLocator.directory(given: assets) } catch {
            printError(error.description)
            throw ExitCode(error.exitStatus)
        }
        let bench = try reportingErrors {
            try ReferenceBenchmark(assetsDirectory: folder, runs: runs, scale: scale, jobs: jobs, progress: say)
        }
        if !skipEncode {
            let p = try reportingErrors { try bench.pipeline() }
            print(String(format: "pipeline: %d frames rendered, encoded (%@) and written on %d threads: %.1f ms median (min %.1f), %d B, peak bitmap memory %d B",
                         p.frames, PNGCompression.fast.description as NSString, jobs, p.medianSeconds * 1e3, p.minSeconds * 1e3, p.bytes, p.peakBytes))
        }
        let d = try reportingErrors { try bench.drawing() }
        print("reference scene: \(d.width)x\(d.height) px (@\(scale)x), \(ReferenceScene.frameCount) frames, \(runs) runs")
        print(String(format: "draw: %.3f ms/frame median (min %.3f, max %.3f); %.1f ms per 30 frames median; peak bitmap memory while drawing %d B",
                     d.medianSeconds * 1e3, d.minSeconds * 1e3, d.maxSeconds * 1e3, d.medianRunSeconds * 1e3, d.peakBytes))
        let t = try reportingErrors { try bench.viewTree() }
        print(String(format: "view tree (%d views): freeze %.3f ms, draw %.3f ms per frame median", t.views, t.freezeSeconds * 1e3, t.drawSeconds * 1e3))
        if skipEncode { return }
        print("encode (per frame, median of \(runs) runs over \(ReferenceScene.frameCount) frames, one reused PNGEncoder per setting):")
        for e in try reportingErrors({ try bench.encodings(sweep: sweep) }) {
            print(String(format: "  %@ %7.2f ms/frame  %9d B for %d frames  (%.2fx libpng default)  %@",
                         e.name.padding(toLength: 15, withPad: " ", startingAt: 0) as NSString, e.medianSeconds * 1e3, e.bytes,
                         ReferenceScene.frameCount, e.relativeToLibpngDefaults, e.compression.description as NSString))
        }
    }
}

/// A line on stderr saying what the benchmark does now (the whole run takes tens of seconds), on a
/// terminal and in a pipe or CI log alike; stderr is unbuffered, so each line shows as it happens.
func progress(_ message: String) {
    FileHandle.standardError.write(Data("bench: \(message)…\n".utf8))
}
