import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// What the server allows each connection and request (docs/live-preview.md, "Limits").
public struct ServerLimits: Sendable {
    /// Connections open at once; one more is answered 503 and closed. 64.
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

/// `smokescreen serve`'s HTTP/1.1 server on SwiftNIO. Each connection is served by a task; requests are
/// answered on three lanes of threads (``PreviewRouter/Lane``), so the page, the API and the event
/// stream never wait behind a frame being drawn; a frame whose asker has gone is not drawn (and a render
/// made only for it stops); `Host` and `Origin` are checked (``HostPolicy``); connections, request heads,
/// idle connections and queues are bounded (``ServerLimits``).
public final class PreviewServer: @unchecked Sendable {
    /// What each request gets.
    public let router: PreviewRouter
    private let group: MultiThreadedEventLoopGroup
    private let pools: [PreviewRouter.Lane: NIOThreadPool]
    /// The listening socket.
    private var listener: (any Channel)?
    /// A task a connection, from its acceptance.
    private let connections = ConnectionTasks()
    private let open = NIOLockedValueBox(0)
    /// Set by ``stop()``: a connection accepted from then on is closed unread.
    private let stopping = NIOLockedValueBox(false)
    private let waiting = NIOLockedValueBox([PreviewRouter.Lane: Int]())
    /// The port listened on (the one the system chose for port 0).
    public private(set) var port = 0
    /// Which `Host` and `Origin` requests may name; set by ``start(host:port:allowedHosts:)``.
    public private(set) var hostPolicy = HostPolicy(address: "127.0.0.1", port: 0)
    /// Seconds between keep-alive comments on an idle event stream (so a closed page is noticed).
    public var heartbeat = 15.0
    /// The bounds on connections, heads and queues; set before ``start(host:port:allowedHosts:)``.
    public var limits = ServerLimits()

    /// A server for `router`'s responses: one event loop; a thread a core (at least two) for frames, one
    /// for quick requests and one for lint; nothing runs until ``start(host:port:allowedHosts:)``.
    public init(router: PreviewRouter) {
        self.router = router
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        pools = [.quick: NIOThreadPool(numberOfThreads: 1), .frames: NIOThreadPool(numberOfThreads: max(2, System.coreCount)),
                 .lint: NIOThreadPool(numberOfThreads: 1)]
    }

