import Foundation
import XCTest

/// The scene file shown in docs/scene-files.md is the shipped one, word for word, so the example a
/// reader copies is one that `SceneDocumentTests` checks and renders.
final class ReadmeSceneTests: XCTestCase {
    func testTheSceneFilesGuideShowsTheShippedSceneFile() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("docs/scene-files.md"), encoding: .utf8)
        let scene = try String(contentsOf: root.appendingPathComponent("assets/scenes/tile-expand.json"), encoding: .utf8)
        XCTAssertTrue(guide.contains("```json\n" + scene.trimmingCharacters(in: .whitespacesAndNewlines) + "\n```"))
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(scene.utf8)))
    }
}
