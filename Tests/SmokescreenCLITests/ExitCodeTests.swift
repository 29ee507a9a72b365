import FrameStore
import Foundation
import PNGIO
import RasterCore
import XCTest

/// The README's exit statuses, subcommand by subcommand, as the installed tool ends: 0 success, 1 a failed
/// render or a mismatch (or lint findings), 64 bad usage, 65 bad input data, 66 an input that does not
/// exist, 73 an output folder that cannot be made or holds files Smokescreen did not write. Each status a
/// subcommand can end with is produced once, with the message's subject checked; every message is on
/// stderr in the one format, `smokescreen: …`.
final class ExitCodeTests: TemporaryFolderTestCase {
    var work = ""

    override func setUpWithError() throws {
        work = try temporaryFolder()
        // Inputs every test can use: a broken scene file, a folder holding a user's file, a non-PNG file.
        try write("{\"size\": [200, 200], \"states\": {}, \"transitions\": [}", to: work + "/broken.json")
        try FileManager.default.createDirectory(atPath: work + "/users", withIntermediateDirectories: true)
        try write("mine", to: work + "/users/notes.txt")
        try write("not a PNG", to: work + "/text.png")
    }

    /// Runs the tool and checks the status, that stderr has `text` (nothing is checked for an empty
    /// `text`), and that a failure's first line on stderr is in the tool's format.
    @discardableResult
    func expect(_ status: Int32, _ arguments: [String], stderr text: String = "", file: StaticString = #filePath, line: UInt = #line) throws -> SafetyTests.Run {
        let run = try SafetyTests.run(arguments, directory: work)
        XCTAssertEqual(run.status, status, "\(arguments): \(run.standardError)", file: file, line: line)
        if !text.isEmpty { XCTAssertTrue(run.standardError.contains(text), "\(arguments): \(run.standardError)", file: file, line: line) }
        if status != 0 && status != 1 {
            XCTAssertTrue(run.standardError.hasPrefix("smokescreen: "), "\(arguments): \(run.standardError)", file: file, line: line)
        }
        return run
    }

    /// A small render folder of the reference scene (5 frames at @1x).
    func renderFolder(_ name: String, fps: String = "4") throws -> String {
        try expect(0, ["render", "reference", "--scale", "1", "--fps", fps, "--out", name, "--quiet"])
        return work + "/" + name
    }

