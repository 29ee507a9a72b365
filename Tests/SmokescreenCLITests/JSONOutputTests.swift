import Foundation
import SmokescreenScenes
import SnapshotView
import TransitionCompositor
import XCTest

/// `inspect --json`, `list --json` and `memory --json`: what tools and people read.
final class JSONOutputTests: XCTestCase {
    static let assets = SafetyTests.root + "/assets"

    func tree(at time: Double) throws -> ViewDescription {
        var settings = RenderSettings(scale: 1, fps: 10, assetsDirectory: Self.assets)
        settings.inspectionTime = time
        return try XCTUnwrap(try VesperTransition(.timelineToDetail).render(settings).inspection?.tree)
    }

    func find(_ name: String, in tree: ViewDescription) -> ViewDescription? {
        if tree.name == name { return tree }
        for child in tree.subviews { if let found = find(name, in: child) { return found } }
        return nil
    }

    /// The selected note's image moves on `selectedNote` (ease in and out: exactly halfway at the middle
    /// of the phase); the body's old text fades out over the first half of that phase (half gone a quarter
    /// of the way through). Times come from the shipped durations plist.
    func testAViewMidMoveHasTheInterpolatedFrameAndAlpha() throws {
        let note = try XCTUnwrap(try VesperTransition.timings(assetsDirectory: Self.assets)["selectedNote"])
        XCTAssertEqual(note.curve, .easeInEaseOut, "the halfway values below assume a symmetric curve")
        let image = "note 1 thumbnail → detail image"
        let start = try XCTUnwrap(find(image, in: try tree(at: note.delay))).frame
        let end = try XCTUnwrap(find("detail image", in: try tree(at: 10))).frame
        let middle = try XCTUnwrap(find(image, in: try tree(at: note.delay + note.duration / 2)))
        for i in 0..<4 { XCTAssertEqual(middle.frame[i], (start[i] + end[i]) / 2, accuracy: 1e-9, "frame[\(i)]") }
        XCTAssertEqual(middle.type, "ImageView")
        XCTAssertEqual(middle.contentMode, "scaleAspectFill")
        let body = try XCTUnwrap(find("note 1 body (from)", in: try tree(at: note.delay + note.duration / 4)))
        XCTAssertEqual(body.ownAlpha, 0.5, accuracy: 1e-9)
        XCTAssertEqual(body.alpha, 0.5, accuracy: 1e-9, "every ancestor is opaque")
        // At the end the smokescreen is gone and the detail view shows, with its text.
        let final = try tree(at: 10)
        XCTAssertNil(find("smokescreen", in: final))
        XCTAssertEqual(find("detail title", in: final)?.text, "Coffee, ranked")
        XCTAssertEqual(find("detail title", in: final)?.type, "Label")
        XCTAssertEqual(find("window", in: final)?.backgroundColor, "#FFFFFFFF")
    }

    func testListMemoryAndInspectPrintJSON() throws {
        let list = try SafetyTests.run(["list", "--json"])
        XCTAssertEqual(list.status, 0, list.standardError)
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["name"] as? String }, TransitionCatalog.all.map(\.name))
        XCTAssertEqual(entries.first?["isDefault"] as? Bool, true)

        let memory = try SafetyTests.run(["memory", "reference", "--json"])
        XCTAssertEqual(memory.status, 0, memory.standardError)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(memory.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual((report["units"] as? [String: String])?["bytes"], "bytes")
        let scales = try XCTUnwrap(report["scales"] as? [[String: Any]])
        XCTAssertEqual(scales.map { $0["scale"] as? Int }, [1, 2, 3])
        XCTAssertEqual((scales[1]["frameBuffer"] as? [String: Any])?["bytes"] as? Int, 750 * 1334 * 4)

        let inspect = try SafetyTests.run(["inspect", "--scale", "1", "--json", "--time", "0.3"])
        XCTAssertEqual(inspect.status, 0, inspect.standardError)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(inspect.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(document["time"] as? Double, 0.3)
        XCTAssertEqual((document["tree"] as? [String: Any])?["name"] as? String, "window")

        let timeline = try SafetyTests.run(["inspect", "--scale", "1", "--json", "--timeline"])
        let blocks = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(timeline.standardOutput.utf8)) as? [String: Any])?["blocks"] as? [[String: Any]])
        let table = try XCTUnwrap(try VesperTransition.timings(assetsDirectory: Self.assets)["tableView"])
        XCTAssertTrue(blocks.contains { $0["label"] as? String == "tableView" && $0["end"] as? Double == table.end }, "\(blocks)")

        // An interactive built-in reports its progress and the row's highlight.
        let swipe = try SafetyTests.run(["inspect", "deselect-smart-cancel", "--scale", "1", "--json", "--time", "0.6"])
        XCTAssertEqual(swipe.status, 0, swipe.standardError)
        let state = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(swipe.standardOutput.utf8)) as? [String: Any])?["state"] as? [String: Double])
        XCTAssertEqual(state["interactive"], 1)
        XCTAssertEqual(try XCTUnwrap(state["highlight"]), 1 - (try XCTUnwrap(state["progress"])), accuracy: 1.0 / 255)

        let bad = try SafetyTests.run(["inspect", "--time", "0.3"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.standardError.contains("--time and --timeline go with --json"), bad.standardError)
    }

    /// `inspect --json --render-tree FOLDER`: the frame drawn at --time, in pixels, with its images as files.
    func testInspectRenderTreeDescribesTheFrameAndWritesItsImages() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-tree-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try SafetyTests.run(["inspect", "vesper-timeline-to-detail", "--scale", "2", "--json", "--time", "0.3", "--render-tree", folder])
        XCTAssertEqual(result.status, 0, result.standardError)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let render = try XCTUnwrap(document["render"] as? [String: Any])
        XCTAssertEqual(render["frame"] as? Int, 18)  // 0.3 s at 60 fps
        let tree = try XCTUnwrap(render["tree"] as? [String: Any])
        XCTAssertEqual(tree["width"] as? Int, 750)
        XCTAssertEqual(tree["height"] as? Int, 1334)
        let images = try XCTUnwrap(tree["images"] as? [String])
        XCTAssertFalse(images.isEmpty)
        for image in images { XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/" + image), image) }
        let root = try XCTUnwrap(tree["root"] as? [String: Any])
        XCTAssertEqual(root["transform"] as? [Double], [2, 0, 0, 2, 0, 0])
        XCTAssertFalse((tree["textBoxes"] as? [[Int]] ?? []).isEmpty)

        let alone = try SafetyTests.run(["inspect", "--render-tree", folder])
        XCTAssertEqual(alone.status, 64)
        XCTAssertTrue(alone.standardError.contains("--render-tree goes with --json"), alone.standardError)
    }
}
