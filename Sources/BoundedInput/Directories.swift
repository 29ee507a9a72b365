#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Folder operations through the C library, so that failures carry `strerror(errno)`.
public enum Directories {
    /// Creates `path` and any missing parents (mode 0777 less the umask); existing folders are fine.
    /// - Throws: the first component that could not be made and why (`Not a directory` when a file is
    ///   in the way).
    public static func create(_ path: String) throws(DirectoryError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o777) != 0 {
                let code = errno
                var info = stat()
                guard code == EEXIST, stat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                    if code == EEXIST, isDanglingLink(prefix) {
                        throw DirectoryError(path: prefix, reason: "a symbolic link to something that does not exist (a dangling link); nothing was written")
                    }
                    throw DirectoryError(path: prefix, reason: systemErrorMessage(code == EEXIST ? ENOTDIR : code))
                }
            }
            prefix += "/"
        }
    }

    /// Whether `path` is a symbolic link whose target does not exist.
    public static func isDanglingLink(_ path: String) -> Bool {
        var link = stat(), target = stat()
        return lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK && stat(path, &target) != 0 && errno == ENOENT
    }

    /// The names in a folder, without `.` and `..`, in the order the system gives them.
    public static func list(_ path: String) throws(DirectoryError) -> [String] {
        guard let directory = opendir(path) else { throw DirectoryError(path: path, reason: systemErrorMessage(errno)) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// A folder operation that failed: the path it failed at and `strerror(errno)`.
public struct DirectoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The folder (or the component of its path) where it failed.
    public var path: String
    /// `strerror(errno)`.
    public var reason: String

    /// An error at `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
