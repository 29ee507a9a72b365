import FrameStore
import ArgumentParser
import Foundation
import PNGIO
import SmokescreenScenes
import XCTest
import SmokescreenCLI
import TransitionCompositor

final class CommandLineTests: XCTestCase {
    var folders: [String] = []
    override func tearDown() { for f in folders { try? FileManager.default.removeItem(atPath: f) } }

    func temporaryFolder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(getpid())-\(UUID().uuidString)").path
        folders.append(path)
        return path
    }

    /// The exit code the tool would end with for `arguments`' parse error.
    func parseExitCode(_ arguments: [String]) -> Int32? {
        do {
            _ = try SmokescreenCommand.parseAsRoot(arguments)
            return nil
        } catch {
            return SmokescreenCommand.exitCode(for: error).rawValue
        }
    }

    func testBenchSummaryOutputFlagsAreChecked() throws {
        XCTAssertEqual(parseExitCode(["bench", "--json"]), 64, "--json without --summary")
        XCTAssertEqual(parseExitCode(["bench", "--summary", "--json", "--markdown"]), 64)
        XCTAssertTrue(try SmokescreenCommand.parseAsRoot(["bench", "--summary", "--markdown", "--runs", "3"]) is Bench)
    }

    func testRenderIsTheDefaultSubcommand() throws {
        let command = try SmokescreenCommand.parseAsRoot([])
        let render = try XCTUnwrap(command as? Render)
        XCTAssertEqual(render.transitionOptions.name, "vesper-timeline-to-detail")
        XCTAssertEqual(render.scale, 2)
        XCTAssertNil(render.out)
        XCTAssertEqual(render.compression, "fast")
        XCTAssertTrue(try SmokescreenCommand.parseAsRoot(["reference", "--scale", "1"]) is Render)
    }

    func testBadArgumentsExitWith64AndNameTheArgument() {
        for args in [["--scale", "4"], ["--fps", "0"], ["--frames", "5..2"], ["--shard", "3/2"], ["--jobs", "0"],
                     ["--compression", "tiny"], ["no-such-transition"], ["inspect", "nope"], ["memory", "--hold", "-1"]] {
            XCTAssertEqual(parseExitCode(args), 64, "\(args)")
        }
        do {
            _ = try SmokescreenCommand.parseAsRoot(["--scale", "4"])
            XCTFail("--scale 4 parsed")
        } catch {
            XCTAssertTrue(SmokescreenCommand.message(for: error).contains("--scale"), SmokescreenCommand.message(for: error))
        }
    }

    func testRenderingASubsetIntoAFolder() throws {
        let out = temporaryFolder()
        var command = try SmokescreenCommand.parseAsRoot(["render", "reference", "--scale", "1", "--fps", "4", "--out", out,
                                                          "--frames", "1..2", "--jobs", "2", "--quiet"])
        try command.run()
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        XCTAssertEqual(files, ["frame_0001.png", "frame_0002.png", "manifest.json"])
        let manifest = try XCTUnwrap(try Manifest.read(from: out + "/manifest.json"))
        XCTAssertEqual(manifest.frameCount, 5, "1 s at 4 fps: 0, 0.25, 0.5, 0.75, 1")
        XCTAssertEqual(manifest.frames.map(\.time), [0, 0.25, 0.5, 0.75, 1])
        XCTAssertEqual(manifest.frames.map { $0.sha256 != nil }, [false, true, true, false, false])
    }

    /// A partial render continued with the same assets restored at another path (a CI cache, another
    /// checkout) is the same render: the fingerprint counts the files' names and bytes, not their folders.
    func testAPartialRenderContinuesWithTheAssetsElsewhere() throws {
        let out = temporaryFolder(), first = temporaryFolder(), second = temporaryFolder()
        try FileManager.default.copyItem(atPath: SafetyTests.root + "/assets", toPath: first)
        try FileManager.default.copyItem(atPath: SafetyTests.root + "/assets", toPath: second)
        let common = ["render", "vesper-timeline-to-detail", "--scale", "1", "--fps", "10", "--out", out, "--quiet"]
        var command = try SmokescreenCommand.parseAsRoot(common + ["--frames", "0..1", "--assets", first])
        try command.run()
        let before = try XCTUnwrap(try Manifest.read(from: out + "/manifest.json"))
        command = try SmokescreenCommand.parseAsRoot(common + ["--frames", "2..3", "--assets", second])
        try command.run()
        let after = try XCTUnwrap(try Manifest.read(from: out + "/manifest.json"))
        XCTAssertEqual(after.fingerprint, before.fingerprint)
        XCTAssertEqual(after.frames.prefix(4).map { $0.sha256 != nil }, [true, true, true, true], "frames 0 and 1 kept, 2 and 3 added")
        XCTAssertEqual(after.frames[0].sha256, before.frames[0].sha256)
        // A changed image is another render.
        var photo = try PNGCodec.read(contentsOf: second + "/vesper/coffee.png")
        photo.withUnsafeMutablePixels { $0[0] = 0xFF00_00FF }
        try PNGCodec.write(photo, to: second + "/vesper/coffee.png")
        command = try SmokescreenCommand.parseAsRoot(common + ["--frames", "4..4", "--assets", second])
        XCTAssertThrowsError(try command.run())
    }

    func testASelectionOfNoFrameIsAUsageError() throws {
        var command = try SmokescreenCommand.parseAsRoot(["render", "reference", "--scale", "1", "--frames", "500..600",
                                                          "--out", temporaryFolder(), "--quiet"])
        XCTAssertThrowsError(try command.run()) { error in
            XCTAssertEqual((error as? ExitCode)?.rawValue, 64, "\(error)")
        }
    }

    func testAMissingDurationsFileExitsWith66() throws {
        var command = try SmokescreenCommand.parseAsRoot(["render", "--durations", "/nonexistent/d.plist", "--out", temporaryFolder(), "--quiet"])
        XCTAssertThrowsError(try command.run()) { error in
            XCTAssertEqual((error as? ExitCode)?.rawValue, 66, "\(error)")
        }
    }

    /// The README's first command: `smokescreen` with no arguments renders the default transition at
    /// @2x and 60 fps into `out/vesper-timeline-to-detail/` under the current folder.
    func testNoArgumentsRendersTheDefaultTransitionIntoOut() throws {
        let folder = temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let previous = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }

        var command = try SmokescreenCommand.parseAsRoot([])
        try command.run()
        let out = folder + "/out/vesper-timeline-to-detail"
        let manifest = try XCTUnwrap(try Manifest.read(from: out + "/manifest.json"))
        XCTAssertEqual(manifest.name, "vesper-timeline-to-detail")
        XCTAssertEqual(manifest.scale, 2)
        XCTAssertEqual(manifest.fps, 60)
        XCTAssertEqual(manifest.pointSize, [375, 667])
        // As many frames as the shipped durations make at 60 fps (34 with 0.55 s).
        let end = VesperTransition.endTime(of: try VesperTransition.timings(assetsDirectory: SafetyTests.root + "/assets"))
        let frames = try FrameTimes(endTime: end, fps: 60).count
        XCTAssertEqual(manifest.frameCount, frames)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: out)),
                       Set((0..<frames).map(FrameFileName.name) + ["manifest.json"]))
        XCTAssertTrue(manifest.frames.allSatisfy { $0.sha256 != nil })
        let first = try PNGCodec.read(contentsOf: out + "/frame_0000.png", scale: 2)
        XCTAssertEqual(first.width, 750)
        XCTAssertEqual(first.height, 1334)
    }
}

