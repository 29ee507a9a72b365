import FrameDiff
import Foundation
import PNGIO
import RasterCore
import XCTest

/// Smokescreen's gradients (`Gradient.render`, what `CAGradientLayer` draws) against Skia's
/// (`gradient_reference.py` beside this file, through skia-python): axial, radial (an ellipse) and conic,
/// several stops, colours fading to clear, with the thresholds of the built-ins' reference test (pixelmatch
/// 0.1 without anti-aliased pixels, at most 0.1 % of the pixels different). Smokescreen dithers and Skia
/// here does not: the two agree within two levels everywhere (checked too; the log gives the largest). Needs skia-python; skipped without it except under CI.
final class GradientReferenceTests: XCTestCase {
    static let script = ReferenceRendererTests.folder.appendingPathComponent("gradient_reference.py").path

    static func level(_ r: Int, _ g: Int, _ b: Int, _ a: Int = 255) -> Color {
        Color(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: Double(a) / 255)
    }

    static let cases: [(name: String, gradient: Gradient)] = {
        func stops(_ colors: [Color], _ locations: [Double]) -> [Gradient.Stop] { zip(locations, colors).map { Gradient.Stop(location: $0, color: $1) } }
        let three = stops([level(255, 59, 48), level(255, 204, 0), level(0, 122, 255)], [0, 0.4, 1])
        return [
            ("axial, vertical", Gradient(kind: .axial, stops: three, start: Point(x: 0.5, y: 0), end: Point(x: 0.5, y: 1))),
            ("axial, diagonal", Gradient(kind: .axial, stops: three, start: Point(x: 0.1, y: 0.2), end: Point(x: 0.9, y: 0.7))),
            ("axial, to clear", Gradient(kind: .axial, stops: stops([level(255, 255, 255), level(0, 0, 0, 0)], [0, 1]), start: Point(x: 0, y: 0.5), end: Point(x: 1, y: 0.5))),
            ("radial, ellipse", Gradient(kind: .radial, stops: three, start: Point(x: 0.5, y: 0.5), end: Point(x: 0.9, y: 0.8))),
            ("radial, off centre", Gradient(kind: .radial, stops: stops([level(52, 199, 89), level(0, 0, 0, 0)], [0, 1]), start: Point(x: 0.3, y: 0.4), end: Point(x: 0.7, y: 0.9))),
            ("conic", Gradient(kind: .conic, stops: stops([level(255, 0, 0), level(0, 255, 0), level(0, 0, 255), level(255, 0, 0)], [0, 0.33, 0.66, 1]),
                               start: Point(x: 0.5, y: 0.5), end: Point(x: 1, y: 0.5))),
            ("conic, turned", Gradient(kind: .conic, stops: three, start: Point(x: 0.4, y: 0.6), end: Point(x: 0.4, y: 0))),
        ]
    }()

    func testGradientsAgreeWithSkia() throws {
        guard try requireSkia() else { return }
        let (folder, cleanUp) = try referenceFolder("gradient")
        defer { cleanUp() }
        var jobs: [[String: Any]] = [], ours: [Bitmap] = []
        for (index, c) in Self.cases.enumerated() {
            ours.append(try c.gradient.render(width: 160, height: 100))
            let g = c.gradient
            jobs.append(["width": 160, "height": 100, "out": folder + "/skia-\(index).png",
                         "kind": g.kind == .axial ? "axial" : g.kind == .radial ? "radial" : "conic",
                         "start": [g.start.x, g.start.y], "end": [g.end.x, g.end.y],
                         "colors": g.stops.map { s in [s.color.red, s.color.green, s.color.blue, s.color.alpha].map { Int(($0 * 255).rounded()) } },
                         "locations": g.stops.map(\.location)])
        }
        guard try runReferenceScript(Self.script, jobs: jobs, in: folder) else { return }
        var lines: [String] = []
        for (index, c) in Self.cases.enumerated() {
            let skia = try PNGCodec.read(contentsOf: folder + "/skia-\(index).png")
            var largest = 0
            for y in 0..<skia.height {
                for x in 0..<skia.width {
                    let a = skia[x, y], b = ours[index][x, y]
                    largest = max(largest, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
                }
            }
            let difference = ReferenceRendererTests.measure.compare(skia, ours[index])
            lines.append(String(format: "  %@: %.3f %% of the pixels differ; channels differ by at most %d levels", c.name as NSString,
                                (difference?.differentFraction ?? 0) * 100, largest))
            if let failure = ReferenceRendererTests.comparison.compare(skia, ours[index]) {
                XCTFail("\(c.name): Smokescreen's gradient differs from Skia's: \(failure.summary)")
            }
            // The dither moves a channel by less than a level either way; Skia rounds to nearest.
            XCTAssertLessThanOrEqual(largest, 2, c.name)
        }
        print("gradient reference (Skia):\n" + lines.joined(separator: "\n"))
    }
}
