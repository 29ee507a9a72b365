/// The parts of HTTP/1.x that `smokescreen serve` speaks: methods, statuses, headers and the request head
/// with its parser. The preview takes no request bodies and sends bodies whose length it knows (or an
/// event stream that ends with the connection), so this is all of the protocol it needs.

/// A request's method, as sent (methods are case-sensitive).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let GET = HTTPMethod(rawValue: "GET")
    public static let HEAD = HTTPMethod(rawValue: "HEAD")
    public var description: String { rawValue }
}

/// An HTTP version; the preview reads 1.0 and 1.1 and answers in the request's version.
public struct HTTPVersion: Hashable, Sendable {
    public var major: Int
    public var minor: Int
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
}

/// A response status: its code and reason phrase.
public struct HTTPResponseStatus: Hashable, Sendable, CustomStringConvertible {
    public var code: Int
    public var reasonPhrase: String
    public static let ok = HTTPResponseStatus(code: 200, reasonPhrase: "OK")
    public static let notModified = HTTPResponseStatus(code: 304, reasonPhrase: "Not Modified")
    public static let badRequest = HTTPResponseStatus(code: 400, reasonPhrase: "Bad Request")
    public static let forbidden = HTTPResponseStatus(code: 403, reasonPhrase: "Forbidden")
    public static let notFound = HTTPResponseStatus(code: 404, reasonPhrase: "Not Found")
    public static let methodNotAllowed = HTTPResponseStatus(code: 405, reasonPhrase: "Method Not Allowed")
    public static let conflict = HTTPResponseStatus(code: 409, reasonPhrase: "Conflict")
    public static let payloadTooLarge = HTTPResponseStatus(code: 413, reasonPhrase: "Payload Too Large")
    public static let expectationFailed = HTTPResponseStatus(code: 417, reasonPhrase: "Expectation Failed")
    public static let requestHeaderFieldsTooLarge = HTTPResponseStatus(code: 431, reasonPhrase: "Request Header Fields Too Large")
    public static let internalServerError = HTTPResponseStatus(code: 500, reasonPhrase: "Internal Server Error")
    public static let serviceUnavailable = HTTPResponseStatus(code: 503, reasonPhrase: "Service Unavailable")
    public static let httpVersionNotSupported = HTTPResponseStatus(code: 505, reasonPhrase: "HTTP Version Not Supported")
    public var description: String { "\(code) \(reasonPhrase)" }
}

/// A request's header fields in the order sent; names compare without case.
public struct HTTPHeaders: Sendable {
    public private(set) var fields: [(name: String, value: String)] = []
    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }
    /// The first value of `name`, or nil.
    public func first(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }
    /// Whether a field `name` was sent.
    public func contains(name: String) -> Bool { first(name: name) != nil }
    /// The comma-separated tokens of every `name` field, lowercased (`Connection: keep-alive, Upgrade`).
    func tokens(name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingOptionalWhitespace().lowercased() }
    }
}

/// A request line and its header fields.
public struct HTTPRequestHead: Sendable {
    public var method: HTTPMethod
    /// The request target as sent (`/api/transitions?x=1`).
    public var uri: String
    public var version: HTTPVersion
    public var headers: HTTPHeaders

    /// Whether the connection stays open after the response: HTTP/1.1 unless `Connection: close`;
    /// HTTP/1.0 only with `Connection: keep-alive`.
    public var isKeepAlive: Bool {
        let tokens = headers.tokens(name: "Connection")
        return version.minor == 0 ? tokens.contains("keep-alive") : !tokens.contains("close")
    }

    /// Why a head cannot be read: the status it is answered with, and a sentence.
    public struct ParseError: Error, Equatable, Sendable {
        public var status: HTTPResponseStatus
        public var reason: String
        public init(status: HTTPResponseStatus, reason: String) {
            self.status = status
            self.reason = reason
        }
    }

    /// The bytes a head may take, request line and fields together (64 KiB; a browser's are about 1 KiB,
    /// more with cookies). A longer head is answered 431.
    public static let maximumSize = 64 << 10