    /// Binds `host:port` (0: any free port; an IPv6 literal with or without brackets) and starts serving.
    /// `allowedHosts`: names requests may use besides the address and `localhost` (`--allow-host`).
    public func start(host: String, port: Int, allowedHosts: [String] = []) async throws {
        pools.values.forEach { $0.start() }
        let limits = self.limits
        // Each accepted connection gets its task on the event loop the moment it is active, from a handler
        // that holds it until then: nothing can drop it in between. (SwiftNIO's async `bind` hands connections
        // over through a stream, and one still in the stream when the server stops is dropped unclosed, which
        // SwiftNIO traps on: `serve` died on Ctrl-C under load, about one stop in 150. A connection closed
        // before it is active is finished by SwiftNIO itself.)
        let listener = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [self] child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    try child.pipeline.syncOperations.addHandler(
                        RequestDeadlineHandler(headerTimeout: .nanoseconds(Int64(limits.headerTimeout * 1e9)),
                                               idleTimeout: .nanoseconds(Int64(limits.idleTimeout * 1e9))))
                    let connection = try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: child)
                    try child.pipeline.syncOperations.addHandler(ServeWhenActive { [connections] in
                        connections.start { await self.serve(connection) }
                    })
                }
            }
            .bind(host: HostPolicy.unbracketed(host), port: port).get()
        self.listener = listener
        self.port = listener.localAddress?.port ?? port
        hostPolicy = HostPolicy(address: host, port: self.port, allowed: allowedHosts)
    }

    /// Stops listening, ends every connection (event streams included), stops renders under way at their
    /// next frame, and ends the server's threads.
    public func stop() async {
        stopping.withLockedValue { $0 = true }
        router.library.stop()
        // Once the listening socket is closed no connection is accepted; then every connection's task is
        // cancelled (event streams and kept-alive connections end) and waited for.
        try? await listener?.close()
        // A connection accepted just before the close becomes active on the event loop after it: the loop
        // runs what it has queued first (the group has that one loop), then every task there is, and any
        // started meanwhile, is ended.
        try? await listener?.eventLoop.submit {}.get()
        repeat { await connections.cancelAndWait() } while !connections.isEmpty
        for pool in pools.values { try? await pool.shutdownGracefully() }
        try? await group.shutdownGracefully()
    }

    /// How many connections are open now (for tests).
    public var openConnections: Int { open.withLockedValue { $0 } }

    private func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async {
        if stopping.withLockedValue({ $0 }) {
            try? await connection.executeThenClose { _, _ in }
            return
        }
        let count = open.withLockedValue { $0 += 1; return $0 }
        defer { open.withLockedValue { $0 -= 1 } }
        let channel = connection.channel
        let isCancelled: @Sendable () -> Bool = { !channel.isActive }
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            for try await part in inbound {
                switch part {
                case .head(let h) where count > limits.connections:
                    // Over the cap: answered at its head (a response needs a request; a client that sends
                    // none is closed by the head deadline) and closed.
                    let response = PreviewResponse.error(.serviceUnavailable, "over the limit of \(limits.connections) connections at once")
                    try await send(response, to: outbound, version: h.version, method: h.method, keepAlive: false)
                    return
                case .head(let h):
                    // Refused at the head, without waiting for a body: the preview takes none (and a client
                    // sending `Expect: 100-continue` would wait for an answer for ever).
                    if let refusal = Self.refusal(of: h) {
                        var response = refusal
                        response.closes = true
                        try await send(response, to: outbound, version: h.version, method: h.method, keepAlive: false)
                        return
                    }
                    head = h
                case .body: continue
                case .end:
                    guard let request = head else { continue }
                    head = nil
                    let keepAlive = request.isKeepAlive
                    if let problem = hostPolicy.problem(host: request.headers.first(name: "Host"), origin: request.headers.first(name: "Origin"),
                                                        http10: request.version.minor == 0 && request.version.major == 1) {
                        try await send(.error(.forbidden, problem), to: outbound, version: request.version, method: request.method, keepAlive: keepAlive)
                        if keepAlive { continue } else { return }
                    }
                    let response = try await answer(request, isCancelled: isCancelled)
                    if response.isEventStream {
                        try await streamEvents(to: outbound, request: request)
                        return
                    }
                    try await send(response, to: outbound, version: request.version, method: request.method, keepAlive: keepAlive && !response.closes)
                    if !keepAlive || response.closes { return }
                }
            }
        }
    }

    /// A request refused at its head: a method other than GET and HEAD (405), an `Expect` (417: nothing
    /// here takes a body to continue with), or a body (413).
    static func refusal(of head: HTTPRequestHead) -> PreviewResponse? {
        guard head.method == .GET || head.method == .HEAD else { return .error(.methodNotAllowed, "only GET is served") }
        if let expect = head.headers.first(name: "Expect") {
            return .error(.expectationFailed, "Expect: \(expect): the preview takes no request body")
        }
        let length = head.headers.first(name: "Content-Length").flatMap { Int($0) } ?? 0
        if length != 0 || head.headers.contains(name: "Transfer-Encoding") {
            return .error(.payloadTooLarge, "the preview takes no request body")
        }
        return nil
    }

    /// The router's answer, on the request's lane; 503 when that lane's queue is full; nothing drawn for
    /// a client that has gone while it waited.
    private func answer(_ request: HTTPRequestHead, isCancelled: @escaping @Sendable () -> Bool) async throws -> PreviewResponse {
        let lane = PreviewRouter.lane(of: request.uri)
        let bound = lane == .frames ? limits.queuedFrames : lane == .lint ? limits.queuedLints : Int.max
        let admitted = waiting.withLockedValue { counts -> Bool in
            guard counts[lane, default: 0] < bound else { return false }
            counts[lane, default: 0] += 1
            return true
        }
        guard admitted else {
            var busy = PreviewResponse.error(.serviceUnavailable, "busy: \(bound) \(lane == .lint ? "lint" : "frame") requests are waiting; try again")
            busy.headers.append(("Retry-After", "1"))
            return busy
        }
        defer { waiting.withLockedValue { $0[lane, default: 0] -= 1 } }
        let router = self.router
        let ifNoneMatch = request.headers.first(name: "If-None-Match")
        return try await pools[lane]!.runIfActive {
            if isCancelled() { return PreviewResponse.error(.serviceUnavailable, "the client went away") }
            return router.respond(method: request.method, uri: request.uri, ifNoneMatch: ifNoneMatch, isCancelled: isCancelled)
        }
    }

    private func send(_ response: PreviewResponse, to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>,
                      version: HTTPVersion, method: HTTPMethod, keepAlive: Bool) async throws {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: response.contentType)
        headers.add(name: "Content-Length", value: String(response.body.count))
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        try await outbound.write(.head(HTTPResponseHead(version: version, status: response.status, headers: headers)))
        if method != .HEAD, !response.body.isEmpty {
            try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: response.body))))
        }
        try await outbound.write(.end(nil))
    }

    /// `GET /events`: `event: reload` with `{"version": N, "errors": [...]}` now and after every reload,
    /// and a comment line every `heartbeat` seconds, until the page goes or the server stops.
    private func streamEvents(to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>, request: HTTPRequestHead) async throws {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/event-stream")
        headers.add(name: "Cache-Control", value: "no-store")
        try await outbound.write(.head(HTTPResponseHead(version: request.version, status: .ok, headers: headers)))
        let (versions, continuation) = AsyncStream.makeStream(of: Int.self)
        let library = router.library
        let id = library.addListener { continuation.yield($0) }
        defer { library.removeListener(id) }
        let beat = heartbeat
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(beat * 1e9))
                continuation.yield(-1)
            }
        }
        defer { ticker.cancel() }
        continuation.yield(library.currentVersion)
        for await version in versions {
            let text: String
            if version < 0 {
                text = ": keep-alive\n\n"
            } else {
                struct Event: Encodable { var version: Int; var errors: [String] }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let data = String(decoding: try encoder.encode(Event(version: version, errors: library.currentErrors)), as: UTF8.self)
                text = "event: reload\ndata: \(data)\n\n"
            }
            try await outbound.write(.body(.byteBuffer(ByteBuffer(string: text))))
        }
    }
}

