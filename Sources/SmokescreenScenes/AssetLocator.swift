import Foundation

/// Finds the `assets/` folder that ships with Smokescreen.
public enum AssetLocator {
    /// The first existing folder among: `$SMOKESCREEN_ASSETS`, `./assets`, and `assets/` beside any
    /// ancestor of the running executable (so `.build/release/smokescreen` finds the checkout's assets).
    public static func defaultDirectory() -> String? {
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["SMOKESCREEN_ASSETS"] { candidates.append(env) }
        candidates.append(FileManager.default.currentDirectoryPath + "/assets")
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(dir.appendingPathComponent("assets").path)
            dir = dir.deletingLastPathComponent()
        }
        var isDirectory: ObjCBool = false
        return candidates.first { FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && isDirectory.boolValue }
    }
}
