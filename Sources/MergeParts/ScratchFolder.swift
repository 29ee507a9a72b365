#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import BoundedInput
import CArchiveShim

/// A private folder merge writes into: made by `mkdtemp` (mode 0700, a name nobody can predict or have
/// made first), removed by ``remove()`` on every way out of a merge, and by the SIGINT/SIGTERM/SIGHUP
/// handler when the merge is interrupted. A folder a killed merge (SIGKILL) left is recognised by its
/// name, `<prefix>-<pid>-XXXXXX`, and removed by ``removeLeftovers(in:prefix:)`` once that process is
/// gone. Removal never follows a link.
public final class ScratchFolder {
    /// The folder's absolute path.
    public let path: String
    private var slot: Int32
    private var removed = false

    /// Makes `<parent>/<prefix>-<pid>-XXXXXX`.
    public init(in parent: String, prefix: String) throws(MergePartsError) {
        carc_cleanup_install()
        var template = Array("\(parent)/\(prefix)-\(getpid())-XXXXXX".utf8CString)
        // Made and registered with the signals blocked: an interrupt cannot fall between the two.
        let made = template.withUnsafeMutableBufferPointer { carc_mkdtemp_registered($0.baseAddress!) }
        guard made >= 0 else {
            let code = errno
            throw MergePartsError("\(parent): cannot make a private folder: \(systemErrorMessage(code))",
                                  exitStatus: code == ENOSPC || code == EIO ? ExitStatus.ioError : ExitStatus.cannotCreate)
        }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        slot = made
    }

    deinit { remove() }

    /// Removes the folder and everything in it (idempotent).
    public func remove() {
        guard !removed else { return }
        removed = true
        _ = carc_remove_tree(path)
        carc_cleanup_remove(slot)
    }

    /// Forgets the folder without removing it (it was renamed into place).
    public func keep() {
        removed = true
        carc_cleanup_remove(slot)
    }

    /// The folder for scratch files: `$TMPDIR` when set, else `/tmp`.
    public static var temporaryDirectory: String {
        var directory = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        if directory.isEmpty { directory = "/tmp" }
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        return directory
    }

    /// Removes the folders `<prefix>-<pid>-XXXXXX` in `parent` that belong to this user and whose
    /// process is gone (a merge killed by SIGKILL). Returns their names.
    @discardableResult
    public static func removeLeftovers(in parent: String, prefix: String) -> [String] {
        guard let names = try? Directories.list(parent) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix + "-") {
            let rest = name.dropFirst(prefix.count + 1).split(separator: "-", omittingEmptySubsequences: false)
            guard rest.count == 2, let pid = Int32(rest[0]), pid > 0, rest[1].utf8.count == 6,
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            var info = stat()
            let path = parent + "/" + name
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else { continue }
            if carc_remove_tree(path) == 0 { removed.append(name) }
        }
        return removed.sorted()
    }
}
