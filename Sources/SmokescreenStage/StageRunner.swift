import FrameStore
import Foundation

/// What the program `smokescreen render File.swift` builds runs: a stage made from the command's
/// options, the user's `run(on:)`, time let pass until nothing animates, and the frames written. Its
/// arguments are the command's (`--out`, `--name`, `--device`, `--orientation portrait|landscape`, `--text-size`, `--appearance`, `--fps`, `--scale`,
/// `--jobs`, `--time-limit`, `--status-bar on|off` (the status bar and home indicator, default on), `--force`); a summary line goes to standard output, errors to standard error with
/// an exit status of 1 (the stage), 64 (an argument) or the writer's.
public enum StageRunner {
    /// The devices by the names the command takes.
    public static let devices: [String: Device] = ["iPhone15": .iPhone15, "iPhone15ProMax": .iPhone15ProMax, "iPhoneSE": .iPhoneSE, "iPadAir": .iPadAir]

    /// Dynamic Type's text sizes by the names the command takes (the Human Interface Guidelines' names).
    public static let textSizes: [String: UIContentSizeCategory] = [
        "xSmall": .extraSmall, "small": .small, "medium": .medium, "large": .large, "xLarge": .extraLarge, "xxLarge": .extraExtraLarge,
        "xxxLarge": .extraExtraExtraLarge, "AX1": .accessibilityMedium, "AX2": .accessibilityLarge, "AX3": .accessibilityExtraLarge,
        "AX4": .accessibilityExtraExtraLarge, "AX5": .accessibilityExtraExtraExtraLarge,
    ]

    /// Runs `script` on a stage made from `arguments` and writes its frames; exits.
    public static func main(arguments: [String] = CommandLine.arguments, _ script: (Stage) throws -> Void) -> Never {
        var options: [String: String] = [:]
        var force = false
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--force" { force = true; index += 1; continue }
            guard argument.hasPrefix("--"), index + 1 < arguments.count else { fail("unexpected argument '\(argument)'", status: 64) }
            options[String(argument.dropFirst(2))] = arguments[index + 1]
            index += 2
        }
        guard let out = options["out"] else { fail("--out is missing", status: 64) }
        let deviceName = options["device"] ?? "iPhone15"
        guard var device = devices[deviceName] else {
            fail("--device: no device '\(deviceName)' (\(devices.keys.sorted().joined(separator: ", ")))", status: 64)
        }
        let orientationName = options["orientation"] ?? "portrait"
        guard let landscape = ["portrait": false, "landscape": true][orientationName] else {
            fail("--orientation: '\(orientationName)' is neither portrait nor landscape", status: 64)
        }
        if landscape { device = device.landscape }
        let textSizeName = options["text-size"] ?? "large"
        guard let textSize = textSizes[textSizeName] else {
            fail("--text-size: no text size '\(textSizeName)' (\(textSizes.keys.sorted().joined(separator: ", ")))", status: 64)
        }
        let appearanceName = options["appearance"] ?? "light"
        guard let appearance = ["light": UIUserInterfaceStyle.light, "dark": UIUserInterfaceStyle.dark][appearanceName] else {
            fail("--appearance: '\(appearanceName)' is neither light nor dark", status: 64)
        }
        let fps = Double(options["fps"] ?? "60") ?? .nan
        let scale = options["scale"].flatMap(Double.init).map { CGFloat($0) }
        let jobs = options["jobs"].flatMap(Int.init)
        let timeLimit = Double(options["time-limit"] ?? "60") ?? .nan
        guard timeLimit.isFinite, timeLimit > 0 else { fail("--time-limit must be a positive number of seconds", status: 64) }
        let statusBarName = options["status-bar"] ?? "on"
        guard let statusBar = ["on": true, "off": false][statusBarName] else { fail("--status-bar: '\(statusBarName)' is neither on nor off", status: 64) }
        Stage.onlyOutputFolder = out
        do {
            let stage = try Stage(device: device, fps: fps, scale: scale, appearance: appearance, contentSizeCategory: textSize)
            stage.showsStatusBar = statusBar
            stage.showsHomeIndicator = statusBar
            try script(stage)
            try stage.waitUntilIdle(timeLimit: timeLimit)
            for warning in stage.notDrawn { FileHandle.standardError.write(Data("smokescreen: accepted, not drawn: \(warning)\n".utf8)) }
            for ambiguity in stage.ambiguousLayouts { FileHandle.standardError.write(Data("smokescreen: ambiguous layout: \(ambiguity)\n".utf8)) }
            let written = try stage.write(to: out, name: options["name"], force: force, jobs: jobs)
            print("frames \(written) of \(stage.frameCount), \(String(format: "%.3f", stage.time)) s of virtual time")
            exit(0)
        } catch let error as StageError {
            fail("\(error)", status: 1)
        } catch let error as FrameStoreError {
            fail("\(error)", status: error.exitStatus)
        } catch {
            fail("the script threw \(error)", status: 1)
        }
    }

    private static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("smokescreen: \(message)\n".utf8))
        exit(status)
    }
}
