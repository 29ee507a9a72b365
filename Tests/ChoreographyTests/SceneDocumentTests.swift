import BoundedInput
import Choreography
import Foundation
import PNGIO
import RasterCore
import SnapshotView
import TransitionCompositor
import Typesetting
import XCTest

/// Scene files: the shipped examples render, and every kind of bad input gets its message (file,
/// line:column, JSON path, reason) and exit status 65.
final class SceneDocumentTests: XCTestCase {
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("assets").path
    var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    func testTheExamplesCheckAndRender() throws {
        XCTAssertEqual(try SceneDocument.check(path: Self.assets + "/scenes/card-expand.json"), ["card-expand", "card-collapse"])
        // photo-grid's images are in ../vesper: inside the assets folder, not the scene's own.
        XCTAssertEqual(try SceneDocument.check(path: Self.assets + "/scenes/photo-grid.json", assetsDirectory: Self.assets), ["photo-open", "photo-close"])
        XCTAssertEqual(try SceneDocument.check(path: Self.assets + "/scenes/tile-expand.json"), ["tile-expand", "tile-collapse"])
        XCTAssertEqual(try SceneDocument.check(path: Self.assets + "/scenes/note-open.json"), ["note-open", "note-close"])
        let scene = try SceneTransition.load(path: Self.assets + "/scenes/card-expand.json", transition: "card-collapse")
        XCTAssertTrue(scene.isReversed)
        let rendered = try scene.render(RenderSettings(scale: 1, fps: 10, assetsDirectory: Self.assets))
        XCTAssertEqual(rendered.sequence.count, 7, "0.55 s at 10 fps: six frames and one at the end")
        XCTAssertEqual(rendered.sequence.durations["card.duration"], 0.45)
    }

    /// A minimal valid scene; `edit` changes its text before it is written.
    let minimal = """
        {
          "size": [100, 100],
          "states": {
            "a": { "subviews": [ { "name": "box", "frame": [0, 0, 10, 10], "backgroundColor": "#336699" } ] },
            "b": { "subviews": [ { "name": "box", "frame": [50, 50, 40, 40], "backgroundColor": "#336699" } ] }
          },
          "transitions": [
            { "name": "grow", "from": "a", "to": "b", "phases": [ { "name": "move", "duration": 0.3 } ],
              "matched": [ { "id": "box", "phase": "move" } ] }
          ]
        }
        """

