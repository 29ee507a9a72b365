import Dispatch
import RasterCore
import Synchronization
import XCTest

final class BitmapTests: XCTestCase {
    func testInvalidSizesAreRejectedBeforeAllocating() throws {
        let (_, usage) = try MemoryLedger.measure { () -> Void in
            for (w, h) in [(0, 1), (1, 0), (-5, 5), (16385, 1), (1, 16385), (16384, 16385), (Int.max, Int.max)] {
                XCTAssertThrowsError(try Bitmap(width: w, height: h), "\(w)x\(h)")
            }
            XCTAssertThrowsError(try Bitmap(width: 1, height: 1, scale: 0))
            XCTAssertThrowsError(try Bitmap(width: 1, height: 1, scale: .nan))
            XCTAssertThrowsError(try Bitmap(pointSize: Size(width: .infinity, height: 1), scale: 1))
            XCTAssertThrowsError(try Bitmap(pointSize: Size(width: 1e300, height: 1), scale: 1))
            XCTAssertThrowsError(try Bitmap(pointSize: Size(width: -1e308, height: 1), scale: 1e10))
            XCTAssertThrowsError(try Bitmap(pointSize: Size(width: -1e300, height: 1), scale: 1))
        }
        XCTAssertEqual(usage.allocationCount, 0)
        XCTAssertNoThrow(try Bitmap.validate(width: 16384, height: 16384))
        XCTAssertEqual(Bitmap.maxDimension * Bitmap.maxDimension, Bitmap.maxPixelCount)
    }

    func testPointSizeRoundsUpToWholePixels() throws {
        let b = try Bitmap(pointSize: Size(width: 375, height: 667), scale: 2)
        XCTAssertEqual(b.width, 750); XCTAssertEqual(b.height, 1334)
        let c = try Bitmap(pointSize: Size(width: 10.2, height: 3), scale: 1)
        XCTAssertEqual(c.width, 11)
        XCTAssertEqual(b.pointSize, Size(width: 375, height: 667))
    }

    func testPixelAccessFillCropAndCopy() throws {
        var b = try Bitmap(width: 4, height: 3, fill: .white)
        XCTAssertEqual(b[3, 2], .white)
        b[1, 1] = PremultipliedRGBA8(r: 10, g: 20, b: 30, a: 40)
        b.fill(PixelRect(x: 2, y: 0, width: 10, height: 1), with: .black)
        XCTAssertEqual(b[3, 0], .black)
        XCTAssertEqual(b[1, 0], .white)
        let crop = try b.cropped(to: PixelRect(x: 1, y: 1, width: 2, height: 5))
        XCTAssertEqual(crop.width, 2); XCTAssertEqual(crop.height, 2)
        XCTAssertEqual(crop[0, 0], PremultipliedRGBA8(r: 10, g: 20, b: 30, a: 40))
        XCTAssertThrowsError(try b.cropped(to: PixelRect(x: 4, y: 0, width: 1, height: 1)))

        var dst = try Bitmap(width: 3, height: 3)
        dst.copy(from: b, sourceRect: PixelRect(x: 1, y: 1, width: 2, height: 2), to: (-1, 2))
        XCTAssertEqual(dst[0, 2], .white, "source (2, 1) lands at (0, 2); (1, 1) falls off the left edge")
        XCTAssertEqual(dst[0, 0], .clear)
        b.copy(from: b, to: (1, 0))
        XCTAssertEqual(b[2, 1], PremultipliedRGBA8(r: 10, g: 20, b: 30, a: 40), "copying a bitmap onto itself")
    }

    func testUniformPixelIsTheOneValueOrNil() throws {
        let grey = PremultipliedRGBA8(r: 90, g: 90, b: 90, a: 255)
        var bitmap = try Bitmap(width: 7, height: 5, scale: 1, fill: grey)
        XCTAssertEqual(bitmap.uniformPixel, grey)
        XCTAssertEqual(try Bitmap(width: 1, height: 1, scale: 1, fill: .clear).uniformPixel, .clear)
        // One byte off anywhere (first pixel, last pixel, one channel in the middle) is not uniform.
        for (x, y) in [(0, 0), (6, 4), (3, 2)] {
            var other = bitmap
            other[x, y] = PremultipliedRGBA8(r: 90, g: 91, b: 90, a: 255)
            XCTAssertNil(other.uniformPixel, "(\(x), \(y))")
        }
        bitmap[6, 4] = .clear
        XCTAssertNil(bitmap.uniformPixel)
    }

    func testValueSemanticsCopyOnWrite() throws {
        let a = try Bitmap(width: 2, height: 2, fill: .white)
        var b = a
        b[0, 0] = .black
        XCTAssertEqual(a[0, 0], .white)
        XCTAssertNotEqual(a, b)
        b[0, 0] = .white
        XCTAssertEqual(a, b)
        XCTAssertTrue(a.isOpaque)
        b[1, 1] = .clear
        XCTAssertFalse(b.isOpaque)
    }

    func testMemoryLedgerCountsExactBytesAndPeak() throws {
        let (_, usage) = try MemoryLedger.measure {
            let a = try Bitmap(width: 10, height: 10)     // 400 B
            do {
                let b = try Bitmap(width: 20, height: 5)  // 400 B, freed at the end of the scope
                XCTAssertEqual(b.byteCount, 400)
            }
            var c = a                                      // shares storage: no allocation
            c[0, 0] = .black                               // copy on write: 400 B more
            XCTAssertEqual(c.byteCount + a.byteCount, 800)
        }
        XCTAssertEqual(usage.allocationCount, 3)
        XCTAssertEqual(usage.totalAllocatedBytes, 1200)
        XCTAssertEqual(usage.peakBytes, 800)
        XCTAssertEqual(usage.liveBytes, 0)
    }

    func testNestedAndConcurrentLedgersSeeOnlyTheirOwnWork() throws {
        let (kept, outer) = try MemoryLedger.measure("outer") { () throws -> Bitmap in
            let (_, inner) = try MemoryLedger.measure("inner") { _ = try Bitmap(width: 8, height: 8) }
            XCTAssertEqual(inner.peakBytes, 256)
            return try Bitmap(width: 4, height: 4)
        }
        XCTAssertEqual(outer.peakBytes, 256, "the inner bitmap was freed before the kept one was made")
        XCTAssertEqual(outer.liveBytes, 64)
        withExtendedLifetime(kept) {}

        // Two threads measuring at once each see exactly their own allocations.
        let results = Mutex([0, 0])
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let side = i == 0 ? 16 : 32
            let (_, usage) = MemoryLedger.measure {
                for _ in 0..<50 { _ = try? Bitmap(width: side, height: side) }
            }
            results.withLock { $0[i] = usage.peakBytes }
        }
        XCTAssertEqual(results.withLock { $0 }, [16 * 16 * 4, 32 * 32 * 4])
    }

    func testGlobalLedgerReturnsToItsLevel() throws {
        let before = MemoryLedger.global.liveBytes
        do { _ = try Bitmap(width: 100, height: 100) }
        XCTAssertEqual(MemoryLedger.global.liveBytes, before)
    }
}
