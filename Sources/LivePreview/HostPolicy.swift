#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Which `Host` (and `Origin`) a request may name. A page on another site can make a browser send
/// requests to this server under a name of its own that resolves here (DNS rebinding); a request that
/// names the server by anything but its address, `localhost` or a name given with `--allow-host` is
/// refused (403), so such a page reads nothing. IP literals cannot be rebound, so any that reaches the
/// server when it listens on every interface is accepted.
public struct HostPolicy: Sendable, Equatable {
    /// The port listened on: a `Host` must name it (or none, for port 80).
    public let port: Int
    /// The address listened on, as an IP literal without brackets (`127.0.0.1`, `::1`), or a name.
    public let address: String
    /// Names (lowercase, without port) accepted besides the address: `--allow-host`.
    public let allowed: Set<String>

    /// A policy for a server listening on `address:port`, accepting `allowed` names too.
    public init(address: String, port: Int, allowed: [String] = []) {
        self.address = HostPolicy.unbracketed(address).lowercased()
        self.port = port
        self.allowed = Set(allowed.map { HostPolicy.unbracketed($0).lowercased() })
    }

    /// Whether `address` is a loopback address (127.0.0.0/8, ::1) or `localhost`.
    public static func isLoopback(_ address: String) -> Bool {
        let a = unbracketed(address).lowercased()
        if a == "localhost" || a == "::1" { return true }
        var v4 = in_addr()
        return inet_pton(AF_INET, a, &v4) == 1 && UInt32(bigEndian: v4.s_addr) >> 24 == 127
    }

    /// Whether `address` means every interface (`0.0.0.0`, `::`).
    public static func isWildcard(_ address: String) -> Bool {
        let a = unbracketed(address)
        return a == "0.0.0.0" || a == "::" || a == "0:0:0:0:0:0:0:0"
    }

    /// Whether `text` is an IPv4 or IPv6 literal (IPv6 with or without brackets).
    public static func isIPLiteral(_ text: String) -> Bool {
        let a = unbracketed(text)
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, a, &v4) == 1 || inet_pton(AF_INET6, a, &v6) == 1
    }

    /// `[::1]` → `::1`; anything else as it is.
    public static func unbracketed(_ text: String) -> String {
        text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
    }

    /// Why a request naming `host` (its `Host` header) and `origin` (its `Origin` header, if any) is
    /// refused; nil when it is accepted. `http10`: an HTTP/1.0 request, which may lack `Host`.
    public func problem(host: String?, origin: String?, http10: Bool = false) -> String? {
        if let host {
            if let reason = refusal(authority: host, what: "Host") { return reason }
        } else if !http10 {
            return "a request without a Host header (HTTP/1.1 requires one)"
        }
        if let origin {
            let lower = origin.lowercased()
            guard lower.hasPrefix("http://") else { return "Origin '\(origin)' is not this server's (http://\(shownAddress):\(port))" }
            let authority = String(lower.dropFirst("http://".count).prefix { $0 != "/" })
            if refusal(authority: authority, what: "Origin") != nil {
                return "Origin '\(origin)' is not this server's (http://\(shownAddress):\(port)); start serve with --allow-host NAME to accept another name"
            }
        }
        return nil
    }

    private var shownAddress: String { address.contains(":") ? "[\(address)]" : address }

    /// Why `authority` (`name`, `name:port`, `[v6]:port`) does not name this server; nil when it does.
    private func refusal(authority: String, what: String) -> String? {
        var name = authority.lowercased(), portText: Substring?
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return "\(what) '\(authority)' is not a host name" }
            let rest = name[name.index(after: close)...]
            if rest.hasPrefix(":") { portText = rest.dropFirst() } else if !rest.isEmpty { return "\(what) '\(authority)' is not a host name" }
            name = String(name[...close])
        } else if let colon = name.lastIndex(of: ":") {
            portText = name[name.index(after: colon)...]
            name = String(name[..<colon])
        }
        let requestedPort = portText.map { Int($0) } ?? 80
        guard requestedPort == port else { return "\(what) '\(authority)' names port \(portText.map(String.init) ?? "80"), not \(port)" }
        let bare = HostPolicy.unbracketed(name)
        if allowed.contains(bare) || bare == address { return nil }
        let loopbackName = bare == "localhost" || (HostPolicy.isIPLiteral(bare) && HostPolicy.isLoopback(bare))
        if loopbackName, HostPolicy.isLoopback(address) || HostPolicy.isWildcard(address) { return nil }
        if HostPolicy.isWildcard(address), HostPolicy.isIPLiteral(bare) { return nil }
        return "\(what) '\(authority)' is not this server's name (\(shownAddress):\(port)); start serve with --allow-host \(bare) to accept it"
    }
}
