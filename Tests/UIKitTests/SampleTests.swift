import SmokescreenStage
import SmokescreenTesting
import XCTest

/// The samples in `Samples/`, each run on a stage and kept as golden frames (@1x, 10 fps).
final class SampleTests: XCTestCase {
    func testTheCardGridExpandsACard() throws {
        let device = Device(name: "small phone", size: CGSize(width: 180, height: 320), scale: 2,
                            safeAreaInsets: UIEdgeInsets(top: 20, left: 0, bottom: 10, right: 0))
        let stage = try Stage(device: device, fps: 10, scale: 1)
        let grid = CardGridViewController()
        stage.show(grid)
        try stage.wait(0.1)
        var completed: Double?
        grid.expand(at: 3) { completed = stage.time }
        try stage.waitUntilIdle()
        XCTAssertEqual(completed, 0.7)
        XCTAssertEqual(grid.cards[3].frame, grid.view.bounds)
        XCTAssertEqual(stage.frameCount, 8, "t = 0, 0.1 … 0.7")
        XCTAssertEqual(stage.notDrawn, [])
        assertFrames(stage.frames(name: "card-grid"), matchGoldenNamed: "card-grid")
    }
}
