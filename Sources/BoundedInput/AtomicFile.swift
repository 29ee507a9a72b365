#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that nobody ever sees one half-written: the bytes go to a temporary file in the same
/// folder, named `.<name>.tmp-<pid>-<random hex>`, which is then renamed over the destination. On
/// failure the temporary file is removed; a process killed mid-write leaves it behind, and
/// ``leftovers(in:)`` recognises it so the next run in that folder can remove it. Files are not
/// fsync'ed: a crash of the process is covered, a power loss is not.
public enum AtomicFile {
    /// Writes `bytes` to `path` through a temporary file and a rename. An existing file at `path` is
    /// replaced.
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String) throws(AtomicFileError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty, name != ".", name != ".." else {
            throw AtomicFileError(path: path, reason: "the path names a directory, not a file")
        }
        let temporary = directory + temporaryName(for: name)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            throw AtomicFileError(path: path, reason: "cannot create a temporary file: \(systemErrorMessage(errno))",
                                  exitStatus: ExitStatus.cannotCreate)
        }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let n = Glibc_write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                close(fd)
                throw AtomicFileError(path: path, reason: systemErrorMessage(code))
            }
            offset += n
        }
        if close(fd) != 0 { throw AtomicFileError(path: path, reason: systemErrorMessage(errno)) }
        guard rename(temporary, path) == 0 else { throw AtomicFileError(path: path, reason: systemErrorMessage(errno)) }
        renamed = true
    }

    /// Writes `bytes` to `path` atomically (see ``write(_:to:)-(UnsafeRawBufferPointer,_)``).
    public static func write(_ bytes: [UInt8], to path: String) throws(AtomicFileError) {
        let outcome: Result<Void, AtomicFileError> = bytes.withUnsafeBytes { raw in
            do throws(AtomicFileError) { try write(raw, to: path); return .success(()) } catch { return .failure(error) }
        }
        try outcome.get()
    }

    /// The temporary name used while `name` is written by this process.
    static func temporaryName(for name: String) -> String {
        ".\(name).tmp-\(getpid())-\(String(UInt64.random(in: .min ... .max), radix: 16))"
    }

    /// A temporary file left in a folder by a write that did not finish.
    public struct Leftover: Equatable, Sendable {
        /// The temporary file's name in its folder.
        public var name: String
        /// The file it was to become.
        public var destination: String
        /// The process that was writing it.
        public var pid: Int32
        /// Whether that process is gone, so the file can never be finished.
        public var isAbandoned: Bool { kill(pid, 0) != 0 && errno == ESRCH }
    }

    /// The temporary files among `names` (a folder's entries) that this type's writes create:
    /// `.<name>.tmp-<pid>-<hex>`.
    public static func leftovers(in names: [String]) -> [Leftover] {
        names.compactMap { name in
            guard name.hasPrefix("."), let marker = name.ranges(of: ".tmp-").last, marker.lowerBound > name.startIndex else { return nil }
            let destination = String(name[name.index(after: name.startIndex)..<marker.lowerBound])
            let parts = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
            guard !destination.isEmpty, parts.count == 2, let pid = Int32(parts[0]), pid > 0,
                  !parts[1].isEmpty, parts[1].allSatisfy(\.isHexDigit) else { return nil }
            return Leftover(name: name, destination: destination, pid: pid)
        }
    }
}

/// A file that could not be written: its path and `strerror(errno)` or another reason.
public struct AtomicFileError: ExitStatusError, Equatable, Sendable {
    /// The file that was being written.
    public var path: String
    /// `strerror(errno)`, or what else went wrong.
    public var reason: String
    /// ``ExitStatus/cannotCreate`` when the file could not be created, ``ExitStatus/ioError`` when
    /// writing or renaming it failed.
    public var exitStatus: Int32

    /// An error about `path`; exit status default ``ExitStatus/ioError``.
    public init(path: String, reason: String, exitStatus: Int32 = ExitStatus.ioError) {
        self.path = path
        self.reason = reason
        self.exitStatus = exitStatus
    }

    public var description: String { "\(path): cannot write: \(reason)" }
}
