import Foundation
import FrameStore
import PNGIO
import RasterCore
import SmokescreenScenes
import XCTest

/// `smokescreen lint` as CI runs it: every built-in is clean (or carries a documented exception), and a
/// folder with a flash is flagged with exit 1.
final class LintCommandTests: XCTestCase {
    func testEveryBuiltInIsCleanOrExcepted() throws {
        // At @1x to keep the suite's time (the default, @2x, is about 3x slower); the pixel checks look
        // at the pixels of the scale given.
        for transition in TransitionCatalog.all {
            let run = try SafetyTests.run(["lint", transition.name, "--scale", "1", "--json"])
            XCTAssertEqual(run.status, 0, "\(transition.name): \(run.standardOutput)\(run.standardError)")
            let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
            XCTAssertEqual(document["clean"] as? Bool, true, transition.name)
            for exception in (document["exceptions"] as? [[String: Any]]) ?? [] {
                XCTAssertFalse((exception["reason"] as? String ?? "").isEmpty, "\(transition.name): an exception says why")
            }
        }
        XCTAssertTrue(LintExceptions.all.allSatisfy { e in TransitionCatalog.transition(named: e.transition) != nil && !e.reason.isEmpty })
    }

    /// A render folder of a built-in is linted with the built-in's views (the same findings as by name:
    /// its rows of sliding, fading text are no flicker); one whose transition is not known says why it is
    /// checked by its pixels alone.
    func testARenderFolderIsLintedWithItsTransitionsViewsOrSaysWhyNot() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        XCTAssertEqual(try SafetyTests.run(["render", "--scale", "1", "--out", folder + "/f", "--quiet"]).status, 0)
        let run = try SafetyTests.run(["lint", folder + "/f"])
        XCTAssertEqual(run.status, 0, run.standardOutput + run.standardError)
        XCTAssertEqual(run.standardOutput, """
            vesper-timeline-to-detail: views from the built-in 'vesper-timeline-to-detail' as it renders now: every frame's pixels are the folder's
            vesper-timeline-to-detail: clean

            """)
        // Renamed: not a built-in any more; its pixels alone, and the text sliding by is still no flash.
        let manifest = folder + "/f/manifest.json"
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: "\"name\" : \"vesper-timeline-to-detail\"", with: "\"name\" : \"my-copy\"")
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let renamed = try SafetyTests.run(["lint", folder + "/f", "--json"])
        XCTAssertEqual(renamed.status, 0, renamed.standardOutput + renamed.standardError)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(renamed.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(document["basis"] as? String,
                       "pixel checks only (findings name regions): 'my-copy' is not a built-in; give the scene file it was rendered from with --scene FILE to check its views")
        XCTAssertEqual(try SafetyTests.run(["lint", "reference", "--scene", "x.json"]).status, 64, "--scene goes with a folder")
    }

    func testAFolderWithAFlashFailsWithTheFrameAndRegion() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var frames: [Manifest.Frame] = []
        for i in 0..<8 {
            let fill = i == 3 ? PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255) : PremultipliedRGBA8(r: 40, g: 40, b: 60, a: 255)
            let file = FrameFileName.name(i)
            try PNGCodec.write(try Bitmap(width: 64, height: 48, fill: fill), to: "\(folder)/\(file)")
            frames.append(Manifest.Frame(file: file, time: Double(i) / 20, sha256: nil))
        }
        let manifest = Manifest(name: "flash", pointSize: [64, 48], scale: 1, fps: 20, compression: "fast", frames: frames, durations: [:], fingerprint: nil)
        try Data(try manifest.encoded()).write(to: URL(fileURLWithPath: "\(folder)/manifest.json"))
        let run = try SafetyTests.run(["lint", folder])
        XCTAssertEqual(run.status, 1, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("flicker  region x 0 y 0 64×48 px  frames 2,3,4 (0.100 s, 0.150 s, 0.200 s)"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.hasSuffix("flash: 1 finding\n"), run.standardOutput)

        let bad = try SafetyTests.run(["lint", "reference", "--jump-ratio", "0.5"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.standardError.contains("--jump-ratio must be at least 1, got 0.5"), bad.standardError)
        let unknown = try SafetyTests.run(["lint", "nav-psuh"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.standardError.contains("did you mean 'nav-push'?"), unknown.standardError)
    }

    func testShippedScenesAreCleanAndACaptionHiddenUnderThePanelIsFound() throws {
        for scene in ["card-expand", "note-open", "photo-grid", "tile-expand"] {
            let run = try SafetyTests.run(["lint", "assets/scenes/\(scene).json"])
            XCTAssertEqual(run.status, 0, "\(scene): \(run.standardOutput)\(run.standardError)")
        }
        let collapse = try SafetyTests.run(["lint", "assets/scenes/tile-expand.json", "--transition", "tile-collapse"])
        XCTAssertEqual(collapse.status, 0, collapse.standardOutput)
        // The example as it first shipped: the caption faded in under the growing panel and appeared
        // in one step on the last frame.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let shipped = try String(contentsOfFile: SafetyTests.root + "/assets/scenes/tile-expand.json", encoding: .utf8)
        let withoutOnTop = shipped.replacingOccurrences(of: ",\n      \"onTop\": [\"caption\"]", with: "")
        XCTAssertNotEqual(withoutOnTop, shipped, "the shipped example keeps its caption on top")
        try withoutOnTop.write(toFile: folder + "/tile-expand.json", atomically: true, encoding: .utf8)
        let run = try SafetyTests.run(["lint", folder + "/tile-expand.json", "--assets", SafetyTests.root + "/assets"])
        XCTAssertEqual(run.status, 1, run.standardOutput + run.standardError)
        XCTAssertTrue(run.standardOutput.contains("hidden-until-end  window/smokescreen/caption snapshot"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("where 'caption' appears in one step"), run.standardOutput)
    }
}
