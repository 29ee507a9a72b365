import BoundedInput
import FrameStore
import Foundation
import XCTest

/// Issue 32, the surfaces beside render folders (scene files, preview, diff, the catalogue, `--shard
/// auto`), run as a user would: the built tool in a child process, a canary tree hashed before and after,
/// the exit status and message, nothing outside `--out` touched, nothing left in the temporary folder, and
/// the child's peak memory under 512 MB. One test per item of the issue's table (D-number in the name).
final class SurfaceSafetyTests: XCTestCase {
    static let limitKiB = 512 * 1024
    var folders: [String] = []
    override func tearDown() { for f in folders { try? FileManager.default.removeItem(atPath: f) } }

    /// A fresh root holding `canary/` (files a user cares about) and `work/` (where the tool runs).
    func makeRoot() throws -> (root: String, work: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("surface-\(getpid())-\(UUID().uuidString)").path
        folders.append(root)
        try FileManager.default.createDirectory(atPath: root + "/canary/victim", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/work", withIntermediateDirectories: true)
        try Data("the user's notes\n".utf8).write(to: URL(fileURLWithPath: root + "/canary/notes.txt"))
        try Data("{\"mine\": true}\n".utf8).write(to: URL(fileURLWithPath: root + "/canary/victim/manifest.json"))
        return (root, root + "/work")
    }

    /// Every file under `folder` (recursively, symbolic links not followed) with its contents' digest.
    func tree(_ folder: String) -> [String: String] {
        var result: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return result }
        for case let relative as String in walker {
            let path = folder + "/" + relative
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFREG: result[relative] = Digest.sha256Hex(Array(FileManager.default.contents(atPath: path) ?? Data()))
            case S_IFDIR: result[relative] = "folder"
            default: result[relative] = "other"
            }
        }
        return result
    }

    /// Runs the tool in `work` and checks the rules every run here must keep: the status, a message with
    /// `message` in it, peak memory, and nothing changed under `root` except below `allowed` (paths
    /// relative to `root`).
    @discardableResult
    func expect(_ status: Int32, _ arguments: [String], in root: String, message: String? = nil, allowed: [String] = [],
                environment: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws -> SafetyTests.Run {
        // The child's temporary folder is private (TMPDIR), so what it leaves there is seen even while other
        // runs use /tmp; it must be empty afterwards.
        let temporary = root + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let before = tree(root)
        var env = environment
        env["SMOKESCREEN_ASSETS"] = SafetyTests.root + "/assets"
        env["TMPDIR"] = temporary
        let result = try SafetyTests.run(arguments, environment: env, directory: root + "/work")
        XCTAssertEqual(result.status, status, "\(arguments): \(result.standardError)", file: file, line: line)
        if let message { XCTAssertTrue(result.standardError.contains(message), "\(arguments): \(result.standardError)", file: file, line: line) }
        if status != 0 { XCTAssertFalse(result.standardError.contains("NSCocoaErrorDomain"), result.standardError, file: file, line: line) }
        XCTAssertLessThan(result.peakKiB, Self.limitKiB, "\(arguments): peak \(result.peakKiB) KiB", file: file, line: line)
        let after = tree(root)
        for (path, digest) in before where !allowed.contains(where: { path.hasPrefix($0) }) {
            XCTAssertEqual(after[path], digest, "\(arguments): \(path) changed", file: file, line: line)
        }
        for path in after.keys where before[path] == nil && !allowed.contains(where: { path.hasPrefix($0) }) {
            XCTFail("\(arguments): \(path) was made outside what the run may write", file: file, line: line)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [], "left in TMPDIR", file: file, line: line)
        return result
    }

    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A scene of `count` small views leaving one after another, `cascade` seconds apart.
    func cascadeScene(views count: Int, cascade: Double, size: String = "[300, 300]", reversedName: String? = nil) -> String {
        let views = (0..<count).map { i in "{\"name\": \"v\(i)\", \"frame\": [\(i % 30 * 10), \(i / 30 * 10 % 300), 8, 8], \"backgroundColor\": \"#3366cc\"}" }
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

    /// A small render folder at `work/out/r` (the reference transition at 5 fps, @1x).
    func renderFolder(in root: String) throws -> String {
        try expect(0, ["render", "reference", "--fps", "5", "--scale", "1", "--out", "out/r", "--quiet"], in: root, allowed: ["work/out"])
        return root + "/work/out/r"
    }

    func editManifest(_ folder: String, _ change: (String) -> String) throws {
        let path = folder + "/manifest.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let changed = change(text)
        XCTAssertNotEqual(changed, text, "the edit applies")
        try Data(changed.utf8).write(to: URL(fileURLWithPath: path))
    }

    // MARK: D2

    func testD2AReversedNameOutsideTheOutputFolderIsRefusedEverywhere() throws {
        let (root, work) = try makeRoot()
        try write(cascadeScene(views: 2, cascade: 0, reversedName: "../../canary/victim"), to: work + "/scenes/s.json")
        try expect(65, ["check", "scenes/s.json"], in: root, message: "scenes/s.json:8:")
        try expect(65, ["check", "scenes/s.json"], in: root, message: "transitions[0].reversedName: '../../canary/victim' is not a name")
        try expect(64, ["render", "scenes/s.json", "--transition", "../../canary/victim", "--quiet"], in: root,
                   message: "--transition: '../../canary/victim' is not a name")
        try expect(64, ["preview", "scenes/s.json", "--transition", "../x"], in: root, message: "--transition: '../x' is not a name")
        // --all: the scene file is one failed item; the built-in beside it still renders, into out/ only.
        try expect(1, ["render", "--all", "--scenes", "scenes", "--match", "[rs]*", "--fps", "5", "--scale", "1", "--out", "out", "--quiet"],
                   in: root, message: "scenes/s.json:8:", allowed: ["work/out"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: work + "/out/reference/manifest.json"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: work + "/out/leave"), "the scene's transitions are not rendered")
        // The failed item is named after its file, made to follow the rule: catalogue.json holds only names.
        try FileManager.default.moveItem(atPath: work + "/scenes/s.json", toPath: work + "/scenes/s..x y.json")
        try expect(1, ["render", "--all", "--scenes", "scenes", "--match", "[rs]*", "--fps", "5", "--scale", "1", "--out", "out", "--quiet"],
                   in: root, message: "s__x_y: failed: scenes/s..x y.json:8:", allowed: ["work/out"])
        let catalogue = try String(contentsOfFile: work + "/out/catalogue.json", encoding: .utf8)
        XCTAssertTrue(catalogue.contains("\"name\" : \"s__x_y\""), catalogue)
    }

    // MARK: D7

    func testD7AThousandViewsWithALongCascadeAreRefusedBeforeTheFramesInBoundedMemory() throws {
        let (root, work) = try makeRoot()
        try write(cascadeScene(views: 1000, cascade: 0.5), to: work + "/big.json")
        let checked = try expect(65, ["check", "big.json"], in: root, message: "big.json:8:")
        XCTAssertTrue(checked.standardError.contains("views drawn"), checked.standardError)
        // The issue's case runs 500 s: inside the time limit, far past the views limit. A tenth of it too.
        try write(cascadeScene(views: 1000, cascade: 0.05), to: work + "/mid.json")
        try expect(65, ["check", "mid.json"], in: root, message: "is more than the limit of \(Limits.viewFramesPerRender) views drawn")
        try expect(64, ["render", "mid.json", "--out", "out/mid", "--quiet"], in: root, message: "lower --fps", allowed: ["work/out"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: work + "/out/mid/frame_0000.png"), "refused before any frame")
        // lint keeps each frame's description too: its views count three times.
        try write(cascadeScene(views: 1000, cascade: 0.0155), to: work + "/edge.json")
        try expect(64, ["lint", "edge.json"], in: root, message: "each counted 3 times")
    }

    // MARK: D8

    func testD8APreviewNeverBuildsAPathFromAManifestName() throws {
        let (root, _) = try makeRoot()
        let folder = try renderFolder(in: root)
        try editManifest(folder) { $0.replacingOccurrences(of: "\"name\" : \"reference\"", with: "\"name\" : \"..\\/..\\/..\\/canary\\/victim\"") }
        try expect(65, ["preview", "out/r", "--only", "sheet"], in: root, message: "out/r/manifest.json: name: '../../../canary/victim' is not a name")
    }

    // MARK: D9

    func testD9ForceNeverReplacesAUsersCatalogue() throws {
        let (root, work) = try makeRoot()
        for text in ["{}\n", "{\"generator\": \"someone else\", \"scale\": 1, \"compression\": \"fast\", \"part\": 1, \"parts\": 1, \"catalogue\": []}\n"] {
            try write(text, to: work + "/out/catalogue.json")
            for force in [[], ["--force"]] {
                try expect(73, ["render", "--all", "--match", "reference", "--fps", "5", "--scale", "1", "--out", "out", "--quiet"] + force,
                           in: root, message: "out/catalogue.json is not a catalogue Smokescreen wrote; it is never replaced, even with --force")
                XCTAssertEqual(try String(contentsOfFile: work + "/out/catalogue.json", encoding: .utf8), text)
            }
        }
        // Its own catalogue is replaced as before.
        try FileManager.default.removeItem(atPath: work + "/out")
        try expect(0, ["render", "--all", "--match", "reference", "--fps", "5", "--scale", "1", "--out", "out", "--quiet"], in: root, allowed: ["work/out"])
        try expect(0, ["render", "--all", "--match", "reference", "--fps", "5", "--scale", "1", "--out", "out", "--quiet", "--force"], in: root, allowed: ["work/out"])
    }

    // MARK: D10

    func testD10AnOversizedContactSheetIsRefusedBeforeAnyTile() throws {
        let (root, _) = try makeRoot()
        let result = try expect(64, ["preview", "reference", "--fps", "200", "--only", "sheet", "--sheet-width", "8000", "--tile-width", "2000",
                                     "--rows", "50", "--preview-out", "p"], in: root, message: "over the limits of 16384 px a side")
        XCTAssertTrue(result.standardError.contains("--sheet-width, --tile-width or --rows"), result.standardError)
        XCTAssertLessThan(result.peakKiB, 300_000)
    }

    // MARK: D13

    func testD13PreviewAndDiffFoldersNeverOverwriteAUsersFiles() throws {
        let (root, work) = try makeRoot()
        _ = try renderFolder(in: root)
        // A user's files of the names previews and diff images use.
        try write("my sheet", to: work + "/mine/sheet.png")
        try expect(73, ["preview", "out/r", "--only", "sheet", "--preview-out", "mine"], in: root,
                   message: "--preview-out: mine holds 'sheet.png', which Smokescreen did not write")
        // render --preview refuses it before rendering: the render folder is not touched either.
        try expect(73, ["render", "reference", "--fps", "7", "--scale", "1", "--out", "out/r", "--quiet", "--preview", "--only", "apng", "--preview-out", "mine"],
                   in: root, message: "holds 'sheet.png'")
        try write("my report", to: work + "/d/report.html")
        try expect(73, ["diff", "out/r", "out/r", "--diff-out", "d"], in: root, message: "--diff-out: d holds 'report.html', which Smokescreen did not write")
        // The option is named as it was typed: `--out` is the same option.
        try expect(73, ["diff", "out/r", "out/r", "--out", "d"], in: root, message: "--out: d holds 'report.html', which Smokescreen did not write")
        // diff --all: the top folder follows the same rule.
        try expect(0, ["render", "--all", "--match", "reference", "--fps", "5", "--scale", "1", "--out", "out/c", "--quiet"], in: root, allowed: ["work/out/c"])
        try expect(73, ["diff", "--all", "out/c", "out/c", "--diff-out", "d"], in: root, message: "--diff-out: d holds 'report.html'")
        // A render folder is not a preview folder either.
        try expect(73, ["preview", "out/r", "--only", "sheet", "--preview-out", "out/r"], in: root, message: "holds 'frame_0000.png'")
        // Empty or Smokescreen's own: written, and again.
        for _ in 0..<2 {
            try expect(0, ["preview", "out/r", "--only", "sheet", "--preview-out", "p", "--quiet"], in: root, allowed: ["work/p"])
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work + "/p").sorted(), ["sheet.png", OutputFolder.markerName])
        try FileManager.default.createDirectory(atPath: work + "/empty", withIntermediateDirectories: true)
        try expect(0, ["diff", "out/r", "out/r", "--diff-out", "empty"], in: root, allowed: ["work/empty"])
        try expect(0, ["diff", "out/r", "out/r", "--diff-out", "empty"], in: root, allowed: ["work/empty"])
        // preview NAME (rendered now, @1x) and preview of a render folder have their own default folders.
        try expect(0, ["preview", "reference", "--fps", "5", "--only", "sheet", "--quiet"], in: root, allowed: ["work/out/reference-2x-preview"])
        try expect(0, ["preview", "out/r", "--only", "sheet", "--quiet"], in: root, allowed: ["work/out/reference-preview"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: work + "/out/reference-2x-preview/sheet.png"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: work + "/out/reference-preview/sheet.png"))
    }

    // MARK: D14

    func testD14ManifestNumbersThatCannotBeConvertedAreRefused() throws {
        let (root, _) = try makeRoot()
        let folder = try renderFolder(in: root)
        let original = try String(contentsOfFile: folder + "/manifest.json", encoding: .utf8)
        let cases: [(String, String, String)] = [
            ("\"fps\" : 5", "\"fps\" : 1e-300", "fps: must be in"),
            ("\"fps\" : 5", "\"fps\" : 1e300", "fps: must be in"),
            ("\"time\" : 0.2", "\"time\" : 1e300", "frames[1].time: must be in"),
            ("\"time\" : 0.2", "\"time\" : -1", "frames[1].time: must be in"),
            ("\"scale\" : 1", "\"scale\" : 1e300", "scale: must be in"),
        ]
        for (old, new, message) in cases {
            try Data(original.replacingOccurrences(of: old, with: new).utf8).write(to: URL(fileURLWithPath: folder + "/manifest.json"))
            XCTAssertNotEqual(try String(contentsOfFile: folder + "/manifest.json", encoding: .utf8), original, new)
            for kind in ["apng", "gif"] {
                try expect(65, ["preview", "out/r", "--only", kind, "--preview-out", "p"], in: root, message: message, allowed: ["work/p"])
            }
        }
    }

    // MARK: D15

    func testD15ShardAutoNeverOverflows() throws {
        let (root, _) = try makeRoot()
        let max = "9223372036854775807", min = "-9223372036854775808"
        let base = ["render", "reference", "--fps", "5", "--scale", "1", "--out", "out/s", "--quiet", "--shard", "auto"]
        try expect(64, base + ["--shard-count", "2"], in: root, message: "JOB_COMPLETION_INDEX=\(max) is outside", environment: ["JOB_COMPLETION_INDEX": max])
        try expect(64, base + ["--shard-count", "2"], in: root, message: "JOB_COMPLETION_INDEX", environment: ["JOB_COMPLETION_INDEX": min])
        try expect(64, base, in: root, message: "SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN",
                   environment: ["SLURM_ARRAY_TASK_ID": max, "SLURM_ARRAY_TASK_MIN": min, "SLURM_ARRAY_TASK_COUNT": "2"])
        try expect(64, base, in: root, message: "SLURM_ARRAY_TASK_COUNT", environment: ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": max])
        try expect(64, base, in: root, message: "CI_NODE_INDEX", environment: ["CI_NODE_INDEX": max, "CI_NODE_TOTAL": max])
        try expect(64, base, in: root, message: "is not a whole number", environment: ["CI_NODE_INDEX": "99999999999999999999", "CI_NODE_TOTAL": "2"])
    }

    // MARK: D18

    func testD18CheckRunsEveryLimitRenderEnforces() throws {
        let (root, work) = try makeRoot()
        try write(cascadeScene(views: 1, cascade: 0, size: "[100000, 100000]"), to: work + "/huge.json")
        try expect(65, ["check", "huge.json"], in: root, message: "huge.json:2:11: size: at @1x the canvas is 100000x100000 px")
        try expect(65, ["render", "huge.json", "--out", "out/h", "--quiet"], in: root, message: "huge.json:2:11: size: at @2x", allowed: ["work/out"])
        try write(cascadeScene(views: 70, cascade: 9), to: work + "/long.json")
        try expect(65, ["check", "long.json"], in: root, message: "long.json:9:")
        let render = try expect(65, ["render", "long.json", "--out", "out/l", "--quiet"], in: root, message: "past the limit of 600 s", allowed: ["work/out"])
        XCTAssertTrue(render.standardError.contains("long.json:9:"), render.standardError)
        XCTAssertLessThan(render.peakKiB, 200_000)
        // A snapshot too: a view of 6000 pt is refused at @3x, at its frame.
        try write(cascadeScene(views: 1, cascade: 0).replacingOccurrences(of: "\"frame\": [0, 0, 8, 8]", with: "\"frame\": [0, 0, 6000, 8]"), to: work + "/wide.json")
        try expect(65, ["check", "wide.json"], in: root, message: "wide.json:4:")
        try expect(0, ["check", "wide.json", "--scale", "2"], in: root)
        try expect(65, ["render", "wide.json", "--scale", "3", "--out", "out/w", "--quiet"], in: root, message: "its snapshot at @3x would be 18000x24 px",
                   allowed: ["work/out"])
        // What check accepts, render renders.
        try write(cascadeScene(views: 3, cascade: 0.1, size: "[300, 300]"), to: work + "/ok.json")
        try expect(0, ["check", "ok.json"], in: root)
        try expect(0, ["render", "ok.json", "--scale", "3", "--fps", "10", "--out", "out/ok", "--quiet"], in: root, allowed: ["work/out"])
    }

    // MARK: D20

    func testD20DanglingOutputLinksAndFIFOFramesGetMessagesAndTheREADMEsStatuses() throws {
        let (root, work) = try makeRoot()
        XCTAssertEqual(symlink(root + "/nowhere/x", work + "/dangling"), 0)
        for arguments in [["render", "reference", "--fps", "5", "--scale", "1", "--out", "dangling", "--quiet"],
                          ["render", "--all", "--match", "reference", "--fps", "5", "--scale", "1", "--out", "dangling", "--quiet"],
                          ["preview", "reference", "--fps", "5", "--only", "sheet", "--preview-out", "dangling"],
                          ["render", "reference", "--fps", "5", "--scale", "1", "--out", "dangling/inside", "--quiet"]] {
            try expect(73, arguments, in: root, message: "is a symbolic link to something that does not exist (a dangling link)")
        }
        let folder = try renderFolder(in: root)
        try FileManager.default.removeItem(atPath: folder + "/frame_0001.png")
        XCTAssertEqual(mkfifo(folder + "/frame_0001.png", 0o644), 0)
        try expect(66, ["preview", "out/r", "--only", "apng", "--preview-out", "p"], in: root, message: "frame_0001.png: cannot read file: a named pipe (FIFO)",
                   allowed: ["work/p"])
        try expect(66, ["lint", "out/r"], in: root, message: "frame_0001.png: cannot read file: a named pipe (FIFO)")
    }
}
