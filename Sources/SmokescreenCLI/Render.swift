import ArgumentParser
import Previews
import BoundedInput
import FrameStore
import Foundation
import PNGIO
import SmokescreenScenes
import TransitionCompositor

/// `smokescreen render [NAME]`: renders a built-in transition to PNG frames and a manifest.
package struct Render: ParsableCommand {
    /// Every option at its default, as ArgumentParser makes the command before it parses.
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a transition to out/<name>/frame_0000.png… with a manifest.json (the default command).")

    @OptionGroup package var transitionOptions: TransitionOptions

    @Argument(help: ArgumentHelp("More Swift files, when NAME is a Swift file: UIKit code for iOS, one of them defining func run(on stage: Stage) (see docs/uikit.md).", valueName: "more-swift-files"))
    var moreSwiftFiles: [String] = []

    @Option(help: "With Swift files: the device the stage draws (\(StageDevices.names.joined(separator: ", "))).")
    var device = "iPhone15"

    @Option(help: "With Swift files: portrait or landscape (the device turned on its side, its home indicator to the right: iOS's landscape insets, a phone's status bar hidden and its bars compact; default portrait).")
    var orientation: String?

    @Option(name: .customLong("time-limit"), parsing: .unconditional, help: "With Swift files: virtual seconds after run(on:) returns for what it started to end (default 60).")
    var timeLimit = 60.0

    @Option(parsing: .unconditional, help: "With Swift files: wall-clock seconds the compiled script may run before it is stopped (default 600).")
    var timeout = 600.0

    @Option(name: .customLong("package"), help: "With Swift files: Smokescreen's package to compile them against (default: $SMOKESCREEN_PACKAGE, or the package this tool was built in).")
    var packagePath: String?

    @Option(help: "The output folder (default: out/<name>). A folder holding files Smokescreen did not write is refused (exit 73).")
    package var out: String?

    @Flag(help: "Render into a folder that also holds files Smokescreen did not write; those are never changed or removed.")
    var force = false

    @Option(parsing: .unconditional, help: ArgumentHelp(stringLiteral: scaleHelp))
    package var scale = defaultScale

    @Option(help: "PNG compression preset: \(PNGCompression.allPresets.map(\.name).joined(separator: ", ")).")
    package var compression = "fast"

    @Option(parsing: .unconditional, help: "Threads rendering and encoding, 1…\(Limits.maxJobs) (default: the number of cores).")
    var jobs: Int?

    @Option(help: "Only frames A..B, counted from 0 as the files are (frame_0000.png is 0; inclusive; A.. to the end; A alone for one frame).")
    var frames: String?

    @Option(help: "Only part K of N (K/N, counted from 1: 1/4 … 4/4), to split a render over machines: interleaved frames of one transition, or with --all whole transitions balanced by cost. 'auto' reads the part from Kubernetes, Slurm or GitLab CI (see docs/scale-out.md).")
    var shard: String?

    @Option(name: .customLong("shard-count"), parsing: .unconditional, help: "With --shard auto under a Kubernetes Indexed Job: the number of parts (the job's completions).")
    var shardCount: Int?

    @Flag(help: "Render every built-in (and every scene file of --scenes) into <out>/<name>/, with catalogue.json; the others still finish when one fails (exit 1).")
    var all = false

    @Option(help: "With --all: only transitions whose name matches this glob (fnmatch: *, ?, [...]).")
    var match: String?

    @Option(help: "With --all: also every transition of each scene file (.json) in this folder.")
    var scenes: String?

    @Flag(name: .customLong("dry-run"), help: "With --all: print the catalogue's split into parts (frames, cost, part of each transition) as JSON, and render nothing.")
    var dryRun = false

    @Flag(help: "Also make the previews (contact sheet, animated PNG, GIF, MP4) of the render; see `smokescreen preview`.")
    var preview = false

    @OptionGroup(title: "Preview options (with --preview)") var previewOptions: PreviewOptions

    @Flag(help: "No progress bar and no summary line.")
    var quiet = false

    @Flag(help: "Print one JSON object (name, folder, frames written, frame count, bytes, seconds) instead of the summary line; no progress bar.")
    var json = false

    package func validate() throws {
        try checkScale(scale)
        if !moreSwiftFiles.isEmpty, !transitionOptions.isSwiftFile {
            throw ValidationError("more than one NAME: only Swift files are given several at a time (got '\(transitionOptions.name)' first)")
        }
        if orientation != nil, !transitionOptions.isSwiftFile {
            throw ValidationError("--orientation is for Swift files (a built-in or a scene file draws the screen it was made for)")
        }
        if transitionOptions.isSwiftFile {
            if all || frames != nil || shard != nil || transitionOptions.durations != nil || transitionOptions.transition != nil || transitionOptions.hold != 0 {
                throw ValidationError("Swift files render as a whole: --all, --frames, --shard, --durations, --transition and --hold do not go with them")
            }
            guard StageDevices.names.contains(device) else {
                throw ValidationError("--device: no device '\(device)' (\(StageDevices.names.joined(separator: ", ")))")
            }
            if let orientation, !["portrait", "landscape"].contains(orientation) {
                throw ValidationError("--orientation: '\(orientation)' is neither portrait nor landscape")
            }
            guard timeLimit.isFinite, timeLimit > 0, timeLimit <= Limits.maxSeconds else {
                throw ValidationError("--time-limit must be more than 0 and at most \(Int(Limits.maxSeconds)) s, got \(timeLimit)")
            }
            guard timeout.isFinite, timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds, got \(timeout)") }
        }
        if let jobs, !(1...Limits.maxJobs).contains(jobs) { throw ValidationError("--jobs must be 1…\(Limits.maxJobs), got \(jobs)") }
        if let out, out.isEmpty { throw ValidationError("--out: the path is empty") }
        do { _ = try PNGCompression(named: compression) } catch { throw ValidationError("--compression: \(error)") }
        if let frames, FrameSelection.parseRange(frames) == nil {
            throw ValidationError("--frames must be A..B with 0 ≤ A ≤ B, A.., or a frame number A, got '\(frames)'")
        }
        if let shard, shard != "auto", FrameSelection.parseShard(shard) == nil {
            throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N ≤ \(Limits.maxShards), or auto, got '\(shard)'")
        }
        if let shardCount, !(1...Limits.maxShards).contains(shardCount) {
            throw ValidationError("--shard-count must be 1…\(Limits.maxShards), got \(shardCount)")
        }
        if shardCount != nil, shard != "auto" { throw ValidationError("--shard-count goes with --shard auto") }
        if all {
            if transitionOptions.name != TransitionCatalog.defaultName || transitionOptions.isSceneFile {
                throw ValidationError("--all renders every transition: give no NAME (choose with --match)")
            }
            if frames != nil { throw ValidationError("--frames selects frames of one transition; it does not go with --all") }
            if transitionOptions.durations != nil { throw ValidationError("--durations is one transition's; it does not go with --all") }
            if preview { throw ValidationError("--preview makes one transition's previews; it does not go with --all") }
        } else if dryRun {
            throw ValidationError("--dry-run goes with --all")
        } else {
            if match != nil { throw ValidationError("--match goes with --all") }
            if scenes != nil { throw ValidationError("--scenes goes with --all") }
        }
        if let scenes {
            var isDirectory: ObjCBool = false
            guard !scenes.isEmpty, FileManager.default.fileExists(atPath: scenes, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--scenes: '\(scenes)' is not a folder")
            }
        }
    }

    /// The part to render: `--shard K/N`, or `auto` from the batch system's environment.
    package func resolvedShard(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (index: Int, count: Int)? {
        guard let shard else { return nil }
        if shard == "auto" {
            do { return try ShardEnvironment.resolve(environment, count: shardCount) } catch {
                let text = error.description
                throw ValidationError(text.hasPrefix("--shard auto") ? text : "--shard auto: \(text)")
            }
        }
        return FrameSelection.parseShard(shard)
    }

    package func run() throws {
        if all { return try runAll() }
        if transitionOptions.isSwiftFile { return try runSwiftFiles() }
        let transition = try reportingErrors { try transitionOptions.resolveTransition() }
        var settings = try transitionOptions.settings(scale: scale)
        settings.jobs = jobs  // the snapshots before the frames too
        let selection = FrameSelection(range: frames.flatMap(FrameSelection.parseRange), shard: try resolvedShard())
        let folder = try out ?? defaultFolder("out", transition.name)
        try checkOutputPath(folder, option: "--out")
        if preview { try previewOptions.checkFolder(for: transition.name) }
        let writer = FrameWriter(directory: folder, compression: try PNGCompression(named: compression),
                                 jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, force: force, onWait: { printWarning($0) })
        let start = ContinuousClock.now
        let showProgress = !quiet && !json && isatty(STDERR_FILENO) != 0
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
            if json {
                struct Summary: Encodable {
                    var name: String, folder: String, framesWritten: Int, frameCount: Int, repeatedFramesEncodedOnce: Int, bytes: Int, seconds: Double
                }
                print(try jsonText(Summary(name: transition.name, folder: folder, framesWritten: report.written.count, frameCount: rendered.sequence.count,
                                           repeatedFramesEncodedOnce: report.reusedEncodings, bytes: Int(report.bytes), seconds: seconds)))
            } else if !quiet {
                let reused = report.reusedEncodings > 0 ? " (\(report.reusedEncodings) repeated frames encoded once)" : ""
                print("\(transition.name): \(report.written.count) of \(rendered.sequence.count) frames\(reused), "
                      + "\(report.bytes) bytes, \(String(format: "%.2f", seconds)) s → \(folder)")
            }
            if preview { try previewOptions.write(PreviewFrames(rendered: rendered), quiet: quiet) }
        }
    }
}

