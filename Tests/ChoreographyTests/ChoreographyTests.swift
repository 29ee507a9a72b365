import Choreography
import Motion
import RasterCore
import SnapshotView
import TransitionCompositor
import XCTest

/// The choreography layer on small trees, with linear timing where the expected values are exact.
final class ChoreographyTests: XCTestCase {
    static let canvas = Rect(x: 0, y: 0, width: 100, height: 100)

    func box(_ name: String, _ frame: Rect, _ color: Color) -> View {
        let v = View(frame: frame, name: name)
        v.backgroundColor = color
        return v
    }

    func tree(_ name: String, _ children: [View], background: Color = .white) throws -> View {
        let root = View(frame: Self.canvas, name: name)
        root.backgroundColor = background
        for child in children { try root.addSubview(child) }
        return root
    }

    func linear(_ name: String, _ duration: Double, delay: Double = 0) -> Choreography.Phase {
        Choreography.Phase(name, timing: BlockTiming(duration: duration, delay: delay, curve: .linear))
    }

    /// The presentation frame and alpha of `view` (no transform) at the engine's time.
    func state(_ view: View, _ engine: AnimationEngine) -> (frame: Rect, alpha: Double) {
        guard case .point(let center) = engine.presentationValue(of: .center, of: view),
              case .rect(let bounds) = engine.presentationValue(of: .bounds, of: view),
              case .double(let alpha) = engine.presentationValue(of: .alpha, of: view) else { return (.null, .nan) }
        return (Rect(x: center.x - bounds.width / 2, y: center.y - bounds.height / 2, width: bounds.width, height: bounds.height), alpha)
    }

    func piece(_ context: TransitionContext, _ name: String) throws -> View {
        try XCTUnwrap(context.smokescreen.subviews.first { $0.name == name }, "no piece '\(name)' in \(context.smokescreen.subviews.compactMap(\.name))")
    }

    func testAMatchedPairMovesResizesAndCrossFades() throws {
        let from = try tree("A", [box("card", Rect(x: 0, y: 0, width: 20, height: 20), .black)])
        let to = try tree("B", [box("card", Rect(x: 60, y: 40, width: 40, height: 60), .black)])
        let engine = AnimationEngine(fps: 10)
        let choreography = Choreography(phases: [linear("move", 1)], matches: [.init(from: "card", to: "card", phase: "move")])
        let context = try ChoreographyRenderer.perform(name: "t", choreography: choreography, from: from, to: to, engine: engine, scale: 1)
        let a = try piece(context, "card (from)"), b = try piece(context, "card (to)")
        for (t, frame, alphaA) in [(0.0, Rect(x: 0, y: 0, width: 20, height: 20), 1.0),
                                   (0.5, Rect(x: 30, y: 20, width: 30, height: 40), 0.5),
                                   (1.0, Rect(x: 60, y: 40, width: 40, height: 60), 0.0)] {
            engine.advance(to: t)
            XCTAssertEqual(state(a, engine).frame, frame, "t = \(t)")
            XCTAssertEqual(state(b, engine).frame, frame, "t = \(t)")
            XCTAssertEqual(state(a, engine).alpha, alphaA, accuracy: 1e-12, "t = \(t)")
            XCTAssertEqual(state(b, engine).alpha, 1 - alphaA, accuracy: 1e-12, "t = \(t)")
        }
    }

    func testUnmatchedViewsSlideAwayFromTheMatchAndCascade() throws {
        let from = try tree("A", [box("above", Rect(x: 0, y: 0, width: 100, height: 10), .black),
                                  box("hero", Rect(x: 0, y: 40, width: 20, height: 20), .black),
                                  box("below", Rect(x: 0, y: 80, width: 100, height: 10), .black),
                                  box("below 2", Rect(x: 0, y: 90, width: 100, height: 10), .black)])
        let to = try tree("B", [box("hero", Rect(x: 0, y: 0, width: 100, height: 50), .black)])
        let choreography = Choreography(
            phases: [linear("move", 0.5), linear("away", 0.4)],
            matches: [.init(from: "hero", to: "hero", phase: "move")],
            unmatched: [.init(.views(["above", "below", "below 2"]), phase: "away",
                              effects: [.fade, .slideAway(from: "hero", above: 10, below: 30)], cascade: 0.05)])
        let engine = AnimationEngine(fps: 100)
        let context = try ChoreographyRenderer.perform(name: "t", choreography: choreography, from: from, to: to, engine: engine, scale: 1)
        let above = try piece(context, "above snapshot"), below = try piece(context, "below snapshot"), below2 = try piece(context, "below 2 snapshot")
        engine.advance(to: 0.9)
        XCTAssertEqual(state(above, engine).frame, Rect(x: 0, y: -10, width: 100, height: 10), "above the match: up")
        XCTAssertEqual(state(below, engine).frame, Rect(x: 0, y: 110, width: 100, height: 10), "below the match: down")
        XCTAssertEqual(state(below2, engine).frame, Rect(x: 0, y: 120, width: 100, height: 10))
        XCTAssertEqual(state(below, engine).alpha, 0)
        // Cascade: each view starts 0.05 s after the one before, with the phase's whole duration.
        let starts = engine.records.filter { $0.properties.contains { $0.view.hasSuffix(" snapshot") } }.map(\.start)
        XCTAssertEqual(starts.sorted(), [0, 0.05, 0.1])
    }