    func error(_ text: String) throws -> String {
        let path = folder + "/scene.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        do { _ = try SceneDocument.check(path: path); return "no error" } catch let error as any ExitStatusError {
            XCTAssertEqual(error.exitStatus, 65, "\(error)")
            return error.description.replacingOccurrences(of: path, with: "scene.json")
        }
    }

    func testTheMinimalSceneIsValid() throws {
        XCTAssertEqual(try error(minimal), "no error")
    }

    func testBadScenesNameWhereAndWhy() throws {
        let truncated = try error(String(minimal.prefix(120)))
        XCTAssertTrue(truncated.hasPrefix("scene.json:4:"), truncated)
        XCTAssertEqual(try error(minimal.replacingOccurrences(of: "\"size\": [100, 100]", with: "\"size\": \"big\"")),
                       "scene.json:2:11: size: expected an array, got a string")
        XCTAssertEqual(try error(minimal.replacingOccurrences(of: "\"backgroundColor\": \"#336699\" } ] },\n    \"b\"", with: "\"backgroundColr\": \"#336699\" } ] },\n    \"b\"")),
                       "scene.json:4:68: states.a.subviews[0].backgroundColr: unknown key 'backgroundColr'; did you mean 'backgroundColor'?")
        XCTAssertEqual(try error(minimal.replacingOccurrences(of: "\"duration\": 0.3", with: "\"duration\": 99999")),
                       "scene.json:8:94: transitions[0].phases[0].duration: must be in 0.0…600.0, got 99999.0")
        XCTAssertEqual(try error(minimal.replacingOccurrences(of: "[50, 50, 40, 40]", with: "[50, 50, 1e9, 40]")),
                       "scene.json:5:69: states.b.subviews[0].frame: must be [x, y, width, height] in points, sizes ≥ 0, each within ±100000")
        XCTAssertEqual(try error(minimal.replacingOccurrences(of: "\"to\": \"b\"", with: "\"to\": \"c\"")),
                       "scene.json:8:42: transitions[0].to: no state named 'c'")
        XCTAssertEqual(try error(minimal.replacingOccurrences(of: "{ \"name\": \"box\", \"frame\": [50, 50",
                                                            with: "{ \"name\": \"box\" }, { \"name\": \"box\", \"frame\": [50, 50")),
                       "scene.json:5:55: states.b.subviews[1].name: a second view named 'box' in state 'b'; names identify views in transitions and must be unique in a state")
        XCTAssertEqual(try error(minimal.replacingOccurrences(of: "\"matched\": [ { \"id\": \"box\", \"phase\": \"move\" } ]",
                                                            with: "\"matched\": [ { \"id\": \"bx\", \"phase\": \"move\" } ]")),
                       "scene.json:9:28: transitions[0].matched[0].id: no view named 'bx' in the from-state 'a'")
        // Every name a transition refers to is checked where it is written, with a suggestion.
        XCTAssertEqual(try error(minimal.replacingOccurrences(of: "\"matched\": [ { \"id\": \"box\", \"phase\": \"move\" } ]",
                                                            with: "\"matched\": [ { \"from\": \"box\", \"to\": \"bocks\", \"phase\": \"move\" } ]")),
                       "scene.json:9:43: transitions[0].matched[0].to: no view named 'bocks' in the to-state 'b'")
        XCTAssertEqual(try error(minimal.replacingOccurrences(of: "\"matched\": [ { \"id\": \"box\", \"phase\": \"move\" } ]",
                                                            with: "\"unmatched\": [ { \"views\": [\"box\", \"bax\"], \"phase\": \"move\", \"effects\": [\"fade\"] } ]")),
                       "scene.json:9:41: transitions[0].unmatched[0].views[1]: no view named 'bax' in the from-state 'a' or the to-state 'b'; did you mean 'box'?")
        XCTAssertEqual(try error(minimal.replacingOccurrences(of: "\"matched\": [ { \"id\": \"box\", \"phase\": \"move\" } ]",
                                                            with: "\"matched\": [ { \"id\": \"box\", \"phase\": \"move\" } ], \"onTop\": [\"boxx\"]")),
                       "scene.json:9:66: transitions[0].onTop[0]: no view named 'boxx' in the from-state 'a' or the to-state 'b'; did you mean 'box'?")
        // A misspelt phase is reported where it is written, with the phases there are.
        XCTAssertEqual(try error(minimal.replacingOccurrences(of: "\"matched\": [ { \"id\": \"box\", \"phase\": \"move\" } ]",
                                                            with: "\"matched\": [ { \"id\": \"box\", \"phase\": \"mvoe\" } ]")),
                       "scene.json:9:44: transitions[0].matched[0].phase: transition 'grow' has no phase named 'mvoe' (its phases: move); did you mean 'move'?")
        // A view both matched and unmatched would be drawn twice.
        XCTAssertEqual(try error(minimal.replacingOccurrences(of: "\"matched\": [ { \"id\": \"box\", \"phase\": \"move\" } ]",
                                                            with: "\"matched\": [ { \"id\": \"box\", \"phase\": \"move\" } ], \"unmatched\": [ { \"views\": [\"box\"], \"phase\": \"move\", \"effects\": [\"fade\"] } ]")),
                       "scene.json:9:83: transitions[0].unmatched[0].views[0]: view 'box' is matched (matched[0]) and listed as unmatched too; "
                       + "a view is either matched (it moves between the states) or unmatched (it leaves or arrives with an effect)")
        let deep = "{\"size\": [10, 10], \"states\": {\"a\": " + String(repeating: "{\"subviews\": [", count: 40) + String(repeating: "]}", count: 40)
            + "}, \"transitions\": []}"
        let tooDeep = try error(deep)
        XCTAssertTrue(tooDeep.hasSuffix("views nested more than 32 levels deep"), tooDeep)
    }

    func testLabelTrackingIsInPointsAndZeroPlacesGlyphsAsHarfBuzz() throws {
        let label = "{ \"type\": \"label\", \"name\": \"t\", \"frame\": [0, 60, 300, 30], \"text\": \"AVATAR Tokyo\", \"fontSize\": 17, \"tracking\": TRACK }"
        func scene(_ tracking: String) -> String {
            minimal.replacingOccurrences(of: "\"backgroundColor\": \"#336699\" } ] },\n    \"b\"",
                                         with: "\"backgroundColor\": \"#336699\" }, \(label.replacingOccurrences(of: "TRACK", with: tracking)) ] },\n    \"b\"")
        }
        XCTAssertEqual(try error(scene("0")), "no error")
        XCTAssertEqual(try error(scene("500")), "scene.json:4:214: states.a.subviews[1].tracking: must be in -100.0…100.0, got 500.0")
        let document = try SceneDocument.parse(Array(scene("0.5").utf8), path: "scene.json")
        let spec = try XCTUnwrap(document.states["a"]?.subviews.first { $0.name == "t" })
        XCTAssertEqual(spec.tracking, 0.5)
        // A label built from a spec with tracking 0 sets its glyphs exactly as Inter's file shaped alone.
        var zero = spec
        zero.tracking = 0
        var builder = TreeBuilder(assetsFolder: folder, scale: 1, canvas: Size(width: 100, height: 100), scene: "scene.json")
        let root = try builder.build(SceneDocument.ViewSpec(subviews: [zero]), state: "a")
        let built = try XCTUnwrap(root.subviews.first as? Label)
        XCTAssertEqual(built.style.font.tracking, 0)
        let ours = try built.layout()
        let plain = try TextLayout("AVATAR Tokyo", style: TextStyle(font: Font(file: "/usr/share/fonts/opentype/inter/Inter-Regular.otf", size: 17)))
        XCTAssertEqual(ours.exactSize, plain.exactSize)
        // Without the key, the system font's SF tracking (-26/1000 em at 17 pt) applies.
        var system = spec
        system.tracking = nil
        let tracked = try XCTUnwrap(try builder.build(SceneDocument.ViewSpec(subviews: [system]), state: "a").subviews.first as? Label)
        XCTAssertEqual(tracked.style.font.tracking, -26)
    }

    func testAMissingImageNamesTheFile() throws {
        let text = minimal.replacingOccurrences(of: "{ \"name\": \"box\", \"frame\": [0, 0, 10, 10], \"backgroundColor\": \"#336699\" }",
                                                with: "{ \"type\": \"image\", \"name\": \"box\", \"frame\": [0, 0, 10, 10], \"image\": \"missing\" }")
        let path = folder + "/scene.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try SceneDocument.check(path: path)) { error in
            XCTAssertEqual((error as? any ExitStatusError)?.exitStatus, 65, "\(error)")
            XCTAssertEqual("\(error)", "\(path):4:94: states.a.subviews[0].image: view 'box' names the image 'missing', but there is no \(folder)/missing.png")
        }
    }

    /// A scene's durations plist, assets folder and images must stay, links followed, inside the scene's
    /// folder or the tool's assets folder: a scene cannot make the tool read, render or quote another file.
    func testInputsOutsideTheScenesFolderAndTheAssetsFolderAreRefusedBeforeReading() throws {
        let scenes = folder + "/scenes", secret = folder + "/secret", assets = folder + "/assets"
        for f in [scenes, secret, assets] { try FileManager.default.createDirectory(atPath: f, withIntermediateDirectories: true) }
        var dot = try Bitmap(width: 2, height: 2)
        dot.withUnsafeMutablePixels { $0.update(repeating: 0xFF00_00FF) }
        try PNGCodec.write(dot, to: secret + "/secret.png")
        try PNGCodec.write(dot, to: assets + "/shared.png")
        try Data("<plist version=\"1.0\"><dict><key>move</key><dict><key>duration</key><real>0.2</real></dict></dict></plist>".utf8)
            .write(to: URL(fileURLWithPath: secret + "/durations.plist"))
        try FileManager.default.createSymbolicLink(atPath: scenes + "/linked.png", withDestinationPath: secret + "/secret.png")
        try FileManager.default.createSymbolicLink(atPath: scenes + "/linked.plist", withDestinationPath: secret + "/durations.plist")
        let image = "{ \"name\": \"box\", \"frame\": [0, 0, 10, 10], \"backgroundColor\": \"#336699\" }"
        func check(_ text: String) -> String {
            let path = scenes + "/scene.json"
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
                _ = try SceneDocument.check(path: path, assetsDirectory: assets)
                return "no error"
            } catch let error as any ExitStatusError {
                XCTAssertEqual(error.exitStatus, 65, "\(error)")
                return error.description.replacingOccurrences(of: folder, with: "F")
            } catch { return "\(error)" }
        }
        func withImage(_ name: String) -> String {
            minimal.replacingOccurrences(of: image, with: "{ \"type\": \"image\", \"name\": \"box\", \"frame\": [0, 0, 10, 10], \"image\": \"\(name)\" }")
        }
        XCTAssertEqual(check(withImage("../secret/secret")),
                       "F/scenes/scene.json:4:94: states.a.subviews[0].image: view 'box' names the image '../secret/secret', which leads outside the assets folder F/scenes")
        XCTAssertEqual(check(withImage("linked")),
                       "F/scenes/scene.json:4:94: states.a.subviews[0].image: view 'box' names the image 'linked', which leads outside the assets folder F/scenes")
        XCTAssertEqual(check(minimal.replacingOccurrences(of: "\"size\"", with: "\"durations\": \"../secret/durations.plist\", \"size\"")),
                       "F/scenes/scene.json:2:16: durations: the durations file '../secret/durations.plist' leads outside the scene's folder (F/scenes) "
                       + "and the assets folder (F/assets): a scene reads files only inside those (give another plist with --durations)")
        XCTAssertEqual(check(minimal.replacingOccurrences(of: "\"size\"", with: "\"durations\": \"linked.plist\", \"size\"")),
                       "F/scenes/scene.json:2:16: durations: the durations file 'linked.plist' leads outside the scene's folder (F/scenes) "
                       + "and the assets folder (F/assets): a scene reads files only inside those (give another plist with --durations)")
        XCTAssertEqual(check(withImage("secret").replacingOccurrences(of: "\"size\"", with: "\"assets\": \"../secret\", \"size\"")),
                       "F/scenes/scene.json:2:13: assets: the assets folder '../secret' leads outside the scene's folder (F/scenes) "
                       + "and the assets folder (F/assets): a scene reads files only inside those (name another folder with --assets)")
        // An absolute name is a name in the assets folder like any other: no such file there.
        XCTAssertEqual(check(withImage("/etc/passwd")),
                       "F/scenes/scene.json:4:94: states.a.subviews[0].image: view 'box' names the image '/etc/passwd', but there is no F/scenes//etc/passwd.png")
        // Inside the tool's assets folder is fine (photo-grid's "../vesper" is the shipped case).
        XCTAssertEqual(check(withImage("shared").replacingOccurrences(of: "\"size\"", with: "\"assets\": \"../assets\", \"size\"")), "no error")
    }

    func testAHugeOrNonRegularSceneFileIsRefusedBeforeReading() throws {
        let fifo = folder + "/pipe.json"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        XCTAssertThrowsError(try SceneDocument.read(from: fifo)) { XCTAssertEqual(($0 as? InputFileError)?.kind, .notRegular) }
        let big = folder + "/big.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: big, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
        try handle.truncate(atOffset: UInt64(Limits.sceneBytes) + 1)
        try handle.close()
        XCTAssertThrowsError(try SceneDocument.read(from: big)) { XCTAssertEqual(($0 as? InputFileError)?.kind, .tooLarge) }
    }
}

