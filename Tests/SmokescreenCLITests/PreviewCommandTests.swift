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
