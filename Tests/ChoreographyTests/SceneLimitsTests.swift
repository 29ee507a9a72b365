import BoundedInput
import Choreography
import Foundation
import TransitionCompositor
import XCTest

/// Issue 32, scene files: names that reach a path follow `TransitionName` (D2), and `check` runs every
/// limit `render` enforces, with file:line:column (D18), including the bound on views drawn (D7).
final class SceneLimitsTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("scene-limits-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// A scene of `count` small views in a grid that leave one after another, `cascade` seconds apart.
    static func cascadeScene(views count: Int, cascade: Double, size: String = "[300, 300]", reversedName: String? = nil) -> String {
        let views = (0..<count).map { i in "{\"name\": \"v\(i)\", \"frame\": [\(i % 30 * 10), \(i / 30 * 10), 8, 8], \"backgroundColor\": \"#3366cc\"}" }
        let reversed = reversedName.map { ", \"reversedName\": \"\($0)\"" } ?? ""
        return """
            {
              "size": \(size),
              "states": {
                "a": { "subviews": [ { "name": "grid", "frame": [0, 0, 300, 300], "subviews": [\(views.joined(separator: ", "))] } ] },
                "b": { "subviews": [ { "name": "grid", "frame": [0, 0, 300, 300] } ] }
              },
              "transitions": [
                { "name": "leave", "from": "a", "to": "b"\(reversed), "phases": [ { "name": "p", "duration": 0.1 } ],
                  "unmatched": [ { "subviewsOf": "grid", "phase": "p", "cascade": \(cascade), "effects": ["fade"] } ] }
              ]
            }
            """
    }

    func write(_ text: String) throws -> String {
        let path = folder + "/scene.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The error `body` throws, with its exit status checked and the folder taken out of the path.
    func failure(status: Int32 = 65, _ body: () throws -> Void) -> String {
        do { try body(); return "no error" } catch let error as any ExitStatusError {
            XCTAssertEqual(error.exitStatus, status, "\(error)")
            return error.description.replacingOccurrences(of: folder + "/", with: "")
        } catch { return "untyped: \(error)" }
    }

    // MARK: D2

    func testNamesThatWouldLeaveTheOutputFolderAreRefusedWhereTheyAre() throws {
        for bad in ["../../escaped", "a/b", "..", ".hidden", "-rf", "tile collapse", "café", ""] {
            let path = try write(Self.cascadeScene(views: 2, cascade: 0, reversedName: bad))
            let message = failure { _ = try SceneDocument.check(path: path) }
            XCTAssertTrue(message.hasPrefix("scene.json:8:"), message)
            XCTAssertTrue(message.contains("transitions[0].reversedName: "), message)
            XCTAssertTrue(message.contains(TransitionName.problem(with: bad)!), message)
            let asName = try write(Self.cascadeScene(views: 2, cascade: 0).replacingOccurrences(of: "\"name\": \"leave\"", with: "\"name\": \"\(bad)\""))
            let named = failure { _ = try SceneTransition.load(path: asName, transition: nil) }
            XCTAssertTrue(named.hasPrefix("scene.json:8:") && named.contains("transitions[0].name: "), named)
        }
        let path = try write(Self.cascadeScene(views: 2, cascade: 0, reversedName: "come-back_2"))
        XCTAssertEqual(try SceneDocument.check(path: path), ["leave", "come-back_2"])
    }

    // MARK: D18

    func testACascadePastTheTimeLimitFailsCheckAndRenderAtTheCascade() throws {
        // 70 views 9 s apart: the last leaves at 621 s.
        let path = try write(Self.cascadeScene(views: 70, cascade: 9))
        let checked = failure { _ = try SceneDocument.check(path: path) }
        XCTAssertTrue(checked.hasPrefix("scene.json:9:"), checked)
        XCTAssertTrue(checked.contains("transitions[0].unmatched[0].cascade: "), checked)
        XCTAssertTrue(checked.contains("621.1 s, past the limit of 600 s"), checked)
        let rendered = failure {
            _ = try SceneTransition.load(path: path, transition: nil).render(RenderSettings(scale: 1, fps: 1, assetsDirectory: folder))
        }
        XCTAssertEqual(rendered, checked, "render refuses it the same way, before any frame")
        // The scene's own durations plist counts, for check as for render: 60 views 9 s apart end at
        // 531.1 s, or at 631 s when the plist makes the phase 100 s long.
        try Data("<plist><dict><key>p</key><dict><key>duration</key><real>100</real></dict></dict></plist>".utf8)
            .write(to: URL(fileURLWithPath: folder + "/durations.plist"))
        let withPlist = Self.cascadeScene(views: 60, cascade: 9).replacingOccurrences(of: "\"size\": [300, 300],", with: "\"size\": [300, 300], \"durations\": \"durations.plist\",")
        let slow = try write(withPlist)
        let slowChecked = failure { _ = try SceneDocument.check(path: slow) }
        XCTAssertTrue(slowChecked.contains("runs until 631 s, past the limit of 600 s"), slowChecked)
        // 10 views 9 s apart end at 81.1 s: both accept it.
        let fits = try write(Self.cascadeScene(views: 10, cascade: 9))
        XCTAssertEqual(try SceneDocument.check(path: fits), ["leave"])
    }

    func testACanvasOverTheBitmapLimitsAtAnyScaleRenderAllowsFailsCheck() throws {
        let huge = try write(Self.cascadeScene(views: 1, cascade: 0, size: "[100000, 100000]"))
        XCTAssertEqual(failure { _ = try SceneDocument.check(path: huge) },
                       "scene.json:2:11: size: at @1x the canvas is 100000x100000 px, over the bitmap limits (16384 px a side, 268435456 pixels): render would refuse it at every scale")
        // 6000 pt fits at @1x and @2x, not at @3x.
        let large = try write(Self.cascadeScene(views: 1, cascade: 0, size: "[6000, 100]"))
        XCTAssertEqual(failure { _ = try SceneDocument.check(path: large) },
                       "scene.json:2:11: size: at @3x the canvas is 18000x300 px, over the bitmap limits (16384 px a side, 268435456 pixels): render --scale 3 would refuse it (it fits at --scale 1 or 2: check --scale N checks one scale)")
        XCTAssertEqual(try SceneDocument.check(path: large, scales: [1, 2]), ["leave"])
        // render refuses it at @3x before building anything, with the same place.
        let rendered = failure { _ = try SceneTransition.load(path: large, transition: nil).render(RenderSettings(scale: 3, fps: 10, assetsDirectory: folder)) }
        XCTAssertTrue(rendered.hasPrefix("scene.json:2:11: size: at @3x"), rendered)
        // A canvas under a pixel a side is refused at its key too, by check and render alike.
        let tiny = try write(Self.cascadeScene(views: 1, cascade: 0, size: "[1e-9, 1e-9]"))
        XCTAssertEqual(failure { _ = try SceneDocument.check(path: tiny) },
                       "scene.json:2:11: size: at @1x the canvas is 0x0 px: it needs at least a pixel a side")
        let tinyRender = failure { _ = try SceneTransition.load(path: tiny, transition: nil).render(RenderSettings(scale: 1, fps: 10, assetsDirectory: folder)) }
        XCTAssertTrue(tinyRender.hasPrefix("scene.json:2:11: size: at @1x the canvas is 0x0 px"), tinyRender)
    }

    /// Sixteen views with a material in a state are read; a seventeenth is refused at its key, before any
    /// frame blurs them all.
    func testMaterialsAreBoundedPerState() throws {
        func scene(_ count: Int) -> String {
            let views = (0..<count).map { "{ \"name\": \"m\($0)\", \"frame\": [0, 0, 300, 300], \"material\": \"thick\" }" }
            return Self.cascadeScene(views: 1, cascade: 0).replacingOccurrences(of: "\"b\": { \"subviews\": [ ", with: "\"b\": { \"subviews\": [ \(views.joined(separator: ", ")), ")
        }
        XCTAssertEqual(try SceneDocument.check(path: try write(scene(16))), ["leave"])
        let message = failure { _ = try SceneDocument.check(path: try write(scene(17))) }
        XCTAssertTrue(message.hasSuffix("states.b.subviews[16].material: more than 16 views with a material in one state: each blurs what is behind it every frame"),
                      message)
    }

    /// A curve's control points: x in 0…1, y within ±1000, each refused with its own reason.
    func testACurvesControlPointsNameWhichValueIsOutOfRange() throws {
        for (curve, reason) in [("[0.5, 1e300, 0.5, -1e300]", "control point y values must be in -1000…1000"),
                                ("[1.5, 0, 0.5, 1]", "control point x values must be in 0…1")] {
            let path = try write(Self.cascadeScene(views: 1, cascade: 0).replacingOccurrences(of: "\"duration\": 0.1", with: "\"duration\": 0.1, \"curve\": \(curve)"))
            let message = failure { _ = try SceneDocument.check(path: path) }
            XCTAssertTrue(message.hasSuffix(reason), message)
        }
    }

    func testASnapshotOverTheBitmapLimitsFailsCheckAndRenderAtTheViewsFrame() throws {
        // One unmatched view 6000 pt wide in a 300 pt canvas: its snapshot fits at @1x and @2x only.
        let scene = Self.cascadeScene(views: 1, cascade: 0).replacingOccurrences(of: "\"frame\": [0, 0, 8, 8]", with: "\"frame\": [0, 0, 6000, 8]")
        let path = try write(scene)
        let checked = failure { _ = try SceneDocument.check(path: path) }
        XCTAssertTrue(checked.hasPrefix("scene.json:4:"), checked)
        XCTAssertTrue(checked.contains("states.a.subviews[0].subviews[0].frame: view 'v0' is 6000x8 pt: its snapshot at @3x would be 18000x24 px"), checked)
        XCTAssertEqual(try SceneDocument.check(path: path, scales: [2]), ["leave"])
        let rendered = failure { _ = try SceneTransition.load(path: path, transition: nil).render(RenderSettings(scale: 3, fps: 10, assetsDirectory: folder)) }
        XCTAssertTrue(rendered.hasPrefix("scene.json:4:") && rendered.hasSuffix("it fits at --scale 1 or 2"), rendered)
    }

    // MARK: D7

    func testMoreViewsDrawnThanTheLimitFailsCheckAndRenderBeforeTheFrames() throws {
        // 200 views 0.5 s apart: about 100 s, 6,000 frames at 60 fps, each drawing about 200 views.
        let path = try write(Self.cascadeScene(views: 200, cascade: 0.5))
        let checked = failure { _ = try SceneDocument.check(path: path) }
        XCTAssertTrue(checked.hasPrefix("scene.json:8:"), checked)
        XCTAssertTrue(checked.contains("transitions[0].name: ") && checked.contains("views drawn"), checked)
        XCTAssertTrue(checked.contains("\(Limits.viewFramesPerRender)"), checked)
        let scene = try SceneTransition.load(path: path, transition: nil)
        let rendered = failure(status: 64) { _ = try scene.render(RenderSettings(scale: 1, fps: 60, assetsDirectory: folder)) }
        XCTAssertTrue(rendered.contains("lower --fps"), rendered)
        // At 4 fps the same scene fits (about 400 frames × 200 views) and renders.
        XCTAssertNoThrow(try scene.render(RenderSettings(scale: 1, fps: 4, assetsDirectory: folder)))
    }
}
