import Foundation
import PNGIO
import RasterCore
import XCTest

/// Writes `bytes` to a fresh file in a per-test temporary directory (removed at the end of the test)
/// and returns its path.
func temporaryFile(named name: String, bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("TypesettingTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
}

enum FileManagerless {
    /// The first `limit` bytes of a file.
    static func read(_ path: String, limit: Int) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return Array(data.prefix(limit))
    }
}

/// The smallest rectangle holding every pixel with non-zero alpha, or nil when there is none.
func inkBox(_ bitmap: Bitmap) -> PixelRect? {
    var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
    bitmap.withUnsafePixels { px in
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where px[y * bitmap.width + x] >> 24 != 0 {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
    }
    return minX > maxX ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
}

/// The smallest rectangle holding every pixel that differs from `background`.
func inkBox(_ bitmap: Bitmap, over background: PremultipliedRGBA8) -> PixelRect? {
    var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
    for y in 0..<bitmap.height {
        for x in 0..<bitmap.width where bitmap[x, y] != background {
            minX = min(minX, x); maxX = max(maxX, x)
            minY = min(minY, y); maxY = max(maxY, y)
        }
    }
    return minX > maxX ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
}

/// The sum of all alpha values, in 1/255 units.
func alphaSum(_ bitmap: Bitmap) -> Int {
    bitmap.withUnsafePixels { $0.reduce(0) { $0 + Int($1 >> 24) } }
}

let opaqueWhite = PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255)

