import FrameDiff
import RasterCore
import SmokescreenTesting
import TransitionCompositor
import XCTest

/// The assertions as a test uses them, against the goldens checked in under
/// `__Snapshots__/AssertionTests/`. (Running with SMOKESCREEN_RECORD=all re-records them, and fails.)
final class AssertionTests: XCTestCase {
    /// A rounded card sliding right over three frames, at @2x: anti-aliased edges at fractional positions.
    static func cardSlide() throws -> [Bitmap] {
        try (0..<3).map { i in
            var frame = try Bitmap(pointSize: Size(width: 40, height: 30), scale: 2, fill: .white)
            frame.draw { p in
                p.fill(roundedRect: Rect(x: 3 + 4.3 * Double(i), y: 6, width: 24, height: 18), cornerRadii: CornerRadii(all: 5),
                       color: Color(hex: 0x007AFF))
            }
            return frame
        }
    }

    func testFramesMatchTheirGoldens() throws {
        let frames = try Self.cardSlide()
        XCTAssertEqual(frames[0].width, 80)
        assertFrames(frames, matchGoldenNamed: "card-slide")
        assertFrames(frames, matchGoldenNamed: "card-slide", comparison: .perceptual())
    }

    func testNamedFramesAndSnapshot() throws {
        let frames = try Self.cardSlide()
        assertFrames([NamedFrame("start", frames[0]), NamedFrame("end", frames[2])], matchGoldenNamed: "card-ends")
        assertSnapshot(of: frames[1], named: "card-middle")
    }

    /// A whole transition, and the frame sequence of the same render, against one golden set.
    func testTransitionAndSequence() throws {
        let settings = RenderSettings(scale: 2, fps: 10, assetsDirectory: "/unused", holdFrames: 1)
        assertTransition(SlideTransition(), settings: settings, matchGoldenNamed: "slide-transition")
        assertFrames(try SlideTransition().render(settings).sequence, matchGoldenNamed: "slide-transition")
    }
}