/// One error format for every subcommand: `smokescreen: <where>: <reason>` on stderr and the README's
/// exit status, a mistyped command suggested, no usage dump.
final class ErrorFormatTests: XCTestCase {
    func check(_ arguments: [String], status: Int32, contains text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try SafetyTests.run(arguments)
        XCTAssertEqual(run.status, status, "\(arguments): \(run.standardError)", file: file, line: line)
        let lines = run.standardError.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("smokescreen: ") ?? false, "\(arguments): \(run.standardError)", file: file, line: line)
        XCTAssertTrue(run.standardError.contains(text), "\(arguments): \(run.standardError)", file: file, line: line)
        XCTAssertFalse(run.standardError.contains("Error: "), "one prefix: \(run.standardError)", file: file, line: line)
        XCTAssertFalse(run.standardError.contains("Usage: "), "no usage dump: \(run.standardError)", file: file, line: line)
        XCTAssertLessThanOrEqual(lines.count, 2, "\(arguments): \(run.standardError)", file: file, line: line)
    }

    func testEverySubcommandErrsInOneFormat() throws {
        try check(["lsit"], status: 64, contains: "did you mean the command 'list'?")
        try check(["rendr", "vesper"], status: 64, contains: "did you mean the command 'render'?")
        try check(["nav-psuh"], status: 64, contains: "did you mean 'nav-push'?")
        try check(["render", "--scale", "5"], status: 64, contains: "--scale must be 1, 2 or 3, got 5")
        try check(["render", "--shard", "auto"], status: 64, contains: "smokescreen: --shard auto found no batch system")
        try check(["inspect", "nope-nope"], status: 64, contains: "no transition named 'nope-nope'")
        try check(["memory", "--scale", "9", "reference"], status: 64, contains: "smokescreen: ")
        try check(["diff", "/nonexistent-a", "/nonexistent-b"], status: 66, contains: "smokescreen: /nonexistent-a: no such file or folder")
        try check(["lint", "reference", "--scale", "4"], status: 64, contains: "--scale must be 1, 2 or 3, got 4")
        try check(["check", "/nonexistent.json"], status: 66, contains: "/nonexistent.json")
        try check(["merge", "/nonexistent-part", "--out", "/tmp/never-\(UUID().uuidString)"], status: 66, contains: "/nonexistent-part")
        let run = try SafetyTests.run(["render", "--scale", "5"])
        XCTAssertTrue(run.standardError.hasSuffix("(see 'smokescreen render --help')\n"), run.standardError)
    }
}

