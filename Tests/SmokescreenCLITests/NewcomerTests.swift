import Foundation
import XCTest

/// The newcomer's path as the README gives it: a playable video, and an installed tool finding its assets.
final class NewcomerTests: XCTestCase {
    var folder = ""
    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("newcomer-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    func shell(_ command: String, in directory: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? folder)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The README's ffmpeg line on a small render (375 pt wide at @1x: odd, so the scale filter matters).
    func testTheReadmesVideoLineMakesAPlayableMP4() throws {
        guard try shell("command -v ffmpeg && command -v ffprobe").status == 0 else {
            print("NewcomerTests: skipped: ffmpeg/ffprobe are not installed (apt-get install ffmpeg)")
            throw XCTSkip("ffmpeg is not installed")
        }
        let readme = try String(contentsOfFile: SafetyTests.root + "/README.md", encoding: .utf8)
        let line = try XCTUnwrap(readme.components(separatedBy: "```sh\nffmpeg ").dropFirst().first?.components(separatedBy: "\n```").first)
        let command = "ffmpeg -loglevel error -y " + line.replacingOccurrences(of: "\\\n", with: " ")
            .replacingOccurrences(of: "out/vesper-timeline-to-detail", with: "frames").replacingOccurrences(of: "out/vesper.mp4", with: "video.mp4")
        let render = try SafetyTests.run(["render", "reference", "--scale", "1", "--fps", "10", "--out", folder + "/frames", "--quiet"])
        XCTAssertEqual(render.status, 0, render.standardError)
        let encoded = try shell(command)
        XCTAssertEqual(encoded.status, 0, encoded.output)
        let probe = try shell("ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=codec_name,pix_fmt,width,height,nb_read_frames -of csv=p=0 video.mp4")
        XCTAssertEqual(probe.output.trimmingCharacters(in: .whitespacesAndNewlines), "h264,374,666,yuv420p,11")
    }

    /// What `make install` lays out: PREFIX/bin/smokescreen and PREFIX/share/smokescreen/assets; run from
    /// anywhere, the tool finds the assets beside it.
    func testAnInstalledToolFindsItsAssets() throws {
        guard FileManager.default.isExecutableFile(atPath: SafetyTests.tool) else { throw XCTSkip("\(SafetyTests.tool) is not built") }
        let prefix = folder + "/prefix"
        let make = try shell("""
            install -d "\(prefix)/bin" "\(prefix)/share/smokescreen" && install -m 755 "\(SafetyTests.tool)" "\(prefix)/bin/smokescreen" \
            && cp -R "\(SafetyTests.root)/assets" "\(prefix)/share/smokescreen/assets"
            """)
        XCTAssertEqual(make.status, 0, make.output)
        let elsewhere = folder + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let run = try shell("\"\(prefix)/bin/smokescreen\" render reference --scale 1 --fps 4 --out frames --quiet && ls frames | wc -l", in: elsewhere)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(run.output.trimmingCharacters(in: .whitespacesAndNewlines), "6", "5 frames and the manifest")
        // Found on PATH and run by name (arguments[0] is then just "smokescreen"), and through a symlink
        // in another folder on PATH: the assets are found from the executable's real path.
        let links = folder + "/links"
        try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: links + "/ss", withDestinationPath: prefix + "/bin/smokescreen")
        for (path, command) in [(prefix + "/bin", "smokescreen"), (links, "ss")] {
            let environment = "env -u SMOKESCREEN_ASSETS PATH=\"\(path):/usr/bin:/bin\""
            let byName = try shell("\(environment) \(command) render reference --scale 1 --fps 4 --out byname --quiet --force"
                                   + " && \(environment) \(command) lint reference --fps 4 > /dev/null && ls byname | wc -l", in: elsewhere)
            XCTAssertEqual(byName.status, 0, "\(command) from PATH: \(byName.output)")
            XCTAssertEqual(byName.output.trimmingCharacters(in: .whitespacesAndNewlines), "6", command)
        }
        let makefile = try String(contentsOfFile: SafetyTests.root + "/Makefile", encoding: .utf8)
        XCTAssertTrue(makefile.contains("$(PREFIX)/share/smokescreen"), "the Makefile installs where the tool looks")
    }
}
