import BoundedInput
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP response the router makes: a status, a type and bytes, or the event stream.
public struct PreviewResponse: Sendable {
    /// The HTTP status.
    public var status: HTTPResponseStatus
    /// The `Content-Type`.
    public var contentType: String
    /// The bytes sent (none for `HEAD`).
    public var body: [UInt8]
    /// Headers besides the type and length (`ETag`, `Cache-Control`, `X-Different-Pixels`).
    public var headers: [(String, String)] = []
    /// `GET /events`: the body is the reload stream, not `body`.
    var isEventStream = false

    static func json(_ value: some Encodable, status: HTTPResponseStatus = .ok) -> PreviewResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)).map { [UInt8]($0) } ?? Array("{}".utf8)
        return PreviewResponse(status: status, contentType: "application/json; charset=utf-8", body: body)
    }

    /// `{"error": message, "status": code}` with that status.
    static func error(_ status: HTTPResponseStatus, _ message: String) -> PreviewResponse {
        struct Body: Encodable { var error: String; var status: Int }
        return json(Body(error: message, status: Int(status.code)), status: status)
    }
}

/// Routes the preview's requests (docs/live-preview.md lists them): the page's three files, the JSON API
/// and the frames. Nothing is read from disk by a path taken from the URL: the page's files are a fixed
/// list, transitions are names the library knows, frames are numbers.
public struct PreviewRouter: Sendable {
    /// The transitions served.
    public let library: PreviewLibrary
    /// The folder of the page's files (`assets/live-preview`).
    public let pageDirectory: String
    static let pageFiles = ["index.html": "text/html; charset=utf-8", "preview.js": "text/javascript; charset=utf-8",
                            "preview.css": "text/css; charset=utf-8"]

    public init(library: PreviewLibrary, pageDirectory: String) {
        self.library = library
        self.pageDirectory = pageDirectory
    }

    /// The response to `method uri` (with the request's `If-None-Match`, when it has one).
    public func respond(method: HTTPMethod, uri: String, ifNoneMatch: String? = nil) -> PreviewResponse {
        guard method == .GET || method == .HEAD else { return .error(.methodNotAllowed, "only GET is served") }
        let (rawPath, query) = Self.split(uri)
        guard let segments = Self.segments(rawPath) else { return .error(.badRequest, "refused path: \(rawPath)") }
        do {
            switch segments.count {
            case 0: return try page("index.html")
            case 1 where Self.pageFiles[segments[0]] != nil: return try page(segments[0])
            case 1 where segments[0] == "events":
                return PreviewResponse(status: .ok, contentType: "text/event-stream", body: [], headers: [("Cache-Control", "no-store")], isEventStream: true)
            case 2 where segments == ["api", "transitions"]:
                return .json(library.listing())
            case 4 where segments[0] == "api" && segments[1] == "transitions" && segments[3] == "lint":
                guard let report = try library.lint(segments[2]) else { return noTransition(segments[2]) }
                return .json(report)
            case 5 where segments[0] == "api" && segments[1] == "transitions" && ["frames", "golden", "diff"].contains(segments[3]):
                return try image(kind: segments[3], name: segments[2], file: segments[4], query: query, ifNoneMatch: ifNoneMatch)
            default:
                return .error(.notFound, "no such resource: \(rawPath)")
            }
        } catch {
            return .error(.internalServerError, "\(error)")
        }
    }

    private func noTransition(_ name: String) -> PreviewResponse {
        .error(.notFound, "no transition named '\(name)' (served: \(library.listing().transitions.map(\.name).joined(separator: ", ")))")
    }

    private func page(_ name: String) throws -> PreviewResponse {
        let path = "\(pageDirectory)/\(name)"
        // The page's own files only, and not through a link that leads out of its folder.
        guard let real = realPath(path), let root = realPath(pageDirectory), real.hasPrefix(root + "/") else {
            return .error(.notFound, "the page's file \(name) is missing from \(pageDirectory)")
        }
        let bytes = try InputFile.read(real, limit: 1 << 20, what: "page file")
        return PreviewResponse(status: .ok, contentType: Self.pageFiles[name]!, body: bytes, headers: [("Cache-Control", "no-cache")])
    }

    private func image(kind: String, name: String, file: String, query: [String: String], ifNoneMatch: String?) throws -> PreviewResponse {
        // `v`: the version the page asked for; the one before the current is still served.
        let version = query["v"].flatMap { Int($0) }
        guard library.has(name, version: version) else { return noTransition(name) }
        guard file.hasSuffix(".png"), let index = Int(file.dropLast(4)), index >= 0, String(index) == String(file.dropLast(4)) else {
            return .error(.notFound, "no frame '\(file)': frames are K.png, K counted from 0")
        }
        var scale = library.settings.scale
        if let s = query["scale"] {
            guard let n = Int(s), (1...3).contains(n) else { return .error(.badRequest, "scale must be 1, 2 or 3, got '\(s)'") }
            scale = n
        }
        let count = library.frameCount(name, version: version) ?? 0
        switch kind {
        case "frames":
            guard index < count, let (png, digest) = try library.frame(name, index: index, scale: scale, version: version) else {
                return .error(.notFound, "'\(name)' has \(count) frames (0…\(count - 1)); no frame \(index)")
            }
            let etag = "\"\(digest)\""
            let headers = [("ETag", etag), ("Cache-Control", "no-cache")]
            if ifNoneMatch == etag { return PreviewResponse(status: .notModified, contentType: "image/png", body: [], headers: headers) }
            return PreviewResponse(status: .ok, contentType: "image/png", body: png, headers: headers)
        case "golden":
            guard let png = try library.goldenPNG(name, index: index) else { return .error(.notFound, "no golden frame \(index) of '\(name)'") }
            return PreviewResponse(status: .ok, contentType: "image/png", body: png, headers: [("Cache-Control", "no-cache")])
        default:
            guard index < count else { return .error(.notFound, "'\(name)' has \(count) frames; no frame \(index)") }
            do {
                guard let (png, different) = try library.diffPNG(name, index: index, scale: scale) else {
                    return .error(.notFound, "no golden frame \(index) of '\(name)'")
                }
                return PreviewResponse(status: .ok, contentType: "image/png", body: png,
                                       headers: [("Cache-Control", "no-cache"), ("X-Different-Pixels", String(different))])
            } catch let error as PreviewError {
                return .error(.conflict, error.description)
            }
        }
    }

