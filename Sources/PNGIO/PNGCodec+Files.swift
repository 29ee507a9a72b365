#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import BoundedInput
import RasterCore

extension PNGCodec {
    /// The largest PNG file ``read(contentsOf:scale:)`` accepts, in bytes (1 GiB). Larger files are
    /// refused with ``PNGError/Kind/tooLarge`` before anything is read.
    public static let maxFileSize = Limits.pngFileBytes

    /// Encodes `bitmap` (see ``encode(_:compression:)``) and writes it to `path` atomically: the PNG goes to
    /// a temporary file in the same directory (`.<name>.tmp-<pid>-<random>`), which is then renamed over
    /// `path`. An interrupted write never leaves a truncated PNG at `path`; on failure the temporary file is
    /// removed. An existing file at `path` is replaced. The file is not fsync'ed (a crash of the process is
    /// covered, a power loss is not).
    /// - Parameter bitmap: the image to encode.
    /// - Parameter path: the file to write; its folder must exist.
    /// - Parameter compression: default ``PNGCompression/fast``.
    /// - Throws: ``PNGError`` with `path`: `writeFailed` (reason from `strerror(errno)`, e.g. a missing
    ///   directory), or an encoding error.
    public static func write(_ bitmap: Bitmap, to path: String, compression: PNGCompression = .fast) throws(PNGError) {
        guard !path.isEmpty else { throw PNGError(path: path, kind: .writeFailed, reason: "empty path") }
        try withEncoded(bitmap, compression: compression, path: path) { bytes, _ throws(PNGError) in
            try writeAtomically(bytes, to: path)
        }
    }

    /// Reads and decodes the PNG file at `path` (see `decode(_:name:scale:)`).
    /// - Parameter scale: the bitmap's scale; by default taken from the file name (``scale(forPath:)``:
    /// - Parameter path: the PNG file to read.
    ///   `icon@2x.png` gives 2, no suffix gives 1).
    /// - Throws: ``PNGError`` with `path`: `fileNotFound`, `notRegularFile` (a directory, a FIFO, a device), `unreadable`, `tooLarge`
    ///   (a file over ``maxFileSize`` or an image over the bitmap limits), `notPNG`, `corrupt`, ...
    public static func read(contentsOf path: String, scale: Double? = nil) throws(PNGError) -> Bitmap {
        try readWithHeader(contentsOf: path, scale: scale).bitmap
    }

    /// Reads and decodes the PNG file at `path` and also returns its header as stored in the file.
    /// Same behaviour and errors as ``read(contentsOf:scale:)``.
    public static func readWithHeader(contentsOf path: String, scale: Double? = nil) throws(PNGError) -> (bitmap: Bitmap, header: PNGHeader) {
        let bytes = try readFile(path)
        return try decodeWithHeader(bytes, name: path, scale: scale ?? self.scale(forPath: path))
    }

    /// The bytes of the PNG file at `path`, read with the checks of ``read(contentsOf:scale:)`` (a regular
    /// file within ``maxFileSize``) but not decoded: for checking a file's digest before decoding it.
    /// - Throws: ``PNGError`` with `path`: `fileNotFound`, `notRegularFile`, `unreadable`, `tooLarge`.
    public static func readBytes(contentsOf path: String) throws(PNGError) -> [UInt8] { try readFile(path) }

    /// The scale (pixels per point) named by a file name's `@<n>x` suffix before `.png`: `name@2x.png` → 2,
    /// `name@3x.png` → 3, `name@1.5x.png` → 1.5; 1 when there is no such suffix. Only the last path
    /// component counts; `.png` is matched case-insensitively and is optional.
    public static func scale(forPath path: String) -> Double {
        var name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        if name.lowercased().hasSuffix(".png") { name = name.dropLast(4) }
        guard let at = name.lastIndex(of: "@") else { return 1 }
        let suffix = name[name.index(after: at)...]
        guard suffix.count >= 2, suffix.last == "x" else { return 1 }
        let number = suffix.dropLast()
        guard number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Double(number), value.isFinite, value > 0 else { return 1 }
        return value
    }

    /// The whole contents of the regular file at `path`, refusing files over ``maxFileSize`` before
    /// reading, and anything that is not a regular file (a folder, a FIFO, a device) at once.
    static func readFile(_ path: String) throws(PNGError) -> [UInt8] {
        do { return try InputFile.read(path, limit: maxFileSize, what: "PNG file") } catch {
            let kind: PNGError.Kind = switch error.kind {
            case .notFound: .fileNotFound
            case .notRegular: .notRegularFile
            case .unreadable: .unreadable
            case .tooLarge: .tooLarge
            }
            throw PNGError(path: path, kind: kind, reason: error.detail)
        }
    }

    /// Writes already-encoded bytes (a PNG from ``encode(_:compression:)``, or any file that must never
    /// be seen half-written) to a temporary file next to `path` and renames it over `path`
    /// (`AtomicFile`).
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(PNGError) {
        do { try AtomicFile.write(bytes, to: path) } catch { throw PNGError(path: path, kind: .writeFailed, reason: error.reason) }
    }

    /// Writes `data` to a temporary file next to `path` and renames it over `path`.
    static func writeAtomically(_ data: UnsafeRawBufferPointer, to path: String) throws(PNGError) {
        do { try AtomicFile.write(data, to: path) } catch { throw PNGError(path: path, kind: .writeFailed, reason: error.reason) }
    }
}
