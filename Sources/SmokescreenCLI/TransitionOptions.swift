import ArgumentParser
import Foundation
import SmokescreenScenes
import TransitionCompositor

/// Options shared by every command that renders a built-in transition.
struct TransitionOptions: ParsableArguments {
    @Argument(help: "A built-in transition (see `smokescreen list`).")
    var name: String = TransitionCatalog.defaultName

    @Option(help: "Frames per second (default: the transition's own, 60 for the Vesper transitions).")
    var fps: Double?

    @Option(help: "A durations plist to use instead of the transition's own.")
    var durations: String?

    @Option(help: "The assets folder (default: $SMOKESCREEN_ASSETS, ./assets, or the one beside the executable).")
    var assets: String?

    @Option(help: "Frames to repeat after the end.")
    var hold = 0

    func validate() throws {
        guard TransitionCatalog.transition(named: name) != nil else {
            throw ValidationError("no transition named '\(name)'; built in: \(TransitionCatalog.all.map(\.name).joined(separator: ", "))")
        }
        if let fps, !(fps.isFinite && fps > 0 && fps <= 1000) { throw ValidationError("--fps must be in 0 < fps ≤ 1000, got \(fps)") }
        guard (0...10_000).contains(hold) else { throw ValidationError("--hold must be 0…10000, got \(hold)") }
    }

    var transition: any Transition { TransitionCatalog.transition(named: name)! }

    func settings(scale: Int) throws -> RenderSettings {
        guard let folder = assets ?? AssetLocator.defaultDirectory() else {
            throw ValidationError("no assets folder found; pass --assets DIR or set SMOKESCREEN_ASSETS")
        }
        return RenderSettings(scale: Double(scale), fps: fps, assetsDirectory: folder, durationsFile: durations, holdFrames: hold)
    }
}

/// Validates `--scale`.
func checkScale(_ scale: Int) throws {
    guard (1...3).contains(scale) else { throw ValidationError("--scale must be 1, 2 or 3, got \(scale)") }
}

/// Runs `body`, turning render errors into DESIGN's exit codes with the message on stderr.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as RenderError {
        printError(error.description)
        throw ExitCode(error.exitCode)
    } catch let error as ValidationError {
        throw error
    } catch let error as ExitCode {
        throw error
    } catch {
        printError("\(error)")
        throw ExitCode(1)
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data("smokescreen: \(message)\n".utf8))
}
