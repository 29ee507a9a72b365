import Dispatch
import RasterCore
import Synchronization
import XCTest
import Typesetting

/// Layout and drawing from several threads at once give the same bytes as on one thread.
final class ConcurrencyTests: XCTestCase {
    private static let text = "Threads draw 日本の歴史 at once, «AVA», and get identical pixels。"

    private static func render(size: Double) throws -> Bitmap {
        let style = TextStyle(font: .system(size: size), numberOfLines: 0, lineBreakMode: .byWordWrapping)
        let layout = try TextLayout(text, style: style, width: 110)
        var bitmap = try Bitmap(width: 240, height: 150, scale: 2)
        bitmap.draw { layout.draw(in: $0, at: Point(x: 1.3, y: 0.6)) }
        return bitmap
    }

    func testConcurrentLayoutAndDrawingIsIdenticalToSerial() throws {
        // Several sizes so that threads render different glyphs of the same faces at the same time.
        let sizes = [11.0, 12.5, 14, 17]
        let reference = try sizes.map { try Self.render(size: $0) }
        for _ in 0..<3 {
            TextLayout.removeCachedGlyphs()
            let results = Mutex<[Int: Bitmap]>([:])
            DispatchQueue.concurrentPerform(iterations: 16) { i in
                let bitmap = try? Self.render(size: sizes[i % sizes.count])
                results.withLock { $0[i] = bitmap }
            }
            let all = results.withLock { $0 }
            XCTAssertEqual(all.count, 16)
            for (i, bitmap) in all { XCTAssertTrue(bitmap == reference[i % sizes.count], "thread result \(i) differs") }
        }
    }

    func testCacheStaysWithinItsBound() {
        // A small cache under many sizes: it evicts, never exceeds its limit, and still draws correctly.
        let cache = GlyphCache(byteLimit: 64 * 1024)
        guard let face = try? FontRegistry.shared.face(for: .system(size: 17)) else { return XCTFail("no font") }
        let glyphs = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".unicodeScalars.map { face.glyphIndex(for: $0) }
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            for size in stride(from: 10, through: 40, by: 2) {
                for g in glyphs {
                    let mask = cache.mask(face: face, glyph: g, ppem64: Int32(size * 64), phase: UInt8(t))
                    XCTAssertNotNil(mask)
                }
            }
        }
        let stats = cache.statistics
        XCTAssertLessThanOrEqual(stats.bytes, 64 * 1024)
        XCTAssertGreaterThan(stats.evictions, 0)
        // Evicted and re-rendered masks are identical.
        let a = cache.mask(face: face, glyph: glyphs[0], ppem64: 10 * 64, phase: 0)
        XCTAssertEqual(a?.bytes, face.renderMask(glyph: glyphs[0], scale: 10.0 / Double(face.unitsPerEm), shift: 0)?.bytes)
    }
}
