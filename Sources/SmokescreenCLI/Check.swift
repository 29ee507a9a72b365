import ArgumentParser
import BoundedInput
import Choreography
import SmokescreenScenes
import TransitionCompositor

/// `smokescreen check FILE`: validates a scene file, a durations plist, or a transition with the
/// durations it would render with, as a render would read them, without drawing frames.
package struct Check: ParsableCommand {
    /// Every option at its default, as ArgumentParser makes the command before it parses.
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a scene file (its JSON, states, images, transitions and every limit render enforces), a durations plist, or a transition with --durations (exit 0 when it renders, 65 with the first problem as file:line:column: key path: reason, 66 for a missing file).")

    @Argument(help: "A scene file (.json); a durations plist (.plist), checked on its own (every block valid); or a built-in transition, checked with its own durations or --durations.")
    var file: String

    @Option(help: "A durations plist to check as render reads it for the scene file or built-in: every block the transition needs, valid and within the limits (blocks it does not have are warnings).")
    var durations: String?

    @Option(parsing: .unconditional, help: "Check at this scale only: 1, 2 or 3. Default: a built-in at 2 for every command; a scene file at every scale render accepts (its canvas limits depend on the scale).")
    var scale: Int?

    @Option(help: "The assets folder, as render takes it: a scene's images are read from it, and its inputs may be inside it besides the scene's own folder (default: $SMOKESCREEN_ASSETS, ./assets, or the one beside the executable).")
    var assets: String?

    @Flag(help: "Print one JSON object: {file, ok, transitions or blocks, durations} when it renders, {file, ok: false, error, exitStatus} when not (the error also on stderr).")
    var json = false

    /// What the argument names.
    enum Kind { case sceneFile, durationsFile, builtIn }

    var kind: Kind {
        let lower = file.lowercased()
        if lower.hasSuffix(".json") { return .sceneFile }
        if lower.hasSuffix(".plist") { return .durationsFile }
        return .builtIn
    }

    package func validate() throws {
        if let scale { try checkScale(scale) }
        if let durations, durations.isEmpty { throw ValidationError("--durations: the path is empty") }
        switch kind {
        case .durationsFile:
            if durations != nil { throw ValidationError("--durations goes with a scene file or a built-in; '\(file)' is a durations plist, checked on its own") }
        case .builtIn:
            guard let transition = TransitionCatalog.transition(named: file) else {
                var message = "'\(file)' is not a scene file (.json), a durations plist (.plist) or a built-in transition"
                if let suggestion = closestName(to: file, among: TransitionCatalog.all.map(\.name)) { message += "; did you mean '\(suggestion)'?" }
                throw ValidationError(message)
            }
            try checkDurations(durations, for: transition)
        case .sceneFile:
            break
        }
    }

    struct Result: Encodable {
        var file: String
        var durations: String?
        var ok: Bool
        var transitions: [String]?
        var blocks: [String]?
        var error: String?
        var exitStatus: Int32?
    }

    package func run() throws {
        var result = Result(file: file, durations: durations, ok: true)
        do {
            switch kind {
            case .sceneFile:
                let scales = scale.map { [Double($0)] } ?? SceneDocument.renderScales
                // The tool's assets folder is where a scene's inputs may be besides its own folder; without one
                // (none found, none named) only the scene's folder is.
                let folder = assetsNamed(assets) ? try AssetLocator.directory(given: assets) : try? AssetLocator.directory(given: nil)
                result.transitions = try SceneDocument.check(path: file, scales: scales, durationsFile: durations, assetsDirectory: folder,
                                                             assetsDirectoryIsExplicit: assetsNamed(assets), warn: { printWarning($0) })
            case .durationsFile:
                result.blocks = try BlockTimings.check(contentsOf: file, warn: { printWarning($0) })
            case .builtIn:
                // The built-in's timeline as render builds it (durations read, frames counted, nothing drawn).
                let transition = TransitionCatalog.transition(named: file) ?? TransitionCatalog.all[0]
                let folder = try AssetLocator.directory(given: assets)
                let settings = RenderSettings(scale: Double(scale ?? defaultScale), assetsDirectory: folder, durationsFile: durations, warn: { printWarning($0) })
                _ = try transition.render(settings)
                result.transitions = [transition.name]
            }
        } catch {
            let (message, status) = (error as? any ExitStatusError).map { ($0.description, $0.exitStatus) } ?? ("\(error)", ExitStatus.failure)
            printError(message)
            if json { print(try jsonText(Result(file: file, durations: durations, ok: false, error: message, exitStatus: status))) }
            throw ExitCode(status)
        }
        if json {
            print(try jsonText(result))
        } else if let blocks = result.blocks {
            print("\(file): OK, \(blocks.count) block\(blocks.count == 1 ? "" : "s"): \(blocks.joined(separator: ", "))")
        } else {
            let names = result.transitions ?? []
            let with = durations.map { " with \($0)" } ?? ""
            print("\(file): OK\(with), \(names.count) transition\(names.count == 1 ? "" : "s"): \(names.joined(separator: ", "))")
        }
    }
}
