#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import BoundedInput
import CArchiveShim

/// Where a merge is published, and how: merge never deletes and never replaces.
///
/// - `--out` that does not exist: the merge is built in a staging folder beside it (made by `mkdtemp`,
///   mode 0700 until published) and published with `renameat2(RENAME_NOREPLACE)`, which fails if
///   anything appeared at `--out` meanwhile (exit 73, nothing touched).
/// - `--out` that is an empty folder: it is locked (`flock`, the lock render folders take) and the
///   staging folder is renamed over it; `rename(2)` onto a folder is atomic and fails with `ENOTEMPTY`
///   if a file appeared in it meanwhile (exit 73, nothing touched).
/// - `--out` that is a symbolic link: its target is the destination (the link is kept); a link to
///   nothing is refused before any work (exit 73).
/// - `--out` that holds anything, or is a file: refused before any work (exit 73), naming the first entry.
public final class MergeDestination {
    /// `--out` as given, for messages.
    public let given: String
    /// The folder published: `given`, or the folder a link there points to.
    public let target: String
    /// Whether `target` exists (an empty folder) and is replaced by the rename.
    public let existedEmpty: Bool

    /// Checks `out` before any work is done.
    public init(_ out: String) throws(MergePartsError) {
        given = out
        var path = out
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        var info = stat()
        if lstat(path, &info) != 0 {
            let code = errno
            guard code == ENOENT else {
                throw MergePartsError("\(out): cannot use it as --out: \(systemErrorMessage(code))", exitStatus: ExitStatus.cannotCreate)
            }
            target = path
            existedEmpty = false
            return
        }
        if info.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = realpath(path, nil) else {
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let n = readlink(path, &buffer, buffer.count - 1)
                let linked = n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
                throw MergePartsError("\(out): a symbolic link to '\(linked)', which does not exist; create that folder or give another --out",
                                      exitStatus: ExitStatus.cannotCreate)
            }
            path = String(cString: resolved)
            free(resolved)
            guard stat(path, &info) == 0 else {
                throw MergePartsError("\(out): cannot use it as --out: \(systemErrorMessage(errno))", exitStatus: ExitStatus.cannotCreate)
            }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw MergePartsError("\(out): already exists and is not a folder; merge into a new or empty folder", exitStatus: ExitStatus.cannotCreate)
        }
        let names: [String]
        do { names = try Directories.list(path) } catch {
            throw MergePartsError("\(out): cannot list the folder: \(error.reason)", exitStatus: ExitStatus.cannotCreate)
        }
        if let first = names.sorted().first {
            throw MergePartsError("\(out): already exists and holds '\(shown(first))', which merge does not replace; merge into a new or empty folder",
                                  exitStatus: ExitStatus.cannotCreate)
        }
        target = path
        existedEmpty = true
    }

    /// The folder the staging folder is made in: `target`'s parent (made when missing).
    public var parent: String {
        guard let slash = target.lastIndex(of: "/") else { return "." }
        return slash == target.startIndex ? "/" : String(target[..<slash])
    }

    /// The prefix of staging folders: `.<name>.merging`.
    public var stagingPrefix: String {
        let name = target.lastIndex(of: "/").map { String(target[target.index(after: $0)...]) } ?? target
        return ".\(name).merging"
    }

    /// A new staging folder beside the target (a killed merge's are removed first).
    public func makeStaging() throws(MergePartsError) -> ScratchFolder {
        do { try Directories.create(parent) } catch {
            throw MergePartsError("\(given): cannot make its folder \(error.path): \(error.reason)", exitStatus: ExitStatus.cannotCreate)
        }
        ScratchFolder.removeLeftovers(in: parent, prefix: stagingPrefix)
        return try ScratchFolder(in: parent, prefix: stagingPrefix)
    }

    /// Renames `staging` into place (see the type's rules); `staging` is kept only when it was published.
    public func publish(_ staging: ScratchFolder) throws(MergePartsError) {
        // The staging folder was private (0700) while it was built; published, it has the usual mode.
        let mask = umask(0o022)
        umask(mask)
        chmod(staging.path, 0o777 & ~mask)
        if existedEmpty {
            let fd = open(target, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else {
                throw MergePartsError("\(given): changed during the merge (\(systemErrorMessage(errno))); left as it is", exitStatus: ExitStatus.cannotCreate)
            }
            defer { close(fd) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                throw MergePartsError("\(given): another render or merge is writing into it; left as it is", exitStatus: ExitStatus.cannotCreate)
            }
            defer { flock(fd, LOCK_UN) }
            guard rename(staging.path, target) == 0 else {
                let code = errno
                let why = code == ENOTEMPTY || code == EEXIST ? "something was written into it during the merge" : systemErrorMessage(code)
                throw MergePartsError("\(given): \(why); left as it is", exitStatus: ExitStatus.cannotCreate)
            }
        } else if carc_rename_noreplace(staging.path, target) != 0 {
            let code = errno
            if code == EEXIST {
                throw MergePartsError("\(given): appeared during the merge; left as it is", exitStatus: ExitStatus.cannotCreate)
            }
            guard code == EINVAL || code == ENOSYS else {
                throw MergePartsError("\(given): cannot publish the merge: \(systemErrorMessage(code))", exitStatus: ExitStatus.cannotCreate)
            }
            // A file system without RENAME_NOREPLACE: make the folder exclusively, then rename onto it
            // (which fails if anything was written into it in between).
            guard mkdir(target, 0o700) == 0 else {
                let code = errno
                throw MergePartsError("\(given): \(code == EEXIST ? "appeared during the merge" : systemErrorMessage(code)); left as it is",
                                      exitStatus: ExitStatus.cannotCreate)
            }
            guard rename(staging.path, target) == 0 else {
                let code = errno
                rmdir(target)
                throw MergePartsError("\(given): \(code == ENOTEMPTY ? "something was written into it during the merge" : systemErrorMessage(code))",
                                      exitStatus: ExitStatus.cannotCreate)
            }
        }
        staging.keep()
    }
}
