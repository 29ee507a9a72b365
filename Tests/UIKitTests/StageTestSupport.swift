import RasterCore
import SmokescreenStage
import XCTest

/// A small device for tests: `width` × `height` points at @1x, no safe area.
func testDevice(width: CGFloat = 40, height: CGFloat = 30) -> Device {
    Device(name: "test", size: CGSize(width: width, height: height), scale: 1)
}

/// A stage on a small device at 10 frames a second (so frame k is at k/10 s), @1x.
func makeStage(width: CGFloat = 40, height: CGFloat = 30, fps: Double = 10, appearance: UIUserInterfaceStyle = .light,
               imageFolders: [String] = []) throws -> Stage {
    try Stage(device: testDevice(width: width, height: height), fps: fps, appearance: appearance, imageFolders: imageFolders)
}

extension Stage {
    /// Frame `index` drawn, as a bitmap.
    func bitmap(ofFrame index: Int) throws -> Bitmap {
        let sequence = frames()
        var canvas = try sequence.makeCanvas()
        sequence.draw(frame: index, into: &canvas)
        return canvas
    }
}

extension Bitmap {
    /// The straight (not premultiplied) RGBA bytes of the pixel at `x`, `y`.
    func rgba(_ x: Int, _ y: Int) -> [UInt8] {
        let p = self[x, y].unpremultiplied
        return [p.r, p.g, p.b, p.a]
    }
}