/// Scene transitions driven by a swipe instead of the clock.
final class SceneGestureTests: XCTestCase {
    var folder = ""
    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// The minimal scene with a 100-pt canvas, its one phase linear over 1 s, driven by `gesture`.
    func scene(gesture: String) -> String {
        """
        {
          "size": [100, 100],
          "states": {
            "a": { "subviews": [ { "name": "box", "frame": [0, 0, 10, 10], "backgroundColor": "#336699" } ] },
            "b": { "subviews": [ { "name": "box", "frame": [80, 0, 10, 10], "backgroundColor": "#336699" } ] }
          },
          "transitions": [
            { "name": "slide", "from": "a", "to": "b", "phases": [ { "name": "move", "duration": 1, "curve": "linear" } ],
              "matched": [ { "id": "box", "phase": "move" } ], "gesture": \(gesture) }
          ]
        }
        """
    }

    func render(_ text: String, inspectAt time: Double? = nil) throws -> RenderedTransition {
        let path = folder + "/scene.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        var settings = RenderSettings(scale: 1, fps: 10, assetsDirectory: folder)
        settings.inspectionTime = time
        return try SceneTransition.load(path: path, transition: nil).render(settings)
    }

    func testTheSwipeScrubsThePhaseAndFinishes() throws {
        // Starts at 0.1 s; 40 pt of 100 at 0.5 s into the swipe: 40 %, the box 32 pt along.
        let text = scene(gesture: "{ \"start\": 0.1, \"samples\": [[0, 0], [0.5, 40], [0.6, 70]] }")
        let mid = try render(text, inspectAt: 0.6)
        XCTAssertEqual(mid.inspectionState?["progress"] ?? -1, 0.4, accuracy: 1e-9)
        let smokescreen = try XCTUnwrap(mid.inspection?.tree.subviews.first { $0.name == "smokescreen" })
        for piece in ["box (from)", "box (to)"] {
            XCTAssertEqual(try XCTUnwrap(smokescreen.subviews.first { $0.name == piece }).frame[0], 32, accuracy: 1e-9, piece)
        }
        // Released at 70 % moving at 300 pt/s: it finishes, and ends in state b.
        let end = try render(text, inspectAt: 100)
        XCTAssertEqual(end.inspectionState?["progress"], 1)
        let tree = try XCTUnwrap(end.inspection?.tree)
        XCTAssertEqual(tree.subviews.map(\.name), ["b"], "the to-state alone, the smokescreen gone")
    }

