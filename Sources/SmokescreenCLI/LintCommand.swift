import ArgumentParser
import BoundedInput
import Choreography
import FrameStore
import Foundation
import Lint
import Previews
import SmokescreenScenes
import SnapshotView
import Typesetting
import TransitionCompositor

/// `smokescreen lint`: frame-by-frame checks of a transition or a render folder.
package struct LintCommand: ParsableCommand {
    /// Every option at its default, as ArgumentParser makes the command before it parses.
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check a transition frame by frame for flicker, jumps, uncovered screen, moving content that shimmers, and views that snap or are late at the end.",
        discussion: """
            A built-in or scene file is rendered at @2x (or --scale) at its own frame rate and checked view by view \
            (findings name views by their path of names) and pixel by pixel. A render folder gets the same checks \
            with its own pixels when its transition renders the same frames now (a built-in by the manifest's \
            name, or the scene file given with --scene): the same findings as linting it by name. Otherwise it is \
            checked pixel by pixel only (findings name regions), and the output says why. Built-ins that show a \
            problem on purpose carry a documented exception, listed with the finding (--strict counts them too).

            Exit codes: 0 nothing found; 1 something found; 64 bad usage; 65 unusable input.
            """)

    @Argument(help: "A built-in transition, a scene file (.json), or a render folder (one with manifest.json).")
    var source: String = TransitionCatalog.defaultName

    @Option(help: "With a scene file: which of its transitions (default: its first).")
    var transition: String?

    @Option(help: "With a render folder: the scene file it was rendered from, so that its views are checked too (a built-in is found by the manifest's name).")
    var scene: String?

    @Option(parsing: .unconditional, help: "Frames per second when rendering (default: the transition's own).")
    var fps: Double?

    @Option(parsing: .unconditional, help: "Pixels per point when rendering: 1, 2 or 3 (2 for every command; 1 is about 3x faster). The pixel checks (shimmer, flashes, bare background) look at these pixels.")
    package var scale = defaultScale

    @Option(help: "The assets folder (default: $SMOKESCREEN_ASSETS, ./assets, or the one beside the executable).")
    var assets: String?

    @Option(help: "A durations plist to use instead of the transition's own (only for transitions that read one): new timings, checked without editing the shipped file.")
    var durations: String?

    @Flag(name: .customLong("no-status-bar"), help: "Leave out iOS's status bar, which built-in phone screens draw over every frame.")
    package var noStatusBar = false

    @OptionGroup package var appearance: AppearanceOption

    @OptionGroup var textSize: TextSizeOption

    @Option(parsing: .unconditional, help: "Flicker: visible → invisible → visible within this many seconds.")
    var flickerWindow = Thresholds().flickerWindow

    @Option(parsing: .unconditional, help: "Jump: the least distance in points one frame's step must cover.")
    var jumpDistance = Thresholds().jumpDistance

    @Option(parsing: .unconditional, help: "Jump: how many times faster than the frames around it.")
    var jumpRatio = Thresholds().jumpRatio

    @Option(parsing: .unconditional, help: "Uncovered: the share of the frame, 0…1, that must show bare background.")
    var uncovered = Thresholds().uncoveredFraction

    @Option(parsing: .unconditional, help: "Content jump: how far every view on screen in a scroll view must move within its content and on screen, as a share of its visible height, 0…10.")
    var contentShift = Thresholds().contentShiftFraction

    @Option(parsing: .unconditional, help: "Pixel flicker: the change in a region's brightness, 0…1, that counts.")
    var flashContrast = Thresholds().flashContrast

    @Option(parsing: .unconditional, help: "Shimmer: the mean change, in levels of 255, of a moved view's pixels against its pixels before the move carried the same way, that counts as a tone flip.")
    var shimmerLevels = Thresholds().shimmerLevels

    @Flag(help: "Count findings that built-ins carry as documented exceptions.")
    var strict = false

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @Flag(help: "Print nothing: the exit status says it (0 clean, 1 findings).")
    var quiet = false

    var isFolder: Bool { SourceArgument.isFolder(source) }

    package func validate() throws {
        if let fps, !(fps.isFinite && fps > 0 && fps <= Limits.maxFPS) { throw ValidationError("--fps must be in 0 < fps ≤ \(Int(Limits.maxFPS)), got \(fps)") }
        guard flickerWindow.isFinite, (0...10).contains(flickerWindow) else { throw ValidationError("--flicker-window must be 0…10 s, got \(flickerWindow)") }
        guard jumpDistance.isFinite, jumpDistance > 0 else { throw ValidationError("--jump-distance must be a positive number of points, got \(jumpDistance)") }
        guard jumpRatio.isFinite, jumpRatio >= 1 else { throw ValidationError("--jump-ratio must be at least 1, got \(jumpRatio)") }
        guard uncovered.isFinite, (0...1).contains(uncovered) else { throw ValidationError("--uncovered must be 0…1, got \(uncovered)") }
        guard contentShift.isFinite, contentShift > 0, contentShift <= 10 else { throw ValidationError("--content-shift must be in 0 < s ≤ 10, got \(contentShift)") }
        guard shimmerLevels.isFinite, shimmerLevels > 0, shimmerLevels <= 255 else { throw ValidationError("--shimmer-levels must be in 0 < l ≤ 255, got \(shimmerLevels)") }
        guard flashContrast.isFinite, flashContrast > 0, flashContrast <= 1 else { throw ValidationError("--flash-contrast must be in 0 < c ≤ 1, got \(flashContrast)") }
        try checkScale(scale)
        if quiet && json { throw ValidationError("--quiet prints nothing and --json a report: choose one") }
        try SourceArgument.validate(source)
        if scene != nil, !isFolder { throw ValidationError("--scene goes with a render folder; '\(source)' is not one") }
        if let durations, durations.isEmpty { throw ValidationError("--durations: the path is empty") }
    }

    package func run() throws {
        var thresholds = Thresholds()
        thresholds.flickerWindow = flickerWindow
        thresholds.jumpDistance = jumpDistance
        thresholds.jumpRatio = jumpRatio
        thresholds.uncoveredFraction = uncovered
        thresholds.flashContrast = flashContrast
        thresholds.contentShiftFraction = contentShift
        thresholds.shimmerLevels = shimmerLevels
        var basis: String?
        let (name, findings) = try reportingErrors { () throws -> (String, [Finding]) in
            if isFolder {
                let frames = try PreviewFrames(folder: source)
                switch try FolderMotion.find(folder: source, frames: frames, scene: scene, durations: durations, assets: assets,
                                             appearance: appearance.value, textSize: textSize.value) {
                case .found(let rendered, let what):
                    basis = "views from \(what) as it renders now: every frame's pixels are the folder's"
                    return (frames.name, LintRun.check(rendered: rendered, frames: frames, thresholds: thresholds))
                case .unavailable(let reason):
                    basis = "pixel checks only (findings name regions): \(reason)"
                    return (frames.name, try Lint.pixels(count: frames.times.count, times: frames.times, frame: frames.frame, thresholds: thresholds))
                }
            }
            let chosen = try SourceArgument.transition(source, scene: transition)
            try checkDurations(durations, for: chosen)
            var settings = RenderSettings(scale: Double(scale), fps: fps, assetsDirectory: try AssetLocator.directory(given: assets),
                                          durationsFile: durations, warn: { printWarning($0) })
            settings.describesFrames = true
            settings.assetsDirectoryIsExplicit = assetsNamed(assets)
            settings.drawsStatusBar = !noStatusBar
            appearance.apply(to: &settings, for: chosen)
            settings.textSize = textSize.value
            textSize.warnIfFixed(chosen)
            let rendered = try chosen.render(settings)
            let frames = try PreviewFrames(rendered: rendered)
            return (chosen.name, LintRun.check(rendered: rendered, frames: frames, thresholds: thresholds))
        }
        let excused = strict ? [] : findings.compactMap { f in LintExceptions.reason(for: f, in: name).map { (f, $0) } }
        let counted = findings.filter { f in !excused.contains { $0.0 == f } }
        if quiet {
            // Nothing printed; the exit status below says it.
        } else if json {
            struct Document: Encodable {
                var name: String
                /// For a render folder: what its findings are based on.
                var basis: String?
                var clean: Bool
                var findings: [Finding]
                var exceptions: [Exception]
                struct Exception: Encodable { var finding: Finding; var reason: String }
            }
            print(try jsonText(Document(name: name, basis: basis, clean: counted.isEmpty, findings: counted,
                                        exceptions: excused.map { Document.Exception(finding: $0.0, reason: $0.1) })))
        } else {
            if let basis { print("\(name): \(basis)") }
            for f in counted { print("\(f.kind.rawValue)  \(f.subject)  frames \(f.frames.map(String.init).joined(separator: ",")) (\(f.times.map { String(format: "%.3f s", $0) }.joined(separator: ", "))): \(f.detail)") }
            for (f, reason) in excused { print("excepted  \(f.kind.rawValue)  \(f.subject): \(reason)") }
            print(counted.isEmpty ? "\(name): clean" + (excused.isEmpty ? "" : " (\(excused.count) documented exception\(excused.count == 1 ? "" : "s"))")
                  : "\(name): \(counted.count) finding\(counted.count == 1 ? "" : "s")")
        }
        if !counted.isEmpty { throw ExitCode(ExitStatus.failure) }
    }
}

