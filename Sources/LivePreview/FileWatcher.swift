import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Watches files through inotify and calls back once per burst of changes. Folders are watched, not the
/// files: editors save by writing a new file and renaming it over the old one, which a watch on the old
/// file's inode would miss.
public final class FileWatcher: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    /// The files of interest in each watched folder, by watch descriptor; `*.json` stands for any scene file.
    private var watched: [Int32: (folder: String, names: Set<String>)] = [:]
    private var stopped = false
    private var thread: Thread?
    /// How long a burst of events may last before the callback runs (seconds): an editor's save is a
    /// write, a rename and a chmod within a millisecond or two.
    public var settleTime = 0.015

    /// Starts an inotify instance.
    /// - Throws: ``PreviewError`` with the system's reason when inotify is unavailable.
    public init() throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw PreviewError("inotify: \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    /// Watches `files` (names by folder) from now on, in addition to what is watched already. A folder
    /// that does not exist is skipped (a render reports the missing file).
    public func watch(_ files: [String: Set<String>]) {
        lock.withLock {
            for (folder, names) in files {
                // What changes content: a file written and closed, renamed into place (an editor's save), renamed
                // away or deleted. Not IN_ATTRIB: a save that restores the file's mode after the rename would
                // otherwise reload twice.
                let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
                let wd = inotify_add_watch(fd, folder, mask)
                guard wd >= 0 else { continue }
                watched[wd] = (folder, (watched[wd]?.names ?? []).union(names))
            }
        }
    }

    /// Calls `changed` on a thread of its own after each burst of changes to a watched file, until ``stop()``.
    public func start(_ changed: @escaping @Sendable ([String]) -> Void) {
        let thread = Thread { [self] in
            var pending: [String] = []
            var deadline: Double?
            while !lock.withLock({ stopped }) {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let wait = deadline.map { max(0, Int32(($0 - Date().timeIntervalSince1970) * 1000)) } ?? 100
                _ = poll(&pfd, 1, min(wait, 100))
                pending += readEvents()
                if !pending.isEmpty, deadline == nil { deadline = Date().timeIntervalSince1970 + settleTime }
                if let d = deadline, Date().timeIntervalSince1970 >= d {
                    let files = pending
                    pending = []
                    deadline = nil
                    changed(files)
                }
            }
        }
        thread.name = "smokescreen-serve-watch"
        self.thread = thread
        thread.start()
    }

    /// Stops calling back (within 100 ms).
    public func stop() { lock.withLock { stopped = true } }

    /// The watched files named by the events waiting.
    private func readEvents() -> [String] {
        var found: [String] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= n {
                let (wd, length) = buffer.withUnsafeBytes { raw -> (Int32, Int) in
                    let e = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (e.wd, Int(e.len))
                }
                let nameBytes = buffer[(offset + header)..<min(n, offset + header + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                offset += header + length
                guard let watch = lock.withLock({ watched[wd] }) else { continue }
                if watch.names.contains(name) || (watch.names.contains("*.json") && name.lowercased().hasSuffix(".json") && !name.hasPrefix(".")) {
                    found.append("\(watch.folder)/\(name)")
                }
            }
        }
        return found
    }
}
