import BoundedInput
import Foundation

/// Finds the `assets/` folder that ships with Smokescreen.
public enum AssetLocator {
    /// The assets folder to use: `given` (`--assets`) when there is one, else `$SMOKESCREEN_ASSETS` when
    /// it is set, else the first existing folder among `./assets` and `assets/` beside any ancestor of the
    /// running executable (so `.build/release/smokescreen` finds the checkout's assets).
    /// - Throws: ``AssetFolderError`` when `--assets` or `$SMOKESCREEN_ASSETS` names no folder (a
    ///   mistyped path never falls back to the built-in assets), or when none is found.
    public static func directory(given: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws(AssetFolderError) -> String {
        if let given {
            guard InputFile.isDirectory(given) else { throw AssetFolderError(source: "--assets", path: given) }
            return given
        }
        if let variable = environment["SMOKESCREEN_ASSETS"] {
            guard InputFile.isDirectory(variable) else { throw AssetFolderError(source: "SMOKESCREEN_ASSETS", path: variable) }
            return variable
        }
        guard let found = defaultDirectory() else { throw AssetFolderError(source: nil, path: "assets") }
        return found
    }

    /// The first existing folder among `./assets`, `../share/smokescreen/assets` from the running
    /// executable (an installed tool) and `assets/` beside any ancestor of the executable; nil when there
    /// is none.
    public static func defaultDirectory() -> String? {
        var candidates: [String] = [FileManager.default.currentDirectoryPath + "/assets"]
        var dir = URL(fileURLWithPath: executablePath).deletingLastPathComponent()
        // Installed with `make install`: PREFIX/bin/smokescreen and PREFIX/share/smokescreen/assets.
        candidates.append(dir.deletingLastPathComponent().appendingPathComponent("share/smokescreen/assets").path)
        for _ in 0..<6 {
            candidates.append(dir.appendingPathComponent("assets").path)
            dir = dir.deletingLastPathComponent()
        }
        return candidates.first(where: InputFile.isDirectory)
    }

    /// The running executable's real path, from `/proc/self/exe` (the kernel's record of the file
    /// executed, symlinks resolved), so a tool found on `PATH` and run by name (`arguments[0]` is then
    /// just `smokescreen`) still finds the assets installed beside it. Falls back to `arguments[0]`
    /// with symlinks resolved where `/proc` is not mounted.
    public static var executablePath: String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), path.hasPrefix("/") {
            return path
        }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().path
    }
}

/// No assets folder where one was named or looked for (exit 66).
public struct AssetFolderError: ExitStatusError, Equatable, Sendable {
    /// `--assets`, `SMOKESCREEN_ASSETS`, or nil when none was named and none was found.
    public var source: String?
    /// The path that was named or looked for.
    public var path: String

    public var description: String {
        if let source { return "\(source): '\(path)' is not a folder" }
        return "no assets folder found in ./assets or beside the executable; pass --assets DIR or set SMOKESCREEN_ASSETS"
    }

    /// 66: no input.
    public var exitStatus: Int32 { ExitStatus.noInput }
}
