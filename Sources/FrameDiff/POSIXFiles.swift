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
    static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

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
    /// The contents of the file at `path`, refusing more than `limit` bytes.
    static func read(_ path: String, limit: Int) throws(POSIXFailure) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw POSIXFailure(path: path, reason: message(errno)) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n > 0 { bytes += chunk[0..<n] }
            if bytes.count > limit { throw POSIXFailure(path: path, reason: "over the limit of \(limit) bytes") }
            if n < chunk.count {
                if ferror(file) != 0 { throw POSIXFailure(path: path, reason: message(errno)) }
                return bytes
            }
        }
    }
}

/// A failed system call: the path it was about and `strerror(errno)`.
struct POSIXFailure: Error {
    var path: String
    var reason: String
}
