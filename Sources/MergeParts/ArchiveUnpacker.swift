#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import BoundedInput
import CArchiveShim
import FrameStore

/// Unpacks a part given as `.tar`, `.tar.gz` or `.tgz`, in-process with libarchive (tar formats, gzip
/// or none; no child process), into a folder merge made for it.
///
/// Rules, each refusal naming the archive and the member (exit 65 unless said):
/// - The archive must be a regular file: a FIFO, a device or a folder is refused at once, without
///   blocking (exit 66).
/// - Members are regular files and folders only: symbolic and hard links, devices, FIFOs and sockets
///   are refused, and so are setuid, setgid and sticky bits.
/// - Member paths are relative, without `..`, at most ``Limits/archiveDepth`` deep and
///   ``Limits/archivePathBytes`` long (255 bytes a name).
/// - Only the files merge reads are written: `catalogue.json`, `manifest.json` and `frame_N.png`, at
///   most three levels down, in folders whose names follow ``TransitionName``; anything else is read
///   past. Each such file is at most ``Limits/manifestBytes`` (JSON) or ``Limits/pngFileBytes`` (a
///   frame), all regular members together at most ``Limits/archiveBytes``, at most
///   ``Limits/archiveEntries`` members, and the unpacked-to-compressed ratio at most
///   ``Limits/archiveRatio`` once 64 MiB are unpacked.
/// - Files are created with `O_EXCL | O_NOFOLLOW` (mode 0600) under folders opened with `O_NOFOLLOW`,
///   so nothing is written outside `destination`, and a member given twice is refused.
/// - A write that fails (a full disk) is an I/O error naming the member and `strerror` (exit 74).
public enum ArchiveUnpacker {
    /// Whether merge treats `part` as an archive (by its name).
    public static func isArchiveName(_ part: String) -> Bool {
        let lower = part.lowercased()
        return lower.hasSuffix(".tar") || lower.hasSuffix(".tar.gz") || lower.hasSuffix(".tgz")
    }

