import FrameStore
import ArgumentParser
import Foundation
import PNGIO
import SmokescreenScenes
import XCTest
@testable import SmokescreenCLI
@testable import TransitionCompositor

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