    func testRender() throws {
        try expect(0, ["render", "reference", "--scale", "1", "--fps", "4", "--out", "r", "--quiet"])
        try FileManager.default.createDirectory(atPath: work + "/scenes", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: work + "/broken.json", toPath: work + "/scenes/broken-reference.json")
        // A scene file that cannot be read fails its transition; the others finish (exit 1).
        try expect(1, ["render", "--all", "--match", "*reference", "--scenes", "scenes", "--scale", "1", "--fps", "4", "--out", "all", "--quiet"],
                   stderr: "smokescreen: broken-reference: failed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: work + "/all/reference/manifest.json"))
        try expect(64, ["render", "--scale", "5"], stderr: "--scale must be 1, 2 or 3, got 5")
        try expect(65, ["render", "broken.json", "--out", "b"], stderr: "broken.json:1:")
        try expect(66, ["render", "missing.json", "--out", "m"], stderr: "missing.json")
        try expect(73, ["render", "reference", "--scale", "1", "--fps", "4", "--out", "users"], stderr: "notes.txt")
    }

    func testList() throws {
        try expect(0, ["list"])
        try expect(64, ["list", "--colour"], stderr: "--colour")
    }

    func testInspect() throws {
        try expect(0, ["inspect", "reference", "--scale", "1"])
        try expect(64, ["inspect", "nope-nope"], stderr: "no transition named 'nope-nope'")
        try expect(65, ["inspect", "broken.json"], stderr: "broken.json:1:")
        try expect(66, ["inspect", "missing.json"], stderr: "missing.json")
        // A transition the scene file does not have is an unknown transition, as for a built-in: 64.
        try expect(64, ["render", SafetyTests.root + "/assets/scenes/card-expand.json", "--transition", "card-exapnd"],
                   stderr: "no transition named 'card-exapnd' (it has card-expand, card-collapse); did you mean 'card-expand'?")
    }

    func testMemory() throws {
        try expect(0, ["memory", "reference", "--fps", "4", "--quiet"])
        try expect(64, ["memory", "--hold", "-1"], stderr: "--hold")
        try expect(65, ["memory", "broken.json"], stderr: "broken.json:1:")
        try expect(66, ["memory", "vesper-timeline-to-detail", "--durations", "missing.plist", "--quiet"], stderr: "missing.plist")
    }

    func testDiff() throws {
        let a = try renderFolder("a"), b = try renderFolder("b", fps: "5")
        try expect(0, ["diff", a, a, "--quiet"])
        try expect(1, ["diff", a, b, "--quiet"])
        try expect(64, ["diff", a + "/frame_0000.png", a], stderr: "is a PNG file but")
        try expect(65, ["diff", "text.png", "text.png"], stderr: "text.png")
        try expect(66, ["diff", "missing", a], stderr: "missing: no such file or folder")
        try expect(73, ["diff", a, b, "--out", "users"], stderr: "notes.txt")
    }

    func testPreview() throws {
        let r = try renderFolder("r")
        try expect(0, ["preview", r, "--only", "sheet", "--out", "p", "--quiet"])
        try expect(64, ["preview", r, "--sheet-width", "50"], stderr: "--sheet-width must be 200…8000, got 50")
        try expect(65, ["preview", "users"], stderr: "not a render folder")
        try expect(66, ["preview", "missing.json"], stderr: "missing.json")
        try expect(73, ["preview", r, "--only", "sheet", "--out", "users"], stderr: "notes.txt")
    }

    func testLint() throws {
        try expect(0, ["lint", "reference", "--scale", "1", "--fps", "4", "--quiet"])
        // A folder whose fourth frame flashes white.
        let flash = work + "/flash"
        try FileManager.default.createDirectory(atPath: flash, withIntermediateDirectories: true)
        var frames: [Manifest.Frame] = []
        for i in 0..<8 {
            let fill = i == 3 ? PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255) : PremultipliedRGBA8(r: 40, g: 40, b: 60, a: 255)
            let file = FrameFileName.name(i)
            try PNGCodec.write(try Bitmap(width: 64, height: 48, fill: fill), to: "\(flash)/\(file)")
            frames.append(Manifest.Frame(file: file, time: Double(i) / 20, sha256: nil))
        }
        let manifest = Manifest(name: "flash", pointSize: [64, 48], scale: 1, fps: 20, compression: "fast", frames: frames, durations: [:], fingerprint: nil)
        try Data(try manifest.encoded()).write(to: URL(fileURLWithPath: flash + "/manifest.json"))
        try expect(1, ["lint", "flash", "--quiet"])
        try expect(64, ["lint", "reference", "--scale", "4"], stderr: "--scale must be 1, 2 or 3, got 4")
        try expect(65, ["lint", "broken.json"], stderr: "broken.json:1:")
        try expect(66, ["lint", "missing.json"], stderr: "missing.json")
    }

    func testBench() throws {
        try expect(64, ["bench", "--runs", "0"], stderr: "--runs must be 1…1000, got 0")
        try expect(66, ["bench", "--assets", "missing"], stderr: "--assets: 'missing' is not a folder")
    }

    func testCheck() throws {
        try expect(0, ["check", SafetyTests.root + "/assets/scenes/tile-expand.json"])
        try expect(64, ["check", "tile-expand.jsn"], stderr: "is not a scene file (.json), a durations plist (.plist) or a built-in transition")
        try expect(65, ["check", "broken.json"], stderr: "broken.json:1:")
        try expect(66, ["check", "missing.json"], stderr: "missing.json")
    }

    func testMerge() throws {
        for k in 1...2 {
            try expect(0, ["render", "reference", "--scale", "1", "--fps", "4", "--shard", "\(k)/2", "--out", "part-\(k)", "--quiet"])
        }
        try expect(0, ["merge", "part-1", "part-2", "--out", "merged", "--quiet"])
        try expect(64, ["merge", "--out", "m"], stderr: "give the parts to merge")
        try expect(65, ["merge", "part-1", "part-1", "--out", "m2"], stderr: "duplicate")
        try expect(66, ["merge", "part-1", "missing", "--out", "m3"], stderr: "missing: no such folder")
        try expect(73, ["merge", "part-1", "part-2", "--out", "users"], stderr: "notes.txt")
    }
}
