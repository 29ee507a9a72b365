import Foundation
import Lint
import Motion
import RasterCore
import SnapshotView
import XCTest

final class LintTests: XCTestCase {
    /// A 375x667 window with a white background and a red 100x44 box, described at 60 fps for `count`
    /// frames; `change` sets the box up for each frame (and returns the presentation to describe).
    func describe(_ count: Int, _ change: (Int, View) -> any PresentationSource) -> (trees: [ViewDescription], times: [Double]) {
        let window = View(frame: Rect(x: 0, y: 0, width: 375, height: 667), name: "window")
        window.backgroundColor = .white
        let page = View(frame: window.bounds, name: "page")
        page.backgroundColor = Color(white: 0.95)
        let box = View(frame: Rect(x: 20, y: 100, width: 100, height: 44), name: "box")
        box.backgroundColor = Color(red8: 255, green8: 0, blue8: 0)
        try? window.addSubview(page)
        try? page.addSubview(box)
        var trees: [ViewDescription] = []
        for i in 0..<count {
            let presentation = change(i, box)
            trees.append(window.presentationDescription(presentation: presentation))
        }
        return (trees, (0..<count).map { Double($0) / 60 })
    }

    func testAViewHiddenForOneFrameIsFlicker() {
        let (trees, times) = describe(12) { i, box in
            box.isHidden = i == 5
            return ModelPresentation()
        }
        let findings = Lint.views(trees, times: times)
        XCTAssertEqual(findings.map(\.kind), [.flicker])
        XCTAssertEqual(findings.first?.subject, "window/page/box")
        XCTAssertEqual(findings.first?.frames, [4, 5, 6])
        // Faded out and back over two seconds: not flicker (outside the window).
        let slow = describe(130) { i, box in
            box.alpha = i < 60 ? 1 - Double(i) / 60 : Double(i - 60) / 60
            return ModelPresentation()
        }
        XCTAssertEqual(Lint.views(slow.trees, times: slow.times), [])
        // Alpha going 1 → 0.5 → 1 → 0.5 → 1 in five frames turns back three times: one finding.
        let wobble = describe(8) { i, box in
            box.alpha = [1, 0.5, 1, 0.5, 1, 1, 1, 1][i]
            return ModelPresentation()
        }
        let turns = Lint.views(wobble.trees, times: wobble.times)
        XCTAssertEqual(turns.map(\.kind), [.flicker])
        XCTAssertEqual(turns.first?.frames, [1, 2])
    }

    func testAMoveWithNoAnimationIsAJumpAndASteadyEaseIsClean() {
        let (trees, times) = describe(12) { i, box in
            box.frame.origin.x = i < 6 ? 20 : 60
            return ModelPresentation()
        }
        let findings = Lint.views(trees, times: times)
        XCTAssertEqual(findings.map(\.kind), [.jump])
        XCTAssertEqual(findings.first?.frames, [5, 6])
        XCTAssertTrue(findings.first?.detail.contains("moves 40 pt in one frame, with no motion around it") == true, "\(findings)")

        let engine = AnimationEngine(fps: 60)
        var started = false
        let eased = describe(40) { i, box in
            if !started {
                started = true
                engine.animate(duration: 0.5, animations: { box.frame.origin.x = 250 })
            }
            engine.advance(toFrame: i)
            return engine
        }
        XCTAssertEqual(Lint.views(eased.trees, times: eased.times), [], "an ease-in-ease-out move is clean")
    }

    func testASnapAtTheEndAndAnEndCutShort() {
        // Eased to 200 by frame 20, then one step to 260 on the last frame.
        let (trees, times) = describe(22) { i, box in
            box.frame.origin.x = i < 21 ? 20 + 180 * TimingCurve.easeInEaseOut.progress(at: min(1, Double(i) / 20)) : 260
            return ModelPresentation()
        }
        XCTAssertEqual(Lint.views(trees, times: times).map(\.kind), [.snapsAtEnd])
        // A linear move cut short by a fixed length ends late; the same frames of a finished move do not.
        let cut = describe(10) { i, box in
            box.frame.origin.x = 20 + 10 * Double(i)
            return ModelPresentation()
        }
        XCTAssertEqual(Lint.views(cut.trees, times: cut.times, complete: false).map(\.kind), [.endsLate])
        XCTAssertEqual(Lint.views(cut.trees, times: cut.times, complete: true), [])
    }

    func testScreenLeftBareInTheMiddleIsUncovered() {
        let (trees, times) = describe(10) { i, box in
            box.superview?.alpha = (3...5).contains(i) ? 0.5 : 1
            return ModelPresentation()
        }
        let findings = Lint.views(trees, times: times)
        XCTAssertEqual(Set(findings.map(\.kind)), [.uncovered])
        XCTAssertEqual(findings.map(\.frames), [[3], [4], [5]])
        XCTAssertTrue(findings[0].subject.hasPrefix("window x 0 y 0"), findings[0].subject)
    }

    /// Frames of a render folder, as pixels.
    func frames(_ count: Int, _ draw: (Int, Painter) -> Void) throws -> [Bitmap] {
        try (0..<count).map { i in
            let painter = Painter(bitmap: try Bitmap(width: 120, height: 90, scale: 1, fill: PremultipliedRGBA8(r: 60, g: 60, b: 70, a: 255)))
            draw(i, painter)
            return painter.finish()
        }
    }

    func testAOneFrameWhiteFlashInAFolderIsFlagged() throws {
        let flash = try frames(10) { i, painter in
            if i == 4 { painter.fill(Rect(x: 0, y: 0, width: 120, height: 90), color: .white) }
        }
        let times = (0..<10).map { Double($0) / 30 }
        let findings = Lint.pixels(count: 10, times: times, frame: { flash[$0] })
        XCTAssertEqual(findings.map(\.kind), [.flicker])
        XCTAssertEqual(findings.first?.frames, [3, 4, 5])
        XCTAssertEqual(findings.first?.subject, "region x 0 y 0 120×90 px")
        // A small square crossing the frame fast is motion, not a flash.
        let moving = try frames(10) { i, painter in painter.fill(Rect(x: Double(i) * 12, y: 40, width: 10, height: 10), color: .white) }
        XCTAssertEqual(Lint.pixels(count: 10, times: times, frame: { moving[$0] }), [])
        // Bare background (given) in the middle, where the start and end show something.
        let bare = try frames(10) { i, painter in
            if !(4...5).contains(i) { painter.fill(Rect(x: 0, y: 0, width: 60, height: 90), color: Color(red8: 0, green8: 90, blue8: 200)) }
        }
        let found = Lint.pixels(count: 10, times: times, frame: { bare[$0] }, background: PremultipliedRGBA8(r: 60, g: 60, b: 70, a: 255))
        XCTAssertEqual(found.filter { $0.kind == .uncovered }.map(\.frames), [[4], [5]])
    }
}
