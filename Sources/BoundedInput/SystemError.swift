#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `strerror(code)`: the C library's reason for a failed system call, e.g. `No such file or directory`.
/// (Foundation's errors on Linux often say only "The operation could not be completed" with a code.)
public func systemErrorMessage(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}

/// Exit statuses of the `smokescreen` command, from BSD's `sysexits.h`.
public enum ExitStatus {
    /// A render failed or a comparison found differences: 1.
    public static let failure: Int32 = 1
    /// Bad command-line usage: 64 (`EX_USAGE`).
    public static let usage: Int32 = 64
    /// Input data that cannot be used (a plist, PNG, manifest, scene): 65 (`EX_DATAERR`).
    public static let dataError: Int32 = 65
    /// An input that does not exist or is not a readable regular file: 66 (`EX_NOINPUT`).
    public static let noInput: Int32 = 66
    /// An output that cannot be created, or a folder that holds files Smokescreen did not write: 73
    /// (`EX_CANTCREAT`).
    public static let cannotCreate: Int32 = 73
    /// Reading or writing failed: 74 (`EX_IOERR`).
    public static let ioError: Int32 = 74
}

/// An error that knows the exit status it stands for and describes itself in one line that names the
/// file, key path or argument and the reason.
public protocol ExitStatusError: Error, CustomStringConvertible {
    /// One of ``ExitStatus``'s values.
    var exitStatus: Int32 { get }
}