extension Render {
    /// Swift files: compiled against Smokescreen's UIKit and run on a stage (`SwiftFileRender`).
    func runSwiftFiles() throws {
        let files = [transitionOptions.name] + moreSwiftFiles
        let name = ((files.first { SwiftFileRender.definesEntryPoint((try? String(contentsOfFile: $0, encoding: .utf8)) ?? "") } ?? files[0]) as NSString)
            .lastPathComponent.replacingOccurrences(of: ".swift", with: "")
        let folder = try out ?? defaultFolder("out", name)
        try checkOutputPath(folder, option: "--out")
        if preview { try previewOptions.checkFolder(for: name) }
        var render = SwiftFileRender(files: files, out: folder, name: name, device: device, fps: transitionOptions.fps ?? 60, scale: scale,
                                     jobs: jobs, force: force, timeLimit: timeLimit, timeout: timeout, packageRoot: packagePath, quiet: quiet || json)
        render.textSize = transitionOptions.textSize.name
        render.appearance = transitionOptions.appearance.value.rawValue
        render.drawsStatusBar = !transitionOptions.noStatusBar
        render.orientation = orientation ?? "portrait"
        do { try render.run() } catch let error as CLIError {
            printError(error.description)
            throw ExitCode(error.status)
        }
        if preview { _ = try reportingErrors { try previewOptions.write(try PreviewFrames(folder: folder), quiet: quiet) } }
    }

