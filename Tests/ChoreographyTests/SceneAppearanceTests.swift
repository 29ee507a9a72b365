import BoundedInput
import Choreography
import Foundation
import RasterCore
import SnapshotView
import TransitionCompositor
import XCTest

/// Scene files' colours for each appearance: `{"light": …, "dark": …}` wherever a colour goes, drawn
/// for `RenderSettings.appearance`; system materials take their dark versions; a file without any
/// draws the same in both.
final class SceneAppearanceTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("scene-appearance-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// 100 × 60: the window's background; a box (background, border), a shape and a gradient, each with a
    /// light and a dark colour, and a box of one colour; the same in both states, so every frame shows them.
    static let views = ##"""
              { "name": "box", "frame": [0, 0, 20, 20], "backgroundColor": { "light": "#FF0000", "dark": "#00FF00" },
                "borderWidth": 2, "borderColor": { "light": "#0000FF", "dark": "#FFFF00" } },
              { "name": "shape", "frame": [30, 0, 20, 20], "shape": { "path": "M0 0 H20 V20 H0 Z", "fillColor": { "light": "#112233", "dark": "#445566" } } },
              { "name": "ramp", "frame": [60, 0, 20, 20], "gradient": { "colors": [{ "light": "#000000", "dark": "#FFFFFF" }, "#808080"], "locations": [1, 0] } },
              { "name": "plain", "frame": [0, 40, 20, 20], "backgroundColor": "#336699" }
        """##
    let text = ##"""
        {
          "size": [100, 60],
          "background": { "light": "#FFFFFF", "dark": "#000000" },
          "states": { "a": { "subviews": [ \##(SceneAppearanceTests.views) ] }, "b": { "subviews": [ \##(SceneAppearanceTests.views) ] } },
          "transitions": [ { "name": "go", "from": "a", "to": "b", "phases": [ { "name": "p", "duration": 0.1 } ] } ]
        }
        """##

    func firstFrame(_ text: String, _ appearance: Appearance) throws -> (Bitmap, RenderedTransition) {
        let path = folder + "/scene.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        var settings = RenderSettings(scale: 1, fps: 10, assetsDirectory: folder)
        settings.appearance = appearance
        let rendered = try SceneTransition.load(path: path, transition: nil).render(settings)
        var canvas = try rendered.sequence.makeCanvas()
        rendered.sequence.draw(frame: 0, into: &canvas)
        return (canvas, rendered)
    }

    func testEachAppearanceDrawsItsColours() throws {
        let (light, lightRender) = try firstFrame(text, .light)
        let (dark, darkRender) = try firstFrame(text, .dark)
        func rgb(_ p: PremultipliedRGBA8) -> [UInt8] { [p.r, p.g, p.b] }
        XCTAssertEqual(rgb(light[10, 10]), [255, 0, 0])
        XCTAssertEqual(rgb(dark[10, 10]), [0, 255, 0])
        XCTAssertEqual(rgb(light[0, 10]), [0, 0, 255], "border")
        XCTAssertEqual(rgb(dark[0, 10]), [255, 255, 0], "border")
        XCTAssertEqual(rgb(light[40, 10]), [0x11, 0x22, 0x33], "shape")
        XCTAssertEqual(rgb(dark[40, 10]), [0x44, 0x55, 0x66], "shape")
        // The gradient's first colour is at location 1 (the bottom): its stops sorted, the dark one with them.
        XCTAssertLessThan(Int(light[70, 19].r), 10)
        XCTAssertGreaterThan(Int(dark[70, 19].r), 245)
        // The top row is #808080 (given once) mixed 2.5 % toward the other stop: black in light, white in dark.
        XCTAssertEqual(Int(light[70, 0].r), 125, accuracy: 1)
        XCTAssertEqual(Int(dark[70, 0].r), 131, accuracy: 1)
        // The window behind.
        XCTAssertEqual(rgb(light[50, 50]), [255, 255, 255])
        XCTAssertEqual(rgb(dark[50, 50]), [0, 0, 0])
        XCTAssertEqual(rgb(light[10, 50]), rgb(dark[10, 50]))
        // Two renders of their own: a partial render never mixes their frames.
        XCTAssertNotEqual(lightRender.sequence.fingerprint, darkRender.sequence.fingerprint)
        let path = folder + "/scene.json"
        XCTAssertTrue(try SceneTransition.load(path: path, transition: nil).followsAppearance)
    }

    /// A file without light/dark colours draws the same frames (and fingerprint) in both appearances,
    /// except for system materials, which follow it as UIKit's do.
    func testAFileWithoutDarkColoursDrawsTheSame() throws {
        let plain = ##"""
            {
              "size": [40, 40],
              "states": { "a": { "subviews": [ { "name": "box", "frame": [0, 0, 20, 20], "backgroundColor": "#FF0000" } ] },
                          "b": { "subviews": [ { "name": "box", "frame": [0, 0, 20, 20], "backgroundColor": "#FF0000" } ] } },
              "transitions": [ { "name": "go", "from": "a", "to": "b", "phases": [ { "name": "p", "duration": 0.1 } ] } ]
            }
            """##
        let (light, l) = try firstFrame(plain, .light)
        let (dark, d) = try firstFrame(plain, .dark)
        XCTAssertEqual(light, dark)
        XCTAssertEqual(l.sequence.fingerprint, d.sequence.fingerprint)
        let document = try SceneDocument.parse(Array(plain.utf8), path: "plain.json")
        XCTAssertFalse(document.hasDarkColors)
        let material = plain.replacingOccurrences(of: ##""backgroundColor": "#FF0000" } ] },"##, with: ##""material": "regular" } ] },"##)
        let withMaterial = try SceneDocument.parse(Array(material.utf8), path: "material.json")
        XCTAssertTrue(withMaterial.hasDarkColors)
        let box = try XCTUnwrap(withMaterial.states["a"]?.subviews.first)
        XCTAssertEqual(box.material, .material(.regular, dark: false))
        XCTAssertEqual(box.resolved(for: .dark).material, .material(.regular, dark: true))
        let fixed = try SceneDocument.parse(Array(material.replacingOccurrences(of: "\"regular\"", with: "\"regularDark\"").utf8), path: "fixed.json")
        XCTAssertFalse(fixed.hasDarkColors, "a …Dark material is the same in both")
    }

    func testBadAppearanceColoursNameTheirKey() throws {
        func check(_ color: String) -> String {
            let text = self.text.replacingOccurrences(of: ##"{ "light": "#FF0000", "dark": "#00FF00" }"##, with: color)
            do { _ = try SceneDocument.parse(Array(text.utf8), path: "scene.json"); return "no error" } catch { return "\(error)" }
        }
        XCTAssertTrue(check(##"{ "light": "#FF0000" }"##).contains("states.a.subviews[0].backgroundColor: a colour for each appearance needs both \"light\" and \"dark\""), check(##"{ "light": "#FF0000" }"##))
        XCTAssertTrue(check(##"{ "light": "#FF0000", "dusk": "#000" }"##).contains("unknown key 'dusk'"))
        XCTAssertTrue(check(##"{ "light": "#FF0000", "dark": "night" }"##).contains("backgroundColor.dark: 'night' is not a colour"))
        XCTAssertTrue(check(##"[ "#FF0000" ]"##).contains("backgroundColor"))
        XCTAssertTrue(check("12").contains(##"backgroundColor: a colour is "#RRGGBB" (or #RGB, #RRGGBBAA), or {"light": "#…", "dark": "#…"}"##), check("12"))
    }
}

/// Scene files' labels in a Dynamic Type text style: sized for the render's text size.
final class SceneTextSizeTests: XCTestCase {
    func document(_ label: String) throws -> SceneDocument {
        let text = """
            {
              "size": [200, 100],
              "states": { "a": { "subviews": [ \(label) ] }, "b": { "subviews": [ \(label) ] } },
              "transitions": [ { "name": "go", "from": "a", "to": "b", "phases": [ { "name": "p", "duration": 0.1 } ] } ]
            }
            """
        return try SceneDocument.parse(Array(text.utf8), path: "scene.json")
    }

    func testATextStyleFollowsTheTextSize() throws {
        let doc = try document(#"{ "type": "label", "name": "t", "text": "Hello", "textStyle": "body", "frame": [0, 0, 200, 80] }"#)
        XCTAssertTrue(doc.hasTextStyles)
        let label = try XCTUnwrap(doc.states["a"]?.subviews.first)
        XCTAssertEqual(label.resolved(for: .light).fontSize, 17)
        XCTAssertEqual(label.resolved(for: .light, textSize: .extraSmall).fontSize, 14)
        XCTAssertEqual(label.resolved(for: .dark, textSize: .accessibilityExtraExtraExtraLarge).fontSize, 53)
        let fixed = try document(#"{ "type": "label", "name": "t", "text": "Hello", "fontSize": 20 }"#)
        XCTAssertFalse(fixed.hasTextStyles)
        XCTAssertEqual(try XCTUnwrap(fixed.states["a"]?.subviews.first).resolved(for: .light, textSize: .accessibilityLarge).fontSize, 20)
    }

    func testBadTextStylesNameTheirKey() {
        func error(_ label: String) -> String {
            do { _ = try document(label); return "no error" } catch { return "\(error)" }
        }
        XCTAssertTrue(error(#"{ "type": "label", "text": "x", "textStyle": "huge" }"#).contains("textStyle: unknown value 'huge'"))
        XCTAssertTrue(error(#"{ "type": "label", "text": "x", "textStyle": "body", "fontSize": 12 }"#)
                        .contains("give 'fontSize' or 'textStyle', not both"))
        XCTAssertTrue(error(#"{ "textStyle": "body" }"#).contains("'textStyle' is for views of type label"))
    }
}

extension SceneTextSizeTests {
    /// Constraints size a text style's label with the style's font at Large (34-pt largeTitle), not 17 pt.
    func testConstraintsSizeATextStyleWithItsFont() throws {
        func laidOut(_ font: String) throws -> Rect {
            let state = """
                { "constraints": ["t.leading == self.leading + 10", "t.top == self.top + 10"],
                  "subviews": [ { "type": "label", "name": "t", "text": "Messages", \(font) } ] }
                """
            let text = """
                { "size": [300, 200], "states": { "a": \(state), "b": \(state) },
                  "transitions": [ { "name": "go", "from": "a", "to": "b", "phases": [ { "name": "p", "duration": 0.1 } ] } ] }
                """
            return try XCTUnwrap(try SceneDocument.parse(Array(text.utf8), path: "scene.json").states["a"]?.subviews.first).frame
        }
        let styled = try laidOut(#""textStyle": "largeTitle""#)
        XCTAssertEqual(styled, try laidOut(#""fontSize": 34"#))
        XCTAssertGreaterThan(styled.height, 40)
        // A headline is semibold: wider than the same text in the body style.
        XCTAssertGreaterThan(try laidOut(#""textStyle": "headline""#).width, try laidOut(#""textStyle": "body""#).width)
    }
}