/// The view and pixel checks of a rendered transition.
package enum LintRun {
    package static func check(rendered: RenderedTransition, frames: PreviewFrames, thresholds: Thresholds) -> [Finding] {
        let times = rendered.sequence.times
        let described = Array(times.prefix(rendered.frameDescriptions.count))
        // The view checks know what moved; pixels are for render folders, which carry no views.
        if rendered.frameDescriptions.isEmpty {
            return (try? Lint.pixels(count: frames.times.count, times: frames.times, frame: frames.frame, thresholds: thresholds)) ?? []
        }
        let moved = (try? Lint.shimmer(rendered.frameDescriptions, times: described, frame: frames.frame, thresholds: thresholds)) ?? []
        let popped = (try? Lint.appearances(rendered.frameDescriptions, times: described, frame: frames.frame, thresholds: thresholds)) ?? []
        return Lint.views(rendered.frameDescriptions, times: described, complete: rendered.endsComplete, thresholds: thresholds) + moved + popped
    }
}

extension LintExceptions {
    static func reason(for finding: Finding, in transition: String) -> String? {
        reason(kind: finding.kind.rawValue, subject: finding.subject, in: transition)
    }
}

/// Where a render folder's views come from: its transition rendered again with the manifest's settings,
/// when that gives exactly the folder's frames (the same count, times, durations and pixels). Then lint
/// checks the folder as it checks the transition by name, with the folder's own pixels.
package enum FolderMotion {
    case found(RenderedTransition, what: String)
    case unavailable(String)

    package static func find(folder: String, frames: PreviewFrames, scene: String?, durations: String?, assets: String?,
                     appearance: Appearance = .light, textSize: Font.ContentSize = .large) throws -> FolderMotion {
        guard let manifest = try Manifest.read(from: "\(folder)/\(Manifest.fileName)") else {
            return .unavailable("no manifest.json")
        }
        let transition: any Transition
        let what: String
        if let scene {
            transition = try SceneTransition.load(path: scene, transition: manifest.name)
            what = "'\(manifest.name)' of \(scene)"
        } else if let builtIn = TransitionCatalog.transition(named: manifest.name) {
            transition = builtIn
            what = "the built-in '\(manifest.name)'"
        } else {
            return .unavailable("'\(manifest.name)' is not a built-in; give the scene file it was rendered from with --scene FILE to check its views")
        }
        try checkDurations(durations, for: transition)
        var settings = RenderSettings(scale: manifest.scale, fps: manifest.fps, assetsDirectory: try AssetLocator.directory(given: assets),
                                      durationsFile: durations, warn: { printWarning($0) })
        settings.describesFrames = true
        settings.assetsDirectoryIsExplicit = assetsNamed(assets)
        // The views of frames rendered with those traits (--appearance, --text-size).
        settings.appearance = appearance
        settings.textSize = textSize
        let rendered = try transition.render(settings)
        let sequence = rendered.sequence
        guard sequence.count == manifest.frames.count,
              zip(sequence.times, manifest.frames.map(\.time)).allSatisfy({ abs($0 - $1) <= 1e-9 }) else {
            return .unavailable("\(what) renders \(sequence.count) frames at \(manifest.fps) fps now; the folder has \(manifest.frames.count) (rendered by another version, with --hold, or from other inputs)")
        }
        guard sequence.durations == manifest.durations else {
            return .unavailable("the folder was rendered with other durations than \(what) has now (give them with --durations FILE)")
        }
        var canvas = try sequence.makeCanvas()
        for index in 0..<sequence.count {
            sequence.draw(frame: index, into: &canvas)
            // The pixels, not the scale: a PNG does not record one, so the folder's frames read as @1x.
            let stored = try frames.frame(index)
            let same = stored.width == canvas.width && stored.height == canvas.height
                && stored.withUnsafeBytes { a in canvas.withUnsafeBytes { b in a.elementsEqual(b) } }
            guard same else {
                let traits = appearance == .light && textSize == .large ? "; rendered with --appearance, --text-size or --system-fonts? give the same here" : ""
                return .unavailable("frame \(index) differs from \(what) as it renders now\(traits)")
            }
        }
        return .found(rendered, what: what)
    }
}
