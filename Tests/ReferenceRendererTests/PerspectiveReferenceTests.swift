import FrameDiff
import Foundation
import PNGIO
import RasterCore
import XCTest

/// Smokescreen's perspective drawing (`Painter.draw(_:projection:opacity:)`, what a layer turned in 3-D is
/// drawn with) and its blur (`Painter.fillBlurred`, what a layer's shadow is drawn with) against Skia's (`perspective_reference.py` beside this file, through skia-python): the same
/// image through the same homographies, compared with the thresholds of the built-ins' reference test
/// (pixelmatch 0.1 without anti-aliased pixels, at most 0.1 % of the pixels different).
///
/// The image is a pattern with hard edges, soft gradients and fine stripes; the turns are about y and x
/// and a tilted axis, from slight to nearly edge-on (where Skia's mipmaps and Smokescreen's per-pixel grid
/// of samples both filter the far side), in a canvas twice the image's size. Needs skia-python (`script/test`
/// installs it); skipped without it except under CI (`SMOKESCREEN_REFERENCE_REQUIRED=1`), where it fails.
final class PerspectiveReferenceTests: XCTestCase {
    static let script = ReferenceRendererTests.folder.appendingPathComponent("perspective_reference.py").path

    /// The image: a gradient, bars, a ring and stripes one pixel wide.
    static func pattern() throws -> Bitmap {
        var image = try Bitmap(width: 96, height: 64)
        image.draw { p in
            for x in 0..<96 {
                p.fill(Rect(x: Double(x), y: 0, width: 1, height: 64), color: Color(red: Double(x) / 95, green: 0.4, blue: 1 - Double(x) / 95))
            }
            p.fill(Rect(x: 8, y: 8, width: 30, height: 10), color: Color(white: 1))
            p.fill(ellipseIn: Rect(x: 50, y: 10, width: 36, height: 36), color: Color(red: 1, green: 0.9, blue: 0.2))
            p.fill(ellipseIn: Rect(x: 58, y: 18, width: 20, height: 20), color: Color(red: 0.1, green: 0.1, blue: 0.3))
            for k in 0..<20 where k % 2 == 0 { p.fill(Rect(x: 8 + Double(k), y: 30, width: 1, height: 26), color: .black) }
        }
        return image
    }

    /// The homography of a turn: about the image's centre, by `angle` about `axis`, seen with the eye 250
    /// pixels away, placed at the canvas's centre.
    static func turn(_ angle: Double, axis: (Double, Double, Double)) -> Projective2D {
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 250
        return Transform3D(translationX: -48, y: -32, z: 0)
            .concatenating(Transform3D(rotationAngle: angle, x: axis.0, y: axis.1, z: axis.2))
            .concatenating(perspective)
            .concatenating(Transform3D(translationX: 96, y: 64, z: 0)).flattened
    }

    static let cases: [(name: String, projection: Projective2D)] = [
        ("y 0.3", turn(0.3, axis: (0, 1, 0))),
        ("y -0.8", turn(-0.8, axis: (0, 1, 0))),
        ("y 1.2", turn(1.2, axis: (0, 1, 0))),
        ("y 1.45", turn(1.45, axis: (0, 1, 0))),
        ("x 0.9", turn(0.9, axis: (1, 0, 0))),
        ("tilted 0.7", turn(0.7, axis: (1, 1, 0.3))),
        ("back 2.4", turn(2.4, axis: (0, 1, 0))),
    ]

    /// Blurred rounded rectangles, as shadows are drawn: the three box blurs against Skia's blur mask
    /// filter (its own Gaussian approximation), σ from 2 to 12 pixels, with the same thresholds.
    func testBlurredShapesAgreeWithSkia() throws {
        guard try requireSkia() else { return }
        let (folder, cleanUp) = try referenceFolder("blur")
        defer { cleanUp() }
        let cases: [(rect: Rect, radius: Double, sigma: Double)] = [
            (Rect(x: 30, y: 30, width: 100, height: 60), 0, 2), (Rect(x: 30.5, y: 25.25, width: 100, height: 70), 12, 5),
            (Rect(x: 40, y: 40, width: 80, height: 40), 20, 9), (Rect(x: 50, y: 30, width: 60, height: 60), 30, 12),
        ]
        var jobs: [[String: Any]] = [], ours: [Bitmap] = []
        for (index, c) in cases.enumerated() {
            var canvas = try Bitmap(width: 160, height: 130)
            canvas.draw { $0.fillBlurred(Path(roundedRect: c.rect, cornerRadii: CornerRadii(all: c.radius)), sigma: c.sigma, color: .black) }
            ours.append(canvas)
            jobs.append(["kind": "blur", "width": 160, "height": 130, "out": folder + "/skia-\(index).png",
                         "rect": [c.rect.minX, c.rect.minY, c.rect.width, c.rect.height], "radius": c.radius, "sigma": c.sigma])
        }
        guard try runReferenceScript(Self.script, jobs: jobs, in: folder) else { return }
        var lines: [String] = []
        for (index, c) in cases.enumerated() {
            let skia = try PNGCodec.read(contentsOf: folder + "/skia-\(index).png")
            let difference = ReferenceRendererTests.measure.compare(skia, ours[index])
            var largest = 0
            for y in 0..<skia.height { for x in 0..<skia.width { largest = max(largest, abs(Int(skia[x, y].a) - Int(ours[index][x, y].a))) } }
            lines.append(String(format: "  σ %.0f, radius %.0f: %.3f %% of the pixels differ; alpha differs by at most %d levels", c.sigma, c.radius,
                                (difference?.differentFraction ?? 0) * 100, largest))
            if let failure = ReferenceRendererTests.comparison.compare(skia, ours[index]) {
                XCTFail("σ \(c.sigma): Smokescreen's blur differs from Skia's: \(failure.summary)")
            }
        }
        print("blur reference (Skia):\n" + lines.joined(separator: "\n"))
    }

