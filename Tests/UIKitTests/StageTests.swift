import RasterCore
import SmokescreenStage
import XCTest

final class StageTests: XCTestCase {
    func testAViewAnimatedLinearlyIsWhereTheCurveSaysAtEachFrame() throws {
        let stage = try makeStage()
        let box = UIView(frame: CGRect(x: 0, y: 10, width: 10, height: 10))
        box.backgroundColor = .red
        stage.window.backgroundColor = .white
        stage.window.addSubview(box)
        UIView.animate(withDuration: 1, delay: 0, options: [.curveLinear], animations: { box.center.x += 30 })
        // The model value is the new one at once, as UIKit's.
        XCTAssertEqual(box.frame.minX, 30)
        try stage.waitUntilIdle()
        XCTAssertEqual(stage.frameCount, 11)
        // Frame 5 (0.5 s): the box has moved 15 points: columns 15..<25 red.
        let middle = try stage.bitmap(ofFrame: 5)
        XCTAssertEqual(middle.rgba(14, 15), [255, 255, 255, 255])
        XCTAssertEqual(middle.rgba(15, 15), [255, 0, 0, 255])
        XCTAssertEqual(middle.rgba(24, 15), [255, 0, 0, 255])
        XCTAssertEqual(middle.rgba(25, 15), [255, 255, 255, 255])
        let last = try stage.bitmap(ofFrame: 10)
        XCTAssertEqual(last.rgba(30, 15), [255, 0, 0, 255])
        XCTAssertEqual(last.rgba(29, 15), [255, 255, 255, 255])
    }
}

final class StageRunTests: XCTestCase {
    private func scene(_ stage: Stage) {
        stage.window.backgroundColor = .white
        let card = UIView(frame: CGRect(x: 2, y: 2, width: 12, height: 8))
        card.backgroundColor = .systemBlue
        card.layer.cornerRadius = 3
        stage.window.addSubview(card)
        UIView.animate(withDuration: 0.5, delay: 0, usingSpringWithDamping: 0.7, initialSpringVelocity: 0, options: [], animations: {
            card.frame = CGRect(x: 10, y: 6, width: 26, height: 20)
            card.alpha = 0.8
        })
    }

    func testAStageWritesARenderFolderAndTheSameFramesEachRun() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stage-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        var digests: [[String]] = []
        for run in 0..<2 {
            let stage = try makeStage()
            scene(stage)
            try stage.waitUntilIdle()
            XCTAssertEqual(stage.frameCount, 6)
            let folder = "\(root)/run\(run)"
            XCTAssertEqual(try stage.write(to: folder), 6)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            XCTAssertEqual(files, (0..<6).map { String(format: "frame_%04d.png", $0) } + ["manifest.json"])
            digests.append(try files.map { try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\($0)")).base64EncodedString() }.dropLast())
        }
        XCTAssertEqual(digests[0], digests[1])
    }

    func testBadSettingsAndWaitsAreRefusedWithTheReason() throws {
        XCTAssertThrowsError(try Stage(device: testDevice(width: 0, height: 10))) { XCTAssertTrue("\($0)".contains("1…8192 points"), "\($0)") }
        XCTAssertThrowsError(try Stage(device: testDevice(), scale: 4)) { XCTAssertTrue("\($0)".contains("scale must be 1, 2 or 3"), "\($0)") }
        XCTAssertThrowsError(try Stage(device: testDevice(), fps: 0)) { XCTAssertTrue("\($0)".contains("fps must be in"), "\($0)") }
        let stage = try makeStage(fps: 1000)
        XCTAssertThrowsError(try stage.wait(-1)) { XCTAssertTrue("\($0)".contains("finite time"), "\($0)") }
        XCTAssertThrowsError(try stage.wait(.infinity))
        XCTAssertThrowsError(try stage.wait(601)) { XCTAssertTrue("\($0)".contains("limit of 600 s"), "\($0)") }
        XCTAssertThrowsError(try stage.wait(101)) { XCTAssertTrue("\($0)".contains("past the limit of 100000 frames"), "\($0)") }
        XCTAssertEqual(stage.frameCount, 1, "refused before drawing more than the frame of now")
    }

    /// Views or layers nested past the limit are refused by name at the next frame, not drawn into a stack
    /// overflow; at the limit they draw.
    func testTreesNestedPastTheLimitAreRefused() throws {
        let stage = try makeStage()
        var innermost: UIView = stage.window
        // The window and the stage's own levels above it count too: nest to the limit, then past it.
        for _ in 0..<(256 - 8) {  // Limits.viewNesting
            let view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            innermost.addSubview(view)
            innermost = view
        }
        XCTAssertNoThrow(try stage.wait(0.1))
        var layer = innermost.layer
        for _ in 0..<20 {
            let sublayer = CALayer()
            layer.addSublayer(sublayer)
            layer = sublayer
        }
        XCTAssertThrowsError(try stage.wait(0.1)) { XCTAssertTrue("\($0)".contains("nested more than the limit of 256 levels deep"), "\($0)") }
    }

    func testWhatIsNotDrawnIsListed() throws {
        let stage = try makeStage()
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        UIBezierPath().addClip()
        UIBezierPath().addClip()
        UIView.transition(with: view, duration: 0.1, options: .transitionCurlUp, animations: nil)
        stage.window.addSubview(view)
        try stage.wait(0.2)
        XCTAssertEqual(stage.notDrawn, ["UIBezierPath.addClip", "UIView.transition curls (drawn as a cross dissolve)"], "each noted once, in order")
    }

    func testAStageIsTheOneInUseUntilAnotherIsMade() throws {
        let first = try Stage(device: .iPhoneSE, fps: 10)
        XCTAssertEqual(UIScreen.main.bounds.size, CGSize(width: 375, height: 667))
        XCTAssertEqual(UIScreen.main.scale, 2)
        XCTAssertEqual(first.window.bounds.size, UIScreen.main.bounds.size)
        let second = try Stage(device: .iPhone15, fps: 10)
        XCTAssertEqual(UIScreen.main.bounds.size, CGSize(width: 393, height: 852))
        XCTAssertEqual(second.window.safeAreaInsets.top, 59)
        XCTAssertEqual(UIWindow().frame, UIScreen.main.bounds)
    }
}

final class ReadmeUIKitExampleTests: XCTestCase {
    /// The README's example, as it is written there (the folder aside).
    func testTheReadmeExampleWritesNineteenFrames() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("readme-uikit-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let stage = try Stage(device: .iPhone15)
        let card = UIView(frame: CGRect(x: 20, y: 100, width: 160, height: 120))
        card.backgroundColor = .systemBlue
        card.layer.cornerRadius = 12
        stage.window.addSubview(card)
        UIView.animate(withDuration: 0.3) { card.frame = stage.window.bounds }
        try stage.waitUntilIdle()
        try stage.write(to: out + "/card")
        let files = try FileManager.default.contentsOfDirectory(atPath: out + "/card").sorted()
        XCTAssertEqual(files.first, "frame_0000.png")
        XCTAssertEqual(files.dropLast().last, "frame_0018.png")
        XCTAssertEqual(files.last, "manifest.json")
    }
}
