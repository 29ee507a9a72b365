import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 client over a raw socket, so a test sends exactly the request line it means
/// (URLSession and browsers tidy `..` and percent-encodings away before they reach the server).
struct HTTPProbe {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
                throw NSError(domain: "HTTPProbe", code: 1, userInfo: [NSLocalizedDescriptionKey: "not a JSON object: \(text)"])
            }
            return object
        }
    }

    let port: Int

    /// A connected socket with a receive timeout of `timeout` seconds (and as long to connect: Linux applies
    /// the send timeout to `connect`).
    func connect(timeout: Double = 30) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int(timeout.truncatingRemainder(dividingBy: 1) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw POSIXError(.init(rawValue: errno) ?? .ECONNREFUSED)
        }
        return fd
    }

    func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// `GET path` (sent as is) with `headers`, read to the end (the request asks to close).
    func get(_ path: String, headers: [String: String] = [:], method: String = "GET") throws -> Response {
        let fd = try connect()
        defer { close(fd) }
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (k, v) in headers { request += "\(k): \(v)\r\n" }
        send(fd, request + "\r\n")
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data += buffer[0..<n]
        }
        return try Self.parse(data)
    }

    static func parse(_ data: [UInt8]) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, data.count - 3)).first(where: { Array(data[$0..<$0 + 4]) == separator }) else {
            throw NSError(domain: "HTTPProbe", code: 2, userInfo: [NSLocalizedDescriptionKey: "no complete response head in \(data.count) bytes"])
        }
        let head = String(decoding: data[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Array(data[(end + 4)...]))
    }

    /// Opens `GET /events` and returns the socket; ``readUntil(_:_:timeout:)`` reads its stream.
    func openEvents() throws -> Int32 {
        let fd = try connect(timeout: 0.2)
        send(fd, "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n")
        return fd
    }

    /// Reads from `fd` into `text` until `text` contains `needle` or `timeout` seconds pass; whether it did.
    func readUntil(_ fd: Int32, _ text: inout String, contains needle: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !text.contains(needle) {
            if Date() > deadline { return false }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { text += String(decoding: buffer[0..<n], as: UTF8.self) } else if n == 0 { return text.contains(needle) }
        }
        return true
    }
}
