#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads input files whole, safely: only regular files, never more than a stated limit, and the size
/// is checked before anything is read.
///
/// The file is opened with `O_NONBLOCK` so that a FIFO (or a device) can never block the open, then
/// `fstat` tells what it is: anything but a regular file is refused at once, so neither a named pipe
/// nor `/dev/urandom` can hang a run or feed it without end. The buffer is sized from `fstat` and the
/// read stops one byte past it, so a file that grows while it is read is refused, not followed.
public enum InputFile {
    /// The contents of the regular file at `path`.
    /// - Parameters:
    ///   - limit: the most bytes accepted; a larger file is ``InputFileError/Kind/tooLarge`` before any
    ///     byte is read.
    ///   - path: the file to read.
    ///   - what: what the file is for, in messages (`"durations file"`, `"manifest"`).
    public static func read(_ path: String, limit: Int, what: String) throws(InputFileError) -> [UInt8] {
        let (fd, info) = try openRegularFile(path, what: what)
        defer { close(fd) }
        let size = Int(info.st_size)
        guard size <= limit else {
            throw InputFileError(path: path, kind: .tooLarge, reason: "the \(what) is \(size) bytes, over the limit of \(limit) bytes",
                                 detail: "\(size) bytes, over the limit of \(limit) bytes")
        }
        // Back to blocking reads for a regular file (O_NONBLOCK has no effect on them, but be plain).
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw in
                Glibc_read(fd, raw.baseAddress! + count, raw.count - count)
            }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                throw InputFileError(path: path, kind: .unreadable, reason: "cannot read the \(what): \(systemErrorMessage(code))",
                                     detail: systemErrorMessage(code))
            }
            if n == 0 { break }
            count += n
        }
        guard count <= size else {
            throw InputFileError(path: path, kind: .unreadable, reason: "the \(what) grew while it was read")
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// The first `count` bytes (or fewer, when the file is shorter) of the regular file at `path`: a
    /// file's header without reading the rest, however large it is. The same refusals as
    /// ``read(_:limit:what:)`` (a FIFO or a device never blocks), without its size limit.
    public static func readPrefix(_ path: String, count wanted: Int, what: String) throws(InputFileError) -> [UInt8] {
        let (fd, _) = try openRegularFile(path, what: what)
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var bytes = [UInt8](repeating: 0, count: max(0, wanted))
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw in Glibc_read(fd, raw.baseAddress! + count, raw.count - count) }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                throw InputFileError(path: path, kind: .unreadable, reason: "cannot read the \(what): \(systemErrorMessage(code))",
                                     detail: systemErrorMessage(code))
            }
            if n == 0 { break }
            count += n
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Opens `path` without blocking and refuses anything but a regular file; the caller closes the
    /// descriptor.
    private static func openRegularFile(_ path: String, what: String) throws(InputFileError) -> (Int32, stat) {
        guard !path.isEmpty else { throw InputFileError(path: path, kind: .notFound, reason: "the \(what) path is empty") }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw InputFileError(path: path, kind: code == ENOENT ? .notFound : .unreadable,
                                 reason: "cannot open the \(what): \(systemErrorMessage(code))", detail: systemErrorMessage(code))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw InputFileError(path: path, kind: .unreadable, reason: "cannot read the \(what): \(systemErrorMessage(code))", detail: systemErrorMessage(code))
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(fd)
            throw InputFileError(path: path, kind: .notRegular, reason: "the \(what) is \(describe(fileType: type)), not a regular file",
                                 detail: "\(describe(fileType: type)), not a regular file")
        }
        return (fd, info)
    }

    /// Whether `path` is an existing regular file (following symbolic links).
    public static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Whether `path` is an existing directory (following symbolic links).
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    static func describe(fileType type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}

/// A file that could not be read as an input.
public struct InputFileError: ExitStatusError, Equatable, Sendable {
    /// What kind of failure, which decides the exit status.
    public enum Kind: String, Sendable, Equatable {
        /// No file at the path (exit 66).
        case notFound
        /// A directory, FIFO, device or socket (exit 66).
        case notRegular
        /// Over the reader's limit (exit 65).
        case tooLarge
        /// Opening or reading failed: permissions, an I/O error (exit 74).
        case unreadable
    }

    /// The path as given.
    public var path: String
    /// What kind of failure.
    public var kind: Kind
    /// Why, e.g. `the manifest is a named pipe (FIFO), not a regular file`.
    public var reason: String
    /// The bare cause without what the file is for: `strerror(errno)` for a failed system call
    /// (`No such file or directory`), else the same as ``reason``.
    public var detail: String

    /// An error about `path`; `detail` defaults to `reason`.
    public init(path: String, kind: Kind, reason: String, detail: String? = nil) {
        self.path = path
        self.kind = kind
        self.reason = reason
        self.detail = detail ?? reason
    }

    public var description: String { "\(path): \(reason)" }

    /// 66 for a missing or non-regular file, 65 for one over the limit, 74 for a read that failed.
    public var exitStatus: Int32 {
        switch kind {
        case .notFound, .notRegular: ExitStatus.noInput
        case .tooLarge: ExitStatus.dataError
        case .unreadable: ExitStatus.ioError
        }
    }
}

// `read` is easy to shadow in types that have a `read` method.
func Glibc_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
