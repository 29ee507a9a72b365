import Choreography
import Foundation
import RasterCore
import XCTest

/// SVG path data read exactly: every command, absolute and relative, the shorthands, the compact number
/// forms designers' tools write, arcs (against the circle they lie on), and errors with their offsets.
final class SVGPathDataTests: XCTestCase {
    private func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    func testLinesAbsoluteRelativeAndTheShorthands() throws {
        let path = try SVGPathData.parse("M10 20 L30 20 l0 10 H0 h5 V40 v-5 Z m2 3 10 0 z")
        XCTAssertEqual(path.elements, [
            .move(to: p(10, 20)), .line(to: p(30, 20)), .line(to: p(30, 30)), .line(to: p(0, 30)), .line(to: p(5, 30)),
            .line(to: p(5, 40)), .line(to: p(5, 35)), .close,
            // After Z the current point is the subpath's start; a moveto's extra pairs are lines.
            .move(to: p(12, 23)), .line(to: p(22, 23)), .close,
        ])
    }

    func testCurvesAndTheirReflections() throws {
        let path = try SVGPathData.parse("M0 0 C10 0 20 10 20 20 S30 40 40 40 Q50 40 50 50 T50 70 t0 20")
        XCTAssertEqual(path.elements, [
            .move(to: p(0, 0)),
            .curve(to: p(20, 20), control1: p(10, 0), control2: p(20, 10)),
            // S: the first control mirrors (20, 10) about (20, 20).
            .curve(to: p(40, 40), control1: p(20, 30), control2: p(30, 40)),
            .quadCurve(to: p(50, 50), control: p(50, 40)),
            // T: the control mirrors (50, 40) about (50, 50), then (50, 60) about (50, 70).
            .quadCurve(to: p(50, 70), control: p(50, 60)),
            .quadCurve(to: p(50, 90), control: p(50, 80)),
        ])
        // S after a line, T after a cubic: the control is the current point.
        XCTAssertEqual(try SVGPathData.parse("M0 0 L10 0 S20 10 30 10").elements.last, .curve(to: p(30, 10), control1: p(10, 0), control2: p(20, 10)))
        XCTAssertEqual(try SVGPathData.parse("M0 0 C1 1 2 2 3 3 T9 9").elements.last, .quadCurve(to: p(9, 9), control: p(3, 3)))
        // Relative curves are relative to the point the segment starts at.
        XCTAssertEqual(try SVGPathData.parse("M10 10 c1 2 3 4 5 6").elements.last, .curve(to: p(15, 16), control1: p(11, 12), control2: p(13, 14)))
    }

    func testCompactNumbersAsToolsWriteThem() throws {
        XCTAssertEqual(try SVGPathData.parse("M10-5.5.5.5L1e1,2E-1").elements, [.move(to: p(10, -5.5)), .line(to: p(0.5, 0.5)), .line(to: p(10, 0.2))])
        XCTAssertEqual(try SVGPathData.parse("  \n").elements, [])
        XCTAssertEqual(try SVGPathData.parse("M+1,+2").elements, [.move(to: p(1, 2))])
    }

    /// An arc's points lie on its circle: the ends exactly, the handles' curve within 0.03 % of the radius.
    func testArcsLieOnTheirCircle() throws {
        // A half circle of radius 50 about (50, 50), clockwise (sweep 1) from the left to the right, over the top.
        let path = try SVGPathData.parse("M0 50 A50 50 0 0 1 100 50")
        guard case .curve(let end, _, _)? = path.elements.last else { return XCTFail("\(path.elements)") }
        XCTAssertEqual(end, p(100, 50))
        XCTAssertEqual(path.elements.count, 3, "two quarter turns")
        var from = p(0, 50)
        for element in path.elements.dropFirst() {
            guard case .curve(let to, let c1, let c2) = element else { return XCTFail("\(element)") }
            for t in stride(from: 0.0, through: 1.0, by: 0.125) {
                let u = 1 - t
                let x = u * u * u * from.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * to.x
                let y = u * u * u * from.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * to.y
                XCTAssertEqual(((x - 50) * (x - 50) + (y - 50) * (y - 50)).squareRoot(), 50, accuracy: 50 * 0.0003)
                XCTAssertLessThanOrEqual(y, 50 + 1e-9, "over the top (y down)")
            }
            from = to
        }
        // Radii too small for the chord grow until the arc fits: still a half circle through (50, 0).
        let grown = try SVGPathData.parse("M0 50 A1 1 0 0 1 100 50")
        guard case .curve(let middle, _, _) = grown.elements[1] else { return XCTFail() }
        XCTAssertEqual(middle.x, 50, accuracy: 1e-9)
        XCTAssertEqual(middle.y, 0, accuracy: 1e-9)
        // A zero radius is a line; flags written without separators; the large arc goes the long way.
        XCTAssertEqual(try SVGPathData.parse("M0 0 A0 5 0 0 1 10 0").elements.last, .line(to: p(10, 0)))
        let large = try SVGPathData.parse("M0 50a50 50 0 1050 -50")
        XCTAssertEqual(large.elements.count, 4, "three quarter turns the long way round")
        guard case .curve(let last, _, _)? = large.elements.last else { return XCTFail() }
        XCTAssertEqual(last, p(50, 0))
    }

