import ArgumentParser
import BoundedInput
import Dispatch
import Foundation
import LivePreview
import Lint
import Previews
import SmokescreenScenes
import TransitionCompositor

/// `smokescreen serve SOURCE`: the live preview in a browser (docs/live-preview.md).
package struct Serve: ParsableCommand {
    /// Every option at its default, as ArgumentParser makes the command before it parses.
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Preview transitions live in a browser: frames re-rendered as the scene file, its durations plist or its images change.",
        discussion: """
            SOURCE is a built-in transition, a scene file (all its transitions) or a folder of scene files. The page \
            plays, scrubs and steps the frames, draws the animation blocks and lint findings on a timeline, and with \
            --golden compares each frame with a golden one. Stop with Ctrl-C. The API: docs/live-preview.md.
            """)

    @Argument(help: "A built-in transition, a scene file (.json) or a folder of scene files.")
    var source: String

    @Option(parsing: .unconditional, help: "The port, 0…65535 (0: any free port).")
    var port = 8017

    @Option(help: "The address to listen on: an IPv4 or IPv6 literal ([::1] or ::1) or a name (default: 127.0.0.1, loopback only). Any other address is warned about: whoever reaches it can read what is served.")
    var host = "127.0.0.1"

    @Option(name: .customLong("allow-host"), help: "A name requests may give in Host and Origin besides the listening address and localhost (repeatable): the names a page reaches this server by, e.g. a machine's name on the network. Others are refused (403), so a web page cannot read the preview through a name of its own (DNS rebinding).")
    var allowHost: [String] = []

    @Option(name: .customLong("memory-limit"), parsing: .unconditional, help: "MiB the preview keeps for renders and encoded frames (default 1024; at least 64): the least recently used render goes first, and a frame whose render alone needs more than three quarters of it is refused (HTTP 413).")
    var memoryLimit = PreviewSettings.defaultMemoryLimit >> 20

    @Option(parsing: .unconditional, help: "Pixels per point the page starts at: 1, 2 or 3 (the page switches; 2 for every command).")
    var scale = defaultScale

    @Option(parsing: .unconditional, help: "Frames per second (default: each transition's own).")
    var fps: Double?

    @Option(help: "A folder of golden frames, DIR/NAME/frame_0000.png… (as render and the golden tests write them).")
    var golden: String?

    @Option(help: "The assets folder (default: $SMOKESCREEN_ASSETS, ./assets, or the one beside the executable).")
    var assets: String?

    @OptionGroup package var appearance: AppearanceOption

    @OptionGroup package var textSize: TextSizeOption

    package func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535, got \(port)") }
        try checkScale(scale)
        try checkFPS(fps)
        if host.isEmpty { throw ValidationError("--host: the address is empty") }
        guard (64...1_048_576).contains(memoryLimit) else { throw ValidationError("--memory-limit must be 64…1048576 MiB, got \(memoryLimit)") }
        for name in allowHost where name.isEmpty || name.contains(where: { $0 == "/" || $0 == " " || $0 == "@" }) {
            throw ValidationError("--allow-host: '\(name)' is not a host name")
        }
        if let golden, !InputFile.isDirectory(golden) { throw ValidationError("--golden: \(golden) is not a folder") }
    }

    package func run() throws {
        let resolved: PreviewSource
        do { resolved = try PreviewSource.resolve(source) } catch {
            throw ValidationError("\(error)")
        }
        let folder: String
        do { folder = try AssetLocator.directory(given: assets) } catch {
            printError(error.description)
            throw ExitCode(error.exitStatus)
        }
        var settings = PreviewSettings(scale: scale, fps: fps, assetsDirectory: folder, assetsDirectoryIsExplicit: assetsNamed(assets),
                                       goldenDirectory: golden, memoryLimit: memoryLimit << 20, lint: Self.lint)
        settings.appearance = appearance.value
        settings.textSize = textSize.value
        let page = "\(folder)/live-preview"
        guard InputFile.isDirectory(page) else {
            printError("\(page): the page's files are missing (index.html, preview.js, preview.css)")
            throw ExitCode(ExitStatus.noInput)
        }
        let preview = try reportingErrors { try LivePreview(source: resolved, settings: settings, pageDirectory: page) }
        for error in preview.library.currentErrors { printError(error) }
        preview.onReload = { version, seconds, errors in
            let what = errors.isEmpty ? "ok" : errors.joined(separator: "; ")
            FileHandle.standardError.write(Data("smokescreen: reload \(version) in \(String(format: "%.0f", seconds * 1000)) ms: \(what)\n".utf8))
        }
        // The server runs on its own threads; this one waits for a signal, then stops it.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let stopRequested = DispatchSemaphore(value: 0)
        let sources = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            let s = DispatchSource.makeSignalSource(signal: number, queue: .global())
            s.setEventHandler { stopRequested.signal() }
            s.resume()
            return s
        }
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: (any Error)?
        let (host, port, allowed) = (self.host, self.port, allowHost)
        if !HostPolicy.isLoopback(host) {
            printWarning("listening on \(host)\(HostPolicy.isWildcard(host) ? " (every interface)" : ""), not loopback: anyone who can reach port \(port) of this machine can read the served transitions, their frames and their files' errors")
        }
        Task {
            do {
                try await preview.start(host: host, port: port, allowedHosts: allowed)
                // Unbuffered: a script that started the server reads the URL at once.
                FileHandle.standardOutput.write(Data("smokescreen serve: \(preview.url(host: host)) (Ctrl-C stops)\n".utf8))
            } catch {
                failure = error
                stopRequested.signal()
            }
            finished.signal()
        }
        finished.wait()
        stopRequested.wait()
        let stopped = DispatchSemaphore(value: 0)
        Task {
            await preview.stop()
            stopped.signal()
        }
        // Renders under way stop at their next frame; a frame being drawn or encoded is not waited for
        // longer than this (the preview writes no file, so nothing is left half-done).
        if stopped.wait(timeout: .now() + 1) == .timedOut {
            printWarning("stopping without waiting for the frame being drawn")
        }
        sources.forEach { $0.cancel() }
        if let failure {
            printError("cannot listen on \(host):\(port): \(failure)")
            throw ExitCode(ExitStatus.failure)
        }
        FileHandle.standardError.write(Data("smokescreen serve: stopped\n".utf8))
    }

    /// `lint`'s checks with the built-ins' documented exceptions, for the page's timeline.
    @Sendable package static func lint(_ transition: any Transition, _ settings: RenderSettings) throws -> LintReport {
        let rendered = try transition.render(settings)
        let frames = try PreviewFrames(rendered: rendered)
        let findings = LintRun.check(rendered: rendered, frames: frames, thresholds: Thresholds())
        return LintReport(name: transition.name, scale: Int(settings.scale), findings: findings.map { f in
            LintReport.Mark(kind: f.kind.rawValue, subject: f.subject, frames: f.frames, times: f.times, detail: f.detail,
                            exception: LintExceptions.reason(for: f, in: transition.name))
        })
    }
}
