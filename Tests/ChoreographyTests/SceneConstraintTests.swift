import BoundedInput
import Choreography
import Foundation
import RasterCore
import Typesetting
import XCTest

/// Constraints in scene files: frames solved when the file is read (derived by hand below), and bad
/// constraints reported at their line and column.
final class SceneConstraintTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("scene-constraints-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// A card and its caption laid out by constraints in state "b"; `constraints` replaces the list.
    func scene(_ constraints: String = """
        "card.leading == self.leading + 16", "self.trailing == card.trailing + 16", "card.top == self.top + 40",
                "card.height == 0.5 * card.width", "caption.leading == card.leading + 12", "caption.bottom == card.bottom - 10"
        """) -> String {
        """
        {
          "size": [200, 300],
          "states": {
            "a": { "subviews": [ { "name": "card", "frame": [0, 0, 10, 10], "backgroundColor": "#336699" } ] },
            "b": { "subviews": [
                     { "name": "card", "backgroundColor": "#336699", "subviews": [
                       { "type": "label", "name": "caption", "text": "Caption", "fontSize": 12 } ] } ],
                   "constraints": [ \(constraints) ] }
          },
          "transitions": [
            { "name": "grow", "from": "a", "to": "b", "phases": [ { "name": "move", "duration": 0.3 } ],
              "matched": [ { "id": "card", "phase": "move" } ] }
          ]
        }
        """
    }

    func parse(_ text: String) throws -> SceneDocument {
        try SceneDocument.parse(Array(text.utf8), path: "scene.json")
    }

    func error(_ text: String) -> String {
        do { _ = try parse(text); return "no error" } catch { return "\(error)" }
    }

    func testConstraintsLayOutViewsWithoutFrames() throws {
        let document = try parse(scene())
        let card = document.states["b"]!.subviews[0]
        XCTAssertEqual(card.frame, Rect(x: 16, y: 40, width: 168, height: 84))
        let caption = card.subviews[0]
        let text = try TextLayout.size(of: "Caption", style: SceneLayout.style(caption))
        XCTAssertEqual(caption.frame, Rect(x: 12, y: 84 - 10 - text.height, width: text.width, height: text.height),
                       "in the card's coordinates, at its text's size")
        XCTAssertEqual(card.constraints.count, 0)
        XCTAssertEqual(document.states["b"]!.constraints.first,
                       SceneDocument.ConstraintSpec(firstItem: "card", firstAttribute: .leading, relation: .equal, secondItem: "self",
                                                    secondAttribute: .leading, multiplier: 1, constant: 16, priority: 1000))
    }

    func testAViewWithAFrameKeepsItAndIsReferredTo() throws {
        let framed = scene(#""caption.leading == card.leading + 12", "caption.bottom == card.bottom - 10""#)
            .replacingOccurrences(of: "{ \"name\": \"card\", \"backgroundColor\"", with: "{ \"name\": \"card\", \"frame\": [5, 5, 100, 100], \"backgroundColor\"")
        let card = try parse(framed).states["b"]!.subviews[0]
        XCTAssertEqual(card.frame, Rect(x: 5, y: 5, width: 100, height: 100), "held at its frame")
        XCTAssertEqual(card.subviews[0].frame.minX, 12)
        // Its frame is required: constraints that move it contradict it.
        let moved = scene().replacingOccurrences(of: "{ \"name\": \"card\", \"backgroundColor\"", with: "{ \"name\": \"card\", \"frame\": [5, 5, 100, 100], \"backgroundColor\"")
        XCTAssertEqual(error(moved), "scene.json:8:29: states.b.constraints[0]: this required constraint contradicts the ones before it or a frame the file gives (a view with a frame keeps it; a state's root fills the canvas)")
    }

    func testConstraintSpellingAndPriorities() throws {
        for (written, expected) in [
            ("card.width >= 120 @750", SceneDocument.ConstraintSpec(firstItem: "card", firstAttribute: .width, relation: .greaterThanOrEqual, constant: 120, priority: 750)),
            ("card.height == card.width * 0.5", SceneDocument.ConstraintSpec(firstItem: "card", firstAttribute: .height, relation: .equal, secondItem: "card", secondAttribute: .width, multiplier: 0.5)),
            ("a.top<=b.bottom-8", SceneDocument.ConstraintSpec(firstItem: "a", firstAttribute: .top, relation: .lessThanOrEqual, secondItem: "b", secondAttribute: .bottom, constant: -8)),
        ] {
            XCTAssertEqual(try SceneDocument.ConstraintSpec.parse(written).get(), expected, written)
        }
    }

    func testBadConstraintsAreReportedWhereTheyAreWritten() {
        XCTAssertEqual(error(scene("\"card.leadng == self.leading\"")),
                       "scene.json:8:29: states.b.constraints[0]: 'card.leadng == self.leading': 'leadng' is not an attribute; use one of left, right, top, bottom, leading, trailing, width, height, centerX, centerY, firstBaseline, lastBaseline; did you mean 'leading'?")
        XCTAssertEqual(error(scene("\"card.top = self.top\"")),
                       "scene.json:8:29: states.b.constraints[0]: 'card.top = self.top': expected ==, <= or >= at character 10; a constraint reads like \"card.top == self.top + 20\" or \"card.width == 120 @750\"")
        XCTAssertEqual(error(scene("\"card.top == 20\"")),
                       "scene.json:8:29: states.b.constraints[0]: 'card.top == 20': only a width or height can equal a constant; relate top to another view's attribute")
        XCTAssertEqual(error(scene("\"card.top == self.leading\"")),
                       "scene.json:8:29: states.b.constraints[0]: 'card.top == self.leading': top and leading lie on different axes")
        XCTAssertEqual(error(scene("\"crad.top == self.top\"")),
                       "scene.json:8:29: states.b.constraints[0]: no view named 'crad' in this state; did you mean 'card'?")
        let contradiction = scene(#""card.leading == self.leading", "card.trailing == self.trailing", "card.width == 50", "card.top == self.top", "card.height == 10""#)
        XCTAssertEqual(error(contradiction), "scene.json:8:95: states.b.constraints[2]: this required constraint contradicts the ones before it or a frame the file gives (a view with a frame keeps it; a state's root fills the canvas)")
        XCTAssertEqual(error(scene(#""card.leading == self.leading", "card.top == self.top", "card.height == 10""#)),
                       "scene.json:8:29: states.b.constraints[0]: the layout of 'card' is ambiguous: nothing fixes its width")
        // Numbers the grammar would otherwise have dropped.
        let twice = error(scene("\"card.width == 0.5 * self.width * 0.25\""))
        XCTAssertTrue(twice.contains("a second multiplier"), twice)
        XCTAssertTrue(error(scene("\"card.width == 20 self.width\"")).contains("expected * after 20.0"))
        XCTAssertTrue(error(scene("\"card.width == -50\"")).hasSuffix("a width cannot be negative"))
        XCTAssertTrue(error(scene("\"card.width == 0.0000000001 * self.width + 20\"")).contains("the multiplier must be 0 or within 0.1…10"))
        let negative = error(scene(#""card.leading == self.leading", "card.top == self.top", "card.height == 10", "card.width == -1 * self.width""#))
        XCTAssertTrue(negative.hasSuffix("the constraints give 'card' a negative size (-200.0 × 10.0 points)"), negative)
        // The caption's own constraints may name only the caption and what is inside it.
        let outside = scene().replacingOccurrences(of: "\"text\": \"Caption\", \"fontSize\": 12 }",
                                                   with: "\"text\": \"Caption\", \"fontSize\": 12, \"constraints\": [\"card.top == self.top\"] }")
        XCTAssertEqual(error(outside), "scene.json:7:105: states.b.subviews[0].subviews[0].constraints[0]: 'card' is not one of the subviews of the view that declares the constraint (declare it on a view that contains both)")
    }
}
