import ArgumentParser
import Foundation
import PNGIO
import SmokescreenScenes
import TransitionCompositor

/// `smokescreen render [NAME]`: renders a built-in transition to PNG frames and a manifest.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a transition to out/<name>/frame_0000.png… with a manifest.json (the default command).")

    @OptionGroup var transitionOptions: TransitionOptions

    @Option(help: "The output folder (default: out/<name>).")
    var out: String?

    @Option(help: "Pixels per point: 1, 2 or 3.")
    var scale = 2

    @Option(help: "PNG compression preset: \(PNGCompression.allPresets.map(\.name).joined(separator: ", ")).")
    var compression = "fast"

    @Option(help: "Threads rendering and encoding (default: the number of cores).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Only frames A..B (inclusive; A.. to the end).")
    var frames: String?

    @Option(help: "Only shard K of N interleaved parts (K/N), to split a render over machines.")
    var shard: String?

    @Flag(help: "No progress bar and no summary line.")
    var quiet = false

    func validate() throws {
        try checkScale(scale)
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be 1…256, got \(jobs)") }
        do { _ = try PNGCompression(named: compression) } catch { throw ValidationError("--compression: \(error)") }
        if let frames, FrameSelection.parseRange(frames) == nil {
            throw ValidationError("--frames must be A..B with 0 ≤ A ≤ B (or A..), got '\(frames)'")
        }
        if let shard, FrameSelection.parseShard(shard) == nil {
            throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N ≤ 10000, got '\(shard)'")
        }
    }

    func run() throws {
        let transition = transitionOptions.transition
        let settings = try transitionOptions.settings(scale: scale)
        let selection = FrameSelection(range: frames.flatMap(FrameSelection.parseRange), shard: shard.flatMap(FrameSelection.parseShard))
        let folder = out ?? "out/\(transition.name)"
        let writer = FrameWriter(directory: folder, compression: try PNGCompression(named: compression), jobs: jobs)
        let start = ContinuousClock.now
        let showProgress = !quiet && isatty(STDERR_FILENO) != 0
        try reportingErrors {
            let rendered = try transition.render(settings)
            guard (0..<rendered.sequence.count).contains(where: selection.contains) else {
                printError("--frames/--shard select none of the \(rendered.sequence.count) frames of \(transition.name)")
                throw ExitCode(64)
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
