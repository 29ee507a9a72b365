import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why the server could not listen: the address and the system's reason.
public struct ServerError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }

    /// `what` failed with the current `errno`.
    static func system(_ what: String) -> ServerError {
        let code = errno
        return ServerError("\(what): \(String(cString: strerror(code))) (errno \(code))")
    }
}

/// Linux's `POLLRDHUP` (the peer has closed its end), which Glibc's Swift module leaves out because C
/// declares it only under `_GNU_SOURCE`.
let pollReadHangUp: Int16 = 0x2000

/// The monotonic clock, in nanoseconds; deadlines are points on it.
func monotonicNow() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// A `poll` timeout in milliseconds until `deadline` (-1: none), rounded up so a wait never ends early.
private func pollTimeout(until deadline: UInt64?) -> Int32 {
    guard let deadline else { return -1 }
    let now = monotonicNow()
    guard deadline > now else { return 0 }
    return Int32(min(Int64(Int32.max), Int64((deadline - now + 999_999) / 1_000_000)))
}

enum ListeningSocket {
    /// A non-blocking socket listening on `host:port` (the first address `getaddrinfo` gives, as a
    /// literal or a name; port 0: one the system chooses), and the port it listens on.
    static func open(host: String, port: Int, backlog: Int32 = 256) throws -> (fd: Int32, port: Int) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let found = getaddrinfo(host, String(port), &hints, &list)
        guard found == 0, let address = list else {
            throw ServerError("cannot resolve '\(host)' port \(port): \(String(cString: gai_strerror(found)))")
        }
        defer { freeaddrinfo(list) }
        let fd = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ServerError.system("socket") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            let error = ServerError.system("bind to \(host) port \(port)")
            close(fd)
            throw error
        }
        guard listen(fd, backlog) == 0 else {
            let error = ServerError.system("listen on \(host) port \(port)")
            close(fd)
            throw error
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let error = ServerError.system("getsockname")
            close(fd)
            throw error
        }
        let family = Int32(storage.ss_family)
        let bound = withUnsafePointer(to: &storage) { pointer -> UInt16 in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
        return (fd, Int(bound))
    }
}

/// A pipe one thread's `signal()` writes to wake another's `poll` (Glibc's Swift module has no eventfd).
/// Once signalled it stays readable until `drain()`, so a stop signalled once wakes every wait that
/// includes it, however late.
final class Wakeup: @unchecked Sendable {
    /// The end `poll` waits on.
    let fd: Int32
    private let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw ServerError.system("pipe") }
        for end in ends { setNonBlockingAndCloseOnExec(end) }
        fd = ends[0]
        writeEnd = ends[1]
    }

    func signal() {
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }

    /// Whether `signal()` has been called since the last `drain()`, without waiting.
    var isSignalled: Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(fd, &bytes, bytes.count) > 0 {}
    }

    deinit {
        close(fd)
        close(writeEnd)
    }
}

/// Makes `fd` non-blocking and closed in any program the process starts. (Not atomic with its creation, as
/// `accept4` and `pipe2` would be, which Glibc's Swift module leaves out; the server starts no program.)
func setNonBlockingAndCloseOnExec(_ fd: Int32) {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
}

/// One accepted connection: a non-blocking socket read and written through `poll`, so that every wait
/// also ends at the server's stop (`stop`) and at its deadline.
final class Connection: @unchecked Sendable {
    enum Wait { case ready, timedOut, stopped, woken }
    enum Read { case bytes, closed, timedOut, stopped }

    private let fd: Int32
    private let stop: Wakeup
    /// What each `recv` reads into, kept for the connection (only its own thread reads).
    private var chunk = [UInt8](repeating: 0, count: 16 << 10)
    private let lock = NSLock()
    /// Set when closing begins; the descriptor is closed (and may be reused) only after.
    private var isClosing = false
    private var isClosed = false

    init(fd: Int32, stop: Wakeup) {
        self.fd = fd
        self.stop = stop
    }

