import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the server allows each connection and request (docs/live-preview.md, "Limits").
public struct ServerLimits: Sendable {
    /// Connections open at once; one more is answered 503 and closed (and past twice this many, a
    /// connection is closed unread, so a flood does not start a thread for each). 64.
    public var connections = 64
    /// Seconds a new connection has to send a whole request head. 10.
    public var headerTimeout = 10.0
    /// Seconds a kept-alive connection may wait for its next request (head included). 30.
    public var idleTimeout = 30.0
    /// Frame requests waiting for a thread; more are answered 503 with `Retry-After`. 64.
    public var queuedFrames = 64
    /// Lint requests waiting (each renders a whole transition); more are answered 503. 4.
    public var queuedLints = 4
    public init() {}
}

/// `smokescreen serve`'s HTTP/1.1 server, on the system's sockets. Each connection is served by a thread
/// of its own; requests are answered on three lanes of threads (``PreviewRouter/Lane``), so the page, the
/// API and the event stream never wait behind a frame being drawn; a frame whose asker has gone is not
/// drawn (and a render made only for it stops); `Host` and `Origin` are checked (``HostPolicy``);
/// connections, request heads, idle connections and queues are bounded (``ServerLimits``).
///
/// Every wait of every thread (for a request, to send, for the next event) also ends at ``stop()``,
/// through one pipe all of them poll.
public final class PreviewServer: @unchecked Sendable {
    /// What each request gets.
    public let router: PreviewRouter
    private var lanes: [PreviewRouter.Lane: LaneWorkers] = [:]
    private let lock = NSLock()
    private var stopSignal: Wakeup?
    private var isStopping = false
    private var open = 0
    private var waiting: [PreviewRouter.Lane: Int] = [:]
    /// The accepting thread and every connection's thread, until each ends.
    private let running = DispatchGroup()
    /// The port listened on (the one the system chose for port 0).
    public private(set) var port = 0
    /// Which `Host` and `Origin` requests may name; set by ``start(host:port:allowedHosts:)``.
    public private(set) var hostPolicy = HostPolicy(address: "127.0.0.1", port: 0)
    /// Seconds between keep-alive comments on an idle event stream (so a closed page is noticed). 15.
    public var heartbeat = 15.0
    /// The bounds on connections, heads and queues; set before ``start(host:port:allowedHosts:)``.
    public var limits = ServerLimits()

    /// A server for `router`'s responses; nothing runs until ``start(host:port:allowedHosts:)``.
    public init(router: PreviewRouter) {
        self.router = router
    }

    /// Binds `host:port` (0: any free port; an IPv6 literal with or without brackets, or a name) and starts
    /// serving: a thread accepts, a thread a connection, and the lanes' threads (one for quick requests, a
    /// thread a core and at least two for frames, one for lint).
    public func start(host: String, port: Int, allowedHosts: [String] = []) async throws {
        let stop = try Wakeup()
        let (listener, bound) = try ListeningSocket.open(host: HostPolicy.unbracketed(host), port: port)
        stopSignal = stop
        self.port = bound
        hostPolicy = HostPolicy(address: host, port: bound, allowed: allowedHosts)
        lanes = [.quick: LaneWorkers(name: "serve-quick", count: 1),
                 .frames: LaneWorkers(name: "serve-frames", count: max(2, ProcessInfo.processInfo.activeProcessorCount)),
                 .lint: LaneWorkers(name: "serve-lint", count: 1)]
        running.enter()
        let accepting = Thread { [self] in
            accept(from: listener, stop: stop, limits: limits)
            running.leave()
        }
        accepting.name = "serve-accept"
        accepting.start()
    }

    /// Stops listening, ends every connection (event streams included), stops renders under way at their
    /// next frame, and ends the server's threads. A second call does nothing.
    public func stop() async {
        let signal: Wakeup? = lock.withLock {
            defer { isStopping = true }
            return isStopping ? nil : stopSignal
        }
        router.library.stop()
        guard let signal else { return }
        // Every thread's wait includes the signal: the accepting thread closes the listening socket and
        // ends; each connection ends at its next wait (one waiting for its frame ends when the frame does,
        // and the render stops at its next frame); then the lanes' threads.
        signal.signal()
        await withCheckedContinuation { continuation in running.notify(queue: .global()) { continuation.resume() } }
        for workers in lanes.values { await workers.stop() }
    }

    /// How many connections are open now (for tests).
    public var openConnections: Int { lock.withLock { open } }