    func testTextWhoseLineCountChangesIsNeverReadableTwice() throws {
        let short = Label(text: "One line", style: .init(font: .system(size: 10)), frame: Rect(x: 0, y: 0, width: 90, height: 14), name: "text")
        let long = Label(text: "A longer text that wraps onto several lines here", style: .init(font: .system(size: 10), numberOfLines: 0),
                         frame: Rect(x: 0, y: 20, width: 60, height: 60), name: "text")
        let choreography = Choreography(phases: [linear("move", 1)], matches: [.init(from: "text", to: "text", phase: "move", style: .text)])
        let engine = AnimationEngine(fps: 10)
        let context = try ChoreographyRenderer.perform(name: "t", choreography: choreography, from: try tree("A", [short]), to: try tree("B", [long]),
                                                       engine: engine, scale: 1)
        let old = try piece(context, "text (from)"), new = try piece(context, "text (to)")
        for (t, oldAlpha, newAlpha) in [(0.25, 0.5, 0.0), (0.5, 0.0, 0.0), (0.75, 0.0, 0.5), (1.0, 0.0, 1.0)] {
            engine.advance(to: t)
            XCTAssertEqual(state(old, engine).alpha, oldAlpha, accuracy: 1e-12, "t = \(t)")
            XCTAssertEqual(state(new, engine).alpha, newAlpha, accuracy: 1e-12, "t = \(t)")
        }
    }

    /// With an iOS 17 spring the text's halves each move on the spring of the same damping ratio fitted
    /// to the half (an iOS 17 spring would run for its own settling time, past the half), so the old text
    /// is gone exactly at the middle and the new one fully in at the end.
    func testTextHalvesOnAnIOS17SpringEachSettleInTheirHalf() throws {
        let short = Label(text: "One line", style: .init(font: .system(size: 10)), frame: Rect(x: 0, y: 0, width: 90, height: 14), name: "text")
        let long = Label(text: "A longer text that wraps onto several lines here", style: .init(font: .system(size: 10), numberOfLines: 0),
                         frame: Rect(x: 0, y: 20, width: 60, height: 60), name: "text")
        let timing = BlockTiming(springDuration: 0.5, bounce: 0.2)
        let half = timing.duration / 2
        let choreography = Choreography(phases: [Choreography.Phase("move", timing: timing)],
                                        matches: [.init(from: "text", to: "text", phase: "move", style: .text)])
        let engine = AnimationEngine(fps: 60)
        let context = try ChoreographyRenderer.perform(name: "t", choreography: choreography, from: try tree("A", [short]), to: try tree("B", [long]),
                                                       engine: engine, scale: 1)
        let old = try piece(context, "text (from)"), new = try piece(context, "text (to)")
        let fitted = Spring(dampingRatio: 0.8, duration: half)
        for t in [half * 0.3, half * 0.7, half, half * 1.4, half * 2] {
            engine.advance(to: t)
            XCTAssertEqual(state(old, engine).alpha, 1 - fitted.progress(at: t), accuracy: 1e-9, "t = \(t)")
            XCTAssertEqual(state(new, engine).alpha, fitted.progress(at: t - half), accuracy: 1e-9, "t = \(t)")
        }
    }