    /// The path and the query's parameters.
    static func split(_ uri: String) -> (String, [String: String]) {
        guard let q = uri.firstIndex(of: "?") else { return (uri, [:]) }
        var query: [String: String] = [:]
        for pair in uri[uri.index(after: q)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            query[parts[0]] = parts.count > 1 ? (parts[1].removingPercentEncoding ?? parts[1]) : ""
        }
        return (String(uri[..<q]), query)
    }

    /// The path's segments, percent-decoded; nil for a path that is refused: not absolute, `.` or `..`
    /// segments (plain or encoded), an encoded `/` or `\`, a NUL or other control character, or an encoding
    /// that does not decode.
    static func segments(_ path: String) -> [String]? {
        guard path.hasPrefix("/") else { return nil }
        var result: [String] = []
        for raw in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let segment = String(raw).removingPercentEncoding else { return nil }
            if segment == "." || segment == ".." || segment.contains("/") || segment.contains("\\")
                || segment.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
                return nil
            }
            // A decoded segment that decodes again (`%252e%252e`) is refused too: nothing double-decodes it,
            // but it can only be an attempt.
            if segment.contains("%"), segment.removingPercentEncoding != segment { return nil }
            result.append(segment)
        }
        if result.last == "" { result.removeLast() }  // a trailing slash
        guard !result.contains("") else { return nil }
        return result
    }
}

/// `smokescreen serve`'s HTTP/1.1 server on SwiftNIO: each connection is served by a task, frames are
/// drawn on a thread pool, and `GET /events` streams one Server-Sent Event per reload.
public final class PreviewServer: @unchecked Sendable {
    /// What each request gets.
    public let router: PreviewRouter
    private let group: MultiThreadedEventLoopGroup
    private let pool: NIOThreadPool
    /// Lint requests run here, one at a time: each renders and checks a whole transition, and must not
    /// hold up the frames the page is waiting for.
    private let slowPool: NIOThreadPool
    private var channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>?
    private var serving: Task<Void, Never>?
    /// The port listened on (the one the system chose for port 0).
    public private(set) var port = 0
    /// Seconds between keep-alive comments on an idle event stream (so a closed page is noticed).
    public var heartbeat = 15.0

    /// A server for `router`'s responses: one event loop, and a thread pool of one thread a core (at
    /// least two) for drawing frames; nothing runs until ``start(host:port:)``.
    public init(router: PreviewRouter) {
        self.router = router
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        pool = NIOThreadPool(numberOfThreads: max(2, System.coreCount))
        slowPool = NIOThreadPool(numberOfThreads: 1)
    }

    /// Binds `host:port` (0: any free port) and starts serving.
    public func start(host: String, port: Int) async throws {
        pool.start()
        slowPool.start()
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: port) { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: child)
                }
            }
        self.channel = channel
        self.port = channel.channel.localAddress?.port ?? port
        serving = Task { [self] in
            await withDiscardingTaskGroup { tasks in
                try? await channel.executeThenClose { connections in
                    for try await connection in connections {
                        tasks.addTask { await self.serve(connection) }
                    }
                }
                tasks.cancelAll()
            }
        }
    }

    /// Stops listening, ends every connection (event streams included) and the server's threads.
    public func stop() async {
        try? await channel?.channel.close()
        serving?.cancel()
        await serving?.value
        try? await pool.shutdownGracefully()
        try? await slowPool.shutdownGracefully()
        try? await group.shutdownGracefully()
    }

    private func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async {
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            for try await part in inbound {
                switch part {
                case .head(let h): head = h
                case .body: continue
                case .end:
                    guard let request = head else { continue }
                    head = nil
                    let router = self.router
                    let isLint = request.uri.prefix(while: { $0 != "?" }).hasSuffix("/lint")
                    let response = try await (isLint ? slowPool : pool).runIfActive {
                        router.respond(method: request.method, uri: request.uri, ifNoneMatch: request.headers.first(name: "If-None-Match"))
                    }
                    if response.isEventStream {
                        try await streamEvents(to: outbound, request: request)
                        return
                    }
                    var headers = HTTPHeaders()
                    headers.add(name: "Content-Type", value: response.contentType)
                    headers.add(name: "Content-Length", value: String(response.body.count))
                    headers.add(name: "X-Content-Type-Options", value: "nosniff")
                    for (name, value) in response.headers { headers.add(name: name, value: value) }
                    let keepAlive = request.isKeepAlive
                    if !keepAlive { headers.add(name: "Connection", value: "close") }
                    try await outbound.write(.head(HTTPResponseHead(version: request.version, status: response.status, headers: headers)))
                    if request.method != .HEAD, !response.body.isEmpty {
                        try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: response.body))))
                    }
                    try await outbound.write(.end(nil))
                    if !keepAlive { return }
                }
            }
        }
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