    private func accept(from listener: Int32, stop: Wakeup, limits: ServerLimits) {
        defer { close(listener) }
        while true {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: stop.fd, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            let client = Glibc.accept(listener, nil, nil)
            if client >= 0 { setNonBlockingAndCloseOnExec(client) }
            if client < 0 {
                // Out of descriptors: wait a little rather than spin on a socket that stays readable.
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM { usleep(10_000) }
                continue
            }
            let count: Int? = lock.withLock {
                guard !isStopping, open < 2 * limits.connections else { return nil }
                open += 1
                running.enter()
                return open
            }
            guard let count else {
                close(client)
                continue
            }
            let connection = Connection(fd: client, stop: stop)
            let thread = Thread { [self] in
                serve(connection, count: count, limits: limits)
                connection.close()
                lock.withLock { open -= 1 }
                running.leave()
            }
            thread.name = "serve-connection"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Reads requests from `connection` and answers them, until it closes, idles, breaks the protocol or
    /// the server stops.
    private func serve(_ connection: Connection, count: Int, limits: ServerLimits) {
        var buffer: [UInt8] = []
        // Where the search for the head's end goes on from: only what came since the last read is searched
        // (less three bytes, for an end split across reads), so a head sent in small pieces costs its length,
        // not its length squared.
        var searched = 0
        // A new connection has `headerTimeout` to send a whole head; a kept-alive one `idleTimeout` from
        // its last response to send the next (a head sent a byte at a time included).
        var deadline = monotonicNow() + UInt64(limits.headerTimeout * 1e9)
        let stall = limits.idleTimeout
        // Empty lines skipped before the coming request line; they count towards its head's size.
        var skipped = 0
        while true {
            // A client that always has bytes waiting never makes a read wait (where the stop and the deadline
            // are seen), so both are looked for here too.
            if connection.isStopping || monotonicNow() >= deadline { return }
            let empty = buffer.prefix { $0 == 0x0D || $0 == 0x0A }.count
            if empty > 0 {
                // Empty lines before a request line are skipped (RFC 9112 section 2.2), but not without end.
                buffer.removeFirst(empty)
                searched = 0
                skipped += empty
            }
            let parsed: Result<(head: HTTPRequestHead, length: Int), HTTPRequestHead.ParseError>?
            if skipped >= HTTPRequestHead.maximumSize {
                parsed = .failure(.init(status: .requestHeaderFieldsTooLarge,
                                        reason: "over \(HTTPRequestHead.maximumSize >> 10) KiB of empty lines before a request"))
            } else if HTTPRequestHead.endOfHead(in: buffer, from: searched) != nil || buffer.count >= HTTPRequestHead.maximumSize {
                parsed = HTTPRequestHead.parse(buffer[...])
            } else {
                parsed = nil
            }
            let head: HTTPRequestHead
            switch parsed {
            case nil:
                searched = max(0, buffer.count - 3)
                guard case .bytes = connection.read(into: &buffer, until: deadline) else { return }
                continue
            case .failure(let error)?:
                var response = PreviewResponse.error(error.status, error.reason)
                response.closes = true
                _ = send(response, on: connection, version: .http1_1, method: .GET, keepAlive: false, stall: stall)
                return
            case .success(let (parsed, length))?:
                head = parsed
                buffer.removeFirst(length)
                searched = 0
                skipped = 0
            }
            if count > limits.connections {
                // Over the cap: answered at its head (a response needs a request; a client that sends none is
                // closed by the head deadline) and closed.
                let response = PreviewResponse.error(.serviceUnavailable, "over the limit of \(limits.connections) connections at once")
                _ = send(response, on: connection, version: head.version, method: head.method, keepAlive: false, stall: stall)
                return
            }
            // Refused at the head, without waiting for a body: the preview takes none (and a client sending
            // `Expect: 100-continue` would wait for an answer for ever).
            if var refusal = Self.refusal(of: head) {
                refusal.closes = true
                _ = send(refusal, on: connection, version: head.version, method: head.method, keepAlive: false, stall: stall)
                return
            }
            var keepAlive = head.isKeepAlive
            let response: PreviewResponse
            if let problem = hostPolicy.problem(host: head.headers.first(name: "Host"), origin: head.headers.first(name: "Origin"),
                                                http10: head.version == HTTPVersion(major: 1, minor: 0)) {
                response = .error(.forbidden, problem)
            } else {
                response = answer(head, isCancelled: { [self] in connection.isGone || lock.withLock { isStopping } }, limits: limits)
            }
            if response.isEventStream {
                streamEvents(on: connection, version: head.version, stall: stall)
                return
            }
            keepAlive = keepAlive && !response.closes
            guard send(response, on: connection, version: head.version, method: head.method, keepAlive: keepAlive, stall: stall),
                  keepAlive else { return }
            deadline = monotonicNow() + UInt64(limits.idleTimeout * 1e9)
        }
    }

    /// A request refused at its head: a method other than GET and HEAD (405), an `Expect` (417: nothing
    /// here takes a body to continue with), or a body (413).
    package static func refusal(of head: HTTPRequestHead) -> PreviewResponse? {
        guard head.method == .GET || head.method == .HEAD else { return .error(.methodNotAllowed, "only GET is served") }
        if let expect = head.headers.first(name: "Expect") {
            return .error(.expectationFailed, "Expect: \(expect): the preview takes no request body")
        }
        // Digits only (the parser checked), so a length is zero when every digit is, however many there are;
        // one too long for an Int is a body, not none.
        let hasBody = head.headers.first(name: "Content-Length").map { $0.contains { $0 != "0" } } ?? false
        if hasBody || head.headers.contains(name: "Transfer-Encoding") {
            return .error(.payloadTooLarge, "the preview takes no request body")
        }
        return nil
    }

    /// The router's answer, on the request's lane; 503 when that lane's queue is full; nothing drawn for
    /// a client that has gone while it waited.
    private func answer(_ request: HTTPRequestHead, isCancelled: @escaping @Sendable () -> Bool, limits: ServerLimits) -> PreviewResponse {
        let lane = PreviewRouter.lane(of: request.uri)
        let bound = lane == .frames ? limits.queuedFrames : lane == .lint ? limits.queuedLints : Int.max
        let admitted = lock.withLock { () -> Bool in
            guard waiting[lane, default: 0] < bound else { return false }
            waiting[lane, default: 0] += 1
            return true
        }
        guard admitted else {
            var busy = PreviewResponse.error(.serviceUnavailable, "busy: \(bound) \(lane == .lint ? "lint" : "frame") requests are waiting; try again")
            busy.headers.append(("Retry-After", "1"))
            return busy
        }
        defer { lock.withLock { waiting[lane, default: 0] -= 1 } }
        let router = self.router
        let ifNoneMatch = request.headers.first(name: "If-None-Match")
        let stopped = PreviewResponse.error(.serviceUnavailable, "the server is stopping")
        return lanes[lane]?.run {
            // A frame or a lint whose asker has closed its end is not made. (A client that only shut its
            // sending side after the request is taken as gone too: nothing tells the two apart without
            // writing. Quick answers cost nothing, so they are sent whatever.)
            if lane != .quick, isCancelled() { return PreviewResponse.error(.serviceUnavailable, "the client went away") }
            return router.respond(method: request.method, uri: request.uri, ifNoneMatch: ifNoneMatch, isCancelled: isCancelled)
        } ?? stopped
    }

    /// Sends `response` (its head only for HEAD); false when the client has gone or the server stops.
    private func send(_ response: PreviewResponse, on connection: Connection, version: HTTPVersion, method: HTTPMethod,
                      keepAlive: Bool, stall: Double) -> Bool {
        var head = "HTTP/\(version.major).\(version.minor) \(response.status.code) \(response.status.reasonPhrase)\r\n"
        head += "Content-Type: \(response.contentType)\r\n"
        head += "Content-Length: \(response.body.count)\r\n"
        head += "X-Content-Type-Options: nosniff\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        if !keepAlive {
            head += "Connection: close\r\n"
        } else if version.minor == 0 {
            head += "Connection: keep-alive\r\n"
        }
        var bytes = Array((head + "\r\n").utf8)
        if method != .HEAD { bytes += response.body }
        return connection.write(bytes, stallLimit: stall)
    }

    /// `GET /events`: `event: reload` with `{"version": N, "errors": [...]}` now and after every reload,
    /// and a comment line every `heartbeat` seconds, until the page goes or the server stops. The stream
    /// ends with the connection (it has no length), so its head says `Connection: close`.
    private func streamEvents(on connection: Connection, version: HTTPVersion, stall: Double) {
        let head = "HTTP/\(version.major).\(version.minor) 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
            + "X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
        guard connection.write(Array(head.utf8), stallLimit: stall), let wakeup = try? Wakeup() else { return }
        let library = router.library
        let pending = PendingVersions()
        let id = library.addListener { version in
            pending.append(version)
            wakeup.signal()
        }
        defer { library.removeListener(id) }
        pending.append(library.currentVersion)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        struct Event: Encodable { var version: Int; var errors: [String] }
        let beat = UInt64(heartbeat * 1e9)
        var nextBeat = monotonicNow() + beat
        while true {
            var text = ""
            for version in pending.take() {
                guard let data = try? encoder.encode(Event(version: version, errors: library.currentErrors)) else { continue }
                text += "event: reload\ndata: \(String(decoding: data, as: UTF8.self))\n\n"
            }
            if monotonicNow() >= nextBeat {
                text += ": keep-alive\n\n"
                nextBeat = monotonicNow() + beat
            }
            if !text.isEmpty, !connection.write(Array(text.utf8), stallLimit: stall) { return }
            switch connection.waitForHangUp(until: nextBeat, wakeup: wakeup) {
            case .woken: wakeup.drain()
            case .timedOut: continue
            case .ready, .stopped: return
            }
        }
    }
}

/// The versions an event stream has yet to send, appended on the reloading thread.
private final class PendingVersions: @unchecked Sendable {
    private let lock = NSLock()
    private var versions: [Int] = []

    func append(_ version: Int) { lock.withLock { versions.append(version) } }

    func take() -> [Int] {
        lock.withLock {
            defer { versions.removeAll() }
            return versions
        }
    }
}
