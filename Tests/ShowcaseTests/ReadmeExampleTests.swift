import PNGIO
import RasterCore
import XCTest

/// The README's drawing example, verbatim but for paths, so that the README stays true.
final class ReadmeExampleTests: XCTestCase {
    func testDrawingExample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("readme-example-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: output) }

        let thumbnail = try PNGCodec.read(contentsOf: root.appendingPathComponent("assets/reference/thumb_200.png").path)
        var frame = try Bitmap(pointSize: Size(width: 375, height: 667), scale: 2)   // 750x1334 pixels
        frame.draw { p in                                       // user space is in points
            p.fill(Rect(x: 0, y: 0, width: 375, height: 667), color: .white)
            p.fill(Rect(x: 0, y: 0, width: 375, height: 64), color: Color(hex: 0x007AFF))
            p.withSavedState {
                p.clip(to: Path(roundedRect: Rect(x: 16, y: 80, width: 44, height: 44), cornerRadius: 8))
                p.draw(thumbnail, in: Rect(x: 16, y: 80, width: 44, height: 44))
            }
            p.withLayer(opacity: 0.5) {                         // group opacity: composited once
                p.fill(roundedRect: Rect(x: 80, y: 80, width: 100, height: 44), cornerRadii: CornerRadii(all: 6), color: .black)
                p.strokeBorder(of: Rect(x: 80, y: 80, width: 100, height: 44), width: 1, cornerRadii: CornerRadii(all: 6), color: .white)
            }
        }
        try PNGCodec.write(frame, to: output)                   // RGB when opaque, RGBA otherwise

        let (back, header) = try PNGCodec.readWithHeader(contentsOf: output, scale: 2)
        XCTAssertEqual(header.colorType, .rgb)
        XCTAssertEqual(back, frame)
        XCTAssertEqual(frame[300, 60], Color(hex: 0x007AFF).premultiplied)
        XCTAssertEqual(frame[200, 200], PremultipliedRGBA8(r: 127, g: 127, b: 127, a: 255), "black at opacity 128 over white: 255·127/255")
        XCTAssertEqual(frame[161, 161], PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255), "white border at 50% over white")
    }
}