    /// Radii tiny beside the chord (their squares' ratios overflow) never make a number that is not finite:
    /// equal ones still make the half circle on the chord, and ones too unequal to scale make a line.
    func testArcsWithTinyRadiiStayFinite() throws {
        for text in ["M10 10 A1e-300 1e-300 0 1 1 100000 100000", "M0 0 A1e-300 1 0 0 0 20 10", "M10 10 A1e-100 1 0 1 1 100 100",
                     "M10 10 A1 1e-300 0 0 1 50 80", "M0 0 A5e-324 5e-324 0 0 0 1 0", "M0 0 A1e-200 1e-200 30 1 0 0 1e7"] {
            let path = try SVGPathData.parse(text)
            for element in path.elements {
                switch element {
                case .move(let p), .line(let p): XCTAssertTrue(p.x.isFinite && p.y.isFinite, text)
                case .curve(let p, let c1, let c2):
                    XCTAssertTrue([p.x, p.y, c1.x, c1.y, c2.x, c2.y].allSatisfy(\.isFinite), "\(text): \(element)")
                case .quadCurve(let p, let c): XCTAssertTrue([p.x, p.y, c.x, c.y].allSatisfy(\.isFinite), text)
                case .close: break
                }
            }
        }
        // Equal tiny radii: the half circle on the chord, as radii of 1 give (through (50, 0)).
        let half = try SVGPathData.parse("M0 50 A1e-300 1e-300 0 0 1 100 50")
        guard case .curve(let middle, _, _) = half.elements[1] else { return XCTFail("\(half.elements)") }
        XCTAssertEqual(middle.x, 50, accuracy: 1e-9)
        XCTAssertEqual(middle.y, 0, accuracy: 1e-9)
        // One radius 10⁷ times the other, the chord across the small one: scaled to fit, the ellipse is
        // 10¹⁰ wide, a band as tall as the chord, drawn as SVG draws it (it reaches far off the canvas).
        let wide = try SVGPathData.parse("M50 40 A1e7 0.01 0 0 1 50 60")
        guard case .curve(let farthest, _, _) = wide.elements[1] else { return XCTFail("\(wide.elements)") }
        XCTAssertEqual(farthest.x, 50 + 1e10, accuracy: 1)
        XCTAssertEqual(farthest.y, 50, accuracy: 1e-3)
    }

    func testErrorsNameTheirOffset() {
        func error(_ text: String) -> String {
            do { _ = try SVGPathData.parse(text); return "no error" } catch { return error.description }
        }
        XCTAssertEqual(error("L10 10"), "at offset 0: path data starts with a moveto (M or m)")
        XCTAssertEqual(error("M10"), "at offset 3: the path ends where a number is expected")
        XCTAssertEqual(error("M0 0 L5 x"), "at offset 8: expected a number")
        XCTAssertEqual(error("M0 0 A1 1 0 2 0 5 5"), "at offset 12: an arc's flags are 0 or 1")
        XCTAssertEqual(error("M0 0 X1 2"), "at offset 5: expected a number")
        XCTAssertEqual(error("M0 0 Z 5 5"), "at offset 7: a number after closepath (Z) needs a command letter")
        XCTAssertEqual(error("M1e9 0"), "at offset 1: '1e9' is not a number within ±10,000,000")
        XCTAssertEqual(error("M0 0" + String(repeating: " L1 1", count: SVGPathData.maximumCommands)),
                       "at offset \(4 + 5 * (SVGPathData.maximumCommands - 1) + 2): more than \(SVGPathData.maximumCommands) commands")
    }
}
