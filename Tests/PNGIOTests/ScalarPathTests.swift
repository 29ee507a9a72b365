import CCPUFeatures
import RasterCore
import XCTest
import PNGIO

/// The fast encoder's SSSE3 filter and Adler-32 against the portable scalar code, on this machine,
/// through CCPUFeatures' switch that forces the scalar paths: the bytes must be identical. (CFastPNGTests
/// checks the same on the C API over many more widths.)
final class ScalarPathTests: XCTestCase {
    override func tearDown() { ccpu_force_scalar(0) }

    func encodings() throws -> [[UInt8]] {
        var outputs: [[UInt8]] = []
        for (i, opaque) in [true, false, true].enumerated() {
            let bitmap = try PNGTest.randomBitmap(width: 37 + 16 * i, height: 11, opaque: opaque, seed: UInt64(10 + i))
            for compression in [PNGCompression.fast, .balanced, .store] {
                let encoder = PNGEncoder(compression: compression)  // a new encoder takes the switch's state
                outputs.append(try encoder.encode(bitmap))
                outputs.append(try encoder.encode(bitmap))           // a repeat: reused stream
            }
        }
        return outputs
    }

    func testScalarAndVectorPathsGiveTheSameBytes() throws {
        ccpu_force_scalar(0)
        XCTAssertEqual(ccpu_scalar_forced(), 0)
        let vector = try encodings()
        ccpu_force_scalar(1)
        XCTAssertEqual(ccpu_scalar_forced(), 1)
        let scalar = try encodings()
        XCTAssertEqual(vector, scalar)
    }
}
