import Foundation
import XCTest

/// The README's scene file is the shipped one, word for word, so the example a reader copies is one that
/// `SceneDocumentTests` checks and renders.
final class ReadmeSceneTests: XCTestCase {
    func testTheReadmeShowsTheShippedSceneFile() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let scene = try String(contentsOf: root.appendingPathComponent("assets/scenes/tile-expand.json"), encoding: .utf8)
        XCTAssertTrue(readme.contains("```json\n" + scene.trimmingCharacters(in: .whitespacesAndNewlines) + "\n```"))
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(scene.utf8)))
    }
}
