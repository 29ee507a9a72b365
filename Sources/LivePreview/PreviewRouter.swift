import BoundedInput
import Foundation

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
    /// Send `Connection: close` and close after this response.
    var closes = false

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

    /// Where a request is answered: quick ones (the page, the listing, events, golden files, errors) never
    /// wait behind a frame being drawn, and lint (a whole transition rendered and checked) has a lane of
    /// its own.
    public enum Lane: String, Sendable, CaseIterable {
        case quick, frames, lint
    }

    /// The lane of a request for `uri`.
    public static func lane(of uri: String) -> Lane {
        let path = uri.prefix { $0 != "?" }
        if path.hasSuffix("/lint") { return .lint }
        if path.hasPrefix("/api/transitions/"), path.contains("/frames/") || path.contains("/diff/") { return .frames }
        return .quick
    }

    /// The response to `method uri` (with the request's `If-None-Match`, when it has one). `isCancelled`
    /// says the asker has gone: a render made only for it stops.
    public func respond(method: HTTPMethod, uri: String, ifNoneMatch: String? = nil,
                        isCancelled: @escaping @Sendable () -> Bool = { false }) -> PreviewResponse {
        guard method == .GET || method == .HEAD else { return .error(.methodNotAllowed, "only GET is served") }
        let (rawPath, query) = Self.split(uri)
        guard let segments = Self.segments(rawPath) else { return .error(.badRequest, "refused path: \(rawPath)") }
        do {
            switch segments.count {
            case 0: return try page("index.html")
            case 1 where Self.pageFiles[segments[0]] != nil: return try page(segments[0])
            case 1 where segments[0] == "events":
                // HEAD: the stream's headers, and the end (a HEAD response has no body to stream).
                return PreviewResponse(status: .ok, contentType: "text/event-stream", body: [], headers: [("Cache-Control", "no-store")],
                                       isEventStream: method == .GET)
            case 2 where segments == ["api", "transitions"]:
                return .json(library.listing())
            case 4 where segments[0] == "api" && segments[1] == "transitions" && segments[3] == "lint":
                guard let report = try library.lint(segments[2], isCancelled: isCancelled) else { return noTransition(segments[2]) }
                return .json(report)
            case 5 where segments[0] == "api" && segments[1] == "transitions" && ["frames", "golden", "diff"].contains(segments[3]):
                return try image(kind: segments[3], name: segments[2], file: segments[4], query: query, ifNoneMatch: ifNoneMatch,
                                 isCancelled: isCancelled)
            default:
                return .error(.notFound, "no such resource: \(rawPath)")
            }
        } catch let error as PreviewError where error.isOverBudget {
            return .error(.payloadTooLarge, error.description)
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

    private func image(kind: String, name: String, file: String, query: [String: String], ifNoneMatch: String?,
                       isCancelled: @escaping @Sendable () -> Bool) throws -> PreviewResponse {
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
            let started = DispatchTime.now().uptimeNanoseconds
            guard index < count, let (png, digest) = try library.frame(name, index: index, scale: scale, version: version, isShown: query["shown"] == "1", isCancelled: isCancelled) else {
                return .error(.notFound, "'\(name)' has \(count) frames (0…\(count - 1)); no frame \(index)")
            }
            let etag = "\"\(digest)\""
            // Server-Timing: how long the frame took here (render, draw and encode, or the cache), in ms,
            // which the page's save-to-screen measurement and a browser's developer tools show.
            let took = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            let headers = [("ETag", etag), ("Cache-Control", "no-cache"), ("Server-Timing", String(format: "frame;dur=%.1f", took))]
            if ifNoneMatch == etag { return PreviewResponse(status: .notModified, contentType: "image/png", body: [], headers: headers) }
            return PreviewResponse(status: .ok, contentType: "image/png", body: png, headers: headers)
        case "golden":
            guard let png = try library.goldenPNG(name, index: index) else { return .error(.notFound, "no golden frame \(index) of '\(name)'") }
            return PreviewResponse(status: .ok, contentType: "image/png", body: png, headers: [("Cache-Control", "no-cache")])
        default:
            guard index < count else { return .error(.notFound, "'\(name)' has \(count) frames; no frame \(index)") }
            do {
                guard let (png, different) = try library.diffPNG(name, index: index, scale: scale, isCancelled: isCancelled) else {
                    return .error(.notFound, "no golden frame \(index) of '\(name)'")
                }
                return PreviewResponse(status: .ok, contentType: "image/png", body: png,
                                       headers: [("Cache-Control", "no-cache"), ("X-Different-Pixels", String(different))])
            } catch let error as PreviewError where !error.isOverBudget {
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