    /// `--all`: the catalogue's part for this machine, one transition after another.
    func runAll() throws {
        let items = try reportingErrors { try CatalogueRender.items(scenes: scenes, match: match) }
        guard !items.isEmpty else {
            printError("--match '\(match ?? "")' selects none of the \(TransitionCatalog.all.count) built-ins\(scenes == nil ? "" : " or the scene files")")
            throw ExitCode(ExitStatus.usage)
        }
        let (part, parts) = try resolvedShard() ?? (1, 1)
        let base = out ?? "out"
        var settings = try transitionOptions.settings(scale: scale)
        settings.jobs = jobs  // the snapshots before the frames too
        var planSettings = settings
        planSettings.jobs = 1
        let record = CatalogueRender.plan(items, settings: { _ in planSettings }, scale: scale, fps: transitionOptions.fps,
                                          compression: compression, match: match, part: part, parts: parts,
                                          threads: max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount),
                                          appearance: settings.appearance == .light ? nil : settings.appearance.rawValue,
                                          textSize: settings.textSize == .large ? nil : transitionOptions.textSize.name)
        if dryRun {
            print(String(decoding: try record.encoded(), as: UTF8.self), terminator: "")
            return
        }
        try checkOutputPath(base, option: "--out")
        try reportingErrors {
            do throws(DirectoryError) { try Directories.create(base) } catch {
                throw FrameStoreError.cannotCreate(path: base, reason: error.path == base ? error.reason : error.description)
            }
            let path = "\(base)/\(CatalogueRender.Record.fileName)"
            // Ownership as in a render folder: a catalogue is Smokescreen's when its generator says so. Any
            // other file of that name is the user's and is never replaced, even with --force.
            var info = stat()
            if lstat(path, &info) == 0 {
                let record = try? JSONDecoder().decode(CatalogueRender.Record.self, from: Data(InputFile.read(path, limit: Limits.manifestBytes, what: "catalogue")))
                guard let record, Manifest.isSmokescreenGenerator(record.generator) else {
                    printError("\(path) is not a catalogue Smokescreen wrote; it is never replaced, even with --force: choose another --out folder")
                    throw ExitCode(ExitStatus.cannotCreate)
                }
            }
            try AtomicFile.write(try record.encoded(), to: path)
        }
        let mine = record.catalogue.filter { $0.part == part }
        if !quiet { print("part \(part) of \(parts): \(mine.count) of \(record.catalogue.count) transitions → \(base)") }
        let compressionPreset = try PNGCompression(named: compression)
        let threads = max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        // With more than one thread, several transitions at once, each drawn and written on one thread
        // (the longest first): no core waits at the end of a transition for the others' last frames, nor
        // while one thread builds the next transition's frames. The files are the same either way.
        let lanes = min(threads, mine.count)
        let progress = CatalogueProgress(count: mine.count, quiet: quiet)
        func renderEntry(_ index: Int, threads: Int) {
            let entry = mine[index]
            let start = ContinuousClock.now
            func elapsed() -> Double {
                let d = start.duration(to: .now)
                return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
            }
            do {
                if let error = entry.error { throw CatalogueFailure(description: error) }
                guard let item = items.first(where: { $0.name == entry.name }) else { return progress.skip(index) }
                var laneSettings = settings
                if lanes > 1 { laneSettings.jobs = 1 }
                let rendered = try item.load().render(laneSettings)
                let writer = FrameWriter(directory: "\(base)/\(entry.name)", compression: compressionPreset, jobs: threads, force: force,
                                         onWait: { printWarning($0) })
                let report = try writer.write(rendered.sequence, selection: .all, progress: nil)
                progress.finish(index, row: (entry.name, report.written.count, report.bytes, elapsed(), false), error: nil)
            } catch {
                progress.finish(index, row: (entry.name, 0, 0, elapsed(), true), error: "\(entry.name): failed: \(error)")
            }
        }
        if lanes > 1 {
            let order = mine.indices.sorted { mine[$0].cost != mine[$1].cost ? mine[$0].cost > mine[$1].cost : $0 < $1 }
            let next = CatalogueProgress.Counter()
            nonisolated(unsafe) let render: (Int, Int) -> Void = renderEntry
            DispatchQueue.concurrentPerform(iterations: lanes) { _ in
                while let k = next.take(below: order.count) { render(order[k], 1) }
            }
        } else {
            for index in mine.indices { renderEntry(index, threads: threads) }
        }
        let rows = progress.rows
        if !quiet {
            print("")
            print("transition".padding(toLength: 40, withPad: " ", startingAt: 0) + "frames".leftPadded(8) + "bytes".leftPadded(13) + "seconds".leftPadded(10))
            for r in rows {
                print(r.name.padding(toLength: 40, withPad: " ", startingAt: 0) + (r.failed ? "failed".leftPadded(8) : String(r.frames).leftPadded(8))
                      + String(r.bytes).leftPadded(13) + String(format: "%.2f", r.seconds).leftPadded(10))
            }
            print("total (\(rows.count), \(rows.filter(\.failed).count) failed)".padding(toLength: 40, withPad: " ", startingAt: 0)
                  + String(rows.reduce(0) { $0 + $1.frames }).leftPadded(8) + String(rows.reduce(0) { $0 + $1.bytes }).leftPadded(13)
                  + String(format: "%.2f", rows.reduce(0) { $0 + $1.seconds }).leftPadded(10))
        }
        if rows.contains(where: \.failed) { throw ExitCode(ExitStatus.failure) }
    }
}

