#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import BoundedInput

/// A folder of files Smokescreen makes beside renders — previews (`--preview-out`) and diff images
/// (`--diff-out`) — held to the rule of ``RenderFolder``: a folder is Smokescreen's only where its own
/// record says so, and nothing else in it is ever replaced.
///
/// The record is ``markerName``, a small JSON file naming Smokescreen as its generator and listing the
/// files Smokescreen wrote there. Opening a folder that holds anything else (a user's `sheet.png`, an old
/// folder of previews made before the record existed, a render folder) is refused with
/// ``OutputFolderError`` (exit 73) naming the first such file; nothing is written. The folder is locked
/// for the run with the same lock render folders take.
public final class OutputFolder {
    /// `smokescreen-files.json`.
    public static let markerName = "smokescreen-files.json"
    /// The folder's path, as given.
    public let path: String
    /// The names the record lists.
    public private(set) var files: Set<String>
    private var lockDescriptor: Int32

    /// Opens (creating it and its parents when missing) and locks the folder at `path`; `option` names
    /// the command-line option that chose it, for messages.
    public init(path: String, option: String) throws(OutputFolderError) {
        guard !path.isEmpty else { throw OutputFolderError(description: "\(option): the path is empty") }
        self.path = path
        let fd: Int32
        do throws(FrameStoreError) {
            try RenderFolder.createDirectories(path)
            fd = try RenderFolder.lock(path, onWait: nil)
        } catch {
            throw OutputFolderError(description: "\(option): \(error.description)")
        }
        do throws(OutputFolderError) {
            let names: [String]
            do { names = try Directories.list(path) } catch {
                throw OutputFolderError(description: "\(option): \(path): cannot list the folder: \(error.reason)")
            }
            var recorded: Set<String> = []
            var problem: String?
            if names.contains(Self.markerName) {
                do { recorded = try Self.readMarker(path + "/" + Self.markerName) } catch { problem = "\(error)" }
            }
            let ours = problem == nil && names.contains(Self.markerName) ? recorded.union([Self.markerName]) : []
            if let first = RenderFolder.foreign(names, ours: ours).first {
                let reason = first == Self.markerName ? (problem ?? "not Smokescreen's") : "not listed in \(Self.markerName)"
                throw OutputFolderError(description: "\(option): \(path) holds '\(first)', which Smokescreen did not write (\(reason)); nothing was written. "
                                        + "Choose another folder: previews and diff images go only into an empty folder or one Smokescreen made for them")
            }
            files = recorded
            lockDescriptor = fd
        } catch {
            RenderFolder.unlock(fd)
            throw error
        }
    }

    deinit { close() }

    /// Releases the folder.
    public func close() {
        guard lockDescriptor >= 0 else { return }
        RenderFolder.unlock(lockDescriptor)
        lockDescriptor = -1
    }

    /// Adds `names` to the record, written before the files themselves: a file Smokescreen writes here
    /// is always listed (an interrupted run may list one it never wrote, which is harmless).
    public func claim(_ names: [String]) throws(OutputFolderError) {
        for name in names where !Self.isPlainName(name) {
            throw OutputFolderError(description: "\(path): '\(name)' is not a plain file name")
        }
        let before = files.count
        files.formUnion(names)
        guard files.count != before || !FileExistence.exists(path + "/" + Self.markerName) else { return }
        var text = "{\n  \"generator\" : \"\(SmokescreenVersion.generator)\",\n  \"files\" : [\n"
        // Plain names hold no quote, backslash or control character: written as they are.
        text += files.sorted().map { "    \"\($0)\"" }.joined(separator: ",\n")
        text += "\n  ]\n}\n"
        do { try AtomicFile.write(Array(text.utf8), to: path + "/" + Self.markerName) } catch {
            throw OutputFolderError(description: "\(path)/\(Self.markerName): cannot write: \(error.reason)")
        }
    }

    /// Claims every entry now in the folder (after a writer that names its own files, such as the diff
    /// images, has run while the folder was locked: all of them are Smokescreen's, since the folder held
    /// nothing else when it was opened).
    public func claimEverythingWritten() throws(OutputFolderError) {
        let names: [String]
        do { names = try Directories.list(path) } catch {
            throw OutputFolderError(description: "\(path): cannot list the folder: \(error.reason)")
        }
        let temporaries = Set(AtomicFile.leftovers(in: names).map(\.name))
        try claim(names.filter { $0 != Self.markerName && !temporaries.contains($0) })
    }

    /// The names a record lists; throws when it is not a record Smokescreen wrote.
    static func readMarker(_ path: String) throws -> Set<String> {
        let bytes = try InputFile.read(path, limit: 1 << 20, what: "record of Smokescreen's files")
        var reader = JSONReader(bytes, source: path)
        var generator: String?, names: Set<String> = []
        try reader.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "generator": generator = try r.readString()
            case "files":
                try r.readArray(maxCount: 100_000) { (r: inout JSONReader, _: Int) throws(DocumentError) in
                    let name = try r.readString()
                    guard isPlainName(name) else { throw r.error("'\(name.prefix(80))' is not a plain file name") }
                    names.insert(name)
                }
            default: throw r.unknownKey(key, known: ["generator", "files"])
            }
        }
        try reader.finish()
        guard let generator, Manifest.isSmokescreenGenerator(generator) else {
            throw DocumentError(source: path, position: nil, keyPath: KeyPath([.key("generator")]), reason: "its generator is not smokescreen")
        }
        return names
    }

    /// A file name directly in the folder: not empty, `.` or `..`, at most 255 bytes, without `/`, `"`, `\`
    /// or control characters.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && name.utf8.count <= 255 && !name.utf8.contains(where: { $0 == 0x2F || $0 < 0x20 || $0 == 0x22 || $0 == 0x5C })
    }
}

enum FileExistence {
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}

/// A folder for previews or diff images that holds files Smokescreen did not write, or cannot be made
/// (exit 73).
public struct OutputFolderError: ExitStatusError, Equatable, Sendable {
    public let description: String
    public var exitStatus: Int32 { ExitStatus.cannotCreate }
}