    func testAPulledBackSwipeCancelsToTheFromState() throws {
        let rendered = try render(scene(gesture: "{ \"samples\": [[0, 0], [0.4, 40], [0.6, 20]] }"), inspectAt: 100)
        XCTAssertEqual(rendered.inspectionState?["progress"], 0)
        XCTAssertEqual(rendered.inspection?.tree.subviews.map(\.name), ["a"])
        let box = try XCTUnwrap(rendered.inspection?.tree.subviews.first?.subviews.first)
        XCTAssertEqual(box.frame, [0, 0, 10, 10])
    }

    func testBadGesturesNameWhereAndWhy() throws {
        let path = folder + "/scene.json"
        func error(_ gesture: String) throws -> String {
            try Data(scene(gesture: gesture).utf8).write(to: URL(fileURLWithPath: path))
            do { _ = try SceneDocument.check(path: path); return "no error" } catch let error as any ExitStatusError {
                XCTAssertEqual(error.exitStatus, 65)
                return error.description.replacingOccurrences(of: path, with: "scene.json")
            }
        }
        XCTAssertTrue(try error("{ \"samples\": [[0, 0]] }").hasSuffix("transitions[0].gesture.samples: a gesture needs at least two samples ([seconds, points])"))
        XCTAssertTrue(try error("{ \"samples\": [[0.5, 0], [0.2, 10]] }").contains("sample times must not go back (0.2 s after 0.5 s)"))
        XCTAssertTrue(try error("{ \"samples\": [[0, 0], [1, 1e9]] }").contains("a sample's translation must be within ±100000"))
        XCTAssertTrue(try error("{ \"samples\": [[0, 0], [1]] }").contains("must be an array of 2 numbers"))
        XCTAssertTrue(try error("{ \"start\": 1 }").contains("a gesture needs samples"))
        XCTAssertTrue(try error("{ \"samples\": [[0, 0], [1, 5]], \"strat\": 1 }").contains("unknown key 'strat'; did you mean 'start'?"))
    }
}

