import FrameDiff
import Foundation
import PNGIO
import RasterCore
import XCTest

/// Smokescreen's strokes (`Painter.stroke`, what `CAShapeLayer`, `UIBezierPath.stroke()` and a context's
/// `strokePath()` draw with) and even-odd fills against Skia's (`stroke_reference.py` beside this file,
/// through skia-python): caps, joins and the miter limit, curves thin and thick, dashes, trimmed strokes
/// (`strokeStart`/`strokeEnd`, Skia's trim path effect), stretched and turned transforms, compared with
/// the thresholds of the built-ins' reference test (pixelmatch 0.1 without anti-aliased pixels, at most
/// 0.1 % of the pixels different). Needs skia-python (`script/test` installs it); skipped without it except
/// under CI (`SMOKESCREEN_REFERENCE_REQUIRED=1`), where it fails.
final class StrokeReferenceTests: XCTestCase {
    static let script = ReferenceRendererTests.folder.appendingPathComponent("stroke_reference.py").path

    enum Shape {
        case stroke(StrokeStyle)
        case fill(FillRule)
        /// Filled non-zero through a Gaussian of this σ (points), as a shadow is drawn.
        case blurred(Double)
    }

    struct Case {
        var name: String
        var path: Path
        var shape: Shape
        var transform = Transform2D.identity
    }

    static func polyline(_ points: [(Double, Double)], closed: Bool = false) -> Path {
        var path = Path()
        for (i, p) in points.enumerated() {
            if i == 0 { path.move(to: Point(x: p.0, y: p.1)) } else { path.addLine(to: Point(x: p.0, y: p.1)) }
        }
        if closed { path.closeSubpath() }
        return path
    }

    static let zigzag = polyline([(15, 95), (45, 25), (75, 90), (105, 30), (145, 70)])
    static let sCurve: Path = {
        var path = Path()
        path.move(to: Point(x: 15, y: 80))
        path.addCurve(to: Point(x: 145, y: 45), control1: Point(x: 50, y: -10), control2: Point(x: 100, y: 140))
        return path
    }()
    static let star = polyline([(80, 8), (112, 108), (28, 46), (132, 46), (48, 108)], closed: true)

    static let cases: [Case] = {
        var cases: [Case] = [
            Case(name: "zigzag butt miter", path: zigzag, shape: .stroke(StrokeStyle(width: 9))),
            Case(name: "zigzag round round", path: zigzag, shape: .stroke(StrokeStyle(width: 9, cap: .round, join: .round))),
            Case(name: "zigzag square bevel", path: zigzag, shape: .stroke(StrokeStyle(width: 9, cap: .square, join: .bevel))),
            Case(name: "sharp miter", path: polyline([(20, 100), (80, 15), (100, 105)]), shape: .stroke(StrokeStyle(width: 8))),
            Case(name: "sharp miter limited", path: polyline([(20, 100), (80, 15), (100, 105)]), shape: .stroke(StrokeStyle(width: 8, miterLimit: 4))),
            Case(name: "cubic thick", path: sCurve, shape: .stroke(StrokeStyle(width: 14))),
            Case(name: "cubic thin", path: sCurve, shape: .stroke(StrokeStyle(width: 1.5, cap: .round))),
            Case(name: "circle", path: Path(ellipseIn: Rect(x: 30, y: 15, width: 90, height: 90)), shape: .stroke(StrokeStyle(width: 10))),
            // Nearly as wide as the curve's diameter. (Wider, the two disagree by design: a stroke covers every
            // point within half its width of the path, so the middle fills; Skia's stroker leaves a hole there.
            // StrokeTests checks that case exactly.)
            Case(name: "tight curve, thick", path: Path(ellipseIn: Rect(x: 65, y: 45, width: 24, height: 24)), shape: .stroke(StrokeStyle(width: 22))),
            Case(name: "rounded rect", path: Path(roundedRect: Rect(x: 20.5, y: 20.5, width: 120, height: 80), cornerRadius: 16), shape: .stroke(StrokeStyle(width: 4))),
            Case(name: "quad", path: {
                var p = Path(); p.move(to: Point(x: 10, y: 110)); p.addQuadCurve(to: Point(x: 150, y: 100), control: Point(x: 70, y: -40)); return p
            }(), shape: .stroke(StrokeStyle(width: 6, cap: .square))),
            Case(name: "dashes", path: zigzag, shape: .stroke(StrokeStyle(width: 5, dashes: [12, 6], dashPhase: 3))),
            Case(name: "dots", path: polyline([(15, 60), (145, 60)]), shape: .stroke(StrokeStyle(width: 8, cap: .round, dashes: [0, 14]))),
            Case(name: "dashed curve", path: sCurve, shape: .stroke(StrokeStyle(width: 6, cap: .square, join: .round, dashes: [10, 12, 3, 12]))),
            Case(name: "trimmed", path: sCurve, shape: .stroke(StrokeStyle(width: 10, cap: .round, start: 0.15, end: 0.7))),
            Case(name: "trimmed two subpaths", path: {
                var p = polyline([(15, 30), (145, 30), (145, 60)]); p.addPath(polyline([(15, 95), (145, 95)])); return p
            }(), shape: .stroke(StrokeStyle(width: 6, start: 0.3, end: 0.85))),
            Case(name: "stretched circle", path: Path(ellipseIn: Rect(x: 10, y: 20, width: 60, height: 60)), shape: .stroke(StrokeStyle(width: 6)),
                 transform: Transform2D(scaleX: 2, y: 1)),
            Case(name: "turned zigzag", path: zigzag, shape: .stroke(StrokeStyle(width: 7, join: .round)),
                 transform: Transform2D(translationX: 80, y: 60).rotated(by: 0.4).translatedBy(x: -80, y: -60)),
            Case(name: "hairlines", path: {
                var p = polyline([(10.5, 20.5), (150.5, 20.5)]); p.addPath(polyline([(10, 40.25), (150, 47.75)]))
                p.addPath(polyline([(20, 60), (140, 110)])); return p
            }(), shape: .stroke(StrokeStyle(width: 1))),
            Case(name: "half-point lines", path: polyline([(10, 30), (150, 90), (10, 100)]), shape: .stroke(StrokeStyle(width: 0.5))),
            Case(name: "u-turn", path: polyline([(20, 40), (140, 40), (30, 80)]), shape: .stroke(StrokeStyle(width: 12, join: .round))),
            Case(name: "star non-zero", path: star, shape: .fill(.nonZero)),
            Case(name: "star even-odd", path: star, shape: .fill(.evenOdd)),
        ]
        var nested = Path(rect: Rect(x: 10, y: 10, width: 140, height: 100))
        nested.addRect(Rect(x: 30.5, y: 25.5, width: 100, height: 70))
        nested.addEllipse(in: Rect(x: 50, y: 35, width: 60, height: 50))
        cases.append(Case(name: "nested even-odd", path: nested, shape: .fill(.evenOdd)))
        cases.append(Case(name: "star stroke miter", path: star, shape: .stroke(StrokeStyle(width: 5))))
        // Continuous corners, filled and as a card's shadow.
        let card = Path(roundedRect: Rect(x: 30, y: 20, width: 100, height: 80), cornerRadii: CornerRadii(all: 24), curve: .continuous)
        cases.append(Case(name: "continuous corners", path: card, shape: .fill(.nonZero)))
        cases.append(Case(name: "continuous corners' shadow", path: card, shape: .blurred(5)))
        return cases
    }()

