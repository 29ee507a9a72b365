import BoundedInput
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Folder operations through the C library, so that failures carry `strerror(errno)` (Foundation's
/// errors on Linux often say only "The operation could not be completed").
enum POSIXFiles {
    /// `strerror(code)`.
    static func message(_ code: Int32) -> String { systemErrorMessage(code) }

    /// Creates `path` and any missing parent folders (mode 0777 less the umask).
    /// - Throws: the reason, e.g. `Not a directory`, naming nothing else (the caller names the path).
    static func createDirectories(_ path: String) throws(POSIXFailure) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o777) != 0 {
                let code = errno
                var info = stat()
                // An existing folder is fine; an existing file is not.
                guard code == EEXIST, stat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                    throw POSIXFailure(path: prefix, reason: message(code == EEXIST ? ENOTDIR : code))
                }
            }
            prefix += "/"
        }
    }

    /// The names in a folder, without `.` and `..`.
    static func list(_ path: String) throws(POSIXFailure) -> [String] {
        guard let directory = opendir(path) else { throw POSIXFailure(path: path, reason: message(errno)) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

extension POSIXFiles {
    /// The contents of the regular file at `path`, refusing more than `limit` bytes before reading.
    static func read(_ path: String, limit: Int) throws(POSIXFailure) -> [UInt8] {
        do { return try InputFile.read(path, limit: limit, what: "file") } catch { throw POSIXFailure(path: path, reason: error.detail) }
    }
}

/// A failed system call: the path it was about and `strerror(errno)`.
struct POSIXFailure: Error {
    var path: String
    var reason: String
}