    func testTurnedImagesAgreeWithSkia() throws {
        guard try requireSkia() else { return }
        let (folder, cleanUp) = try referenceFolder("perspective")
        defer { cleanUp() }
        let image = try Self.pattern()
        try PNGCodec.write(image, to: folder + "/image.png")
        var jobs: [[String: Any]] = []
        var ours: [Bitmap] = []
        for (index, c) in Self.cases.enumerated() {
            var canvas = try Bitmap(width: 192, height: 128)
            canvas.draw { $0.draw(image, projection: c.projection) }
            ours.append(canvas)
            if ProcessInfo.processInfo.environment["SMOKESCREEN_KEEP"] != nil { try PNGCodec.write(canvas, to: folder + "/ours-\(index).png") }
            let m = c.projection
            jobs.append(["image": folder + "/image.png", "width": 192, "height": 128, "out": folder + "/skia-\(index).png",
                         "matrix": [m.m11, m.m12, m.m13, m.m21, m.m22, m.m23, m.m31, m.m32, m.m33]])
        }
        guard try runReferenceScript(Self.script, jobs: jobs, in: folder) else { return }
        var lines: [String] = []
        for (index, c) in Self.cases.enumerated() {
            let skia = try PNGCodec.read(contentsOf: folder + "/skia-\(index).png")
            let drawn = ours[index].pixelCount(where: { $0.a > 0 })
            XCTAssertGreaterThan(drawn, 500, "\(c.name): the turned image covers part of the canvas")
            let difference = ReferenceRendererTests.measure.compare(skia, ours[index])
            let fraction = difference?.differentFraction ?? 0
            lines.append(String(format: "  %@: %.3f %% of the pixels differ (max channel Δ %d)", c.name as NSString, fraction * 100, difference?.maxChannelDelta ?? 0))
            if let failure = ReferenceRendererTests.comparison.compare(skia, ours[index]) {
                XCTFail("\(c.name): Smokescreen's perspective differs from Skia's: \(failure.summary)")
            }
        }
        print("perspective reference (Skia):\n" + lines.joined(separator: "\n"))
    }
}

extension XCTestCase {
    /// A fresh temporary folder for a reference test, named after `name`, removed afterwards unless
    /// `SMOKESCREEN_KEEP` is set (then its path is printed).
    func referenceFolder(_ name: String) throws -> (path: String, cleanUp: () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-reference-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let keep = ProcessInfo.processInfo.environment["SMOKESCREEN_KEEP"] != nil
        return (folder, { if keep { print("kept", folder) } else { try? FileManager.default.removeItem(atPath: folder) } })
    }

    /// Writes `jobs` to `folder`/cases.json and runs the Python `script` on it; false (with the failure
    /// recorded) when the script fails.
    func runReferenceScript(_ script: String, jobs: [[String: Any]], in folder: String) throws -> Bool {
        try JSONSerialization.data(withJSONObject: jobs).write(to: URL(fileURLWithPath: folder + "/cases.json"))
        let run = try ReferenceRendererTests.runPython([script, folder + "/cases.json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.status == 0
    }

    /// Whether skia-python can be imported; skips when it cannot, or under CI records a failure and returns false.
    func requireSkia() throws -> Bool {
        let (status, stderr) = try ReferenceRendererTests.runPython(["-c", "import skia"])
        guard status != 0 else { return true }
        let message = "the Skia reference tests need \(ReferenceRendererTests.python) with skia-python (pip install skia-python; "
            + "script/test installs it): \(stderr.split(separator: "\n").last ?? "")"
        if ReferenceRendererTests.inCI { XCTFail(message + " (CI: failing instead of skipping)"); return false }
        throw XCTSkip(message)
    }
}

extension Bitmap {
    /// How many pixels satisfy `test`.
    func pixelCount(where test: (PremultipliedRGBA8) -> Bool) -> Int {
        var n = 0
        for y in 0..<height { for x in 0..<width where test(self[x, y]) { n += 1 } }
        return n
    }
}
