import Foundation
import Lint
import Motion
import RasterCore
import SmokescreenScenes
import SnapshotView
import TransitionCompositor
import XCTest

/// Content that jumps under a still scroll offset (seed 000's sectioned table), and what is not that.
final class ContentJumpTests: XCTestCase {
    /// A 320x480 window with a scroll view (0, 64, 320x416) of ten opaque 100-pt rows, its offset at 300,
    /// described for 21 frames at 60 fps; `change` moves things for frame i (0…20).
    func describe(_ change: (Int, ScrollView, [View]) -> Void) -> (trees: [ViewDescription], times: [Double]) {
        let window = View(frame: Rect(x: 0, y: 0, width: 320, height: 480), name: "window")
        let scroll = ScrollView(frame: Rect(x: 0, y: 64, width: 320, height: 416), name: "scroll")
        scroll.contentSize = Size(width: 320, height: 1000)
        let rows = (0..<10).map { k -> View in
            let row = View(frame: Rect(x: 0, y: Double(k) * 100, width: 320, height: 100), name: "row\(k)")
            row.backgroundColor = Color(white: Double(k) / 10)
            try? scroll.addSubview(row)
            return row
        }
        try? window.addSubview(scroll)
        var trees: [ViewDescription] = []
        for i in 0...20 {
            scroll.contentOffset = Point(x: 0, y: 300)
            for (k, row) in rows.enumerated() { row.frame.origin.y = Double(k) * 100 }
            change(i, scroll, rows)
            trees.append(window.presentationDescription(presentation: ModelPresentation()))
        }
        return (trees, (0...20).map { Double($0) / 60 })
    }

    func testEverythingOnScreenCarriedOffUnderAStillOffsetIsAJump() {
        // Content above the visible area shrinks by 250 pt (0.6 of the visible height) over 20 frames.
        let (trees, times) = describe { i, _, rows in
            for (k, row) in rows.enumerated() where k >= 2 { row.frame.origin.y -= 250 * Double(i) / 20 }
        }
        let findings = Lint.views(trees, times: times)
        XCTAssertEqual(findings.map(\.kind), [.jump])
        XCTAssertEqual(findings.first?.subject, "window/scroll")
        XCTAssertEqual(findings.first?.frames, [0, 20])
        XCTAssert(findings.first?.detail.contains("250 pt within its content") ?? false, findings.first?.detail ?? "")
        // Under the threshold (0.5 of 416 = 208 pt): not a jump.
        let small = describe { i, _, rows in
            for (k, row) in rows.enumerated() where k >= 2 { row.frame.origin.y -= 200 * Double(i) / 20 }
        }
        XCTAssertEqual(Lint.views(small.trees, times: small.times), [])
        var strict = Thresholds()
        strict.contentShiftFraction = 0.4
        XCTAssertEqual(Lint.views(small.trees, times: small.times, thresholds: strict).map(\.kind), [.jump])
    }

    func testAScrollAViewKeptInPlaceAndAnAnchoredChangeAreNotJumps() {
        // A scroll: everything moves on screen, nothing within the content.
        let scrolled = describe { i, scroll, _ in scroll.contentOffset = Point(x: 0, y: 300 + 400 * Double(i) / 20) }
        XCTAssertEqual(Lint.views(scrolled.trees, times: scrolled.times), [])
        // A view kept in place on screen while the content scrolls moves within the content only.
        let floating = describe { i, scroll, rows in
            scroll.contentOffset = Point(x: 0, y: 300 + 400 * Double(i) / 20)
            rows[9].frame.origin.y = scroll.contentOffset.y + 10
        }
        XCTAssertEqual(Lint.views(floating.trees, times: floating.times), [])
        // Rows 3 and 4 stay where the reader sees them while the rows below them move up: an anchor.
        let anchored = describe { i, _, rows in
            for (k, row) in rows.enumerated() where k >= 5 { row.frame.origin.y -= 300 * Double(i) / 20 }
        }
        XCTAssertEqual(Lint.views(anchored.trees, times: anchored.times).filter { $0.kind == .jump }, [])
    }

    func testTheSectionedHistoryJumpsAndTheSeedsSolutionDoesNot() throws {
        func findings(_ scene: INipponTransition.Scene) throws -> [Finding] {
            // At the transition's own 60 fps, as `smokescreen lint` renders it.
            var settings = RenderSettings(scale: 1, fps: 60, assetsDirectory: "/nonexistent")
            settings.describesFrames = true
            let rendered = try INipponTransition(scene).render(settings)
            return Lint.views(rendered.frameDescriptions, times: rendered.sequence.times, complete: rendered.endsComplete)
        }
        let sectioned = try findings(.sectioned)
        XCTAssertEqual(sectioned.map(\.kind), [.jump], sectioned.map(\.detail).joined(separator: "\n"))
        XCTAssertEqual(sectioned.first?.subject, "window/table")
        XCTAssertEqual(sectioned.first?.times.first ?? 0, 2.1, accuracy: 1e-9, "at the tap on the second header")
        XCTAssertEqual(try findings(.switchScroll), [], "the same action the seed's way")
        XCTAssertNotNil(LintExceptions.reason(kind: "jump", subject: "window/table", in: "inippon-history-sectioned"))
    }
}
