import Foundation
import XCTest

/// `smokescreen preview` and `render --preview` as a user runs them.
final class PreviewCommandTests: XCTestCase {
    var folder = ""
    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("preview-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    func testPreviewOfATransitionAndOfARenderFolder() throws {
        let out = folder + "/p"
        let made = try SafetyTests.run(["preview", "reference", "--scale", "1", "--fps", "5", "--only", "sheet", "apng", "gif", "--preview-out", out])
        XCTAssertEqual(made.status, 0, made.standardError)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).sorted(),
                       ["animation.gif", "animation.png", "sheet.png", "smokescreen-files.json"], "the previews and the record of Smokescreen's files")
        XCTAssertTrue(made.standardOutput.contains("reference: sheet.png, animation.png, animation.gif → \(out)"), made.standardOutput)

        // render --preview, then preview of the folder it wrote: the same animated PNG.
        let render = folder + "/r", again = folder + "/q"
        let rendered = try SafetyTests.run(["render", "reference", "--scale", "1", "--fps", "5", "--out", render, "--quiet",
                                            "--preview", "--only", "apng", "--preview-out", again])
        XCTAssertEqual(rendered.status, 0, rendered.standardError)
        let fromFolder = try SafetyTests.run(["preview", render, "--only", "apng", "--preview-out", folder + "/f", "--quiet"])
        XCTAssertEqual(fromFolder.status, 0, fromFolder.standardError)
        let a = try Data(contentsOf: URL(fileURLWithPath: again + "/animation.png"))
        XCTAssertEqual(a, try Data(contentsOf: URL(fileURLWithPath: folder + "/f/animation.png")))
        XCTAssertEqual(a, try Data(contentsOf: URL(fileURLWithPath: out + "/animation.png")))
    }

    /// The previews are made at once (the GIF on a core of its own): each file is the same as when it is
    /// made alone, and a failure of one is still reported.
    func testPreviewsMadeAtOnceAreThoseMadeAlone() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else { throw XCTSkip("ffmpeg is not installed; .ci/run installs it") }
        let render = folder + "/r"
        let rendered = try SafetyTests.run(["render", "nav-push", "--scale", "1", "--fps", "10", "--out", render, "--quiet"])
        XCTAssertEqual(rendered.status, 0, rendered.standardError)
        let together = try SafetyTests.run(["preview", render, "--preview-out", folder + "/all", "--quiet"])
        XCTAssertEqual(together.status, 0, together.standardError)
        for (kind, file) in [("sheet", "sheet.png"), ("apng", "animation.png"), ("gif", "animation.gif"), ("mp4", "animation.mp4")] {
            let alone = try SafetyTests.run(["preview", render, "--only", kind, "--preview-out", folder + "/" + kind, "--quiet"])
            XCTAssertEqual(alone.status, 0, alone.standardError)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/all/" + file)),
                           try Data(contentsOf: URL(fileURLWithPath: folder + "/" + kind + "/" + file)), file)
        }
        // A frame that cannot be read fails the previews made beside the GIF, and the command with it.
        try Data("not a PNG".utf8).write(to: URL(fileURLWithPath: render + "/frame_0003.png"))
        let broken = try SafetyTests.run(["preview", render, "--preview-out", folder + "/broken", "--quiet"])
        XCTAssertNotEqual(broken.status, 0)
        XCTAssertTrue(broken.standardError.contains("frame_0003.png"), broken.standardError)
    }

    func testBadPreviewArgumentsAreNamed() throws {
        let unknown = try SafetyTests.run(["preview", "vesper-timline-to-detail"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.standardError.contains("did you mean 'vesper-timeline-to-detail'?"), unknown.standardError)
        let width = try SafetyTests.run(["preview", "reference", "--sheet-width", "50"])
        XCTAssertEqual(width.status, 64)
        XCTAssertTrue(width.standardError.contains("--sheet-width must be 200…8000, got 50"), width.standardError)
        let kind = try SafetyTests.run(["preview", "reference", "--only", "webp"])
        XCTAssertEqual(kind.status, 64)
        let empty = try SafetyTests.run(["preview", folder])
        XCTAssertEqual(empty.status, 65)
        XCTAssertTrue(empty.standardError.contains("not a render folder: it has no manifest.json"), empty.standardError)
    }
}
