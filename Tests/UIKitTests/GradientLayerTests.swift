import Foundation
import RasterCore
import SmokescreenStage
import XCTest

/// `CAGradientLayer`: axial, radial and conic gradients at the device's pixels, dithered, and their
/// animatable properties.
final class GradientLayerTests: XCTestCase {
    /// A stage showing one gradient layer over the whole of a `width` × `height` screen.
    func gradient(width: CGFloat = 64, height: CGFloat = 16, _ configure: (CAGradientLayer) -> Void) throws -> (Stage, CAGradientLayer) {
        let stage = try makeStage(width: width, height: height)
        let layer = CAGradientLayer()
        layer.frame = CGRect(x: 0, y: 0, width: width, height: height)
        configure(layer)
        stage.window.layer.addSublayer(layer)
        try stage.wait(0.1)
        return (stage, layer)
    }

    func testASlowGradientIsDitheredWithoutBands() throws {
        // Grey 100 to 104 across 256 pixels: undithered, five flat bands; dithered, every 8 × 8 block
        // averages to the exact value at its centre within half a level.
        let (stage, _) = try gradient(width: 256, height: 8) { layer in
            layer.colors = [UIColor(white: 100 / 255, alpha: 1).cgColor, UIColor(white: 104 / 255, alpha: 1).cgColor]
            layer.startPoint = CGPoint(x: 0, y: 0.5)
            layer.endPoint = CGPoint(x: 1, y: 0.5)
        }
        let frame = try stage.bitmap(ofFrame: 1)
        var means: [Double] = []
        for block in 0..<32 {
            var sum = 0.0
            for y in 0..<8 { for x in block * 8..<(block * 8 + 8) { sum += Double(frame.rgba(x, y)[0]) } }
            let mean = sum / 64
            let exact = 100 + 4 * (Double(block * 8) + 4) / 256
            XCTAssertEqual(mean, exact, accuracy: 0.5, "block \(block)")
            means.append(mean)
        }
        XCTAssertGreaterThan(Set(means).count, 20, "the mean rises block by block, not in five steps")
        for x in 0..<256 { XCTAssertTrue((100...104).contains(frame.rgba(x, 3)[0]), "x \(x)") }
    }

    func testFlatStretchesKeepTheirExactColour() throws {
        let (stage, _) = try gradient { layer in
            layer.colors = [UIColor.red.cgColor, UIColor.red.cgColor, UIColor.blue.cgColor]
            layer.locations = [0, 0.5, 0.5]
            layer.startPoint = CGPoint(x: 0, y: 0.5)
            layer.endPoint = CGPoint(x: 1, y: 0.5)
        }
        let frame = try stage.bitmap(ofFrame: 1)
        for x in 0..<32 { XCTAssertEqual(frame.rgba(x, 8), [255, 0, 0, 255], "x \(x)") }
        for x in 32..<64 { XCTAssertEqual(frame.rgba(x, 8), [0, 0, 255, 255], "x \(x)") }
    }

    func testRadialAndConicGradients() throws {
        let (radial, _) = try gradient(width: 40, height: 40) { layer in
            layer.type = .radial
            layer.colors = [UIColor.white.cgColor, UIColor.black.cgColor]
            layer.startPoint = CGPoint(x: 0.5, y: 0.5)
            layer.endPoint = CGPoint(x: 1, y: 1)
        }
        let r = try radial.bitmap(ofFrame: 1)
        XCTAssertGreaterThan(r.rgba(20, 20)[0], 245, "white at the centre")
        XCTAssertEqual(Double(r.rgba(30, 20)[0]), 255 * (1 - 10.5 / 20), accuracy: 2, "half way to the edge along x")
        XCTAssertEqual(r.rgba(0, 0)[0], 0, "black past the ellipse")
        let (conic, _) = try gradient(width: 40, height: 40) { layer in
            layer.type = .conic
            layer.colors = [UIColor.black.cgColor, UIColor.white.cgColor]
            layer.startPoint = CGPoint(x: 0.5, y: 0.5)
            layer.endPoint = CGPoint(x: 1, y: 0.5)
        }
        let c = try conic.bitmap(ofFrame: 1)
        // From the right, clockwise on screen: a quarter round (below the centre) is a quarter of the way.
        XCTAssertEqual(Double(c.rgba(20, 35)[0]), 255 * 0.25, accuracy: 3)
        XCTAssertEqual(Double(c.rgba(5, 20)[0]), 255 * 0.5, accuracy: 3)
        XCTAssertEqual(Double(c.rgba(20, 5)[0]), 255 * 0.75, accuracy: 3)
    }

    func testColoursAnimateExplicitly() throws {
        let (stage, layer) = try gradient { layer in
            layer.colors = [UIColor.red.cgColor, UIColor.red.cgColor]
        }
        let change = CABasicAnimation(keyPath: "colors")
        change.fromValue = [UIColor.red.cgColor, UIColor.red.cgColor]
        change.toValue = [UIColor.blue.cgColor, UIColor.blue.cgColor]
        change.duration = 1
        change.timingFunction = CAMediaTimingFunction(name: .linear)
        layer.colors = [UIColor.blue.cgColor, UIColor.blue.cgColor]
        layer.add(change, forKey: "colors")
        try stage.wait(1.1)
        // Frame 6 is 0.5 s in: half red, half blue (dithered within a level).
        let middle = try stage.bitmap(ofFrame: 6).rgba(30, 8)
        XCTAssertEqual(Double(middle[0]), 127.5, accuracy: 1)
        XCTAssertEqual(Double(middle[2]), 127.5, accuracy: 1)
        XCTAssertEqual(try stage.bitmap(ofFrame: 12).rgba(30, 8), [0, 0, 255, 255])
    }

    func testLocationsAndPointsAnimateImplicitlyOnAStandaloneLayer() throws {
        let (stage, layer) = try gradient { layer in
            layer.colors = [UIColor.red.cgColor, UIColor.red.cgColor, UIColor.blue.cgColor, UIColor.blue.cgColor]
            layer.locations = [0, 0.25, 0.25, 1]
            layer.startPoint = CGPoint(x: 0, y: 0.5)
            layer.endPoint = CGPoint(x: 1, y: 0.5)
        }
        layer.locations = [0, 0.75, 0.75, 1]
        try stage.wait(0.5)
        let start = try stage.bitmap(ofFrame: 1), during = try stage.bitmap(ofFrame: 2), end = try stage.bitmap(ofFrame: 5)
        XCTAssertEqual(start.rgba(30, 8), [0, 0, 255, 255], "blue from a quarter before the change")
        XCTAssertEqual(end.rgba(30, 8), [255, 0, 0, 255], "red to three quarters after it")
        let edge = (0..<64).first { during.rgba($0, 8) != [255, 0, 0, 255] } ?? 64
        XCTAssertTrue((17..<48).contains(edge), "the hard stop is on its way: \(edge)")
        XCTAssertTrue(stage.notDrawn.isEmpty, "\(stage.notDrawn)")
    }
}
