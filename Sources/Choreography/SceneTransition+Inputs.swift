import BoundedInput
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The folders a scene file may read from. A scene names its durations plist, its assets folder and its
/// images by paths relative to itself; followed through every link, each must stay inside the scene
/// file's own folder or the tool's assets folder (`--assets`, `$SMOKESCREEN_ASSETS`, `./assets` or the
/// installed one). So a scene file — one in a served folder, one that came from elsewhere — cannot make
/// the tool read, render or quote a file anywhere else on the machine. Checked before anything is read.
struct SceneInputFolders {
    /// The permitted folders, as given (for messages) and as real paths (for the check).
    let folders: [(shown: String, real: String)]

    /// The scene file's folder and, when there is one, the tool's assets folder.
    init(sceneFolder: String, assetsDirectory: String?) {
        folders = ([sceneFolder] + (assetsDirectory.map { [$0] } ?? [])).compactMap { shown in
            realPathOf(shown).map { (shown, $0) }
        }
    }

    /// One folder only: the assets folder the images are read from.
    init(only folder: String) {
        folders = realPathOf(folder).map { [(folder, $0)] } ?? []
    }

    enum Place: Equatable {
        /// Inside a permitted folder, at this real path.
        case inside(String)
        /// Nothing there (a missing file is reported by the reader, as before).
        case missing
        /// Outside every permitted folder, once links are followed.
        case outside
    }

    /// Where `path` leads.
    func place(of path: String) -> Place {
        guard let real = realPathOf(path) else { return .missing }
        return folders.contains { real == $0.real || real.hasPrefix($0.real == "/" ? "/" : $0.real + "/") } ? .inside(real) : .outside
    }

    /// The folders, for messages: "the scene's folder (a) and the assets folder (b)".
    var described: String {
        switch folders.count {
        case 0: return "no folder that exists"
        case 1: return "the scene's folder (\(folders[0].shown))"
        default: return "the scene's folder (\(folders[0].shown)) and the assets folder (\(folders[1].shown))"
        }
    }
}

/// The path with every link resolved; nil when it does not exist.
func realPathOf(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

extension SceneTransition {
    /// The scene's own folder and the tool's assets folder (`assetsDirectory`, nil when unknown).
    func inputFolders(assetsDirectory: String?) -> SceneInputFolders {
        SceneInputFolders(sceneFolder: folder, assetsDirectory: assetsDirectory)
    }

    /// The folder images are read from: `explicit` (`--assets`, the user's own word) when given, else
    /// the file's `assets` key (relative to the file), else the file's own folder.
    /// - Throws: a `DocumentError` at the `assets` key when that folder leads outside the scene's folder
    ///   and the tool's assets folder.
    func assetsFolder(explicit: String?, assetsDirectory: String?) throws(DocumentError) -> String {
        if let explicit { return explicit }
        guard let assets = document.assets else { return folder }
        let path = assets.hasPrefix("/") ? assets : "\(folder)/\(assets)"
        let permitted = inputFolders(assetsDirectory: assetsDirectory)
        if permitted.place(of: path) == .outside {
            throw SceneDocument.Locations.error(document.locations.assets, source: self.path, keyPath: KeyPath([.key("assets")]), """
                the assets folder '\(assets)' leads outside \(permitted.described): a scene reads files only inside those \
                (name another folder with --assets)
                """)
        }
        return path
    }

    /// The scene's own durations plist (its `durations` key, relative to the file), nil when it names none.
    /// - Throws: a `DocumentError` at the `durations` key when the file leads outside the scene's folder
    ///   and the tool's assets folder.
    func ownDurationsFile(assetsDirectory: String?) throws(DocumentError) -> String? {
        guard let durations = document.durations else { return nil }
        let path = durations.hasPrefix("/") ? durations : "\(folder)/\(durations)"
        let permitted = inputFolders(assetsDirectory: assetsDirectory)
        if permitted.place(of: path) == .outside {
            throw SceneDocument.Locations.error(document.locations.durations, source: self.path, keyPath: KeyPath([.key("durations")]), """
                the durations file '\(durations)' leads outside \(permitted.described): a scene reads files only inside those \
                (give another plist with --durations)
                """)
        }
        return path
    }
}
