import ArgumentParser
import Previews
import BoundedInput
import FrameStore
import Foundation
import PNGIO
import SmokescreenScenes
import TransitionCompositor

/// `smokescreen render [NAME]`: renders a built-in transition to PNG frames and a manifest.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a transition to out/<name>/frame_0000.png… with a manifest.json (the default command).")

    @OptionGroup var transitionOptions: TransitionOptions

    @Option(help: "The output folder (default: out/<name>). A folder holding files Smokescreen did not write is refused (exit 73).")
    var out: String?

    @Flag(help: "Render into a folder that also holds files Smokescreen did not write; those are never changed or removed.")
    var force = false

    @Option(parsing: .unconditional, help: "Pixels per point: 1, 2 or 3.")
    var scale = 2

    @Option(help: "PNG compression preset: \(PNGCompression.allPresets.map(\.name).joined(separator: ", ")).")
    var compression = "fast"

    @Option(parsing: .unconditional, help: "Threads rendering and encoding, 1…\(Limits.maxJobs) (default: the number of cores).")
    var jobs: Int?

    @Option(help: "Only frames A..B (inclusive; A.. to the end; A alone for one frame).")
    var frames: String?

    @Option(help: "Only shard K of N interleaved parts (K/N), to split a render over machines.")
    var shard: String?

    @Flag(help: "Also make the previews (contact sheet, animated PNG, GIF, MP4) of the render; see `smokescreen preview`.")
    var preview = false

    @OptionGroup(title: "Preview options (with --preview)") var previewOptions: PreviewOptions

    @Flag(help: "No progress bar and no summary line.")
    var quiet = false

    func validate() throws {
        try checkScale(scale)
        if let jobs, !(1...Limits.maxJobs).contains(jobs) { throw ValidationError("--jobs must be 1…\(Limits.maxJobs), got \(jobs)") }
        if let out, out.isEmpty { throw ValidationError("--out: the path is empty") }
        do { _ = try PNGCompression(named: compression) } catch { throw ValidationError("--compression: \(error)") }
        if let frames, FrameSelection.parseRange(frames) == nil {
            throw ValidationError("--frames must be A..B with 0 ≤ A ≤ B, A.., or a frame number A, got '\(frames)'")
        }
        if let shard, FrameSelection.parseShard(shard) == nil {
            throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N ≤ \(Limits.maxShards), got '\(shard)'")
        }
    }

    func run() throws {
        let transition = try reportingErrors { try transitionOptions.resolveTransition() }
        let settings = try transitionOptions.settings(scale: scale)
        let selection = FrameSelection(range: frames.flatMap(FrameSelection.parseRange), shard: shard.flatMap(FrameSelection.parseShard))
        let folder = out ?? "out/\(transition.name)"
        let writer = FrameWriter(directory: folder, compression: try PNGCompression(named: compression),
                                 jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, force: force, onWait: { printWarning($0) })
        let start = ContinuousClock.now
        let showProgress = !quiet && isatty(STDERR_FILENO) != 0
        try reportingErrors {
            let rendered = try transition.render(settings)
            guard (0..<rendered.sequence.count).contains(where: selection.contains) else {
                printError("--frames/--shard select none of the \(rendered.sequence.count) frames of \(transition.name)")
                throw ExitCode(ExitStatus.usage)
            }
            let report = try writer.write(rendered.sequence, selection: selection, progress: showProgress ? ProgressBar.update : nil)
            if showProgress { ProgressBar.finish() }
            let elapsed = start.duration(to: .now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            if !quiet {
                let reused = report.reusedEncodings > 0 ? " (\(report.reusedEncodings) repeated frames encoded once)" : ""
                print("\(transition.name): \(report.written.count) of \(rendered.sequence.count) frames\(reused), "
                      + "\(report.bytes) bytes, \(String(format: "%.2f", seconds)) s → \(folder)")
            }
            if preview { try previewOptions.write(PreviewFrames(rendered: rendered), quiet: quiet) }
        }
    }
}

/// A one-line progress bar on stderr, redrawn in place.
enum ProgressBar {
    @Sendable static func update(done: Int, total: Int) {
        let width = 30
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        FileHandle.standardError.write(Data("\r\(bar) \(done)/\(total) frames".utf8))
    }

    static func finish() { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
}
