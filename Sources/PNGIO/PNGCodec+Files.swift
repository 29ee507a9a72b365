#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CPNGShim
import RasterCore

extension PNGCodec {
    /// The largest PNG file ``read(contentsOf:scale:)`` accepts, in bytes (1 GiB). Larger files are
    /// refused with ``PNGError/Kind/tooLarge`` before anything is read.
    public static let maxFileSize = 1 << 30

    /// Encodes `bitmap` (see ``encode(_:compression:)``) and writes it to `path` atomically: the PNG goes to
    /// a temporary file in the same directory (`.<name>.tmp-<pid>-<random>`), which is then renamed over
    /// `path`. An interrupted write never leaves a truncated PNG at `path`; on failure the temporary file is
    /// removed. An existing file at `path` is replaced. The file is not fsync'ed (a crash of the process is
    /// covered, a power loss is not).
    /// - Parameter compression: default ``PNGCompression/fast``.
    /// - Throws: ``PNGError`` with `path`: `writeFailed` (reason from `strerror(errno)`, e.g. a missing
    ///   directory), or an encoding error.
    public static func write(_ bitmap: Bitmap, to path: String, compression: PNGCompression = .fast) throws(PNGError) {
        guard !path.isEmpty else { throw PNGError(path: path, kind: .writeFailed, reason: "empty path") }
        var buffer = try encodeToBuffer(bitmap, compression: compression, path: path)
        defer { cpng_buffer_free(&buffer) }
        try writeAtomically(UnsafeRawBufferPointer(start: buffer.data, count: buffer.size), to: path)
    }

    /// Reads and decodes the PNG file at `path` (see ``decode(_:name:scale:)``).
    /// - Parameter scale: the bitmap's scale; by default taken from the file name (``scale(forPath:)``:
    ///   `icon@2x.png` gives 2, no suffix gives 1).
    /// - Throws: ``PNGError`` with `path`: `fileNotFound`, `unreadable` (including a directory), `tooLarge`
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

    /// The whole contents of the file at `path`, refusing files over ``maxFileSize``.
    static func readFile(_ path: String) throws(PNGError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw PNGError(path: path, kind: code == ENOENT ? .fileNotFound : .unreadable, reason: systemMessage(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw PNGError(path: path, kind: .unreadable, reason: systemMessage(errno))
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { throw PNGError(path: path, kind: .unreadable, reason: systemMessage(EISDIR)) }
        var expected = 64 * 1024
        if type == S_IFREG {
            let size = Int(info.st_size)
            guard size <= maxFileSize else {
                throw PNGError(path: path, kind: .tooLarge,
                               reason: "the file is \(size) bytes, over the limit of \(maxFileSize) bytes (1 GiB)")
            }
            expected = size + 1  // one more byte, so that the read finding end-of-file needs no growth
        }
        var bytes = [UInt8](repeating: 0, count: expected)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= maxFileSize else {
                    throw PNGError(path: path, kind: .tooLarge, reason: "the file is over the limit of \(maxFileSize) bytes (1 GiB)")
                }
                bytes.append(contentsOf: repeatElement(0, count: bytes.count))
            }
            let n = bytes.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc_read(fd, base + count, raw.count - count)
            }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                throw PNGError(path: path, kind: .unreadable, reason: systemMessage(code))
            }
            if n == 0 { break }
            count += n
        }
        guard count <= maxFileSize else {
            throw PNGError(path: path, kind: .tooLarge, reason: "the file is over the limit of \(maxFileSize) bytes (1 GiB)")
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Writes already-encoded bytes (a PNG from ``encode(_:compression:)``, or any file that must never
    /// be seen half-written) to a temporary file next to `path` and renames it over `path`.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(PNGError) {
        let outcome: Result<Void, PNGError> = bytes.withUnsafeBytes { raw in
            do throws(PNGError) { try writeAtomically(raw, to: path); return .success(()) } catch { return .failure(error) }
        }
        try outcome.get()
    }

    /// Writes `data` to a temporary file next to `path` and renames it over `path`.
    static func writeAtomically(_ data: UnsafeRawBufferPointer, to path: String) throws(PNGError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty, name != ".", name != ".." else {
            throw PNGError(path: path, kind: .writeFailed, reason: "the path names a directory, not a file")
        }
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        let temporary = "\(directory).\(name).tmp-\(getpid())-\(random)"

        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            throw PNGError(path: path, kind: .writeFailed, reason: "cannot create a temporary file: \(systemMessage(errno))")
        }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }

        var offset = 0
        while offset < data.count, let base = data.baseAddress {
            let n = Glibc_write(fd, base + offset, data.count - offset)
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                close(fd)
                throw PNGError(path: path, kind: .writeFailed, reason: systemMessage(code))
            }
            offset += n
        }
        if close(fd) != 0 {
            throw PNGError(path: path, kind: .writeFailed, reason: systemMessage(errno))
        }
        guard rename(temporary, path) == 0 else {
            throw PNGError(path: path, kind: .writeFailed, reason: systemMessage(errno))
        }
        renamed = true
    }

    /// `strerror(code)`.
    static func systemMessage(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

// `read` / `write` are shadowed inside PNGCodec by its own `read(contentsOf:)` and `write(_:to:)`.
private func Glibc_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

private func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