/// The command line wins over the file: `--assets` over a scene's `assets` key; a durations plist's
/// unknown key is warned about with the scene's phases.
final class SceneAssetsAndDurationsTests: XCTestCase {
    func testExplicitAssetsWinAndDurationWarningsListThePhases() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scene-assets-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let shipped = try String(contentsOfFile: SceneDocumentTests.assets + "/scenes/photo-grid.json", encoding: .utf8)
        let scene = shipped.replacingOccurrences(of: "\"assets\": \"../vesper\"", with: "\"assets\": \"nowhere\"")
        try scene.write(toFile: folder + "/photos.json", atomically: true, encoding: .utf8)
        let transition = try SceneTransition.load(path: folder + "/photos.json", transition: nil)
        var settings = RenderSettings(scale: 1, fps: 10, assetsDirectory: SceneDocumentTests.assets + "/vesper")
        XCTAssertThrowsError(try transition.render(settings), "the file's own folder has no images") { error in
            XCTAssertTrue("\(error)".contains("nowhere/"), "\(error)")
        }
        settings.assetsDirectoryIsExplicit = true
        XCTAssertNoThrow(try transition.render(settings), "--assets names the folder")

        let tile = try SceneTransition.load(path: SceneDocumentTests.assets + "/scenes/tile-expand.json", transition: nil)
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>tilee</key><dict><key>duration</key><real>0.5</real></dict></dict></plist>
            """.write(toFile: folder + "/durations.plist", atomically: true, encoding: .utf8)
        let warnings = Warnings()
        var timed = RenderSettings(scale: 1, fps: 10, assetsDirectory: SceneDocumentTests.assets, durationsFile: folder + "/durations.plist")
        timed.warn = { warnings.add($0) }
        _ = try tile.render(timed)
        XCTAssertEqual(warnings.all.count, 1)
        XCTAssertTrue(warnings.all.first?.contains("(its blocks: others, tile, caption); ignored; did you mean 'tile'?") ?? false, "\(warnings.all)")
    }

    final class Warnings: @unchecked Sendable {
        private var list: [String] = []
        private let lock = NSLock()
        func add(_ s: String) { lock.lock(); list.append(s); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return list }
    }
}
