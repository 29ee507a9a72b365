import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Headless Chromium driven through the DevTools protocol over a pipe (`--remote-debugging-pipe`: the
/// browser reads commands from its fd 3 and writes replies to its fd 4, each a JSON object ended by NUL),
/// so a test can evaluate script in a live page, press keys and take a screenshot, and collects every
/// console error, uncaught exception and failed load the page logs.
final class HeadlessChromium: @unchecked Sendable {
    static var executable: String? { ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile) }

    private var pid: pid_t = 0
    private let toBrowser: Int32, fromBrowser: Int32
    private let lock = NSCondition()
    private var replies: [Int: [String: Any]] = [:]
    private var nextID = 0
    private var session = ""
    private var closed = false
    /// Console errors, exceptions and failed loads, as text.
    private(set) var problems: [String] = []

    /// Starts the browser with a fresh profile in `profile` and opens a blank page `width`×`height` CSS px.
    init(profile: String, log: String, width: Int = 1100, height: Int = 820) throws {
        guard let chromium = Self.executable else { throw NSError(domain: "chromium", code: 1, userInfo: [NSLocalizedDescriptionKey: "no chromium"]) }
        var commands: [Int32] = [0, 0], results: [Int32] = [0, 0]
        guard pipe(&commands) == 0, pipe(&results) == 0 else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, commands[0], 3)
        posix_spawn_file_actions_adddup2(&actions, results[1], 4)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let arguments = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                         "--remote-debugging-pipe", "--user-data-dir=\(profile)", "--enable-logging=stderr", "--v=0", "about:blank"]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawn(&pid, chromium, &actions, nil, argv, environ)
        close(commands[0])
        close(results[1])
        toBrowser = commands[1]
        fromBrowser = results[0]
        guard status == 0 else { throw POSIXError(.init(rawValue: status) ?? .EIO) }
        let reader = Thread { [self] in readLoop() }
        reader.start()
        let targets = try call("Target.getTargets", session: false)
        let infos = (targets["targetInfos"] as? [[String: Any]]) ?? []
        let targetID: String
        if let page = infos.first(where: { $0["type"] as? String == "page" }), let id = page["targetId"] as? String {
            targetID = id
        } else {
            targetID = try call("Target.createTarget", ["url": "about:blank"], session: false)["targetId"] as? String ?? ""
        }
        session = try call("Target.attachToTarget", ["targetId": targetID, "flatten": true], session: false)["sessionId"] as? String ?? ""
        _ = try call("Runtime.enable")
        _ = try call("Log.enable")
        _ = try call("Page.enable")
        _ = try call("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false])
    }

    private func readLoop() {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fromBrowser, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            pending += buffer[0..<n]
            while let end = pending.firstIndex(of: 0) {
                let message = Array(pending[..<end])
                pending.removeSubrange(...end)
                guard let object = try? JSONSerialization.jsonObject(with: Data(message)) as? [String: Any] else { continue }
                lock.lock()
                if let id = object["id"] as? Int {
                    replies[id] = object
                } else if let method = object["method"] as? String, let params = object["params"] as? [String: Any] {
                    if let problem = Self.problem(method: method, params: params) { problems.append(problem) }
                }
                lock.broadcast()
                lock.unlock()
            }
        }
        lock.lock()
        closed = true
        lock.broadcast()
        lock.unlock()
    }

    /// An event that reports a problem in the page, as text; nil for others.
    static func problem(method: String, params: [String: Any]) -> String? {
        switch method {
        case "Runtime.exceptionThrown":
            let details = params["exceptionDetails"] as? [String: Any]
            return "exception: \((details?["exception"] as? [String: Any])?["description"] ?? details?["text"] ?? "?")"
        case "Runtime.consoleAPICalled" where ["error", "assert"].contains(params["type"] as? String):
            let args = (params["args"] as? [[String: Any]] ?? []).map { "\($0["value"] ?? $0["description"] ?? "")" }
            return "console.error: \(args.joined(separator: " "))"
        case "Log.entryAdded":
            let entry = params["entry"] as? [String: Any]
            guard entry?["level"] as? String == "error" else { return nil }
            return "log: \(entry?["text"] ?? "") \(entry?["url"] ?? "")"
        default: return nil
        }
    }

    /// Sends a command (to the page's session unless `session` is false) and waits up to 30 s for its reply.
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:], session: Bool = true) throws -> [String: Any] {
        lock.lock()
        nextID += 1
        let id = nextID
        lock.unlock()
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if session { message["sessionId"] = self.session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(toBrowser, $0.baseAddress, $0.count) }
            guard n > 0 else { throw POSIXError(.EPIPE) }
            written += n
        }
        let deadline = Date().addingTimeInterval(30)
        lock.lock()
        defer { lock.unlock() }
        while replies[id] == nil {
            if closed || !lock.wait(until: deadline) {
                throw NSError(domain: "chromium", code: 2, userInfo: [NSLocalizedDescriptionKey: "no reply to \(method)"])
            }
        }
        let reply = replies.removeValue(forKey: id)!
        if let error = reply["error"] as? [String: Any] {
            throw NSError(domain: "chromium", code: 3, userInfo: [NSLocalizedDescriptionKey: "\(method): \(error)"])
        }
        return reply["result"] as? [String: Any] ?? [:]
    }

    /// The value of `expression` in the page (JSON-compatible values only).
    func evaluate(_ expression: String) throws -> Any? {
        let result = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        if let exception = result["exceptionDetails"] { throw NSError(domain: "chromium", code: 4, userInfo: [NSLocalizedDescriptionKey: "\(exception)"]) }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// The page's `document.body.dataset`.
    func dataset() throws -> [String: String] {
        (try evaluate("JSON.stringify(document.body ? Object.assign({}, document.body.dataset) : {})") as? String)
            .flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] } ?? [:]
    }

    /// Waits up to `timeout` seconds for `condition` on the dataset; the last dataset seen.
    @discardableResult
    func waitFor(timeout: Double = 60, _ condition: ([String: String]) -> Bool) throws -> (met: Bool, dataset: [String: String]) {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [String: String] = [:]
        while Date() < deadline {
            last = try dataset()
            if condition(last) { return (true, last) }
            usleep(5_000)
        }
        return (false, last)
    }

    /// Presses and releases a key (`ArrowRight`, …) as the keyboard would.
    func press(_ key: String, code: Int) throws {
        for type in ["rawKeyDown", "keyUp"] {
            try call("Input.dispatchKeyEvent", ["type": type, "key": key, "code": key, "windowsVirtualKeyCode": code])
        }
    }

    func navigate(_ url: String) throws { try call("Page.navigate", ["url": url]) }

    /// A PNG of the page as shown.
    func screenshot() throws -> Data {
        let result = try call("Page.captureScreenshot", ["format": "png"])
        return Data(base64Encoded: result["data"] as? String ?? "") ?? Data()
    }

    /// Closes the browser and waits for it.
    func quit() {
        _ = try? call("Browser.close", session: false)
        close(toBrowser)
        var status: Int32 = 0
        for _ in 0..<200 {
            if waitpid(pid, &status, WNOHANG) == pid { close(fromBrowser); return }
            usleep(25_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        close(fromBrowser)
    }
}
