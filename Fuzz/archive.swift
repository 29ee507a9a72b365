// libFuzzer entry point: merge's archive reader (libarchive with merge's rules and limits). Each input is
// written into a new private scratch folder and unpacked into a folder inside it, and the whole scratch
// folder is removed afterwards: whatever the input, nothing may be written outside it, and nothing stays.
// The scratch folders go to /dev/shm when it is writable: on a disk, creating and removing them made the
// run 20 times slower (waiting on the file system, not computing).
import BoundedInput
import Glibc
import MergeParts

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let directory = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : ScratchFolder.temporaryDirectory
    guard let scratch = try? ScratchFolder(in: directory, prefix: "smokescreen-fuzz-archive") else {
        fatalError("no scratch folder")
    }
    defer { scratch.remove() }
    let path = scratch.path + "/input.tar.gz"
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { fatalError("cannot write \(path)") }
    var offset = 0
    while offset < size {
        let n = write(fd, data + offset, size - offset)
        guard n > 0 else { fatalError("cannot write \(path)") }
        offset += n
    }
    close(fd)
    guard mkdir(scratch.path + "/out", 0o700) == 0 else { fatalError("cannot make \(scratch.path)/out") }
    _ = try? ArchiveUnpacker.unpack(path, into: scratch.path + "/out")
    return 0
}
