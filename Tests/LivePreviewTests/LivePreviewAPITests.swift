import Choreography
import Foundation
import LivePreview
import PNGIO
import RasterCore
import SmokescreenCLI
import XCTest

/// The live preview's JSON API and frames over real sockets, against a small scene file in a temporary
/// folder that the tests edit.
final class LivePreviewAPITests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    var folder = ""
    var scene: String { folder + "/scene.json" }
    var preview: LivePreview!
    var http: HTTPProbe!

    /// A 100x100 pt scene: a box moving over `duration` seconds (at 10 fps: duration × 10 + 1 frames).
    static func sceneText(duration: Double, color: String = "#336699") -> String {
        """
        {
          "size": [100, 100],
          "background": "#FFFFFF",
          "states": {
            "a": { "backgroundColor": "#FFFFFF", "subviews": [ { "name": "box", "frame": [0, 0, 10, 10], "backgroundColor": "\(color)" } ] },
            "b": { "backgroundColor": "#FFFFFF", "subviews": [ { "name": "box", "frame": [50, 50, 40, 40], "backgroundColor": "\(color)" } ] }
          },
          "transitions": [
            { "name": "grow", "from": "a", "to": "b", "phases": [ { "name": "move", "duration": \(duration), "curve": "easeOut" } ],
              "matched": [ { "id": "box", "phase": "move" } ] }
          ]
        }
        """
    }

    func write(_ text: String, to path: String? = nil) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path ?? scene), options: .atomic)
    }

    func start(golden: String? = nil) async throws {
        let settings = PreviewSettings(scale: 1, fps: 10, assetsDirectory: Self.root + "/assets", goldenDirectory: golden, lint: Serve.lint)
        preview = try LivePreview(source: .sceneFile(scene), settings: settings, pageDirectory: Self.root + "/assets/live-preview")
        try await preview.start(host: "127.0.0.1", port: 0)
        http = HTTPProbe(port: preview.server.port)
    }

    override func setUp() async throws {
        folder = NSTemporaryDirectory() + "live-preview-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try write(Self.sceneText(duration: 0.3))
    }

    override func tearDown() async throws {
        await preview?.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Waits (up to 10 s) until the library's version passes `version`.
    func waitForVersion(after version: Int) async throws {
        let deadline = Date().addingTimeInterval(10)
        while preview.library.currentVersion <= version {
            if Date() > deadline { XCTFail("no reload within 10 s"); return }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    func testTransitionsListsNamesFramesSizeRateBlocksAndAVersion() async throws {
        try await start()
        let response = try http.get("/api/transitions")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-type"], "application/json; charset=utf-8")
        let json = try response.json()
        XCTAssertEqual(json["version"] as? Int, 1)
        XCTAssertEqual(json["errors"] as? [String], [])
        let transitions = try XCTUnwrap(json["transitions"] as? [[String: Any]])
        XCTAssertEqual(transitions.map { $0["name"] as? String }, ["grow"])
        let grow = transitions[0]
        XCTAssertEqual(grow["frameCount"] as? Int, 4, "0.3 s at 10 fps: t = 0, 0.1, 0.2, 0.3")
        XCTAssertEqual(grow["fps"] as? Double, 10)
        XCTAssertEqual(grow["pointSize"] as? [Double], [100, 100])
        XCTAssertEqual(grow["file"] as? String, scene)
        let blocks = try XCTUnwrap(grow["blocks"] as? [[String: Any]])
        XCTAssertFalse(blocks.isEmpty)
        for block in blocks {
            XCTAssertEqual(block["delay"] as? Double, 0)
            XCTAssertEqual(try XCTUnwrap(block["duration"] as? Double), 0.3, accuracy: 1e-12)
            XCTAssertEqual(block["timing"] as? String, preview.library.listing().transitions[0].blocks[0].timing)
        }
        // Each reload, even of the same bytes, is a new version.
        preview.library.reload()
        XCTAssertEqual(try http.get("/api/transitions").json()["version"] as? Int, 2)
    }

    func testFramesArePNGAtEachScaleAndAnUnchangedFrameIsNotEncodedAgain() async throws {
        try await start()
        let response = try http.get("/api/transitions/grow/frames/3.png?scale=1")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-type"], "image/png")
        let timing = try XCTUnwrap(response.headers["server-timing"])
        XCTAssertNotNil(timing.range(of: #"^frame;dur=[0-9]+\.[0-9]$"#, options: .regularExpression), timing)
        let decoded = try PNGCodec.decode(response.body)
        let drawn = try XCTUnwrap(try preview.library.bitmap("grow", index: 3, scale: 1))
        XCTAssertEqual(decoded.width, 100)
        XCTAssertEqual(decoded.height, 100)
        XCTAssertTrue(decoded == drawn, "the served frame has the pixels drawn")
        let at2 = try PNGCodec.decode(try http.get("/api/transitions/grow/frames/3.png?scale=2").body)
        XCTAssertEqual(at2.width, 200)
        // The ETag is the digest of the pixels: asked again with it, nothing is sent.
        let etag = try XCTUnwrap(response.headers["etag"])
        XCTAssertEqual(try http.get("/api/transitions/grow/frames/3.png?scale=1", headers: ["If-None-Match": etag]).status, 304)
        let encoded = preview.library.encodedFrames
        // A reload of the same scene draws the frame again but finds its PNG by digest.
        let before = preview.library.currentVersion
        try write(Self.sceneText(duration: 0.3))
        try await waitForVersion(after: before)
        let again = try http.get("/api/transitions/grow/frames/3.png?scale=1")
        XCTAssertEqual(again.body, response.body)
        XCTAssertEqual(again.headers["etag"], etag)
        XCTAssertEqual(preview.library.encodedFrames, encoded, "no frame encoded again")
        // A changed colour is a new digest and a new encoding.
        let version = preview.library.currentVersion
        try write(Self.sceneText(duration: 0.3, color: "#CC3300"))
        try await waitForVersion(after: version)
        let changed = try http.get("/api/transitions/grow/frames/3.png?scale=1")
        XCTAssertNotEqual(changed.headers["etag"], etag)
        XCTAssertEqual(preview.library.encodedFrames, encoded + 1)
    }

    func testLintReportsTheTransitionsFindings() async throws {
        try await start()
        let response = try http.get("/api/transitions/grow/lint")
        XCTAssertEqual(response.status, 200, response.text)
        let json = try response.json()
        XCTAssertEqual(json["name"] as? String, "grow")
        XCTAssertEqual(json["scale"] as? Int, 1)
        XCTAssertEqual(json["clean"] as? Bool, true, response.text)
        XCTAssertEqual((json["findings"] as? [Any])?.count, 0)
    }

    func testThePageAndItsFilesAreServed() async throws {
        try await start()
        let page = try http.get("/")
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertTrue(page.text.contains("<script src=\"/preview.js\">"))
        XCTAssertEqual(try http.get("/preview.js").headers["content-type"], "text/javascript; charset=utf-8")
        XCTAssertEqual(try http.get("/preview.css").status, 200)
        XCTAssertEqual(try http.get("/index.html").body, page.body)
    }

    func testBadNamesFramesAndPathsAre404WithJSON() async throws {
        try await start()
        let cases = [
            "/api/transitions/nope/frames/0.png", "/api/transitions/nope/lint", "/api/transitions/grow/frames/4.png",
            "/api/transitions/grow/frames/-1.png", "/api/transitions/grow/frames/01.png", "/api/transitions/grow/frames/x.png",
            "/api/transitions/grow/frames/1", "/api/transitions/grow/frames/99999999999999999999999.png",
            "/api/transitions/grow/golden/0.png", "/api/nothing", "/favicon.ico", "/assets/scenes/card-expand.json",
        ]
        for path in cases {
            let response = try http.get(path)
            XCTAssertEqual(response.status, 404, path)
            XCTAssertEqual(response.headers["content-type"], "application/json; charset=utf-8", path)
            let json = try response.json()
            XCTAssertEqual(json["status"] as? Int, 404, path)
            XCTAssertFalse((json["error"] as? String ?? "").isEmpty, path)
        }
        XCTAssertTrue(try http.get("/api/transitions/nope/lint").text.contains("served: grow"))
        XCTAssertEqual(try http.get("/api/transitions/grow/frames/0.png?scale=4").status, 400)
        XCTAssertEqual(try http.get("/api/transitions", method: "POST").status, 405)
        // Odd queries are parameters like any other, never a crash.
        XCTAssertEqual(try http.get("/api/transitions?=&&=x&v").status, 200)
        XCTAssertEqual(try http.get("/?").status, 200)
        XCTAssertEqual(try http.get("/api/transitions/grow/frames/0.png?scale").status, 400)
        XCTAssertEqual(try http.get("/api/transitions/grow/frames/0.png?v=x&scale=1").status, 200)
    }

    func testTraversalIsRefusedPlainEncodedAndThroughLinks() async throws {
        // A page folder whose script is a link to a file outside it, and a golden folder with a link out.
        let page = folder + "/page", golden = folder + "/golden"
        try FileManager.default.createDirectory(atPath: page, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: golden + "/grow", withIntermediateDirectories: true)
        try write("<html></html>", to: page + "/index.html")
        try FileManager.default.createSymbolicLink(atPath: page + "/preview.js", withDestinationPath: "/etc/passwd")
        try FileManager.default.createSymbolicLink(atPath: golden + "/grow/frame_0000.png", withDestinationPath: "/etc/passwd")
        let settings = PreviewSettings(scale: 1, fps: 10, assetsDirectory: Self.root + "/assets", goldenDirectory: golden)
        preview = try LivePreview(source: .sceneFile(scene), settings: settings, pageDirectory: page)
        try await preview.start(host: "127.0.0.1", port: 0)
        http = HTTPProbe(port: preview.server.port)
        let attempts = [
            "/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
            "/..%2f..%2f..%2fetc%2fpasswd", "/api/transitions/..%2f..%2fetc/frames/0.png", "/api/transitions/../../etc/passwd",
            "/preview.js/../../../../etc/passwd", "/..%5c..%5cetc%5cpasswd", "/%252e%252e/%252e%252e/etc/passwd",
            "/./index.html", "/api/transitions/grow/frames/%00.png", "/preview.js", "/api/transitions/grow/golden/0.png",
        ]
        for path in attempts {
            let response = try http.get(path)
            XCTAssertTrue([400, 404].contains(response.status), "\(path): \(response.status)")
            XCTAssertEqual(response.headers["content-type"], "application/json; charset=utf-8", path)
            XCTAssertFalse(response.text.contains("root:"), path)
        }
        XCTAssertEqual(try http.get("/").status, 200, "the page's own file is served")
    }

    func testGoldenFramesAndTheirDifference() async throws {
        let golden = folder + "/golden"
        try FileManager.default.createDirectory(atPath: golden + "/grow", withIntermediateDirectories: true)
        try await start(golden: golden)
        // Frame 1 as it is, and frame 2 with one pixel changed.
        for index in [1, 2] {
            var bitmap = try XCTUnwrap(try preview.library.bitmap("grow", index: index, scale: 1))
            if index == 2 { bitmap.withUnsafeMutablePixels { $0[0] = 0xFF00_00FF } }
            try PNGIO.PNGCodec.write(bitmap, to: golden + "/grow/frame_000\(index).png")
        }
        preview.library.reload()
        XCTAssertEqual(preview.library.listing().transitions[0].goldenFrames, nil, "frame_0000.png is missing: none counted")
        try PNGIO.PNGCodec.write(try XCTUnwrap(try preview.library.bitmap("grow", index: 0, scale: 1)), to: golden + "/grow/frame_0000.png")
        XCTAssertEqual(preview.library.listing().transitions[0].goldenFrames, 3)
        XCTAssertEqual(preview.library.listing().transitions[0].goldenPixelSize, [100, 100])
        XCTAssertEqual(try http.get("/api/transitions/grow/golden/1.png").status, 200)
        let same = try http.get("/api/transitions/grow/diff/1.png?scale=1")
        XCTAssertEqual(same.status, 200)
        XCTAssertEqual(same.headers["x-different-pixels"], "0")
        let differs = try http.get("/api/transitions/grow/diff/2.png?scale=1")
        XCTAssertEqual(differs.headers["x-different-pixels"], "1")
        XCTAssertEqual(try PNGCodec.decode(differs.body).width, 100)
        // At @2x the golden frames (@1x) do not fit: said, with both sizes.
        let other = try http.get("/api/transitions/grow/diff/1.png?scale=2")
        XCTAssertEqual(other.status, 409)
        XCTAssertTrue(other.text.contains("100x100 px") && other.text.contains("200x200 px"), other.text)
        XCTAssertEqual(try http.get("/api/transitions/grow/golden/3.png").status, 404)
    }

    func testEventsAnnounceEachReloadAndABrokenFileKeepsTheLastGoodFrames() async throws {
        try await start()
        let events = try http.openEvents()
        defer { close(events) }
        var stream = ""
        XCTAssertTrue(http.readUntil(events, &stream, contains: "\"version\":1", timeout: 10), stream)
        XCTAssertTrue(stream.contains("content-type: text/event-stream") || stream.contains("Content-Type: text/event-stream"), stream)
        // A longer duration: more frames.
        try write(Self.sceneText(duration: 0.5))
        XCTAssertTrue(http.readUntil(events, &stream, contains: "event: reload\ndata: {\"errors\":[],\"version\":2}", timeout: 10), stream)
        XCTAssertEqual((try http.get("/api/transitions").json()["transitions"] as? [[String: Any]])?.first?["frameCount"] as? Int, 6)
        // A broken edit: the error as `check` gives it, and the frames of the last good version.
        try write(Self.sceneText(duration: 0.5).replacingOccurrences(of: "\"duration\": 0.5", with: "\"duration\": \"slow\""))
        XCTAssertTrue(http.readUntil(events, &stream, contains: "\"version\":3", timeout: 10), stream)
        let broken = try http.get("/api/transitions").json()
        let errors = try XCTUnwrap(broken["errors"] as? [String])
        XCTAssertEqual(errors.count, 1)
        var checkError = ""
        do { _ = try SceneDocument_check(scene) } catch { checkError = "\(error)" }
        XCTAssertEqual(errors.first, checkError)
        XCTAssertTrue(errors[0].hasPrefix(scene + ":"), errors[0])
        XCTAssertEqual((broken["transitions"] as? [[String: Any]])?.first?["frameCount"] as? Int, 6)
        XCTAssertEqual(try http.get("/api/transitions/grow/frames/5.png").status, 200)
        // Fixed: the error goes.
        try write(Self.sceneText(duration: 0.2))
        XCTAssertTrue(http.readUntil(events, &stream, contains: "\"version\":4", timeout: 10), stream)
        let fixed = try http.get("/api/transitions").json()
        XCTAssertEqual(fixed["errors"] as? [String], [])
        XCTAssertEqual((fixed["transitions"] as? [[String: Any]])?.first?["frameCount"] as? Int, 3)
        // A frame the page asked for just before the reload, of the version before: still served.
        let kept = try http.get("/api/transitions/grow/frames/5.png?v=3")
        XCTAssertEqual(kept.status, 200, "\(kept.text) at version \(preview.library.currentVersion)")
        XCTAssertEqual(try http.get("/api/transitions/grow/frames/5.png").status, 404)
        XCTAssertEqual(try http.get("/api/transitions/grow/frames/5.png?v=2").status, 404, "only the version before is kept")
    }

    func testADurationsPlistOrAnImageThatChangesIsReloaded() async throws {
        // The scene names a durations plist and an image beside it.
        func plist(_ duration: Double) -> String {
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>move</key><dict><key>duration</key><real>\(duration)</real></dict></dict></plist>
            """
        }
        func dot(_ pixel: UInt32) throws {
            var bitmap = try Bitmap(width: 4, height: 4)
            bitmap.withUnsafeMutablePixels { $0.update(repeating: pixel) }
            try PNGIO.PNGCodec.write(bitmap, to: folder + "/dot.png")
        }
        try write(plist(0.3), to: folder + "/durations.plist")
        try dot(0xFF00_00FF)
        try write(Self.sceneText(duration: 0.3)
            .replacingOccurrences(of: "\"background\": \"#FFFFFF\",", with: "\"background\": \"#FFFFFF\", \"durations\": \"durations.plist\",")
            .replacingOccurrences(of: "{ \"name\": \"box\", \"frame\": [0, 0, 10, 10],",
                                  with: "{ \"type\": \"image\", \"image\": \"dot\", \"name\": \"pic\", \"frame\": [60, 0, 20, 20] }, { \"name\": \"box\", \"frame\": [0, 0, 10, 10],"))
        try await start()
        XCTAssertEqual(preview.library.currentErrors, [])
        XCTAssertEqual(preview.library.frameCount("grow"), 4)
        // The plist: a longer phase, more frames.
        var version = preview.library.currentVersion
        try write(plist(0.6), to: folder + "/durations.plist")
        try await waitForVersion(after: version)
        XCTAssertEqual(preview.library.frameCount("grow"), 7)
        // The image: another colour, another first frame.
        let before = try XCTUnwrap(try preview.library.frame("grow", index: 0, scale: 1)).digest
        version = preview.library.currentVersion
        try dot(0xFFFF_0000)
        try await waitForVersion(after: version)
        XCTAssertNotEqual(try XCTUnwrap(try preview.library.frame("grow", index: 0, scale: 1)).digest, before)
        // A file beside them that the scene does not use: no reload.
        version = preview.library.currentVersion
        try write("notes", to: folder + "/notes.txt")
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertEqual(preview.library.currentVersion, version)
    }

    /// A frame asked for twice, or by two askers at once, is drawn once. After a reload, the frame a page
    /// shows (asked for with `shown=1`) is drawn at the same time in the new reading before anyone asks,
    /// then the rest of the transition nearest it first (a frame the reload did not change kept, not
    /// drawn); the page's requests then get them as drawn.
    func testFramesAreDrawnOnceAndTheShownFrameIsDrawnAheadAfterAReload() async throws {
        try await start()
        let library = preview.library
        // A page listens (frames are drawn ahead only then).
        let listening = library.addListener { _ in }
        defer { library.removeListener(listening) }
        let start = library.drawnFrameCount
        // 0.3 s at 10 fps: frames at 0, 0.1, 0.2, 0.3 s. Frame 2 shown, by two askers at once.
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            XCTAssertNotNil(try? library.frame("grow", index: 2, scale: 1, isShown: true))
        }
        XCTAssertEqual(library.drawnFrameCount, start + 1)
        let before = try XCTUnwrap(try library.frame("grow", index: 2, scale: 1))
        _ = try library.frame("grow", index: 1, scale: 1)
        XCTAssertEqual(library.drawnFrameCount, start + 2, "frame 2 again from what was drawn; frame 1 drawn")
        // A phase twice as long: the page keeps 0.2 s, frame 2 of 7. It is drawn ahead, then the six others
        // (frame 0 too: unchanged, but the reading before never drew it).
        let version = library.currentVersion, unchanged = library.unchangedFrameCount
        try write(Self.sceneText(duration: 0.6))
        try await waitForVersion(after: version)
        let deadline = Date().addingTimeInterval(10)
        while library.drawnFrameCount < start + 2 + 7, Date() < deadline {
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        try await Task.sleep(nanoseconds: 200_000_000)
        XCTAssertEqual(library.drawnFrameCount, start + 2 + 7, "the shown frame and the rest of the transition drawn ahead")
        XCTAssertEqual(library.unchangedFrameCount, unchanged)
        let ahead = try XCTUnwrap(try library.frame("grow", index: 2, scale: 1, isShown: true))
        for index in 0..<7 { XCTAssertNotNil(try library.frame("grow", index: index, scale: 1)) }
        XCTAssertEqual(library.drawnFrameCount, start + 9, "served as drawn ahead")
        XCTAssertNotEqual(ahead.digest, before.digest, "the box is less far at 0.2 s of 0.6 s")
        XCTAssertTrue(try PNGCodec.decode(ahead.png) == XCTUnwrap(try library.bitmap("grow", index: 2, scale: 1)), "the pixels a drawing now has")
        // Over HTTP, the page's way of saying which frame it shows.
        let shown = library.currentVersion
        _ = try http.get("/api/transitions/grow/frames/5.png?scale=1&v=\(shown)&shown=1")
        let drawnNow = library.drawnFrameCount, keptNow = library.unchangedFrameCount
        try write(Self.sceneText(duration: 0.3))
        try await waitForVersion(after: shown)
        let again = Date().addingTimeInterval(10)
        while library.drawnFrameCount + library.unchangedFrameCount < drawnNow + keptNow + 4, Date() < again {
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        _ = try http.get("/api/transitions/grow/frames/3.png?scale=1")
        XCTAssertEqual(library.drawnFrameCount + library.unchangedFrameCount, drawnNow + keptNow + 4,
                       "0.5 s kept: the last frame (0.3 s) drawn ahead, then the three others")
        XCTAssertEqual(library.unchangedFrameCount, keptNow + 1, "frame 0, drawn by the reading before, kept")
    }

    /// After a reload, a frame whose tree draws the same as in the reading before (the box's start, when
    /// only the move's duration changed) is served as drawn before, not drawn again; the frames that
    /// changed are drawn. The frame kept has the pixels a drawing now has.
    func testAFrameAReloadDidNotChangeIsNotDrawnAgain() async throws {
        try await start()
        let library = preview.library
        for index in 0...3 { _ = try library.frame("grow", index: index, scale: 1) }
        let drawn = library.drawnFrameCount, unchanged = library.unchangedFrameCount
        let first = try XCTUnwrap(try library.frame("grow", index: 0, scale: 1))
        let last = try XCTUnwrap(try library.frame("grow", index: 3, scale: 1))
        // The move takes twice as long: its start (frame 0) is as it was, every later frame is elsewhere.
        let version = library.currentVersion
        try write(Self.sceneText(duration: 0.6))
        try await waitForVersion(after: version)
        let again = try XCTUnwrap(try library.frame("grow", index: 0, scale: 1))
        XCTAssertEqual(library.unchangedFrameCount, unchanged + 1, "frame 0 kept from the reading before")
        XCTAssertEqual(library.drawnFrameCount, drawn, "and not drawn")
        XCTAssertEqual(again.digest, first.digest)
        XCTAssertTrue(try PNGCodec.decode(again.png) == XCTUnwrap(try library.bitmap("grow", index: 0, scale: 1)), "the pixels a drawing now has")
        let moved = try XCTUnwrap(try library.frame("grow", index: 3, scale: 1))
        XCTAssertEqual(library.drawnFrameCount, drawn + 1, "the last frame changed: drawn")
        XCTAssertEqual(library.unchangedFrameCount, unchanged + 1)
        XCTAssertNotEqual(moved.digest, last.digest)
        // A colour change changes every frame: none is kept.
        let colour = library.currentVersion
        try write(Self.sceneText(duration: 0.6, color: "#993366"))
        try await waitForVersion(after: colour)
        XCTAssertNotEqual(try XCTUnwrap(try library.frame("grow", index: 0, scale: 1)).digest, first.digest)
        XCTAssertEqual(library.unchangedFrameCount, unchanged + 1)
        XCTAssertEqual(library.drawnFrameCount, drawn + 2)
    }

    func testConcurrentRequestsWhileReloadsRender() async throws {
        try await start()
        let port = preview.server.port
        let library = preview.library
        let failures = NSLock()
        nonisolated(unsafe) var problems: [String] = []
        nonisolated(unsafe) var served = 0
        let group = DispatchGroup()
        for worker in 0..<6 {
            DispatchQueue.global().async(group: group) {
                let probe = HTTPProbe(port: port)
                for i in 0..<15 {
                    let path = i % 3 == 0 ? "/api/transitions" : "/api/transitions/grow/frames/\((worker + i) % 4).png?scale=\(1 + i % 2)"
                    do {
                        let response = try probe.get(path)
                        failures.withLock {
                            if response.status != 200 { problems.append("\(path): \(response.status) \(response.text)") }
                            if path.contains(".png"), (try? PNGCodec.decode(response.body)) == nil {
                                problems.append("\(path): not a PNG")
                            }
                            served += 1
                        }
                    } catch { failures.withLock { problems.append("\(path): \(error)") } }
                }
            }
        }
        // Reloads meanwhile, of different colours (same frame count, so every frame number stays valid).
        for i in 0..<8 {
            try write(Self.sceneText(duration: 0.3, color: i % 2 == 0 ? "#CC3300" : "#336699"))
            library.reload()
        }
        group.wait()
        XCTAssertEqual(problems, [])
        XCTAssertEqual(served, 90)
    }
}

/// `check`'s error for a scene file (what `smokescreen check` prints after `smokescreen: `).
func SceneDocument_check(_ path: String) throws -> [String] {
    try SceneDocument.check(path: path, scales: [1])
}


/// `smokescreen serve`'s arguments: bad ones are usage errors naming the option and the reason.
final class ServeArgumentTests: XCTestCase {
    func message(_ arguments: [String]) -> String {
        do {
            var command = try SmokescreenCommand.parseAsRoot(["serve"] + arguments)
            try command.run()
            return "ran"
        } catch {
            return SmokescreenCommand.message(for: error)
        }
    }

    func testBadArgumentsAreRefusedWithTheReason() {
        let scene = LivePreviewAPITests.root + "/assets/scenes/card-expand.json"
        XCTAssertTrue(message([scene, "--port", "70000"]).contains("--port must be 0…65535, got 70000"))
        XCTAssertTrue(message([scene, "--scale", "4"]).contains("--scale must be 1, 2 or 3, got 4"))
        XCTAssertTrue(message([scene, "--fps", "0"]).contains("--fps must be in"))
        XCTAssertTrue(message([scene, "--golden", "/nonexistent-golden"]).contains("--golden: /nonexistent-golden is not a folder"))
        XCTAssertTrue(message(["no-such-transition"]).contains("'no-such-transition' is neither a folder, a scene file (.json) nor a built-in transition"))
        XCTAssertTrue(message(["/nonexistent/scene.json"]).contains("/nonexistent/scene.json: no such scene file"))
        XCTAssertTrue(message([]).contains("Missing expected argument '<source>'"))
    }

    func testSourcesResolveToBuiltInsFilesAndFolders() throws {
        XCTAssertEqual(try PreviewSource.resolve("nav-push"), .builtIn("nav-push"))
        let scenes = LivePreviewAPITests.root + "/assets/scenes"
        XCTAssertEqual(try PreviewSource.resolve(scenes), .folder(scenes))
        XCTAssertEqual(try PreviewSource.resolve(scenes + "/card-expand.json"), .sceneFile(scenes + "/card-expand.json"))
        // A folder serves every scene file in it, in name order, each with its reversed transition.
        let library = PreviewLibrary(source: .folder(scenes), settings: PreviewSettings(scale: 1, fps: 10, assetsDirectory: LivePreviewAPITests.root + "/assets"))
        XCTAssertEqual(library.sceneFiles.map { URL(fileURLWithPath: $0).lastPathComponent }, ["card-expand.json", "note-open.json", "photo-grid.json", "tile-expand.json"])
        library.reload()
        let names = library.listing().transitions.map(\.name)
        XCTAssertTrue(names.contains("card-expand") && names.contains("card-collapse") && names.contains("tile-collapse"), "\(names)")
        XCTAssertEqual(library.currentErrors, [])
        // The files a reload watches: each scene, and the images photo-grid names in ../vesper, every variant.
        let watched = library.watchedFiles()
        XCTAssertEqual(watched[URL(fileURLWithPath: scenes).path]?.contains("card-expand.json"), true)
        let vesper = URL(fileURLWithPath: LivePreviewAPITests.root + "/assets/vesper").path
        XCTAssertEqual(watched[vesper]?.contains("coffee@2x.png"), true, "\(watched.keys.sorted())")
    }
}
