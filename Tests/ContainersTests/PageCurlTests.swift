import Foundation
import RasterCore
import SnapshotView
import XCTest
@testable import Containers

/// The page curl: its geometry exactly, and its pixels where the geometry says they are.
final class PageCurlTests: XCTestCase {
    let size = Size(width: 100, height: 120)

    /// A page of one colour curled at `progress` over a background of another, drawn at `scale`.
    func curl(_ progress: Double, page color: Color = Color(red8: 200, green8: 30, blue8: 30), angle: Double = 0, scale: Double = 1,
              background: Color = Color(red8: 0, green8: 0, blue8: 255)) throws -> (Bitmap, PageCurlGeometry) {
        let page = try Bitmap(pointSize: size, scale: scale, fill: color.premultiplied)
        let geometry = PageCurlGeometry(progress: progress, pageSize: size, angle: angle)
        var canvas = try Bitmap(pointSize: size, scale: scale, fill: background.premultiplied)
        let painter = Painter(bitmap: canvas)
        painter.scale(x: scale, y: scale)
        PageCurlDrawing(page: page, geometry: geometry).draw(in: painter, bounds: Rect(origin: .zero, size: size))
        canvas = painter.finish()
        if let dump = ProcessInfo.processInfo.environment["CURL_DUMP"] {
            try? Data(canvas.withUnsafeBytes { Array($0) }).write(to: URL(fileURLWithPath: "\(dump)-\(progress)-\(angle)-\(Int(canvas.width))x\(Int(canvas.height)).rgba"))
        }
        return (canvas, geometry)
    }

    func testDump() throws {
        _ = try curl(0.3)
        _ = try curl(0.5, angle: 0.3)
    }
}