    /// Finds a whole head at the start of `bytes`: the head and how many bytes it took (the rest is the
    /// next request of a pipelining client), nil when it has not all come yet, or the reason it is
    /// refused. Lines end in CRLF or a bare LF; empty lines before the request line are skipped (RFC 9112
    /// section 2.2).
    public static func parse(_ bytes: ArraySlice<UInt8>) -> Result<(head: HTTPRequestHead, length: Int), ParseError>? {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if index - bytes.startIndex >= maximumSize {
                return .failure(ParseError(status: .requestHeaderFieldsTooLarge, reason: "the request head is over \(maximumSize >> 10) KiB"))
            }
            if bytes[index] == 0x0A {
                var line = bytes[lineStart..<index]
                if line.last == 0x0D { line = line.dropLast() }
                lineStart = index + 1
                if line.isEmpty {
                    if !lines.isEmpty { return parse(lines: lines).map { ($0, lineStart - bytes.startIndex) } }
                } else {
                    lines.append(line)
                }
            }
            index += 1
        }
        if index - bytes.startIndex >= maximumSize {
            return .failure(ParseError(status: .requestHeaderFieldsTooLarge, reason: "the request head is over \(maximumSize >> 10) KiB"))
        }
        return nil
    }

    /// The index just past the first empty line (`LF LF` or `LF CR LF`) at or after `start` in `bytes`, or
    /// nil: whether a whole head may have come, found without parsing.
    public static func endOfHead(in bytes: [UInt8], from start: Int) -> Int? {
        var index = max(0, start)
        while index < bytes.count {
            if bytes[index] == 0x0A {
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { return index + 2 }
                if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A { return index + 3 }
            }
            index += 1
        }
        return nil
    }

    private static func parse(lines: [ArraySlice<UInt8>]) -> Result<HTTPRequestHead, ParseError> {
        func bad(_ reason: String) -> Result<HTTPRequestHead, ParseError> { .failure(ParseError(status: .badRequest, reason: reason)) }
        let requestLine = lines[0].split(separator: 0x20, omittingEmptySubsequences: false)
        guard requestLine.count == 3, !requestLine[0].isEmpty, !requestLine[1].isEmpty else {
            return bad("the request line is not METHOD TARGET HTTP/x.y")
        }
        guard requestLine[0].allSatisfy(isTokenByte) else { return bad("the method is not a token") }
        guard requestLine[1].allSatisfy({ $0 > 0x20 && $0 != 0x7F }), let uri = String(validating: requestLine[1], as: UTF8.self) else {
            return bad("the request target has a control character or is not UTF-8")
        }
        let version = Array(requestLine[2])
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), version[6] == 0x2E,
              let major = digit(version[5]), let minor = digit(version[7]) else {
            return bad("the version is not HTTP/x.y")
        }
        guard major == 1, minor <= 1 else {
            return .failure(ParseError(status: .httpVersionNotSupported, reason: "HTTP/\(major).\(minor): the preview speaks HTTP/1.0 and 1.1"))
        }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: 0x3A) else { return bad("a header line has no colon") }
            let name = line[..<colon]
            // Whitespace before the colon or at the start (an obsolete folded line) is refused (RFC 9112 section 5).
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else { return bad("a header name is empty or not a token") }
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                return bad("the value of \(String(decoding: name, as: UTF8.self)) has a control character")
            }
            fields.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
        let headers = HTTPHeaders(fields)
        let lengths = fields.filter { $0.name.caseInsensitiveEquals("Content-Length") }
        // Two lengths could be read two ways (one of them taking the body as the next request), so neither is.
        guard lengths.count <= 1 else { return bad("more than one Content-Length") }
        if let length = lengths.first?.value, length.isEmpty || !length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return bad("Content-Length is not a number")
        }
        return .success(HTTPRequestHead(method: HTTPMethod(rawValue: String(decoding: requestLine[0], as: UTF8.self)), uri: uri,
                                        version: HTTPVersion(major: major, minor: minor), headers: headers))
    }

    private static func digit(_ byte: UInt8) -> Int? { (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil }

    /// RFC 9110's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E...0x60, 0x7C, 0x7E: return true  // !#$%&'*+-.^_`|~
        default: return false
        }
    }
}

extension StringProtocol {
    /// Equal but for ASCII letters' case (header names are ASCII tokens), without making lowercased copies.
    func caseInsensitiveEquals(_ other: some StringProtocol) -> Bool {
        func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        return utf8.count == other.utf8.count && zip(utf8, other.utf8).allSatisfy { lower($0) == lower($1) }
    }

    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingOptionalWhitespace() -> Substring {
        let s = Substring(self)
        let start = s.firstIndex { $0 != " " && $0 != "\t" } ?? s.endIndex
        let end = s.lastIndex { $0 != " " && $0 != "\t" }.map { s.index(after: $0) } ?? start
        return start < end ? s[start..<end] : s[start..<start]
    }
}
