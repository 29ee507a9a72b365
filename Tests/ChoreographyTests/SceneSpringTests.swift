import BoundedInput
import Choreography
import Foundation
import Motion
import RasterCore
import SnapshotView
import TransitionCompositor
import XCTest

/// Springs in scene files: UIKit's (`dampingRatio`, settling by the phase's duration) and iOS 17's
/// (`duration` and `bounce`, the phase lasting until the spring settles), read, run, and refused with
/// file:line:column and key path when wrong.
final class SceneSpringTests: XCTestCase {
    var folder = ""
    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("springs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// A box moving 50 pt right over one phase written as `phase`.
    func scene(phase: String) -> String {
        """
        {
          "size": [100, 100],
          "states": {
            "a": { "subviews": [ { "name": "box", "frame": [0, 0, 10, 10], "backgroundColor": "#336699" } ] },
            "b": { "subviews": [ { "name": "box", "frame": [50, 0, 10, 10], "backgroundColor": "#336699" } ] }
          },
          "transitions": [
            { "name": "slide", "from": "a", "to": "b", "phases": [ \(phase) ],
              "matched": [ { "id": "box", "phase": "move" } ] }
          ]
        }
        """
    }

    func phase(_ text: String) throws -> Choreography.Phase {
        let document = try SceneDocument.parse(Array(scene(phase: text).utf8), path: "scene.json")
        return try XCTUnwrap(document.transitions.first?.choreography.phases.first)
    }

    /// The x of the moving box on the smokescreen at each of `times` (seconds), as the engine presents it.
    func positions(_ phaseText: String, at times: [Double]) throws -> [Double] {
        let document = try SceneDocument.parse(Array(scene(phase: phaseText).utf8), path: "scene.json")
        func tree(_ name: String, _ x: Double) throws -> View {
            let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100), name: name)
            let box = View(frame: Rect(x: x, y: 0, width: 10, height: 10), name: "box")
            box.backgroundColor = .black
            try root.addSubview(box)
            return root
        }
        let engine = AnimationEngine(fps: 60)
        let context = try ChoreographyRenderer.perform(name: "slide", choreography: document.transitions[0].choreography,
                                                       from: try tree("a", 0), to: try tree("b", 50), engine: engine, scale: 1)
        let piece = try XCTUnwrap(context.smokescreen.subviews.first { $0.name == "box (from)" })
        return times.map { t in
            engine.advance(to: t)
            guard case .point(let center) = engine.presentationValue(of: .center, of: piece) else { return .nan }
            return center.x - 5
        }
    }

    func testUIKitsSpringSettlesByThePhasesDuration() throws {
        let p = try phase(#"{ "name": "move", "duration": 0.4, "delay": 0.1, "curve": { "spring": { "dampingRatio": 0.5, "initialVelocity": 1.5 } } }"#)
        XCTAssertEqual(p.timing, BlockTiming(duration: 0.4, delay: 0.1, dampingRatio: 0.5, initialVelocity: 1.5))
        XCTAssertEqual(p.timing.animationTiming, .spring(dampingRatio: 0.5, initialVelocity: 1.5))
        // Moved as UIKit's usingSpringWithDamping: the spring fitted to 0.4 s, landing exactly at 0.5 s.
        let spring = Spring(dampingRatio: 0.5, duration: 0.4, initialVelocity: 1.5)
        let times = [0.0, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6]
        let xs = try positions(#"{ "name": "move", "duration": 0.4, "delay": 0.1, "curve": { "spring": { "dampingRatio": 0.5, "initialVelocity": 1.5 } } }"#, at: times)
        for (t, x) in zip(times, xs) {
            XCTAssertEqual(x, 50 * spring.progress(at: t - 0.1), accuracy: 1e-9, "t = \(t)")
        }
        XCTAssertGreaterThan(xs.max() ?? 0, 50, "an under-damped spring overshoots")
        XCTAssertEqual(xs.last, 50)
    }

    /// iOS 17's spring, critically damped (bounce 0) at a pace of 0.5 s: ω₀ = 4π, so the box is at
    /// 50·(1 − (1 + ω₀t)e^(−ω₀t)) plus the ≤ 0.1 % settling residual blended in (see `Spring.progress`).
    /// Tolerance 1e-9 pt, for rounding: the expected value is the closed form written out here.
    func testIOS17SpringIsTheClosedFormAndSetsThePhasesLength() throws {
        let text = #"{ "name": "move", "curve": { "spring": { "duration": 0.5, "bounce": 0 } } }"#
        let p = try phase(text)
        let settling = Spring(perceptualDuration: 0.5, bounce: 0).duration
        XCTAssertEqual(p.timing.spring, .bounce(duration: 0.5, bounce: 0, initialVelocity: 0))
        XCTAssertEqual(p.timing.duration, settling)
        XCTAssertEqual(settling, 0.735, accuracy: 0.001, "(1 + x)e^(−x) = 0.001 at x ≈ 9.23, over ω₀ = 4π")
        let w = 4 * Double.pi
        let times = [0.05, 0.125, 0.25, 0.5, 0.7]
        let xs = try positions(text, at: times + [settling])
        for (t, x) in zip(times, xs) {
            let u = t / settling
            let expected = 1 - (1 + w * t) * exp(-w * t) + Spring.settlingThreshold * u * u * (3 - 2 * u)
            XCTAssertEqual(x, 50 * expected, accuracy: 1e-9, "t = \(t)")
        }
        XCTAssertEqual(xs.last, 50, "on the target when the spring settles")
    }

    /// Bounce 0.2 (damping ratio 0.8): the first overshoot is 1 + e^(−4π/3) of the distance, at
    /// t = duration / 1.2, plus the residual blend at that time.
    func testIOS17BouncePeaksWhereTheClosedFormSays() throws {
        let text = #"{ "name": "move", "curve": { "spring": { "duration": 0.6, "bounce": 0.2 } } }"#
        let settling = try phase(text).timing.duration
        let peak = 0.6 / 1.2
        // The residual left at the settling time, by the same closed form: e^(−ζω₀T)(cos ω_dT + (ζω₀/ω_d) sin ω_dT).
        let w = 2 * Double.pi / 0.6, wd = 0.6 * w
        let residual = exp(-0.8 * w * settling) * (cos(wd * settling) + 0.8 * w / wd * sin(wd * settling))
        XCTAssertEqual(abs(residual), Spring.settlingThreshold, accuracy: 1e-9)
        let u = peak / settling
        let x = try positions(text, at: [peak])[0]
        XCTAssertEqual(x, 50 * (1 + exp(-4 * Double.pi / 3) + residual * u * u * (3 - 2 * u)), accuracy: 1e-9)
    }

    /// A durations plist may give a phase a spring too, replacing the scene's curve.
    func testADurationsPlistMayGiveASpring() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>move</key><dict><key>curve</key><dict><key>spring</key>
            <dict><key>duration</key><real>0.4</real><key>bounce</key><real>0.3</real></dict></dict></dict></dict></plist>
            """
        try Data(plist.utf8).write(to: URL(fileURLWithPath: folder + "/durations.plist"))
        let text = scene(phase: #"{ "name": "move", "duration": 0.3 }"#).replacingOccurrences(of: "\"size\"", with: "\"durations\": \"durations.plist\", \"size\"")
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/scene.json"))
        let transition = try SceneTransition.load(path: folder + "/scene.json", transition: "slide")
        let (timed, _) = try transition.timedChoreography(durationsFile: nil, assetsDirectory: nil, warn: nil)
        XCTAssertEqual(timed.phases[0].timing, BlockTiming(springDuration: 0.4, bounce: 0.3))
        XCTAssertEqual(try SceneDocument.check(path: folder + "/scene.json"), ["slide"])
    }

    func error(_ phaseText: String) throws -> String {
        let path = folder + "/scene.json"
        try Data(scene(phase: phaseText).utf8).write(to: URL(fileURLWithPath: path))
        do { _ = try SceneDocument.check(path: path); return "no error" } catch let error as any ExitStatusError {
            XCTAssertEqual(error.exitStatus, 65, "\(error)")
            return error.description.replacingOccurrences(of: path, with: "scene.json")
        }
    }

    func testBadSpringsNameWhereAndWhy() throws {
        // The phase starts at line 8, column 58.
        XCTAssertEqual(try error(#"{ "name": "move", "duration": 0.3, "curve": { "spring": { "dampingRatio": 0 } } }"#),
                       "scene.json:8:135: transitions[0].phases[0].curve.spring.dampingRatio: must be in 0.01…100.0, got 0.0")
        XCTAssertEqual(try error(#"{ "name": "move", "duration": 0.3, "curve": { "spring": { "dampingRatio": "soft" } } }"#),
                       "scene.json:8:134: transitions[0].phases[0].curve.spring.dampingRatio: expected a number, got a string")
        XCTAssertEqual(try error(#"{ "name": "move", "duration": 0.3, "curve": { "spring": { "dampingRatio": 0.5, "bounce": 0.2 } } }"#),
                       "scene.json:8:134: transitions[0].phases[0].curve.spring.dampingRatio: a spring has either dampingRatio (UIKit's usingSpringWithDamping, "
                       + "with the phase's duration) or duration and bounce (iOS 17's springDuration:bounce:), not both")
        XCTAssertEqual(try error(#"{ "name": "move", "curve": { "spring": { "dampingRatio": 0.5 } } }"#),
                       "scene.json:8:126: transitions[0].phases[0]: phase 'move' needs a duration (seconds): a spring with a dampingRatio settles by the phase's duration")
        XCTAssertEqual(try error(#"{ "name": "move", "duration": 0.3, "curve": { "spring": { "duration": 0.5 } } }"#),
                       "scene.json:8:90: transitions[0].phases[0].duration: phase 'move' moves on a spring with its own duration (curve.spring.duration, "
                       + "iOS 17's springDuration): the phase lasts until that spring settles, so it takes no duration")
        XCTAssertEqual(try error(#"{ "name": "move", "curve": { "spring": { "bounce": 0.2 } } }"#),
                       "scene.json:8:111: transitions[0].phases[0].curve.spring.bounce: a spring with a bounce needs its duration (seconds, the perceptual duration)")
        XCTAssertEqual(try error(#"{ "name": "move", "curve": { "spring": { "duration": 0.5, "bounce": 1 } } }"#),
                       "scene.json:8:129: transitions[0].phases[0].curve.spring.bounce: must be over -1 and under 1 (0: no bounce), got 1.0")
        XCTAssertEqual(try error(#"{ "name": "move", "curve": { "spring": { "duration": 0 } } }"#),
                       "scene.json:8:114: transitions[0].phases[0].curve.spring.duration: a spring's duration must be over 0 s")
        XCTAssertEqual(try error(#"{ "name": "move", "curve": { "spring": { "duraton": 0.5 } } }"#),
                       "scene.json:8:101: transitions[0].phases[0].curve.spring.duraton: unknown key 'duraton'; did you mean 'duration'?")
        XCTAssertEqual(try error(#"{ "name": "move", "curve": { "sprung": { "duration": 0.5 } } }"#),
                       "scene.json:8:89: transitions[0].phases[0].curve.sprung: unknown key 'sprung'; did you mean 'spring'?")
        XCTAssertEqual(try error(#"{ "name": "move", "curve": { "spring": { "duration": 300, "bounce": 0.9 } } }"#),
                       "scene.json:8:99: transitions[0].phases[0].curve.spring: phase 'move' ends after the limit of 600.0 s: this spring settles in "
                       + "\((Spring(perceptualDuration: 300, bounce: 0.9).duration * 1000).rounded() / 1000) s")
        // Within 2 ulp of 1: the spring would settle after hours (it once looped for ever).
        XCTAssertEqual(try error(#"{ "name": "move", "curve": { "spring": { "duration": 0.5, "bounce": 0.9999999999999998 } } }"#),
                       "scene.json:8:99: transitions[0].phases[0].curve.spring: phase 'move' ends after the limit of 600.0 s: this spring settles in 3600.0 s")
        XCTAssertEqual(try error(#"{ "name": "move", "curve": { } }"#),
                       "scene.json:8:90: transitions[0].phases[0].curve: an object curve is {\"spring\": {…}}")
    }
}
