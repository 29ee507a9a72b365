import CPNGShim
import RasterCore
import XCTest
@testable import PNGIO

/// The shim's SSSE3 filter and Adler-32 against the portable scalar code, on this machine, through the
/// switch that forces the scalar paths: the bytes must be identical.
final class ScalarPathTests: XCTestCase {
    override func tearDown() { cpng_force_scalar(0) }

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
        cpng_force_scalar(0)
        XCTAssertEqual(cpng_scalar_forced(), 0)
        let vector = try encodings()
        cpng_force_scalar(1)
        XCTAssertEqual(cpng_scalar_forced(), 1)
        let scalar = try encodings()
        XCTAssertEqual(vector, scalar)
    }
}