    func testOneLineTextsCrossFadeInRegister() throws {
        // A 17 pt semibold title growing into a 22 pt bold one: tracking, weight and Inter Display make the
        // larger text other than the smaller one scaled, so the snapshots are stretched by the ratio of the
        // lines' widths; at every moment both texts span the same width on screen.
        let small = Label(text: "Coffee, ranked", style: .init(font: .system(size: 17, weight: .semibold)),
                          frame: Rect(x: 10, y: 10, width: 80, height: 22), name: "title")
        let large = Label(text: "Coffee, ranked", style: .init(font: .system(size: 22, weight: .bold)),
                          frame: Rect(x: 5, y: 60, width: 90, height: 27), name: "title")
        let wa = try XCTUnwrap(try small.layout().lines.first?.width), wb = try XCTUnwrap(try large.layout().lines.first?.width)
        XCTAssertNotEqual(wb / wa, 22.0 / 17.0, accuracy: 1e-3, "the font-size ratio alone would leave them out of register")
        let choreography = Choreography(phases: [linear("move", 1)], matches: [.init(from: "title", to: "title", phase: "move", style: .text)])
        let engine = AnimationEngine(fps: 10)
        let context = try ChoreographyRenderer.perform(name: "t", choreography: choreography, from: try tree("A", [small]), to: try tree("B", [large]),
                                                       engine: engine, scale: 1)
        let old = try piece(context, "title (from)"), new = try piece(context, "title (to)")
        for t in [0.0, 0.3, 0.5, 0.8, 1.0] {
            engine.advance(to: t)
            let a = state(old, engine).frame, b = state(new, engine).frame
            // The text's width on screen: its share of each snapshot's width.
            XCTAssertEqual(a.width * wa / small.bounds.width, b.width * wb / large.bounds.width, accuracy: 1e-9, "t = \(t)")
            XCTAssertEqual(a.minX, b.minX, accuracy: 1e-9, "both set from the same left edge, t = \(t)")
        }
    }