    static func elements(_ path: Path) -> [[Any]] {
        path.elements.map {
            switch $0 {
            case .move(let p): ["M", p.x, p.y]
            case .line(let p): ["L", p.x, p.y]
            case .quadCurve(let p, let c): ["Q", c.x, c.y, p.x, p.y]
            case .curve(let p, let c1, let c2): ["C", c1.x, c1.y, c2.x, c2.y, p.x, p.y]
            case .close: ["Z"]
            }
        }
    }

    static func name(_ cap: StrokeStyle.LineCap) -> String { switch cap { case .butt: "butt"; case .round: "round"; case .square: "square" } }
    static func name(_ join: StrokeStyle.LineJoin) -> String { switch join { case .miter: "miter"; case .round: "round"; case .bevel: "bevel" } }

    func testStrokesAndFillsAgreeWithSkia() throws {
        guard try requireSkia() else { return }
        let keep = ProcessInfo.processInfo.environment["SMOKESCREEN_KEEP"] != nil
        let (folder, cleanUp) = try referenceFolder("stroke")
        defer { cleanUp() }
        let color = Color(red: 0.1, green: 0.3, blue: 0.8, alpha: 0.9)
        var jobs: [[String: Any]] = [], ours: [Bitmap] = []
        for (index, c) in Self.cases.enumerated() {
            var canvas = try Bitmap(width: 160, height: 120)
            canvas.draw { p in
                p.concatenate(c.transform)
                switch c.shape {
                case .stroke(let style): p.stroke(c.path, style: style, color: color)
                case .fill(let rule): p.fill(c.path, color: color, rule: rule)
                case .blurred(let sigma): p.fillBlurred(c.path, sigma: sigma, color: color)
                }
            }
            ours.append(canvas)
            if keep { try PNGCodec.write(canvas, to: folder + "/ours-\(index).png") }
            let t = c.transform
            var job: [String: Any] = ["width": 160, "height": 120, "out": folder + "/skia-\(index).png", "transform": [t.a, t.b, t.c, t.d, t.tx, t.ty],
                                      "color": [color.red, color.green, color.blue, color.alpha], "path": Self.elements(c.path)]
            switch c.shape {
            case .stroke(let s):
                job["stroke"] = ["width": s.width, "cap": Self.name(s.cap), "join": Self.name(s.join), "miter": s.miterLimit,
                                 "dashes": s.dashes, "phase": s.dashPhase, "start": s.start, "end": s.end] as [String: Any]
            case .fill(let rule):
                job["fill"] = rule == .evenOdd ? "evenodd" : "nonzero"
            case .blurred(let sigma):
                job["fill"] = "nonzero"
                job["blur"] = sigma
            }
            jobs.append(job)
        }
        guard try runReferenceScript(Self.script, jobs: jobs, in: folder) else { return }
        var lines: [String] = []
        for (index, c) in Self.cases.enumerated() {
            let skia = try PNGCodec.read(contentsOf: folder + "/skia-\(index).png")
            XCTAssertGreaterThan(ours[index].pixelCount(where: { $0.a > 0 }), 200, "\(c.name): something is drawn")
            let difference = ReferenceRendererTests.measure.compare(skia, ours[index])
            lines.append(String(format: "  %@: %.3f %% of the pixels differ (max channel Δ %d)", c.name as NSString,
                                (difference?.differentFraction ?? 0) * 100, difference?.maxChannelDelta ?? 0))
            if let failure = ReferenceRendererTests.comparison.compare(skia, ours[index]) {
                XCTFail("\(c.name): Smokescreen's stroke differs from Skia's: \(failure.summary)")
            }
        }
        print("stroke reference (Skia):\n" + lines.joined(separator: "\n"))
    }
}