    /// Waits for `events` on the socket (a hang-up or error counts as ready), the stop, `also` (when
    /// given) or `deadline` (nil: none).
    func wait(for events: Int16, until deadline: UInt64?, also: Wakeup? = nil) -> Wait {
        while true {
            var fds = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: stop.fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: also?.fd ?? -1, events: Int16(POLLIN), revents: 0)]
            let result = poll(&fds, nfds_t(fds.count), pollTimeout(until: deadline))
            if result < 0 {
                if errno == EINTR { continue }
                return .stopped
            }
            if fds[1].revents != 0 { return .stopped }
            if fds[0].revents != 0 { return .ready }
            if fds[2].revents != 0 { return .woken }
            if let deadline, monotonicNow() >= deadline { return .timedOut }
        }
    }

    /// Appends what has come to `buffer`, waiting for it until `deadline`.
    func read(into buffer: inout [UInt8], until deadline: UInt64) -> Read {
        while true {
            // Before each read, not only in the waits: a client that always has bytes waiting never waits.
            if isStopping { return .stopped }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                buffer += chunk[0..<n]
                return .bytes
            }
            if n == 0 { return .closed }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return .closed }
            switch wait(for: Int16(POLLIN), until: deadline) {
            case .ready, .woken: continue
            case .timedOut: return .timedOut
            case .stopped: return .stopped
            }
        }
    }

    /// Sends all of `bytes`; false when the client has gone, the server stops, or the client takes
    /// nothing for `stallLimit` seconds.
    func write(_ bytes: [UInt8], stallLimit: Double) -> Bool {
        var sent = 0
        while sent < bytes.count {
            if isStopping { return false }
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            if n > 0 {
                sent += n
                continue
            }
            guard n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return false }
            let deadline = monotonicNow() + UInt64(stallLimit * 1e9)
            guard case .ready = wait(for: Int16(POLLOUT), until: deadline) else { return false }
        }
        return true
    }

    /// Whether the client has closed its end (or reset), or this connection is closed: what tells a
    /// frame's render that its asker has gone. Safe from any thread, also after ``close()``.
    var isGone: Bool {
        lock.withLock {
            if isClosing || isClosed { return true }
            var entry = pollfd(fd: fd, events: pollReadHangUp, revents: 0)
            guard poll(&entry, 1, 0) >= 0 else { return false }
            return entry.revents & (pollReadHangUp | Int16(POLLHUP) | Int16(POLLERR)) != 0
        }
    }

    /// Waits until the client closes its end, the stop, `wakeup` or `deadline`, reading nothing (an event
    /// stream's wait: a request sent on it meanwhile is not answered).
    func waitForHangUp(until deadline: UInt64?, wakeup: Wakeup) -> Wait {
        wait(for: pollReadHangUp, until: deadline, also: wakeup)
    }

    /// Whether the server is stopping.
    var isStopping: Bool { stop.isSignalled }

    /// Closes the connection once: its sending side first, then what the client still sends is read and
    /// dropped until it closes its end, for up to `linger` seconds and 4 MiB, before the socket is closed.
    /// Closed with unread bytes, a socket sends a reset, which can cut the client's copy of the last
    /// response short (requests pipelined after `Connection: close`); at the stop it closes at once.
    func close(linger: Double = 0.2) {
        let first = lock.withLock { () -> Bool in
            defer { isClosing = true }
            return !isClosing
        }
        guard first else { return }
        shutdown(fd, Int32(SHUT_WR))
        if !isStopping {
            let deadline = monotonicNow() + UInt64(linger * 1e9)
            var dropped = 0
            while dropped < 4 << 20 {
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n > 0 {
                    dropped += n
                } else if n == 0 || !(errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                    break
                } else if case .ready = wait(for: Int16(POLLIN), until: deadline) {
                    continue
                } else {
                    break  // the deadline or the stop
                }
            }
        }
        lock.withLock {
            isClosed = true
            Glibc.close(fd)
        }
    }
}
