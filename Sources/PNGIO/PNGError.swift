import BoundedInput
/// Why a PNG could not be read, decoded, encoded or written.
///
/// `description` reads like `assets/x.png: not a PNG file (bad signature)` or
/// `assets/x.png: corrupt PNG: IDAT: incorrect data check`.
public struct PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The category of failure.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The file does not exist (`ENOENT`).
        case fileNotFound
        /// The file exists but cannot be opened or read (permissions, an I/O error, ...).
        case unreadable
        /// The path is not a regular file (a folder, a FIFO, a device): refused without reading, exit 66
        /// like a missing file.
        case notRegularFile
        /// The data does not start with the PNG signature, or is empty.
        case notPNG
        /// The data starts like a PNG but is damaged or incomplete (CRC or zlib errors, truncation,
        /// a missing IEND, invalid chunks). `reason` is libpng's message where libpng gave one.
        case corrupt
        /// The image (or file) is over the size limits: see `Bitmap.maxDimension`, `Bitmap.maxPixelCount`
        /// and ``PNGCodec/maxFileSize``.
        case tooLarge
        /// Memory ran out while decoding or encoding.
        case outOfMemory
        /// A parameter is out of range (a scale that is not finite and positive, a zlib level outside 0...9, ...).
        case invalidArgument
        /// libpng refused to encode the image.
        case encodeFailed
        /// The PNG could not be written to its destination (`reason` is `strerror(errno)`).
        case writeFailed
    }

    /// The file path, or the name given to a decode from memory (default `<memory>`).
    public var path: String
    /// The category of failure.
    public var kind: Kind
    /// The details: libpng's own message where libpng gave one, `strerror(errno)` for system calls.
    public var reason: String

    /// Creates an error.
    public init(path: String, kind: Kind, reason: String) {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    public var description: String {
        let detail: String
        switch kind {
        case .fileNotFound: detail = "file not found (\(reason))"
        case .unreadable, .notRegularFile: detail = "cannot read file: \(reason)"
        case .notPNG: detail = "not a PNG file (\(reason))"
        case .corrupt: detail = "corrupt PNG: \(reason)"
        case .tooLarge: detail = "image too large: \(reason)"
        case .outOfMemory: detail = "out of memory: \(reason)"
        case .invalidArgument: detail = "invalid argument: \(reason)"
        case .encodeFailed: detail = "cannot encode PNG: \(reason)"
        case .writeFailed: detail = "cannot write PNG: \(reason)"
        }
        return "\(path): \(detail)"
    }
}

extension PNGError: ExitStatusError {
    /// 66 for a missing file or one that is not a regular file, 74 for one that cannot be read or written, 65 for data that is not a usable
    /// PNG, 1 otherwise.
    public var exitStatus: Int32 {
        switch kind {
        case .fileNotFound, .notRegularFile: ExitStatus.noInput
        case .unreadable, .writeFailed: ExitStatus.ioError
        case .notPNG, .corrupt, .tooLarge: ExitStatus.dataError
        case .outOfMemory, .invalidArgument, .encodeFailed: ExitStatus.failure
        }
    }
}
