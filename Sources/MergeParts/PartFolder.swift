#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import BoundedInput
import CLibCrypto

/// One part's folder, read without following any link inside it: every folder below the root is
/// opened with `O_NOFOLLOW | O_DIRECTORY` from its parent's descriptor and every file with
/// `O_NOFOLLOW | O_NONBLOCK`, then checked with `fstat` to be a regular file of at most the limit. A
/// symbolic link anywhere below the root is an error (exit 65) naming it; the root itself is the path as
/// the user gave it. Components are names (``TransitionName``, or a file name merge knows), never paths.
public struct PartFolder: Sendable {
    /// The folder as given (a link there is the user's choice and is followed).
    public let root: String
    /// How messages name the root: the folder as given, or `part.tgz:folder` for an unpacked archive.
    public let shown: String

    /// The part at `root`, named `shown` in messages (default `root`).
    public init(root: String, shown: String? = nil) {
        self.root = root
        self.shown = shown ?? root
    }

    /// The path of `components` under the root, for messages.
    public func path(_ components: [String]) -> String {
        shown.hasSuffix(":") ? shown + components.joined(separator: "/") : ([shown] + components).joined(separator: "/")
    }

    /// The path of `components` under the root on disk.
    public func realPath(_ components: [String]) -> String { ([root] + components).joined(separator: "/") }

    /// What is at `components`: nil when nothing is there.
    public enum Kind: Equatable, Sendable { case file, folder, link, other }

    /// What is at `components` (not following a link at its end, and refusing links on the way).
    public func kind(_ components: [String]) throws(MergePartsError) -> Kind? {
        guard let last = components.last else { return .folder }
        let folder = try openFolder(Array(components.dropLast()))
        guard folder >= 0 else { return nil }
        defer { close(folder) }
        var info = stat()
        guard fstatat(folder, last, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw MergePartsError("\(path(components)): \(systemErrorMessage(code))", exitStatus: ExitStatus.ioError)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// Whether a regular file is at `components`; a link there is an error.
    public func hasFile(_ components: [String]) throws(MergePartsError) -> Bool {
        switch try kind(components) {
        case .file: return true
        case .link: throw linkError(components)
        default: return false
        }
    }

    /// Opens the regular file at `components` (no link followed anywhere below the part) for reading,
    /// blocking, after checking its size against `limit`; returns the descriptor and the size. The
    /// caller closes it.
    private func openRegularFile(_ components: [String], limit: Int, what: String) throws(MergePartsError) -> (fd: Int32, size: Int) {
        guard let last = components.last else { throw MergePartsError("\(shown): the \(what) has no name") }
        let folder = try openFolder(Array(components.dropLast()))
        guard folder >= 0 else { throw MergePartsError("\(path(components)): no such \(what)", exitStatus: ExitStatus.noInput) }
        defer { close(folder) }
        let fd = openat(folder, last, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP { throw linkError(components) }
            throw MergePartsError("\(path(components)): cannot open the \(what): \(systemErrorMessage(code))",
                                  exitStatus: code == ENOENT ? ExitStatus.noInput : ExitStatus.ioError)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw MergePartsError("\(path(components)): cannot read the \(what): \(systemErrorMessage(code))", exitStatus: ExitStatus.ioError)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw MergePartsError("\(path(components)): the \(what) is not a regular file", exitStatus: ExitStatus.noInput)
        }
        let size = Int(info.st_size)
        guard size <= limit else {
            close(fd)
            throw MergePartsError("\(path(components)): the \(what) is \(size) bytes, over the limit of \(limit) bytes")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return (fd, size)
    }

    /// The bytes of the regular file at `components`, at most `limit` of them.
    public func read(_ components: [String], limit: Int, what: String) throws(MergePartsError) -> [UInt8] {
        let (fd, size) = try openRegularFile(components, limit: limit, what: what)
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress! + count, raw.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw MergePartsError("\(path(components)): cannot read the \(what): \(systemErrorMessage(errno))", exitStatus: ExitStatus.ioError)
            }
            if n == 0 { break }
            count += n
        }
        guard count <= size else { throw MergePartsError("\(path(components)): the \(what) grew while it was read", exitStatus: ExitStatus.ioError) }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Copies the regular file at `components` (at most `limit` bytes) to `destination`, a new file
    /// (created with `O_EXCL | O_NOFOLLOW`), 1 MiB at a time while computing its SHA-256, so memory
    /// stays small whatever the file's size. Returns the lowercase hex SHA-256 of what was copied.
    public func copy(_ components: [String], limit: Int, what: String, to destination: String) throws(MergePartsError) -> String {
        let (fd, _) = try openRegularFile(components, limit: limit, what: what)
        defer { close(fd) }
        let out = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard out >= 0 else {
            throw MergePartsError("\(destination): cannot write: \(systemErrorMessage(errno))", exitStatus: ExitStatus.cannotCreate)
        }
        defer { close(out) }
        var context = SHA256_CTX()
        SHA256_Init(&context)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw MergePartsError("\(path(components)): cannot read the \(what): \(systemErrorMessage(errno))", exitStatus: ExitStatus.ioError)
            }
            total += n
            guard total <= limit else { throw MergePartsError("\(path(components)): the \(what) grew while it was read", exitStatus: ExitStatus.ioError) }
            buffer.withUnsafeBytes { _ = SHA256_Update(&context, $0.baseAddress, n) }
            var offset = 0
            while offset < n {
                let m = buffer.withUnsafeBytes { Glibc.write(out, $0.baseAddress! + offset, n - offset) }
                if m < 0 {
                    if errno == EINTR { continue }
                    throw MergePartsError("\(destination): cannot write: \(systemErrorMessage(errno))", exitStatus: ExitStatus.ioError)
                }
                offset += m
            }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        SHA256_Final(&digest, &context)
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
    }

    public func linkError(_ components: [String]) -> MergePartsError {
        MergePartsError("\(path(components)): is a symbolic link; merge follows no link inside a part")
    }

    /// A descriptor of the folder at `components` (the caller closes it), or -1 when it does not exist.
    private func openFolder(_ components: [String]) throws(MergePartsError) -> Int32 {
        var fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return -1 }
            throw MergePartsError("\(shown): \(systemErrorMessage(code))", exitStatus: ExitStatus.ioError)
        }
        for (k, component) in components.enumerated() {
            let next = openat(fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let code = errno
            close(fd)
            guard next >= 0 else {
                let here = Array(components[...k])
                if code == ENOENT { return -1 }
                if code == ELOOP { throw linkError(here) }
                if code == ENOTDIR {
                    // A link to a folder fails O_NOFOLLOW | O_DIRECTORY with ENOTDIR on some systems.
                    if case .link? = try? kind(here) { throw linkError(here) }
                    return -1
                }
                throw MergePartsError("\(path(here)): \(systemErrorMessage(code))", exitStatus: ExitStatus.ioError)
            }
            fd = next
        }
        return fd
    }
}