    /// Unpacks the archive at `archive` into the existing, empty folder `destination`.
    public static func unpack(_ archive: String, into destination: String) throws(MergePartsError) {
        let fd = open(archive, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw MergePartsError("\(archive): cannot open the archive: \(systemErrorMessage(code))",
                                  exitStatus: code == ENOENT || code == ENOTDIR ? ExitStatus.noInput : ExitStatus.ioError)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw MergePartsError("\(archive): cannot read the archive: \(systemErrorMessage(errno))", exitStatus: ExitStatus.ioError)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw MergePartsError("\(archive): the archive is \(describe(info.st_mode & S_IFMT)), not a regular file", exitStatus: ExitStatus.noInput)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let root = open(destination, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard root >= 0 else {
            throw MergePartsError("\(destination): cannot open the scratch folder: \(systemErrorMessage(errno))", exitStatus: ExitStatus.ioError)
        }
        defer { close(root) }
        var reason = [CChar](repeating: 0, count: 512)
        guard carc_load(&reason, reason.count) == 0 else {
            throw MergePartsError("\(archive): \(reason.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })", exitStatus: ExitStatus.failure)
        }
        guard let reader = carc_open_fd(fd, &reason, reason.count) else {
            throw MergePartsError("\(archive): not a tar archive merge can read (\(reason.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }))")
        }
        defer { carc_read_free(reader) }
        var unpacker = Unpacker(archive: archive, destination: destination, reader: reader, root: root)
        try unpacker.run()
    }

    /// What `mode & S_IFMT` is, in messages.
    static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    /// Whether merge reads a file of this name (and so unpacks it).
    static func isWanted(_ name: String) -> Bool {
        name == "catalogue.json" || name == Manifest.fileName || FrameFileName.index(of: name) != nil
    }

    private struct Unpacker {
        let archive: String
        let destination: String
        let reader: OpaquePointer
        let root: Int32
        var entries = 0
        var declared: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)

        init(archive: String, destination: String, reader: OpaquePointer, root: Int32) {
            self.archive = archive
            self.destination = destination
            self.reader = reader
            self.root = root
        }

        func fail(_ member: String, _ reason: String, _ status: Int32 = ExitStatus.dataError) -> MergePartsError {
            MergePartsError("\(archive): member '\(shown(member))': \(reason)", exitStatus: status)
        }

        func libarchiveError(_ what: String) -> MergePartsError {
            let message = carc_error_string(reader).map { String(cString: $0) } ?? "unknown error"
            let code = carc_errno(reader)
            // A failed read of the file itself is I/O; everything else is a damaged or foreign archive.
            if code == EIO || code == ENOSPC {
                return MergePartsError("\(archive): \(what): \(message)", exitStatus: ExitStatus.ioError)
            }
            return MergePartsError("\(archive): \(what): not a tar archive merge can read (\(message))")
        }

        mutating func run() throws(MergePartsError) {
            while true {
                var entry: OpaquePointer?
                let status = carc_read_next_header(reader, &entry)
                if status == CARC_EOF { return }
                guard status == CARC_OK || status == CARC_WARN, let entry else {
                    throw libarchiveError(entries == 0 ? "cannot read it" : "after \(entries) members")
                }
                entries += 1
                guard entries <= Limits.archiveEntries else {
                    throw MergePartsError("\(archive): more than \(Limits.archiveEntries) members, over the limit")
                }
                try member(entry)
            }
        }

        mutating func member(_ entry: OpaquePointer) throws(MergePartsError) {
            guard let raw = carc_entry_pathname(entry) else {
                throw MergePartsError("\(archive): member \(entries) has a name that cannot be read")
            }
            let length = strlen(raw)
            guard length <= Limits.archivePathBytes else {
                throw fail(String(cString: raw), "its path is \(length) bytes long, over the limit of \(Limits.archivePathBytes)")
            }
            let name = String(cString: raw)
            // What it is, before anything else: links, devices and special bits are refused whatever the name.
            if let target = carc_entry_hardlink(entry) {
                throw fail(name, "a hard link (to '\(shown(String(cString: target)))'); parts hold regular files and folders only")
            }
            let type = carc_entry_filetype(entry) & S_IFMT
            if type == S_IFLNK {
                let target = carc_entry_symlink(entry).map { String(cString: $0) } ?? "?"
                throw fail(name, "a symbolic link (to '\(shown(target))'); parts hold regular files and folders only")
            }
            guard type == S_IFREG || type == S_IFDIR else {
                throw fail(name, "\(describe(type)); parts hold regular files and folders only")
            }
            let special = carc_entry_mode(entry) & (S_ISUID | S_ISGID | S_ISVTX)
            if special != 0 {
                let bits = [(S_ISUID, "setuid"), (S_ISGID, "setgid"), (S_ISVTX, "sticky")].filter { special & $0.0 != 0 }.map(\.1)
                throw fail(name, "has the \(bits.joined(separator: " and ")) bit\(bits.count > 1 ? "s" : ""); refused")
            }
            if name.hasPrefix("/") { throw fail(name, "an absolute path; member paths are relative") }
            var components = name.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            while components.first == "." { components.removeFirst() }
            if let bad = components.first(where: { $0 == ".." || $0 == "." }) {
                throw fail(name, "its path has '\(bad)'; member paths go down only")
            }
            if let long = components.first(where: { $0.utf8.count > 255 }) {
                throw fail(name, "a name in its path is \(long.utf8.count) bytes long, over 255")
            }
            guard components.count <= Limits.archiveDepth else {
                throw fail(name, "\(components.count) levels deep, over the limit of \(Limits.archiveDepth)")
            }
            guard type == S_IFREG else { return }  // Folders are made for the files merge writes.

            let size = carc_entry_size_is_set(entry) != 0 ? carc_entry_size(entry) : -1
            guard size >= 0 else { throw fail(name, "its size is not given") }
            let (sum, overflow) = declared.addingReportingOverflow(size)
            guard !overflow, sum <= Limits.archiveBytes else {
                throw fail(name, "the archive's files add up to more than \(Limits.archiveBytes) bytes, over the limit")
            }
            declared = sum
            guard let file = components.last, components.count <= 3, isWanted(file) else {
                try skip(name)
                return
            }
            let folders = Array(components.dropLast())
            if let folder = folders.first(where: { TransitionName.problem(with: $0) != nil }) {
                throw fail(name, "its folder \(TransitionName.problem(with: folder) ?? "")")
            }
            let limit = file.hasSuffix(".json") ? Int64(Limits.manifestBytes) : Int64(Limits.pngFileBytes)
            guard size <= limit else { throw fail(name, "\(size) bytes, over the limit of \(limit) bytes for \(file.hasSuffix(".json") ? "a JSON file" : "a frame")") }
            try write(name, folders: folders, file: file, size: size)
        }

        mutating func skip(_ name: String) throws(MergePartsError) {
            guard carc_read_data_skip(reader) == CARC_OK else { throw libarchiveError("member '\(shown(name))'") }
            try checkRatio(name)
        }

        func checkRatio(_ name: String) throws(MergePartsError) {
            let unpacked = carc_filter_bytes(reader, 0), packed = carc_filter_bytes(reader, -1)
            if unpacked > 64 << 20, packed > 0, unpacked / packed > Limits.archiveRatio {
                throw fail(name, "unpacks to more than \(Limits.archiveRatio) times its compressed size (\(unpacked) bytes from \(packed)); refused as a decompression bomb")
            }
        }

        mutating func write(_ name: String, folders: [String], file: String, size: Int64) throws(MergePartsError) {
            var folder = dup(root)
            guard folder >= 0 else { throw fail(name, "cannot write: \(systemErrorMessage(errno))", ExitStatus.ioError) }
            defer { close(folder) }
            for component in folders {
                if mkdirat(folder, component, 0o700) != 0, errno != EEXIST {
                    let code = errno
                    throw fail(name, "cannot make its folder: \(systemErrorMessage(code))", ioStatus(code))
                }
                let next = openat(folder, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard next >= 0 else {
                    let code = errno
                    throw fail(name, "cannot open its folder: \(systemErrorMessage(code))", code == ENOTDIR || code == ELOOP ? ExitStatus.dataError : ExitStatus.ioError)
                }
                close(folder)
                folder = next
            }
            let fd = openat(folder, file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                let code = errno
                if code == EEXIST { throw fail(name, "given twice in the archive") }
                throw fail(name, "cannot write it: \(systemErrorMessage(code))", ioStatus(code))
            }
            defer { close(fd) }
            var written: Int64 = 0
            while true {
                let n = buffer.withUnsafeMutableBytes { carc_read_data(reader, $0.baseAddress, $0.count) }
                if n == 0 { break }
                guard n > 0 else { throw libarchiveError("member '\(shown(name))'") }
                written += Int64(n)
                guard written <= size else { throw fail(name, "holds more bytes than its header says (\(size))") }
                var offset = 0
                while offset < n {
                    let m = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, n - offset) }
                    if m < 0 {
                        let code = errno
                        if code == EINTR { continue }
                        throw fail(name, "cannot write it to \(destination): \(systemErrorMessage(code))", ExitStatus.ioError)
                    }
                    offset += m
                }
                try checkRatio(name)
            }
        }

        func ioStatus(_ code: Int32) -> Int32 {
            code == ENOSPC || code == EIO || code == EDQUOT || code == EROFS ? ExitStatus.ioError : ExitStatus.cannotCreate
        }
    }
}

/// `text` with control characters and non-ASCII shown as `?`, at most 200 characters, for messages.
func shown(_ text: String) -> String {
    let cleaned = String(text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
    return cleaned.count > 200 ? String(cleaned.prefix(200)) + "…" : cleaned
}