    /// A 20-pt title in a 28-pt label becoming a 32-pt one in a 40-pt label: each label centres its text
    /// in its own height, so frames scaled from their tops would put the baselines apart (the title
    /// doubled). The snapshots meet on their first baselines at every moment.
    func testTextsOfDifferentLabelHeightsMeetOnTheirBaselines() throws {
        let small = Label(text: "Nara", style: .init(font: .system(size: 20, weight: .bold)), frame: Rect(x: 16, y: 10, width: 70, height: 28), name: "title")
        let large = Label(text: "Nara", style: .init(font: .system(size: 32, weight: .bold)), frame: Rect(x: 8, y: 50, width: 90, height: 40), name: "title")
        func baseline(_ label: Label) throws -> Double {
            let layout = try label.layout()
            return (label.bounds.height - layout.size.height) / 2 + (try XCTUnwrap(layout.lines.first)).baseline
        }
        let ba = try baseline(small), bb = try baseline(large)
        XCTAssertNotEqual(ba * 32 / 20, bb, accuracy: 0.5, "scaled from the top, the baselines would be apart")
        let choreography = Choreography(phases: [linear("move", 1)], matches: [.init(from: "title", to: "title", phase: "move", style: .text)])
        let engine = AnimationEngine(fps: 10)
        let context = try ChoreographyRenderer.perform(name: "t", choreography: choreography, from: try tree("A", [small]), to: try tree("B", [large]),
                                                       engine: engine, scale: 1)
        let old = try piece(context, "title (from)"), new = try piece(context, "title (to)")
        for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
            engine.advance(to: t)
            let a = state(old, engine).frame, b = state(new, engine).frame
            let onScreenA = a.minY + ba * a.height / small.bounds.height, onScreenB = b.minY + bb * b.height / large.bounds.height
            XCTAssertEqual(onScreenA, onScreenB, accuracy: 1e-9, "t = \(t)")
            XCTAssertEqual(a.minX, b.minX, accuracy: 1e-9, "left-aligned texts start together, t = \(t)")
        }
    }

    /// A centred title becoming a left-aligned text elsewhere (a bar title becoming a back button's text):
    /// the snapshots are placed by where each line starts, not by the labels' frames.
    func testACentredTextTravelsToWhereTheOtherTextStarts() throws {
        let centred = Label(text: "Inbox", style: .init(font: .system(size: 17, weight: .semibold), alignment: .center),
                            frame: Rect(x: 20, y: 20, width: 60, height: 22), name: "text")
        let left = Label(text: "Inbox", style: .init(font: .system(size: 17)), frame: Rect(x: 4, y: 20, width: 60, height: 22), name: "text")
        let startA = try XCTUnwrap(try centred.layout().lines.first), startB = try XCTUnwrap(try left.layout().lines.first)
        XCTAssertGreaterThan(startA.x, 5, "the centred line starts inside its label")
        let choreography = Choreography(phases: [linear("move", 1)], matches: [.init(from: "text", to: "text", phase: "move", style: .text)])
        let engine = AnimationEngine(fps: 10)
        let context = try ChoreographyRenderer.perform(name: "t", choreography: choreography, from: try tree("A", [centred]), to: try tree("B", [left]),
                                                       engine: engine, scale: 1)
        let old = try piece(context, "text (from)"), new = try piece(context, "text (to)")
        for t in [0.0, 0.4, 1.0] {
            engine.advance(to: t)
            let a = state(old, engine).frame, b = state(new, engine).frame
            let lineA = a.minX + startA.x * a.width / centred.bounds.width, lineB = b.minX + startB.x * b.width / left.bounds.width
            XCTAssertEqual(lineA, lineB, accuracy: 1e-9, "t = \(t)")
            // Both lines span the same width too.
            XCTAssertEqual(startA.width * a.width / centred.bounds.width, startB.width * b.width / left.bounds.width, accuracy: 1e-9, "t = \(t)")
        }
        XCTAssertEqual(state(new, engine).frame, left.frame)
    }

    /// A rounded card (radius 12) growing into a square panel of the same colour: the pair shares one
    /// radius, 6 at the middle, and the square panel never shows outside it; the opaque cross-fade lets
    /// none of the white behind show inside.
    func testAPairSharesOneMovingCornerRadius() throws {
        let green = Color(hex: 0x27AE60)
        let card = box("card", Rect(x: 10, y: 10, width: 40, height: 40), green)
        card.cornerRadius = 12
        let panel = box("card", Rect(x: 10, y: 10, width: 80, height: 80), green)
        for style in [Choreography.MatchStyle.snapshot, .opaqueCrossFade] {
            let choreography = Choreography(phases: [linear("grow", 1)], matches: [.init(from: "card", to: "card", phase: "grow", style: style)])
            let engine = AnimationEngine(fps: 10)
            let context = try ChoreographyRenderer.perform(name: "t", choreography: choreography, from: try tree("A", [card]), to: try tree("B", [panel]),
                                                           engine: engine, scale: 1)
            let a = try piece(context, "card (from)"), b = try piece(context, "card (to)")
            engine.advance(to: 0.5)
            for view in [a, b] {
                XCTAssertTrue(view.clipsToBounds, "\(style)")
                XCTAssertEqual(engine.presentationValue(of: .cornerRadius, of: view).doubleValue, 6, "\(style)")
            }
            XCTAssertEqual(card.cornerRadius, 12, "the view itself keeps its corners")
            guard style == .opaqueCrossFade else { continue }
            let canvas = try ViewRenderer.render(context.container, scale: 1, presentation: engine)
            // The pair is 60 x 60 at (10, 10) with radius 6: the corner pixel lies wholly outside the curve
            // (its nearest point is 7.07 from the corner's centre), the middle wholly inside.
            XCTAssertEqual(canvas[10, 10], Color.white.premultiplied, "no square corner outside the rounded one")
            XCTAssertEqual(canvas[40, 40], green.premultiplied, "opaque: nothing behind shows")
        }
    }

    func testAnOpaqueCrossFadeNeverShowsWhatIsBehind() throws {
        // Red bar to blue bar over a green window: no frame may show any green in the bar's area.
        let from = try tree("A", [box("bar", Rect(x: 0, y: 0, width: 100, height: 20), Color(hex: 0xFF0000))], background: Color(hex: 0x00FF00))
        let to = try tree("B", [box("bar", Rect(x: 0, y: 0, width: 100, height: 20), Color(hex: 0x0000FF))], background: Color(hex: 0x00FF00))
        let choreography = Choreography(phases: [Choreography.Phase("bars", timing: BlockTiming(duration: 0.5))],
                                        matches: [.init(from: "bar", to: "bar", phase: "bars", style: .opaqueCrossFade)])
        let rendered = try ChoreographyRenderer.render(name: "bars", choreography: choreography, from: from, to: to,
                                                       settings: RenderSettings(scale: 1, fps: 30, assetsDirectory: "."),
                                                       background: Color(hex: 0x00FF00), durations: [:], assets: [])
        var canvas = try rendered.sequence.makeCanvas()
        XCTAssertEqual(rendered.sequence.count, 16)
        for frame in 0..<rendered.sequence.count {
            rendered.sequence.draw(frame: frame, into: &canvas)
            for y in 0..<20 {
                for x in 0..<100 {
                    let p = canvas[x, y]
                    XCTAssertEqual(p.g, 0, "frame \(frame) pixel (\(x), \(y)) shows the background")
                    XCTAssertEqual(p.a, 255)
                }
            }
        }
    }

    func testReversalIsTheForwardFramesBackwardsWithLinearTiming() throws {
        func trees() throws -> (View, View) {
            (try tree("A", [box("card", Rect(x: 10, y: 10, width: 20, height: 20), Color(hex: 0x336699)),
                            box("other", Rect(x: 50, y: 70, width: 40, height: 20), Color(hex: 0x993333))]),
             try tree("B", [box("card", Rect(x: 20, y: 30, width: 60, height: 60), Color(hex: 0x336699))]))
        }
        let choreography = Choreography(
            phases: [linear("move", 0.6), linear("fade", 0.3, delay: 0.1)],
            matches: [.init(from: "card", to: "card", phase: "move", style: .opaqueCrossFade)],
            unmatched: [.init(.views(["other"]), phase: "fade", effects: [.fade, .slide(dx: 0, dy: 20)])])
        let settings = RenderSettings(scale: 1, fps: 10, assetsDirectory: ".")
        let (a1, b1) = try trees(), (a2, b2) = try trees()
        let forward = try ChoreographyRenderer.render(name: "f", choreography: choreography, from: a1, to: b1, settings: settings, durations: [:], assets: [])
        let backward = try ChoreographyRenderer.render(name: "b", choreography: choreography.reversed(), from: a2, to: b2, settings: settings,
                                                       durations: [:], assets: [])
        XCTAssertEqual(forward.sequence.times, backward.sequence.times)
        let n = forward.sequence.count
        var f = try forward.sequence.makeCanvas(), b = try backward.sequence.makeCanvas()
        for i in 0..<n {
            forward.sequence.draw(frame: n - 1 - i, into: &f)
            backward.sequence.draw(frame: i, into: &b)
            // Tolerance 1 level per channel: a + (b − a)·p and b + (a − b)·(1 − p) round differently in
            // floating point, which can move an edge pixel's coverage by one step.
            var largest = 0
            for y in 0..<f.height {
                for x in 0..<f.width {
                    let p = f[x, y], q = b[x, y]
                    largest = max(largest, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
                }
            }
            XCTAssertLessThanOrEqual(largest, 1, "reversed frame \(i) against forward frame \(n - 1 - i)")
        }
    }

    func testReversalMirrorsIntervalsAndKeepsCurves() throws {
        let from = try tree("A", [box("card", Rect(x: 0, y: 0, width: 20, height: 20), .black)])
        let to = try tree("B", [box("card", Rect(x: 60, y: 40, width: 40, height: 60), .black)])
        let choreography = Choreography(
            phases: [Choreography.Phase("early", timing: BlockTiming(duration: 0.2, curve: .easeIn)),
                     Choreography.Phase("late", timing: BlockTiming(duration: 0.3, delay: 0.3, curve: .easeOut))],
            matches: [.init(from: "card", to: "card", phase: "late")],
            unmatched: [.init(.views([]), phase: "early", effects: [.fade])])
        let rendered = try ChoreographyRenderer.render(name: "r", choreography: choreography.reversed(), from: from, to: to,
                                                       settings: RenderSettings(scale: 1, fps: 10, assetsDirectory: "."), durations: [:], assets: [])
        let late = try XCTUnwrap(rendered.timeline.first { $0.label == "late" })
        XCTAssertEqual(late.start, 0, accuracy: 1e-12, "a phase that ended last starts first")
        XCTAssertEqual(late.end, 0.3, accuracy: 1e-12)
        XCTAssertEqual(late.timing, "easeOut", "pop timing keeps each phase's own curve")
    }

    func testNamesThatDoNotFitTheTreesAreErrors() throws {
        let from = try tree("A", [box("card", Rect(x: 0, y: 0, width: 20, height: 20), .black)])
        let to = try tree("B", [box("card", Rect(x: 60, y: 40, width: 40, height: 60), .black)])
        func error(_ c: Choreography) -> String {
            do { _ = try ChoreographyRenderer.perform(name: "t", choreography: c, from: from, to: to, engine: AnimationEngine(fps: 10), scale: 1); return "none" }
            catch { return "\(error)" }
        }
        XCTAssertEqual(error(Choreography(phases: [linear("p", 1)], matches: [.init(from: "crad", to: "card", phase: "p")])),
                       "t: matches[0]: no view named 'crad' in the from-tree")
        XCTAssertEqual(error(Choreography(phases: [linear("p", 1)], matches: [.init(from: "card", to: "card", phase: "q")])),
                       "t: matches[0]: no phase named 'q'")
        XCTAssertEqual(error(Choreography(phases: [linear("p", 1)], matches: [.init(from: "card", to: "card", phase: "p", style: .liveImage)])),
                       "t: matches[0]: 'card' is not an image view (style liveImage)")
        XCTAssertEqual(error(Choreography(phases: [linear("p", 1)], unmatched: [.init(.views(["ghost"]), phase: "p", effects: [.fade])])),
                       "t: unmatched[0]: no view named 'ghost' in either tree")
    }
}
