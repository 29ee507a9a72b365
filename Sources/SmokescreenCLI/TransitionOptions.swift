import ArgumentParser
import BoundedInput
import Choreography
import Foundation
import SmokescreenScenes
import TransitionCompositor

/// Options shared by every command that renders a built-in transition.
package struct TransitionOptions: ParsableArguments {
    /// Every option at its default, as ArgumentParser makes it before it parses.
    package init() {}

    @Argument(help: "A built-in transition (see `smokescreen list`), or a scene file (.json).")
    package var name: String = TransitionCatalog.defaultName

    @Option(help: "With a scene file: which of its transitions (default: its first).")
    var transition: String?

    // `.unconditional`: a value that starts with '-' (`--fps -1`) is taken as the value and refused by
    // validate() with the range, instead of "Missing value".
    @Option(parsing: .unconditional, help: "Frames per second, \(Limits.fpsRange) (default: the transition's own, 60 for the Vesper transitions).")
    var fps: Double?

    @Option(help: "A durations plist to use instead of the transition's own (only for transitions that read one).")
    var durations: String?

    @Option(help: "The assets folder (default: $SMOKESCREEN_ASSETS, ./assets, or the one beside the executable).")
    var assets: String?

    @Option(parsing: .unconditional, help: "Frames to repeat after the end, 0…\(Limits.maxHoldFrames).")
    var hold = 0

    @Flag(name: .customLong("no-status-bar"), help: "Leave out iOS's status bar (and a Swift file's home indicator), which built-in phone screens and Swift files' stages draw over every frame.")
    var noStatusBar = false

    @OptionGroup var appearance: AppearanceOption

    @OptionGroup var textSize: TextSizeOption

    /// Whether the argument names a scene file rather than a built-in.
    var isSceneFile: Bool { name.lowercased().hasSuffix(".json") }

    /// Whether the argument names a Swift file (only `render` takes those: see `SwiftFileRender`).
    var isSwiftFile: Bool { name.hasSuffix(".swift") }

    package func validate() throws {
        if transition != nil, !isSceneFile { throw ValidationError("--transition: '\(name)' is not a scene file (.json)") }
        if isSwiftFile {
            try validateSettings()
            return
        }
        try checkTransitionName(transition)
        if isSceneFile {
            try validateSettings()
            return
        }
        // A report of `smokescreen memory`, not a transition: `resolveTransition` refuses it elsewhere.
        if name == PagesMemoryReport.name {
            try validateSettings()
            return
        }
        guard let transition = TransitionCatalog.transition(named: name) else {
            // `render` is the default subcommand, so a mistyped command arrives here as a name.
            if !name.contains("/"), !name.contains("."),
               let command = closestName(to: name, among: SmokescreenCommand.subcommandNames) {
                throw ValidationError("'\(name)' is neither a command nor a built-in transition; did you mean the command '\(command)'?")
            }
            var message = "no transition named '\(name)'"
            if let suggestion = closestName(to: name, among: TransitionCatalog.all.map(\.name)) { message += "; did you mean '\(suggestion)'?" }
            throw ValidationError(message + " (built in: \(TransitionCatalog.all.map(\.name).joined(separator: ", ")))")
        }
        try validateSettings()
        if durations != nil, !transition.readsDurationsFile {
            throw ValidationError("--durations: '\(name)' has no durations file; its timings are fixed")
        }
    }

    private func validateSettings() throws {
        try checkFPS(fps)
        guard (0...Limits.maxHoldFrames).contains(hold) else { throw ValidationError("--hold must be 0…\(Limits.maxHoldFrames), got \(hold)") }
        if let durations, durations.isEmpty { throw ValidationError("--durations: the path is empty") }
        if let assets, assets.isEmpty { throw ValidationError("--assets: the path is empty") }
    }

    /// The built-in named by the argument, or the scene file's transition (read now: its errors are
    /// data errors, exit 65, or 66 for a missing file).
    func resolveTransition() throws -> any Transition {
        let resolved = try resolveNamedTransition()
        appearance.warnIfFixed(resolved)
        textSize.warnIfFixed(resolved)
        return resolved
    }

    private func resolveNamedTransition() throws -> any Transition {
        if isSceneFile { return try SceneTransition.load(path: name, transition: transition) }
        if isSwiftFile {
            throw ValidationError("'\(name)': only `smokescreen render` takes Swift files; render them, then give this command the render folder")
        }
        if name == PagesMemoryReport.name {
            let scenes = INipponPagesTransition.Scene.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("'\(name)' is a report of `smokescreen memory`, not a transition; the pages render as \(scenes)")
        }
        // validate() has checked the name; the default is the first built-in.
        return TransitionCatalog.transition(named: name) ?? TransitionCatalog.all[0]
    }

    /// The settings for a render; warnings about the inputs go to stderr.
    package func settings(scale: Int) throws -> RenderSettings {
        let folder: String
        do { folder = try AssetLocator.directory(given: assets) } catch {
            printError(error.description)
            throw ExitCode(error.exitStatus)
        }
        var settings = RenderSettings(scale: Double(scale), fps: fps, assetsDirectory: folder, durationsFile: durations, holdFrames: hold,
                                      warn: { printWarning($0) })
        settings.assetsDirectoryIsExplicit = assetsNamed(assets)
        settings.drawsStatusBar = !noStatusBar
        settings.appearance = appearance.value
        settings.textSize = textSize.value
        return settings
    }
}