/// One option vocabulary: `--out` for every output folder (the old names kept), `--durations`,
/// `--quiet` and `--json` wherever they make sense.
final class OptionVocabularyTests: XCTestCase {
    var folders: [String] = []
    override func tearDown() { for f in folders { try? FileManager.default.removeItem(atPath: f) } }

    func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("options-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        folders.append(path)
        return path
    }

    func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    func testOutQuietJSONAndDurationsAcrossCommands() throws {
        let folder = try temporaryFolder()
        // render --json: one object, no progress bar.
        let render = try SafetyTests.run(["render", "reference", "--scale", "1", "--fps", "4", "--out", folder + "/r", "--json"])
        XCTAssertEqual(render.status, 0, render.standardError)
        let summary = try json(render.standardOutput)
        XCTAssertEqual(summary["name"] as? String, "reference")
        XCTAssertEqual(summary["framesWritten"] as? Int, 5)
        XCTAssertEqual(summary["folder"] as? String, folder + "/r")
        // preview --out (and --preview-out, the same option) with --json.
        for option in ["--out", "--preview-out"] {
            let out = folder + "/p" + option
            let preview = try SafetyTests.run(["preview", folder + "/r", "--only", "sheet", option, out, "--json"])
            XCTAssertEqual(preview.status, 0, preview.standardError)
            XCTAssertEqual(try json(preview.standardOutput)["files"] as? [String], ["sheet.png"], option)
            XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/sheet.png"), option)
        }
        // diff --out (and --diff-out) and --quiet.
        let same = try SafetyTests.run(["diff", folder + "/r", folder + "/r", "--out", folder + "/d", "--quiet"])
        XCTAssertEqual(same.status, 0, same.standardError)
        XCTAssertEqual(same.standardOutput, "")
        XCTAssertEqual(try SafetyTests.run(["diff", folder + "/r", folder + "/r", "--diff-out", folder + "/d2"]).status, 0)
        // lint --quiet: nothing printed, the status says it.
        let lint = try SafetyTests.run(["lint", "reference", "--fps", "4", "--quiet"])
        XCTAssertEqual(lint.status, 0, lint.standardError)
        XCTAssertEqual(lint.standardOutput, "")
        // check --json, for a good and a broken scene file.
        let good = try SafetyTests.run(["check", "assets/scenes/tile-expand.json", "--json"])
        XCTAssertEqual(good.status, 0, good.standardError)
        XCTAssertEqual(try json(good.standardOutput)["transitions"] as? [String], ["tile-expand", "tile-collapse"])
        let broken = folder + "/broken.json"
        try Data("{\"size\": [200, 200], \"states\": {}, \"transitions\": [}".utf8).write(to: URL(fileURLWithPath: broken))
        let bad = try SafetyTests.run(["check", broken, "--json"])
        XCTAssertEqual(bad.status, 65)
        let document = try json(bad.standardOutput)
        XCTAssertEqual(document["ok"] as? Bool, false)
        XCTAssertTrue((document["error"] as? String ?? "").hasPrefix(broken + ":1:"), "\(document)")
        XCTAssertTrue(bad.standardError.hasPrefix("smokescreen: " + broken), bad.standardError)
    }

    func testDurationsForLintAndPreview() throws {
        let folder = try temporaryFolder()
        let shipped = try String(contentsOfFile: SafetyTests.root + "/assets/vesper/durations.plist", encoding: .utf8)
        try shipped.write(toFile: folder + "/durations.plist", atomically: true, encoding: .utf8)
        let lint = try SafetyTests.run(["lint", "vesper-timeline-to-detail", "--durations", folder + "/durations.plist", "--fps", "20"])
        XCTAssertEqual(lint.status, 0, lint.standardOutput + lint.standardError)
        let fixed = try SafetyTests.run(["lint", "nav-push", "--durations", folder + "/durations.plist"])
        XCTAssertEqual(fixed.status, 64)
        XCTAssertTrue(fixed.standardError.contains("--durations: 'nav-push' has no durations file"), fixed.standardError)
        try "<plist><dict><key>tableView</key><string>fast</string></dict></plist>".write(toFile: folder + "/bad.plist", atomically: true, encoding: .utf8)
        let bad = try SafetyTests.run(["preview", "vesper-timeline-to-detail", "--durations", folder + "/bad.plist", "--only", "sheet", "--out", folder + "/p"])
        XCTAssertEqual(bad.status, 65, bad.standardError)
        XCTAssertTrue(bad.standardError.contains(folder + "/bad.plist:1:"), bad.standardError)
        XCTAssertEqual(try SafetyTests.run(["bench", "--quiet", "--runs", "0"]).status, 64, "--quiet parses; --runs 0 is refused")
    }
}
