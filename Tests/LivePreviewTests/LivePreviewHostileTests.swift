import Foundation
import LivePreview
import PNGIO
import RasterCore
import SmokescreenCLI
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `smokescreen serve` used as a hostile or careless user would, on loopback: springs that never settle,
/// folders of many files, slow frames beside quick requests, clients that go away, foreign Host and
/// Origin headers, huge golden files, old versions, duplicate names, scenes that reach outside their
/// folder, slow and idle connections, and requests the preview does not take. Bounded: each test stops by
/// itself within seconds (the whole suite within a minute in a debug build).
final class LivePreviewHostileTests: XCTestCase {
    static let root = LivePreviewAPITests.root
    var folder = ""
    var preview: LivePreview?
    var http: HTTPProbe!

    override func setUp() async throws {
        folder = NSTemporaryDirectory() + "live-preview-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() async throws {
        await preview?.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    func write(_ text: String, to name: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name), options: .atomic)
    }

    /// Serves `source` at @1x, 10 fps, with `memoryLimit` bytes and `limits`.
    @discardableResult
    func start(_ source: PreviewSource, memoryLimit: Int = PreviewSettings.defaultMemoryLimit, golden: String? = nil,
               limits: ServerLimits = ServerLimits(), host: String = "127.0.0.1", allowedHosts: [String] = []) async throws -> LivePreview {
        let settings = PreviewSettings(scale: 1, fps: 10, assetsDirectory: Self.root + "/assets", goldenDirectory: golden,
                                       memoryLimit: memoryLimit, lint: Serve.lint)
        let preview = try LivePreview(source: source, settings: settings, pageDirectory: Self.root + "/assets/live-preview")
        preview.server.limits = limits
        try await preview.start(host: host, port: 0, allowedHosts: allowedHosts)
        self.preview = preview
        http = HTTPProbe(port: preview.server.port)
        return preview
    }

    /// A small scene whose phase is written as `phase`.
    static func scene(name: String = "grow", phase: String = #"{ "name": "move", "duration": 0.3 }"#, height: Double = 100) -> String {
        LivePreviewAPITests.sceneText(duration: 0.3)
            .replacingOccurrences(of: #"{ "name": "move", "duration": 0.3, "curve": "easeOut" }"#, with: phase)
            .replacingOccurrences(of: #""name": "grow""#, with: "\"name\": \"\(name)\"")
            .replacingOccurrences(of: "\"size\": [100, 100]", with: "\"size\": [100, \(height)]")
    }

    /// Sends `request` on a fresh connection and reads the response (or nothing, when the server closes).
    func raw(_ request: String, timeout: Double = 5) throws -> (response: HTTPProbe.Response?, seconds: Double) {
        let start = Date()
        let data = try rawBytes(request, timeout: timeout).data
        return (try? HTTPProbe.parse(data), Date().timeIntervalSince(start))
    }

    /// Sends `request` on a fresh connection and returns every byte read until the server closes it (then
    /// `closed`) or `timeout` seconds pass without a byte.
    func rawBytes(_ request: String, timeout: Double = 5, shutSending: Bool = false) throws -> (data: [UInt8], closed: Bool) {
        let fd = try http.connect(timeout: timeout)
        defer { close(fd) }
        http.send(fd, request)
        if shutSending { shutdown(fd, Int32(SHUT_WR)) }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return (data, n == 0) }
            data += buffer[0..<n]
        }
    }

    // MARK: S1

    /// A spring within 2 ulp of undamped: the server starts and says why, and a fix is picked up.
    func testASpringThatNeverSettlesIsReportedAndTheFixIsPickedUp() async throws {
        try write(Self.scene(phase: #"{ "name": "move", "curve": { "spring": { "duration": 0.5, "bounce": 0.9999999999999998 } } }"#), to: "scene.json")
        let started = Date()
        let preview = try await start(.sceneFile(folder + "/scene.json"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "started within seconds")
        let errors = preview.library.currentErrors
        XCTAssertEqual(errors.count, 1)
        XCTAssertTrue(errors.first?.contains("curve.spring: phase 'move' ends after the limit of 600.0 s") == true, "\(errors)")
        XCTAssertEqual(try http.get("/api/transitions").status, 200)
        let version = preview.library.currentVersion
        try write(Self.scene(phase: #"{ "name": "move", "curve": { "spring": { "duration": 0.3, "bounce": 0.2 } } }"#), to: "scene.json")
        try await waitForVersion(after: version)
        XCTAssertEqual(preview.library.currentErrors, [])
        XCTAssertEqual(preview.library.listing().transitions.map(\.name), ["grow"])
    }

    func waitForVersion(after version: Int) async throws {
        let deadline = Date().addingTimeInterval(10)
        while (preview?.library.currentVersion ?? 0) <= version {
            if Date() > deadline { XCTFail("no reload within 10 s"); return }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    // MARK: S2

    /// Many files: what is kept stays under the limit however many are served, and a save reads again
    /// only the file that changed.
    func testAFolderOfManyFilesStaysWithinTheLimitAndASaveReadsOnlyWhatChanged() async throws {
        let count = 60
        for i in 0..<count { try write(Self.scene(name: "t\(i)"), to: String(format: "s%03d.json", i)) }
        // 1 MiB in all: 768 KiB for renders, fewer than the renders of every transition at @1x and @2x.
        let preview = try await start(.folder(folder), memoryLimit: 1 << 20)
        XCTAssertEqual(preview.library.listing().transitions.count, count)
        XCTAssertEqual(preview.library.readings, count)
        for i in 0..<count {
            XCTAssertEqual(try http.get("/api/transitions/t\(i)/frames/\(i % 4).png?scale=2").status, 200)
        }
        let summary = preview.library.renderSummary
        XCTAssertLessThanOrEqual(summary.bytes, preview.library.renderLimit)
        XCTAssertLessThan(summary.kept, 2 * count, "older renders were dropped")
        // One file saved: one reading, not sixty.
        let version = preview.library.currentVersion
        try write(Self.scene(name: "t7", phase: #"{ "name": "move", "duration": 0.5 }"#), to: "s007.json")
        try await waitForVersion(after: version)
        XCTAssertEqual(preview.library.readings, count + 1)
        XCTAssertEqual(preview.library.frameCount("t7"), 6)
        // A frame whose render alone is over the budget is refused, not drawn.
        try write(Self.scene(name: "tall", height: 4000), to: "tall.json")
        let before = preview.library.currentVersion
        preview.library.reload()
        XCTAssertGreaterThan(preview.library.currentVersion, before)
        let refused = try http.get("/api/transitions/tall/frames/0.png?scale=3")
        XCTAssertEqual(refused.status, 413, refused.text)
        XCTAssertTrue(refused.text.contains("over the preview's budget"), refused.text)
    }

    // MARK: S3

    /// Slow frames keep the frame threads busy; the page, the listing and the event stream are answered
    /// at once beside them.
    func testThePageAndTheAPINeverWaitBehindFrames() async throws {
        try write(String(contentsOfFile: Self.bigScene(in: folder), encoding: .utf8), to: "big.json")
        let preview = try await start(.sceneFile(folder + "/big.json"))
        let port = preview.server.port
        let group = DispatchGroup()
        for i in 0..<6 {
            DispatchQueue.global().async(group: group) {
                _ = try? HTTPProbe(port: port).get("/api/transitions/big/frames/\(i).png?scale=3")
            }
        }
        try await Task.sleep(nanoseconds: 200_000_000)
        for path in ["/", "/api/transitions", "/preview.js"] {
            let started = Date()
            XCTAssertEqual(try http.get(path).status, 200, path)
            XCTAssertLessThan(Date().timeIntervalSince(started), 1.0, "\(path) waited behind the frames")
        }
        let events = try http.openEvents()
        defer { close(events) }
        var stream = ""
        XCTAssertTrue(http.readUntil(events, &stream, contains: "event: reload", timeout: 1.0), "the event stream waited: \(stream)")
        group.wait()
    }

    /// A 400x2000 pt scene whose frames take a while at @3x in a debug build.
    static func bigScene(in folder: String) throws -> String {
        var rows = ""
        for i in 0..<20 {
            let colour = "#" + String(format: "%02X", i * 12) + "6699"
            rows += ", { \"name\": \"row\(i)\", \"frame\": [0, \(i * 100), 400, 90], \"backgroundColor\": \"\(colour)\" }"
        }
        let text = """
            { "size": [400, 2000], "background": "#FFFFFF", "states": {
              "a": { "backgroundColor": "#FFFFFF", "subviews": [ { "name": "box", "frame": [0, 0, 100, 100], "backgroundColor": "#336699" }\(rows) ] },
              "b": { "backgroundColor": "#EEEEEE", "subviews": [ { "name": "box", "frame": [200, 1500, 150, 150], "backgroundColor": "#336699" }\(rows) ] } },
              "transitions": [ { "name": "big", "from": "a", "to": "b", "phases": [ { "name": "move", "duration": 0.5 } ],
                "matched": [ { "id": "box", "phase": "move" } ],
                "unmatched": [ { "views": [\((0..<20).map { "\"row\($0)\"" }.joined(separator: ", "))], "phase": "move", "effects": ["fade"] } ] } ] }
            """
        let path = folder + "/big-source.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A client that asks for a frame and goes: its render is not made (or stops), nothing is kept.
    func testAFrameWhoseClientWentAwayIsNotDrawn() async throws {
        try write(String(contentsOfFile: Self.bigScene(in: folder), encoding: .utf8), to: "big.json")
        let preview = try await start(.sceneFile(folder + "/big.json"))
        let made = preview.library.renderSummary.made
        // Two frame threads busy with @2x, then @3x asked for and abandoned at once.
        let port = preview.server.port
        let group = DispatchGroup()
        for i in 0..<2 {
            DispatchQueue.global().async(group: group) { _ = try? HTTPProbe(port: port).get("/api/transitions/big/frames/\(i).png?scale=2") }
        }
        try await Task.sleep(nanoseconds: 100_000_000)
        for i in 0..<4 {
            let fd = try http.connect()
            http.send(fd, "GET /api/transitions/big/frames/\(i).png?scale=3 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            close(fd)
        }
        group.wait()
        try await Task.sleep(nanoseconds: 500_000_000)
        let after = preview.library.renderSummary
        XCTAssertEqual(after.made, made + 1, "only the @2x render was made (and shared by its two askers): \(after)")
    }

    // MARK: S5

    /// DNS rebinding: a Host or Origin that is not this server's is refused; loopback names and
    /// `--allow-host` names are served.
    func testForeignHostsAndOriginsAreRefused() async throws {
        try write(Self.scene(), to: "scene.json")
        try await start(.sceneFile(folder + "/scene.json"), allowedHosts: ["preview.local"])
        let port = http.port
        func status(_ headers: String) throws -> Int {
            try raw("GET /api/transitions HTTP/1.1\r\n\(headers)Connection: close\r\n\r\n").response?.status ?? 0
        }
        XCTAssertEqual(try status("Host: evil.example:\(port)\r\n"), 403)
        XCTAssertEqual(try status("Host: evil.example\r\n"), 403)
        XCTAssertEqual(try status("Host: 127.0.0.1:\(port + 1)\r\n"), 403)
        XCTAssertEqual(try status(""), 403, "HTTP/1.1 without Host")
        XCTAssertEqual(try status("Host: 127.0.0.1:\(port)\r\nOrigin: http://evil.example\r\n"), 403)
        XCTAssertEqual(try status("Host: 127.0.0.1:\(port)\r\nOrigin: null\r\n"), 403)
        XCTAssertEqual(try status("Host: 127.0.0.1:\(port)\r\n"), 200)
        XCTAssertEqual(try status("Host: localhost:\(port)\r\n"), 200)
        XCTAssertEqual(try status("Host: LOCALHOST:\(port)\r\nOrigin: http://localhost:\(port)\r\n"), 200)
        XCTAssertEqual(try status("Host: [::1]:\(port)\r\n"), 200)
        XCTAssertEqual(try status("Host: preview.local:\(port)\r\n"), 200)
        let refused = try raw("GET /api/transitions HTTP/1.1\r\nHost: evil.example:\(port)\r\nConnection: close\r\n\r\n").response
        XCTAssertTrue(refused?.text.contains("--allow-host evil.example") == true, refused?.text ?? "")
        XCTAssertFalse(refused?.text.contains("grow") == true, "nothing of the listing")
    }

    func testTheHostPolicyByListeningAddress() {
        let loopback = HostPolicy(address: "127.0.0.1", port: 8017)
        XCTAssertNil(loopback.problem(host: "127.0.0.1:8017", origin: nil))
        XCTAssertNil(loopback.problem(host: "127.0.0.2:8017", origin: nil))
        XCTAssertNotNil(loopback.problem(host: "192.168.1.5:8017", origin: nil))
        XCTAssertNil(loopback.problem(host: nil, origin: nil, http10: true))
        let six = HostPolicy(address: "[::1]", port: 80)
        XCTAssertNil(six.problem(host: "[::1]", origin: "http://[::1]"))
        XCTAssertNotNil(six.problem(host: "[::1]:81", origin: nil))
        let every = HostPolicy(address: "0.0.0.0", port: 8017)
        XCTAssertNil(every.problem(host: "192.168.1.5:8017", origin: "http://192.168.1.5:8017"))
        XCTAssertNil(every.problem(host: "[fe80::1]:8017", origin: nil))
        XCTAssertNotNil(every.problem(host: "attacker.example:8017", origin: nil), "a name can be rebound; an address cannot")
        XCTAssertNotNil(every.problem(host: "192.168.1.5:8017", origin: "https://192.168.1.5:8017"))
        let named = HostPolicy(address: "10.0.0.2", port: 8017, allowed: ["Build-Box"])
        XCTAssertNil(named.problem(host: "build-box:8017", origin: nil))
        XCTAssertNil(named.problem(host: "10.0.0.2:8017", origin: nil))
        XCTAssertNotNil(named.problem(host: "localhost:8017", origin: nil), "not listening on loopback")
        XCTAssertTrue(HostPolicy.isLoopback("127.1.2.3") && HostPolicy.isLoopback("[::1]") && !HostPolicy.isLoopback("0.0.0.0"))
    }

    /// `--host ::1` and `--host [::1]` both listen on IPv6 loopback.
    func testIPv6LiteralsListen() async throws {
        try write(Self.scene(), to: "scene.json")
        for host in ["::1", "[::1]"] {
            let preview = try await start(.sceneFile(folder + "/scene.json"), host: host)
            XCTAssertEqual(preview.url(host: host), "http://[::1]:\(preview.server.port)/")
            let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(preview.server.port).bigEndian)
            address.sin6_addr = in6addr_loopback
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
            XCTAssertEqual(connected, 0, host)
            http.send(fd, "GET /api/transitions HTTP/1.1\r\nHost: [::1]:\(preview.server.port)\r\nConnection: close\r\n\r\n")
            var text = ""
            XCTAssertTrue(http.readUntil(fd, &text, contains: "\"version\"", timeout: 5), text)
            XCTAssertTrue(text.hasPrefix("HTTP/1.1 200"), text)
            close(fd)
            await preview.stop()
            self.preview = nil
        }
    }

    /// Clients that keep connecting while the server stops: every connection it accepted is closed (SwiftNIO
    /// traps on one dropped unclosed: `serve` died on Ctrl-C under load, about one stop in 150, when a
    /// connection was accepted as its accept loop was cancelled), and the stop ends. Twenty rounds, the stop
    /// at a different moment of the clients' traffic each time.
    func testConnectionsArrivingWhileItStopsAreClosedAndTheStopEnds() async throws {
        try write(Self.scene(), to: "scene.json")
        for round in 0..<20 {
            let preview = try await start(.sceneFile(folder + "/scene.json"))
            let port = preview.server.port
            let done = Flag()
            let clients = DispatchGroup()
            // Threads of their own: four busy loops on Dispatch's global queue would starve the test's own
            // task (the cooperative pool shares those threads, and Dispatch adds one about once a second).
            for _ in 0..<4 {
                clients.enter()
                Thread {
                    defer { clients.leave() }
                    let probe = HTTPProbe(port: port)
                    while !done.isSet {
                        // A short timeout: once the server stops accepting, a full backlog makes connect wait for
                        // the SYN's retry (a second) before it is refused.
                        guard let fd = try? probe.connect(timeout: 0.05) else { continue }
                        probe.send(fd, "GET /api/transitions HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
                        close(fd)
                    }
                }.start()
            }
            try await Task.sleep(nanoseconds: UInt64(round % 5) * 3_000_000)
            let started = Date()
            await preview.stop()
            XCTAssertLessThan(Date().timeIntervalSince(started), 5, "round \(round)")
            done.set()
            await withCheckedContinuation { continuation in clients.notify(queue: .global()) { continuation.resume() } }
            XCTAssertEqual(preview.server.openConnections, 0, "round \(round)")
            self.preview = nil
        }
    }

    // MARK: S6, S7, S8, smaller points

    /// A golden frame_0000.png of a gigabyte (sparse) is read by its header only; a FIFO among the golden
    /// frames is not a frame (404, not 500); `goldenFrames` is null, not left out, when there are none.
    func testGoldenFramesAreReadByTheirHeaderAndAFIFOIsNoFrame() async throws {
        try write(Self.scene(), to: "scene.json")
        let golden = folder + "/golden"
        try FileManager.default.createDirectory(atPath: golden + "/grow", withIntermediateDirectories: true)
        let preview = try await start(.sceneFile(folder + "/scene.json"), golden: golden)
        let none = try http.get("/api/transitions").text
        XCTAssertTrue(none.contains("\"goldenFrames\":null") && none.contains("\"goldenPixelSize\":null"), none)
        let frame = try XCTUnwrap(try preview.library.bitmap("grow", index: 0, scale: 1))
        var png = try PNGCodec.encode(frame)
        png += [UInt8](repeating: 0, count: 16)
        let path = golden + "/grow/frame_0000.png"
        _ = FileManager.default.createFile(atPath: path, contents: Data(png))
        XCTAssertEqual(truncate(path, 1 << 30), 0)
        XCTAssertEqual(mkfifo(golden + "/grow/frame_0001.png", 0o600), 0)
        let started = Date()
        let listing = try http.get("/api/transitions")
        XCTAssertLessThan(Date().timeIntervalSince(started), 1, "the header, not the gigabyte")
        XCTAssertTrue(listing.text.contains("\"goldenFrames\":1") && listing.text.contains("\"goldenPixelSize\":[100,100]"), listing.text)
        XCTAssertEqual(try http.get("/api/transitions/grow/golden/1.png").status, 404)
    }

    /// The version before the current one is served from the render kept for it: asked for twice at
    /// another scale, it is rendered once.
    func testThePreviousVersionIsServedFromWhatIsKept() async throws {
        try write(Self.scene(), to: "scene.json")
        let preview = try await start(.sceneFile(folder + "/scene.json"))
        let old = preview.library.currentVersion
        try write(Self.scene(phase: #"{ "name": "move", "duration": 0.5 }"#), to: "scene.json")
        try await waitForVersion(after: old)
        let made = preview.library.renderSummary.made
        for _ in 0..<3 {
            XCTAssertEqual(try http.get("/api/transitions/grow/frames/2.png?scale=2&v=\(old)").status, 200)
        }
        XCTAssertEqual(preview.library.renderSummary.made, made + 1)
    }

    /// Two files that define the same name: the first is served and the second reported.
    func testDuplicateNamesAcrossFilesAreReported() async throws {
        try write(Self.scene(), to: "a.json")
        try write(Self.scene(phase: #"{ "name": "move", "duration": 0.5 }"#), to: "b.json")
        let preview = try await start(.folder(folder))
        XCTAssertEqual(preview.library.listing().transitions.map(\.name), ["grow"])
        XCTAssertEqual(preview.library.frameCount("grow"), 4, "a.json's")
        let errors = preview.library.currentErrors
        XCTAssertEqual(errors, ["\(folder)/b.json: transition 'grow' is also defined in \(folder)/a.json; only the one in \(folder)/a.json is served"])
        XCTAssertEqual(try http.get("/api/transitions").json()["errors"] as? [String], errors)
    }

    /// A scene file in a served folder that links out, and scenes whose image or plist lead out: refused,
    /// and no error quotes what is outside.
    func testScenesThatReachOutsideAreRefusedWithoutQuotingWhatIsThere() async throws {
        let secret = folder + "-secret"
        try FileManager.default.createDirectory(atPath: secret, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: secret) }
        try Data("Xsecret-content".utf8).write(to: URL(fileURLWithPath: secret + "/shadow.json"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.json", withDestinationPath: secret + "/shadow.json")
        let outside = "../" + URL(fileURLWithPath: secret).lastPathComponent
        try write(Self.scene(name: "plist").replacingOccurrences(of: "\"size\"", with: "\"durations\": \"\(outside)/shadow.json\", \"size\""), to: "plist.json")
        try write(Self.scene(name: "fine"), to: "fine.json")
        let preview = try await start(.folder(folder))
        XCTAssertEqual(preview.library.listing().transitions.map(\.name), ["fine"])
        let errors = preview.library.currentErrors.joined(separator: "\n")
        XCTAssertTrue(errors.contains("\(folder)/link.json: a link to a file outside the served folder"), errors)
        XCTAssertTrue(errors.contains("durations: the durations file '\(outside)/shadow.json' leads outside"), errors)
        XCTAssertFalse(errors.contains("secret-content") || errors.contains("'X'"), errors)
    }

    // MARK: S10

    /// A head sent too slowly and an idle connection are closed; past the connection cap, 503.
    func testSlowHeadsIdleConnectionsAndTheConnectionCap() async throws {
        try write(Self.scene(), to: "scene.json")
        var limits = ServerLimits()
        limits.headerTimeout = 0.5
        limits.idleTimeout = 0.5
        limits.connections = 4
        let preview = try await start(.sceneFile(folder + "/scene.json"), limits: limits)
        // A slow head: a byte every 100 ms, never finished; closed after about half a second.
        let slow = try http.connect(timeout: 3)
        defer { close(slow) }
        let started = Date()
        var closed = false
        for byte in "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8 {
            if Glibc.send(slow, [byte], 1, Int32(MSG_NOSIGNAL)) <= 0 { closed = true; break }
            var b: UInt8 = 0
            let n = recv(slow, &b, 1, Int32(MSG_DONTWAIT))
            if n == 0 { closed = true; break }
            usleep(100_000)
        }
        XCTAssertTrue(closed, "the slow head was not cut")
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        // An idle kept-alive connection after its response: closed too.
        let idle = try http.connect(timeout: 3)
        defer { close(idle) }
        http.send(idle, "GET /api/transitions HTTP/1.1\r\nHost: 127.0.0.1:\(http.port)\r\n\r\n")
        var text = ""
        _ = http.readUntil(idle, &text, contains: "\"version\"", timeout: 3)
        var b: UInt8 = 0
        let idleStart = Date()
        XCTAssertEqual(recv(idle, &b, 1, 0), 0, "closed by the server")
        XCTAssertLessThan(Date().timeIntervalSince(idleStart), 2.5)
        // Both closed by the server (each after reading for at most 0.2 s what its client still sent).
        let closing = Date()
        while preview.server.openConnections > 0, Date().timeIntervalSince(closing) < 2 { usleep(10_000) }
        XCTAssertEqual(preview.server.openConnections, 0)
        // Four open connections, then a fifth: 503 at once.
        let open = try (0..<4).map { _ in try http.connect(timeout: 3) }
        defer { open.forEach { close($0) } }
        try await Task.sleep(nanoseconds: 100_000_000)
        let fifth = try raw("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(http.port)\r\n\r\n", timeout: 3)
        XCTAssertEqual(fifth.response?.status, 503)
        XCTAssertLessThanOrEqual(preview.server.openConnections, 5)
    }

    /// Requests the preview does not take are answered at their head: no wait for a body that never
    /// comes. HEAD /events ends. A UTF-8 byte-order mark in a scene is fine.
    func testRequestsItDoesNotTakeAreAnsweredAtOnce() async throws {
        try write("\u{FEFF}" + Self.scene(), to: "scene.json")
        let preview = try await start(.sceneFile(folder + "/scene.json"))
        XCTAssertEqual(preview.library.currentErrors, [], "a BOM is skipped")
        let host = "Host: 127.0.0.1:\(http.port)\r\n"
        let expect = try raw("GET /api/transitions HTTP/1.1\r\n\(host)Expect: 100-continue\r\nContent-Length: 10\r\n\r\n", timeout: 3)
        XCTAssertEqual(expect.response?.status, 417)
        XCTAssertLessThan(expect.seconds, 1)
        let post = try raw("POST /api/transitions HTTP/1.1\r\n\(host)Content-Length: 100\r\n\r\n", timeout: 3)
        XCTAssertEqual(post.response?.status, 405)
        XCTAssertLessThan(post.seconds, 1)
        let body = try raw("GET / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n", timeout: 3)
        XCTAssertEqual(body.response?.status, 413)
        let head = try raw("HEAD /events HTTP/1.1\r\n\(host)Connection: close\r\n\r\n", timeout: 3)
        XCTAssertEqual(head.response?.status, 200)
        XCTAssertEqual(head.response?.headers["content-type"], "text/event-stream")
        XCTAssertLessThan(head.seconds, 2)
    }

    /// Heads the server cannot read are answered (400, 431, 505) and closed. Two requests sent at once on
    /// one connection are answered in order; a HEAD response has the length and no body.
    func testMalformedHeadsAreAnsweredAndPipelinedRequestsInOrder() async throws {
        try write(Self.scene(), to: "scene.json")
        try await start(.sceneFile(folder + "/scene.json"))
        let host = "Host: 127.0.0.1:\(http.port)\r\n"
        let garbage = try raw("GET / HTTP/1.1\r\n\(host)Bad Header\r\n\r\n", timeout: 3)
        XCTAssertEqual(garbage.response?.status, 400)
        XCTAssertTrue(garbage.response?.text.contains("a header line has no colon") == true, garbage.response?.text ?? "")
        XCTAssertEqual(garbage.response?.headers["connection"], "close")
        let huge = try raw("GET / HTTP/1.1\r\n\(host)X: \(String(repeating: "a", count: 70_000))\r\n\r\n", timeout: 3)
        XCTAssertEqual(huge.response?.status, 431)
        XCTAssertEqual(try raw("GET / HTTP/2.0\r\n\(host)\r\n", timeout: 3).response?.status, 505)
        // Empty lines before a request are skipped, but no more than a head's worth.
        XCTAssertEqual(try raw(String(repeating: "\r\n", count: 40_000), timeout: 3).response?.status, 431)
        XCTAssertEqual(try raw("\r\n\r\nGET /preview.css HTTP/1.1\r\n\(host)Connection: close\r\n\r\n", timeout: 3).response?.status, 200)

        let pair = try rawBytes("GET /api/transitions HTTP/1.1\r\n\(host)\r\nHEAD /preview.css HTTP/1.1\r\n\(host)Connection: close\r\n\r\n",
                                timeout: 3)
        XCTAssertTrue(pair.closed, "closed after the second")
        let both = String(decoding: pair.data, as: UTF8.self)
        let responses = both.components(separatedBy: "HTTP/1.1 200 OK\r\n")
        XCTAssertEqual(responses.count, 3, both)
        XCTAssertTrue(responses[1].contains("application/json") && responses[1].contains("\"grow\""), both)
        XCTAssertTrue(responses[2].contains("Content-Type: text/css"), both)
        let css = try XCTUnwrap(responses[2].components(separatedBy: "\r\n").first { $0.hasPrefix("Content-Length: ") })
        XCTAssertGreaterThan(Int(css.dropFirst(16)) ?? 0, 0, "HEAD says the length")
        XCTAssertTrue(responses[2].hasSuffix("\r\n\r\n"), "and sends no body: \(both)")

        // A body's length too long for an Int is a body (413), not none: what follows is not read as a request.
        let long = try rawBytes("GET / HTTP/1.1\r\n\(host)Content-Length: 99999999999999999999\r\n\r\nGET /api/transitions HTTP/1.1\r\n\(host)\r\n",
                                timeout: 3)
        XCTAssertTrue(long.closed)
        let longText = String(decoding: long.data, as: UTF8.self)
        XCTAssertTrue(longText.hasPrefix("HTTP/1.1 413"), longText)
        XCTAssertEqual(longText.components(separatedBy: "HTTP/1.1 ").count, 2, "one response: \(longText)")

        // Bytes pipelined after `Connection: close` are read and dropped, not left to reset the connection
        // under the response: with a small receive buffer, the client has most of the script still to read
        // when the server closes.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var small: Int32 = 1024
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var tv = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(http.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(connected, 0)
        let junk = String(repeating: "GET /preview.css HTTP/1.1\r\n\(host)\r\n", count: 2000)
        http.send(fd, "GET /preview.js HTTP/1.1\r\n\(host)Connection: close\r\n\r\n" + junk)
        try await Task.sleep(nanoseconds: 100_000_000)
        var script: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        var last = 1
        while last > 0 {
            last = recv(fd, &chunk, chunk.count, 0)
            if last > 0 { script += chunk[0..<last] }
        }
        XCTAssertEqual(last, 0, "ended by the server's close, not a reset (errno \(errno))")
        let response = try HTTPProbe.parse(script)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body.count, Int(response.headers["content-length"] ?? "") ?? -1, "the whole body")
    }

    /// A client that shuts its sending side after its request still gets quick answers.
    func testAClientThatShutsItsSendingSideGetsItsAnswer() async throws {
        try write(Self.scene(), to: "scene.json")
        try await start(.sceneFile(folder + "/scene.json"))
        let reply = try rawBytes("GET /api/transitions HTTP/1.1\r\nHost: 127.0.0.1:\(http.port)\r\n\r\n", timeout: 3, shutSending: true)
        XCTAssertEqual(try HTTPProbe.parse(reply.data).status, 200)
    }

    /// A client that always has its next request waiting (pipelining without end) does not hold up the stop.
    func testAClientThatNeverStopsSendingDoesNotHoldUpTheStop() async throws {
        try write(Self.scene(), to: "scene.json")
        let preview = try await start(.sceneFile(folder + "/scene.json"))
        let fd = try http.connect(timeout: 0.2)
        defer { close(fd) }
        let port = http.port
        let done = Flag()
        let client = DispatchGroup()
        // One thread sends requests and another reads the answers, as fast as each can: the server always has
        // a request to read and room to write, so it never waits on the socket.
        client.enter()
        Thread {
            defer { client.leave() }
            let probe = HTTPProbe(port: port)
            let batch = String(repeating: "GET /preview.css HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", count: 200)
            while !done.isSet { probe.send(fd, batch) }
        }.start()
        client.enter()
        Thread {
            defer { client.leave() }
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while !done.isSet { _ = recv(fd, &buffer, buffer.count, 0) }
        }.start()
        try await Task.sleep(nanoseconds: 300_000_000)
        // Should the stop wait for the client, the client stops after 2 s, so the test ends (and fails).
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) { done.set() }
        let started = Date()
        await preview.stop()
        self.preview = nil
        let took = Date().timeIntervalSince(started)
        done.set()
        await withCheckedContinuation { continuation in client.notify(queue: .global()) { continuation.resume() } }
        XCTAssertLessThan(took, 0.5, "the stop waited for the client")
        XCTAssertEqual(preview.server.openConnections, 0)
    }

    /// HTTP/1.0 closes after its response unless it asks to keep the connection, and is told it is kept.
    func testHTTP10ClosesUnlessItAsksToKeepAlive() async throws {
        try write(Self.scene(), to: "scene.json")
        try await start(.sceneFile(folder + "/scene.json"))
        let plain = try rawBytes("GET /api/transitions HTTP/1.0\r\n\r\n", timeout: 3)
        let text10 = String(decoding: plain.data, as: UTF8.self)
        XCTAssertTrue(text10.hasPrefix("HTTP/1.0 200 OK\r\n"), text10)
        XCTAssertEqual(try HTTPProbe.parse(plain.data).headers["connection"], "close")
        XCTAssertTrue(plain.closed, "and closed")
        let fd = try http.connect(timeout: 3)
        defer { close(fd) }
        http.send(fd, "GET /api/transitions HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        var text = ""
        XCTAssertTrue(http.readUntil(fd, &text, contains: "\"transitions\"", timeout: 3), text)
        XCTAssertTrue(text.contains("Connection: keep-alive\r\n"), text)
        http.send(fd, "GET /preview.css HTTP/1.0\r\n\r\n")
        var second = ""
        XCTAssertTrue(http.readUntil(fd, &second, contains: "text/css", timeout: 3), "a second request on the kept connection: \(second)")
    }

    /// The server's stop ends an open event stream, and a second server on the same port says why it
    /// cannot listen.
    func testStopEndsTheEventStreamAndABusyPortIsReported() async throws {
        try write(Self.scene(), to: "scene.json")
        let preview = try await start(.sceneFile(folder + "/scene.json"))
        let settings = PreviewSettings(scale: 1, fps: 10, assetsDirectory: Self.root + "/assets", lint: Serve.lint)
        let second = try LivePreview(source: .sceneFile(folder + "/scene.json"), settings: settings, pageDirectory: Self.root + "/assets/live-preview")
        do {
            try await second.start(host: "127.0.0.1", port: preview.server.port)
            XCTFail("listened on a port in use")
            await second.stop()
        } catch {
            XCTAssertTrue("\(error)".contains("bind to 127.0.0.1 port \(preview.server.port): Address already in use"), "\(error)")
        }
        let events = try http.openEvents()
        defer { close(events) }
        var stream = ""
        XCTAssertTrue(http.readUntil(events, &stream, contains: "event: reload", timeout: 3), stream)
        XCTAssertTrue(stream.contains("Connection: close"), stream)
        let started = Date()
        await preview.stop()
        self.preview = nil
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var last = 1
        while last > 0 { last = recv(events, &buffer, buffer.count, 0) }
        XCTAssertEqual(last, 0, "the stream ended (errno \(errno))")
    }
}

/// A flag one thread sets and others read (the clients' "done").
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
