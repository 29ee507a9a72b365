import BoundedInput
import Choreography
import Foundation
import PNGIO
import RasterCore
import SnapshotView
import TransitionCompositor
import XCTest

/// Scene files state Core Animation's drawing as views have it: continuous corners, shadows, blurred
/// materials, 3-D turns in perspective and gradients; and bad values name their key and reason.
final class SceneDrawingTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("scene-drawing-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// A 120 × 100 scene whose states a and b both hold `views` (JSON), so every frame shows them.
    func scene(_ views: String) -> String {
        """
        {
          "size": [120, 100],
          "states": {
            "a": { "backgroundColor": "#FFFFFF", "subviews": [ \(views) ] },
            "b": { "backgroundColor": "#FFFFFF", "subviews": [ \(views) ] }
          },
          "transitions": [ { "name": "go", "from": "a", "to": "b", "phases": [ { "name": "p", "duration": 0.1 } ] } ]
        }
        """
    }

    /// Frame 0 (state a) of the scene at @1x.
    func firstFrame(_ text: String) throws -> Bitmap {
        let path = folder + "/scene.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let rendered = try SceneTransition.load(path: path, transition: nil).render(RenderSettings(scale: 1, fps: 10, assetsDirectory: folder))
        var canvas = try rendered.sequence.makeCanvas()
        rendered.sequence.draw(frame: 0, into: &canvas)
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] { try PNGCodec.write(canvas, to: look + "/scene-drawing.png") }
        return canvas
    }

    /// Every frame of `transition` of the scene at @1x.
    func frames(_ text: String, transition: String) throws -> [Bitmap] {
        let path = folder + "/scene.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let rendered = try SceneTransition.load(path: path, transition: transition).render(RenderSettings(scale: 1, fps: 20, assetsDirectory: folder))
        return try (0..<rendered.sequence.count).map { k in
            var canvas = try rendered.sequence.makeCanvas()
            rendered.sequence.draw(frame: k, into: &canvas)
            return canvas
        }
    }

    /// A view's shadow moves with its snapshot: white cards on white, one matched (rounded, growing), one
    /// leaving, cast their shadows in every frame, and the first and last frames are the states drawn.
    func testSnapshotsCastTheirViewsShadows() throws {
        let shadow = ##""shadow": { "color": "#000000A0", "offset": [0, 4], "radius": 3 }"##
        let text = """
            {
              "size": [160, 120],
              "states": {
                "a": { "backgroundColor": "#FFFFFF", "subviews": [
                  { "name": "card", "frame": [20, 20, 50, 40], "backgroundColor": "#FFFFFF", "cornerRadius": 8, \(shadow) },
                  { "name": "chip", "frame": [100, 20, 30, 30], "backgroundColor": "#FFFFFF", \(shadow) } ] },
                "b": { "backgroundColor": "#FFFFFF", "subviews": [
                  { "name": "card", "frame": [10, 50, 80, 50], "backgroundColor": "#FFFFFF", "cornerRadius": 8, \(shadow) } ] }
              },
              "transitions": [
                { "name": "go", "from": "a", "to": "b", "phases": [ { "name": "p", "duration": 0.2 } ],
                  "matched": [ { "id": "card", "phase": "p" } ], "unmatched": [ { "views": ["chip"], "phase": "p", "effects": ["fade"] } ] },
                { "name": "back", "from": "b", "to": "a", "phases": [ { "name": "p", "duration": 0.2 } ],
                  "matched": [ { "id": "card", "phase": "p" } ], "unmatched": [ { "views": ["chip"], "phase": "p", "effects": ["fade"] } ] }
              ]
            }
            """
        let go = try frames(text, transition: "go"), back = try frames(text, transition: "back")
        XCTAssertEqual(go.first, back.last, "frame 0 is state a as it is drawn, shadows and all")
        XCTAssertEqual(go.last, back.first, "and the last frame state b")
        // Half way, the moving card's shadow shows under it, beyond its bottom edge, and round its corners.
        let middle = go[go.count / 2]
        let column = 50
        let bottom = (30..<115).last { middle[column, $0].r == 255 && middle[column, $0 - 1].r == 255 && middle[column, $0 + 1].r < 255 } ?? 0
        XCTAssertGreaterThan(bottom, 0, "a shadow below the card")
        XCTAssertLessThan(middle[column, bottom + 3].r, 230, "the shadow under the card's bottom edge")
        // The leaving chip's shadow fades with it: under its bottom edge, lighter than at the start, not gone.
        XCTAssertLessThan(go[0][115, 53].r, middle[115, 53].r)
        XCTAssertLessThan(middle[115, 53].r, 255)
    }

    /// A square card matched with a rounded one (either way round) casts its shadow from a view holding
    /// its snapshot, which the pair's moving corners clip; an opaque cross-fade casts one shadow, the
    /// from-view's, so that two do not stack while the to-view fades in.
    func testAPairWithOneRoundedSideAndAnOpaqueCrossFadeKeepTheirShadow() throws {
        func text(_ style: String, _ radiusA: Int, _ radiusB: Int) -> String {
            let shadow = ##""shadow": { "color": "#000000FF", "offset": [0, 20], "radius": 4 }"##
            return """
                {
                  "size": [160, 160],
                  "states": {
                    "a": { "backgroundColor": "#FFFFFF", "subviews": [
                      { "name": "card", "frame": [30, 30, 100, 60], "backgroundColor": "#FFFFFF", "cornerRadius": \(radiusA), \(shadow) } ] },
                    "b": { "backgroundColor": "#FFFFFF", "subviews": [
                      { "name": "card", "frame": [30, 30, 100, 60], "backgroundColor": "#FFFFFF", "cornerRadius": \(radiusB), \(shadow) } ] }
                  },
                  "transitions": [
                    { "name": "go", "from": "a", "to": "b", "phases": [ { "name": "p", "duration": 0.2, "curve": "linear" } ],
                      "matched": [ { "id": "card", "phase": "p", "style": "\(style)" } ] },
                    { "name": "back", "from": "b", "to": "a", "phases": [ { "name": "p", "duration": 0.2, "curve": "linear" } ],
                      "matched": [ { "id": "card", "phase": "p", "style": "\(style)" } ] }
                  ]
                }
                """
        }
        for (a, b) in [(0, 10), (10, 0)] {
            let scene = text("snapshot", a, b)
            let go = try frames(scene, transition: "go"), back = try frames(scene, transition: "back")
            XCTAssertEqual(go.first, back.last, "radii \(a) → \(b): frame 0 is state a as drawn")
            XCTAssertEqual(go.last, back.first, "radii \(a) → \(b): the last frame is state b")
            for frame in go { XCTAssertLessThan(frame[80, 105].r, 100, "radii \(a) → \(b): the shadow below the card in every frame") }
        }
        // Identical rounded cards cross-faded opaquely: the shadow below stays as it is in every frame.
        let steady = try frames(text("opaqueCrossFade", 10, 10), transition: "go")
        for frame in steady { XCTAssertEqual(Int(frame[80, 105].r), Int(steady[0][80, 105].r), accuracy: 1) }
    }

    /// A gradient is rounded by its view's corner radius, as Core Animation rounds a gradient layer (its
    /// background), without clipping: drawn in a state as in a matched snapshot.
    func testAGradientIsRoundedByItsCornerRadius() throws {
        let frame = try firstFrame(scene("""
            { "name": "g", "frame": [20, 20, 80, 60], "cornerRadius": 20, "gradient": { "colors": ["#FF0000", "#0000FF"] } }
            """))
        XCTAssertEqual(frame[21, 21], PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255), "outside the rounded corner: the background")
        XCTAssertEqual(frame[98, 78], PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
        XCTAssertGreaterThan(frame[60, 22].r, 200, "inside: the gradient, red at the top")
        XCTAssertGreaterThan(frame[60, 77].b, 200, "and blue at the bottom")
    }

    func error(_ text: String) throws -> String {
        let path = folder + "/scene.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        do { _ = try SceneDocument.check(path: path); return "no error" } catch let error as any ExitStatusError {
            return error.description.replacingOccurrences(of: path, with: "scene.json")
        }
    }

    func testTheKeysAreRead() throws {
        let document = try SceneDocument.parse(Array(scene("""
            { "name": "card", "frame": [10, 10, 60, 40], "cornerRadius": 12, "cornerCurve": "continuous",
              "shadow": { "color": "#00000040", "offset": [0, 6], "radius": 5 }, "material": "thinDark",
              "rotation3D": { "y": 30, "perspective": 500, "anchor": [0, 0.5] },
              "gradient": { "type": "radial", "colors": ["#FF0000", "#0000FF"], "locations": [0.2, 1], "start": [0.5, 0.5], "end": [1, 1] } }
            """).utf8), path: "scene.json")
        let card = try XCTUnwrap(document.states["a"]?.subviews.first)
        XCTAssertEqual(card.cornerCurve, .continuous)
        XCTAssertEqual(card.shadow, Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: 64.0 / 255), offset: Size(width: 0, height: 6), radius: 5))
        XCTAssertEqual(card.material, Backdrop.material(.thin, dark: true))
        XCTAssertEqual(card.transformAnchor, Point(x: 0, y: 0.5))
        // As CATransform3DRotate(perspective, …) builds it: the turn, then the perspective of −1/500.
        XCTAssertEqual(card.transform3D.m34, -cos(Double.pi / 6) / 500, accuracy: 1e-12)
        XCTAssertEqual(card.transform3D.m11, cos(Double.pi / 6), accuracy: 1e-12)
        XCTAssertEqual(card.gradient?.kind, .radial)
        XCTAssertEqual(card.gradient?.stops.map(\.location), [0.2, 1])
    }

    func testTheyAreDrawn() throws {
        // A continuous-cornered card with a shadow, a blurred material bar over stripes, a gradient and a
        // turned panel.
        let frame = try firstFrame(scene("""
            { "frame": [0, 0, 4, 30], "backgroundColor": "#000000" }, { "frame": [8, 0, 4, 30], "backgroundColor": "#000000" },
            { "frame": [16, 0, 4, 30], "backgroundColor": "#000000" }, { "frame": [24, 0, 4, 30], "backgroundColor": "#000000" },
            { "frame": [32, 0, 4, 30], "backgroundColor": "#000000" },
            { "name": "bar", "frame": [0, 0, 40, 20], "material": "regular" },
            { "name": "card", "frame": [50, 10, 60, 40], "backgroundColor": "#FFFFFF", "cornerRadius": 10, "cornerCurve": "continuous",
              "shadow": { "color": "#000000", "offset": [0, 8], "radius": 2 } },
            { "name": "fade", "frame": [0, 60, 40, 30], "gradient": { "colors": ["#000000", "#FFFFFF"], "start": [0, 0.5], "end": [1, 0.5] } },
            { "name": "panel", "frame": [60, 60, 40, 30], "backgroundColor": "#0000FF", "rotation3D": { "y": 60, "perspective": 300 } }
            """))
        // The material blurs the stripes under it to an even grey, lightened by its tint; below, sharp.
        let barRow = (10..<20).map { Int(frame[$0, 10].r) }
        XCTAssertLessThan((barRow.max() ?? 0) - (barRow.min() ?? 0), 16, "\(barRow)")
        XCTAssertEqual(frame[16, 25].r, 0)
        XCTAssertEqual(frame[20, 25].r, 255)
        // The shadow falls below the card, and shows round its continuous corners (the corner pixel is cut).
        XCTAssertLessThan(frame[80, 55].r, 200, "the shadow under the card")
        XCTAssertEqual(frame[80, 30].r, 255, "the card")
        XCTAssertLessThan(frame[51, 49].r, 255, "the bottom-left corner is cut: the shadow shows")
        // The gradient runs black to white left to right.
        XCTAssertLessThan(frame[2, 75].r, 20)
        XCTAssertGreaterThan(frame[37, 75].r, 235)
        // Turned 60° about y in perspective, the panel is narrower than its 40 pt.
        let blue = (50..<110).filter { frame[$0, 75].b > 200 && frame[$0, 75].r < 50 }
        XCTAssertGreaterThan(blue.count, 10)
        XCTAssertLessThan(blue.count, 30)
    }

    func testBadValuesNameTheirKeyAndReason() throws {
        func bad(_ view: String) throws -> String { try error(scene(view)) }
        XCTAssertEqual(try bad(##"{ "cornerCurve": "squircle" }"##),
                       "scene.json:4:83: states.a.subviews[0].cornerCurve: 'squircle' is not a corner curve: use circular or continuous")
        XCTAssertTrue(try bad(##"{ "material": "frosted" }"##).contains("'frosted' is not a material: use one of ultraThin, thin, regular"))
        XCTAssertTrue(try bad(##"{ "material": "lightDark" }"##).contains("is not a material"))
        XCTAssertTrue(try bad(##"{ "shadow": { "radius": 5000 } }"##).contains("shadow.radius: must be in 0.0…1000.0, got 5000.0"))
        XCTAssertTrue(try bad(##"{ "shadow": { "blur": 5 } }"##).contains("unknown key 'blur'"))
        XCTAssertTrue(try bad(##"{ "rotation3D": { "w": 5 } }"##).contains("unknown key 'w'"))
        XCTAssertTrue(try bad(##"{ "gradient": { "colors": [] } }"##).contains("a gradient needs at least one colour in 'colors'"))
        XCTAssertTrue(try bad(##"{ "gradient": { "colors": ["#000", "#FFF"], "locations": [0] } }"##).contains("'locations' has 1 numbers for 2 colours"))
        XCTAssertTrue(try bad(##"{ "type": "label", "text": "x", "gradient": { "colors": ["#000"] } }"##).contains("'gradient' is for views of type view"))
    }
}

extension SceneDrawingTests {
    func testKeyOrderDoesNotMatterAndMaterialNamesAreExact() throws {
        XCTAssertTrue(try error(scene(##"{ "gradient": { "colors": ["#000"] }, "type": "label", "text": "x" }"##)).contains("'gradient' is for views of type view"))
        XCTAssertTrue(try error(scene(##"{ "material": "darkDark" }"##)).contains("is not a material"))
        XCTAssertTrue(try error(scene(##"{ "material": "extraDarkDark" }"##)).contains("is not a material"))
        XCTAssertEqual(try error(scene(##"{ "material": "chromeDark" }"##)), "no error")
    }
}

/// `shape` (a CAShapeLayer's path, fill and stroke) and `mask` (a path the view shows only inside), in
/// SVG path data.
extension SceneDrawingTests {
    func testShapesAndMasksAreReadAndDrawn() throws {
        let views = """
            { "name": "triangle", "frame": [0, 0, 60, 50],
              "shape": { "path": "M0 0 H60 L0 50 Z", "fillColor": "#FF0000", "strokeColor": "#0000FF", "lineWidth": 4,
                         "lineJoin": "bevel", "dash": [6, 2], "strokeEnd": 0.5 } },
            { "name": "disc", "frame": [60, 40, 60, 60], "backgroundColor": "#00FF00",
              "mask": { "path": "M0 30 A30 30 0 1 1 60 30 A30 30 0 1 1 0 30 Z" } }
            """
        let document = try SceneDocument.parse(Array(scene(views).utf8), path: "scene.json")
        let triangle = try XCTUnwrap(document.states["a"]?.subviews.first?.shape)
        XCTAssertEqual(triangle.path.elements, [.move(to: Point(x: 0, y: 0)), .line(to: Point(x: 60, y: 0)), .line(to: Point(x: 0, y: 50)), .close])
        XCTAssertEqual(triangle.stroke, StrokeStyle(width: 4, join: .bevel, dashes: [6, 2], end: 0.5))
        XCTAssertEqual(triangle.fillColor, Color(red: 1, green: 0, blue: 0, alpha: 1))
        let frame = try firstFrame(scene(views))
        func rgb(_ x: Int, _ y: Int) -> [UInt8] { let p = frame[x, y].unpremultiplied; return [p.r, p.g, p.b] }
        XCTAssertEqual(rgb(10, 20), [255, 0, 0], "inside the triangle: the fill")
        XCTAssertEqual(rgb(50, 30), [255, 255, 255], "past the hypotenuse: the state's background")
        XCTAssertEqual(rgb(20, 1), [0, 0, 255], "the stroke along the top edge (in the first half of the outline)")
        XCTAssertEqual(rgb(1, 40), [255, 0, 0], "the left edge is the outline's last third: not stroked (strokeEnd 0.5)")
        XCTAssertEqual(rgb(90, 70), [0, 255, 0], "the disc's centre")
        XCTAssertEqual(rgb(62, 42), [255, 255, 255], "the square's corner, outside the mask's circle")
        XCTAssertEqual(rgb(118, 98), [255, 255, 255])
    }

    func testBadShapesAndMasksNameTheirKeyAndOffset() throws {
        func bad(_ view: String) throws -> String { try error(scene(view)) }
        XCTAssertTrue(try bad(##"{ "shape": { "fillColor": "#000" } }"##).contains("a shape needs a 'path'"))
        XCTAssertTrue(try bad(##"{ "shape": { "path": "M0 0 L5" } }"##)
            .contains("states.a.subviews[0].shape.path: not SVG path data at offset 7: the path ends where a number is expected"))
        XCTAssertTrue(try bad(##"{ "shape": { "path": "M0 0", "lineCap": "flat" } }"##).contains("'flat' is not a line cap: use butt, round or square"))
        XCTAssertTrue(try bad(##"{ "shape": { "path": "M0 0", "strokeEnd": 2 } }"##).contains("shape.strokeEnd: must be in 0.0…1.0, got 2.0"))
        XCTAssertTrue(try bad(##"{ "shape": { "path": "M0 0", "fill": "#000" } }"##).contains("unknown key 'fill'"))
        XCTAssertTrue(try bad(##"{ "type": "label", "text": "x", "shape": { "path": "M0 0" } }"##).contains("'shape' is for views of type view"))
        XCTAssertTrue(try bad(##"{ "gradient": { "colors": ["#000"] }, "shape": { "path": "M0 0" } }"##).contains("a view draws a 'gradient' or a 'shape', not both"))
        XCTAssertTrue(try bad(##"{ "mask": { "fillRule": "evenOdd" } }"##).contains("a mask needs a 'path'"))
        XCTAssertTrue(try bad(##"{ "mask": { "path": "Q" } }"##).contains("mask.path: not SVG path data at offset 0: path data starts with a moveto (M or m)"))
        XCTAssertTrue(try bad(##"{ "mask": { "path": "M0 0", "fillRule": "winding" } }"##).contains("'winding' is not a fill rule: use nonZero or evenOdd"))
        XCTAssertEqual(try bad(##"{ "type": "label", "text": "x", "mask": { "path": "M0 0 H10 V10 Z", "fillRule": "evenOdd" } }"##), "no error",
                       "a mask goes on any view")
    }
}