/// Validates `--transition NAME`: a transition's name follows the one rule for names that reach a path.
func checkTransitionName(_ name: String?) throws {
    if let name, let problem = TransitionName.problem(with: name) { throw ValidationError("--transition: \(problem)") }
}

/// The default output folder `root/name`, refused (exit 64) when `name` would not stay directly under
/// `root` (transition names are checked where they are read; this is the last guard before a path).
func defaultFolder(_ root: String, _ name: String, suffix: String = "") throws -> String {
    if let problem = TransitionName.problem(with: name) {
        printError("cannot build the default output folder from the transition's name: \(problem); pass --out")
        throw ExitCode(ExitStatus.usage)
    }
    return "\(root)/\(name)\(suffix)"
}

/// Refuses, before any work, an output path that is a dangling symbolic link (exit 73), with a message
/// instead of a failure after the whole render.
func checkOutputPath(_ path: String, option: String) throws {
    // The path and each folder on the way to it.
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
        prefix += component
        if Directories.isDanglingLink(prefix) {
            let which = prefix == path || prefix + "/" == path ? path : "\(prefix), on the way to \(path),"
            printError("\(option): \(which) is a symbolic link to something that does not exist (a dangling link); nothing was written")
            throw ExitCode(ExitStatus.cannotCreate)
        }
        prefix += "/"
    }
}

/// The scale every command renders at when no `--scale` is given: 2 pixels per point, the scale of
/// the iPhones the built-ins are drawn for, so `render`, `inspect`, `preview`, `lint`, `check` and
/// `bench` describe the same pixels unless told otherwise.
let defaultScale = 2

/// The `--scale` help text every command shares (ArgumentParser adds the default).
let scaleHelp = "Pixels per point: 1, 2 or 3 (2 for every command)."

/// Validates `--scale`.
func checkScale(_ scale: Int) throws {
    guard (1...3).contains(scale) else { throw ValidationError("--scale must be 1, 2 or 3, got \(scale)") }
}

/// Validates `--fps`, when given.
func checkFPS(_ fps: Double?) throws {
    if let fps, !(fps.isFinite && fps >= Limits.minFPS && fps <= Limits.maxFPS) {
        throw ValidationError("--fps must be in \(Limits.fpsRange), got \(fps)")
    }
}

/// Whether the user named the assets folder (`--assets` or `$SMOKESCREEN_ASSETS`), which then wins over
/// a scene file's own `assets` key.
func assetsNamed(_ option: String?) -> Bool {
    option != nil || ProcessInfo.processInfo.environment["SMOKESCREEN_ASSETS"] != nil
}

/// Refuses `--durations` for a transition whose timings are fixed (exit 64).
func checkDurations(_ durations: String?, for transition: any Transition) throws {
    if durations != nil, !transition.readsDurationsFile {
        throw ValidationError("--durations: '\(transition.name)' has no durations file; its timings are fixed")
    }
}

/// Runs `body`, turning errors into the exit statuses the README's table gives, with the message on stderr.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ValidationError {
        throw error
    } catch let error as ExitCode {
        throw error
    } catch let error as any ExitStatusError {
        printError(error.description)
        throw ExitCode(error.exitStatus)
    } catch {
        printError("\(error)")
        throw ExitCode(ExitStatus.failure)
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data("smokescreen: \(message)\n".utf8))
}

@Sendable func printWarning(_ message: String) {
    FileHandle.standardError.write(Data("smokescreen: warning: \(message)\n".utf8))
}