/// Closes a connection that does not send a whole request head within `headerTimeout` of opening, or
/// within `idleTimeout` of its last response (a kept-alive connection left idle, or a head sent a byte at
/// a time). A response under way (an event stream too) is never cut.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let headerTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Requests whose head has come and whose response has not ended.
    private var pending = 0

    init(headerTimeout: TimeAmount, idleTimeout: TimeAmount) {
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context, headerTimeout) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context, headerTimeout)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            pending += 1
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            pending = max(0, pending - 1)
            if pending == 0 { arm(context, idleTimeout) }
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    private func arm(_ context: ChannelHandlerContext, _ amount: TimeAmount) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: amount) { channel.close(promise: nil) }
    }
}

/// The tasks serving connections, each from the moment its connection is accepted until it is closed.
final class ConnectionTasks: @unchecked Sendable {
    private let lock = NIOLock()
    private var tasks: [UInt64: Task<Void, Never>] = [:]
    private var nextID: UInt64 = 0

    /// Runs `body` in a task of its own, kept until it returns.
    func start(_ body: @escaping @Sendable () async -> Void) {
        lock.withLock {
            nextID += 1
            let id = nextID
            // Inserted under the lock, so the task's own removal (which takes it) comes after. User-initiated:
            // made on the event loop's thread, a task would get the default priority and share its threads with
            // blocking work queued at that priority, to which libdispatch on Linux adds a thread only about once
            // a second (requests waited seconds behind blocked clients in a test).
            tasks[id] = Task(priority: .userInitiated) { [self] in
                await body()
                lock.withLock { _ = tasks.removeValue(forKey: id) }
            }
        }
    }

    /// Whether no task runs.
    var isEmpty: Bool { lock.withLock { tasks.isEmpty } }

    /// Cancels every task running and returns when they have all ended.
    func cancelAndWait() async {
        let running = lock.withLock { Array(tasks.values) }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }
}

/// Starts a connection's task when the connection becomes active (last in its pipeline, after the
/// handlers that hand its reads and writes to the task), once.
final class ServeWhenActive: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    private var start: (() -> Void)?

    init(_ start: @escaping () -> Void) {
        self.start = start
    }

    func channelActive(context: ChannelHandlerContext) {
        start?()
        start = nil
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        start = nil
    }
}
