#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import BoundedInput

/// An output folder, locked for one render: the only way Smokescreen writes into a folder.
///
/// Rules it enforces:
/// - **Nothing it did not write is touched.** Its own files are `manifest.json` (when its `generator`
///   says Smokescreen wrote it) and the frame files that manifest lists. A folder holding anything else
///   is refused (``FrameStoreError/foreignFile(folder:file:reason:)``, exit 73) unless `force` is set;
///   even then, a file it did not write is never replaced or removed: a render that would have to
///   write over one fails.
/// - **One render at a time.** An exclusive `flock` on the folder is held from opening to ``close()``;
///   a second render into the same folder waits for it (and says so through `onWait`).
/// - **Leftovers are cleaned.** Temporary files of a killed run (`AtomicFile/leftovers(in:)` whose
///   process is gone) for names Smokescreen writes are removed when the folder is opened.
public final class RenderFolder {
    /// The folder's path, as given.
    public let path: String
    /// The folder's manifest when Smokescreen wrote it; nil for a new or empty folder.
    public let manifest: Manifest?
    /// The folder's entries that Smokescreen did not write (allowed only with `force`).
    public let foreignFiles: Set<String>
    /// Leftover temporary files that were removed when the folder was opened.
    public let removedLeftovers: [String]
    private var lockDescriptor: Int32

    /// Opens (creating it and its parents when missing) and locks the folder at `path`.
    /// - Parameters:
    ///   - force: render beside files Smokescreen did not write (never over them). Default false.
    ///   - path: the folder; created with its parents when missing.
    ///   - onWait: called once, before blocking, when another render holds the folder.
    public init(path: String, force: Bool = false, onWait: ((String) -> Void)? = nil) throws(FrameStoreError) {
        guard !path.isEmpty else { throw .cannotCreate(path: path, reason: "the path is empty") }
        self.path = path
        try Self.createDirectories(path)
        let fd = try Self.lock(path, onWait: onWait)
        do throws(FrameStoreError) {
            var names = try Self.list(path)
            // The manifest decides what is ours; a manifest that is not Smokescreen's is the user's file.
            var manifest: Manifest?
            var manifestProblem: String?
            if names.contains(Manifest.fileName) {
                do {
                    let found = try Manifest.read(from: path + "/" + Manifest.fileName)
                    if let found, Manifest.isSmokescreenGenerator(found.generator) { manifest = found } else {
                        manifestProblem = "its generator is not smokescreen"
                    }
                } catch {
                    manifestProblem = "not a manifest Smokescreen wrote: \(error)"
                }
            }
            self.manifest = manifest
            // Temporary files of writes that never finished, for names Smokescreen writes.
            var removed: [String] = []
            for leftover in AtomicFile.leftovers(in: names)
            where leftover.isAbandoned && (leftover.destination == Manifest.fileName || FrameFileName.index(of: leftover.destination) != nil) {
                if unlink(path + "/" + leftover.name) == 0 { removed.append(leftover.name) }
            }
            names.removeAll { removed.contains($0) }
            removedLeftovers = removed.sorted()

            let ours = Set((manifest?.frames.map(\.file) ?? []) + (manifest == nil ? [] : [Manifest.fileName]))
            let foreign = Self.foreign(names, ours: ours)
            foreignFiles = Set(foreign)
            if let first = foreign.first, !force {
                let reason = first == Manifest.fileName ? (manifestProblem ?? "not Smokescreen's") : "not listed in a Smokescreen manifest here"
                throw FrameStoreError.foreignFile(folder: path, file: first, reason: reason)
            }
            lockDescriptor = fd
        } catch {
            Self.unlock(fd)
            throw error
        }
    }

    deinit { close() }

    /// Releases the folder for other renders.
    public func close() {
        guard lockDescriptor >= 0 else { return }
        Self.unlock(lockDescriptor)
        lockDescriptor = -1
    }

    /// Releases a lock taken by ``lock(_:onWait:)`` and closes its descriptor.
    static func unlock(_ fd: Int32) {
        flock(fd, LOCK_UN)
        Glibc.close(fd)
    }

    /// Fails when any of `names` is a file Smokescreen did not write (possible only with `force`).
    public func checkWritable(_ names: [String]) throws(FrameStoreError) {
        if let clash = names.first(where: foreignFiles.contains) {
            throw .foreignFile(folder: path, file: clash, reason: "a file of that name, not written by Smokescreen, is never replaced, even with --force")
        }
    }

    /// Writes `bytes` as the file `name` in the folder, atomically.
    public func write(_ bytes: [UInt8], named name: String) throws(FrameStoreError) {
        try checkWritable([name])
        do { try AtomicFile.write(bytes, to: path + "/" + name) } catch {
            throw .io(path: path + "/" + name, reason: "cannot write: \(error.reason)")
        }
    }

    /// Removes frame files Smokescreen wrote (listed in the folder's manifest); other names are ignored.
    /// Returns the names removed.
    public func removeFrames(_ names: [String]) -> [String] {
        let listed = Set(manifest?.frames.map(\.file) ?? [])
        return names.filter { name in
            listed.contains(name) && !foreignFiles.contains(name) && FrameFileName.index(of: name) != nil
                && unlink(path + "/" + name) == 0
        }.sorted()
    }

    /// The rule every output folder follows (render folders, and `OutputFolder`'s previews and diff
    /// images): of a folder's `names`, those that are neither `ours` (what the folder's own record, written
    /// by Smokescreen, lists) nor temporary files of a write under way, sorted. Anything here is the user's.
    static func foreign(_ names: [String], ours: Set<String>) -> [String] {
        let liveTemporaries = Set(AtomicFile.leftovers(in: names).map(\.name))
        return names.filter { !ours.contains($0) && !liveTemporaries.contains($0) }.sorted()
    }

    /// Opens the folder at `path` and takes its exclusive lock (shared by every Smokescreen writer), waiting
    /// for another holder after calling `onWait`. Returns the descriptor holding the lock.
    static func lock(_ path: String, onWait: ((String) -> Void)?) throws(FrameStoreError) -> Int32 {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotCreate(path: path, reason: systemErrorMessage(errno)) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            onWait?("\(path): another render is writing into this folder; waiting for it to finish")
            while flock(fd, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let reason = systemErrorMessage(errno)
                    Glibc.close(fd)
                    throw .io(path: path, reason: "cannot lock the folder: \(reason)")
                }
            }
        }
        return fd
    }

    static func createDirectories(_ path: String) throws(FrameStoreError) {
        do { try Directories.create(path) } catch {
            throw .cannotCreate(path: path, reason: error.path == path ? error.reason : error.description)
        }
    }

    static func list(_ path: String) throws(FrameStoreError) -> [String] {
        do { return try Directories.list(path) } catch { throw .io(path: path, reason: "cannot list the folder: \(error.reason)") }
    }
}
