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
package enum POSIXFiles {
    /// `strerror(code)`.
    static func message(_ code: Int32) -> String { systemErrorMessage(code) }

    /// Creates `path` and any missing parent folders (``Directories/create(_:)``).
    package static func createDirectories(_ path: String) throws(POSIXFailure) {
        do { try Directories.create(path) } catch { throw POSIXFailure(path: error.path, reason: error.reason) }
    }

    /// The names in a folder, without `.` and `..`.
    package static func list(_ path: String) throws(POSIXFailure) -> [String] {
        do { return try Directories.list(path) } catch { throw POSIXFailure(path: error.path, reason: error.reason) }
    }
}

extension POSIXFiles {
    /// The contents of the regular file at `path`, refusing more than `limit` bytes before reading.
    package static func read(_ path: String, limit: Int) throws(POSIXFailure) -> [UInt8] {
        do { return try InputFile.read(path, limit: limit, what: "file") } catch { throw POSIXFailure(path: path, reason: error.detail) }
    }
}

/// A failed system call: the path it was about and `strerror(errno)`.
package struct POSIXFailure: Error {
    var path: String
    package var reason: String
}
