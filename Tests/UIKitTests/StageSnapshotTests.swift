import SmokescreenStage
import SmokescreenStageTesting
import XCTest

/// A stage's frames through swift-snapshot-testing: `assertSnapshot(of: stage, as: .frames)`.
final class StageSnapshotTests: XCTestCase {
    func testAStagesFramesAreOneSnapshot() throws {
        let stage = try makeStage(width: 40, height: 30)
        let box = UIView(frame: CGRect(x: 0, y: 10, width: 10, height: 10))
        box.backgroundColor = .systemYellow
        stage.window.addSubview(box)
        UIView.animate(withDuration: 0.3, delay: 0, options: .curveLinear, animations: { box.frame.origin.x = 30 })
        try stage.waitUntilIdle()
        XCTAssertEqual(stage.frameCount, 4)
        assertSnapshot(of: stage, as: .frames)
        let frames = try SnapshotFrames.taken(by: stage)
        XCTAssertEqual(frames.frames.count, 4)
        XCTAssertThrowsError(try SnapshotFrames.taken(by: try makeStage()), "a stage that took no frames")
    }
}