/// What `render --all` has finished, from any thread: each transition's row, printed in the catalogue's
/// order as soon as those before it are done (so the output is the same however many run at once).
final class CatalogueProgress: @unchecked Sendable {
    typealias Row = (name: String, frames: Int, bytes: Int, seconds: Double, failed: Bool)
    private let lock = NSLock()
    private let quiet: Bool
    private var done: [Row?]
    private var finished: [Bool]
    private var printed = 0

    init(count: Int, quiet: Bool) {
        self.quiet = quiet
        done = Array(repeating: nil, count: count)
        finished = Array(repeating: false, count: count)
    }

    /// Transition `index` is done: `row`, and the message of its failure, if it failed.
    func finish(_ index: Int, row: Row, error: String?) {
        lock.withLock {
            done[index] = row
            finished[index] = true
            if let error { printError(error) }
            flush()
        }
    }

    /// Transition `index` has nothing to render.
    func skip(_ index: Int) { lock.withLock { finished[index] = true; flush() } }

    private func flush() {
        while printed < finished.count, finished[printed] {
            if !quiet, let row = done[printed], !row.failed {
                print("\(row.name): \(row.frames) frames, \(row.bytes) bytes, \(String(format: "%.2f", row.seconds)) s")
            }
            printed += 1
        }
    }

    /// The rows of the transitions done, in the catalogue's order.
    var rows: [Row] { lock.withLock { done.compactMap { $0 } } }

    /// The next index to take, from any thread.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func take(below limit: Int) -> Int? {
            lock.withLock {
                guard value < limit else { return nil }
                value += 1
                return value - 1
            }
        }
    }
}

/// A catalogue transition that could not be rendered.
struct CatalogueFailure: Error, CustomStringConvertible { var description: String }

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
