// libFuzzer entry point: merge's archive reader (libarchive with merge's rules and limits). Each input is
// written to one file of this process and unpacked into a new private scratch folder, which is removed
// afterwards; whatever the input, nothing may be written outside that folder.
import BoundedInput
import Glibc
import MergeParts

nonisolated(unsafe) var archivePath: String?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let directory = ScratchFolder.temporaryDirectory
    let path = archivePath ?? "\(directory)/smokescreen-fuzz-archive-\(getpid()).tar.gz"
    archivePath = path
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { fatalError("cannot write \(path)") }
    var offset = 0
    while offset < size {
        let n = write(fd, data + offset, size - offset)
        guard n > 0 else { fatalError("cannot write \(path)") }
        offset += n
    }
    close(fd)
    guard let scratch = try? ScratchFolder(in: directory, prefix: "smokescreen-fuzz-scratch") else { fatalError("no scratch folder") }
    _ = try? ArchiveUnpacker.unpack(path, into: scratch.path)
    scratch.remove()
    return 0
}
