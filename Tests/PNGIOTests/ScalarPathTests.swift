import CPNGShim
import RasterCore
import XCTest
@testable import PNGIO

/// The shim's SSSE3 filter and Adler-32 and its SHA-NI SHA-256 against the portable scalar code, on this
/// machine, through the switch that forces the scalar paths: the bytes must be identical.
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

    func digests() -> [[UInt8]] {
        (0..<200).map { n in
            let bytes = (0..<(n * 7 + n % 64)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ n) }
            var digest = [UInt8](repeating: 0, count: 32)
            bytes.withUnsafeBufferPointer { b in digest.withUnsafeMutableBufferPointer { cpng_sha256(b.baseAddress, b.count, $0.baseAddress) } }
            return digest
        }
    }

    func testScalarAndVectorPathsGiveTheSameBytes() throws {
        cpng_force_scalar(0)
        XCTAssertEqual(cpng_scalar_forced(), 0)
        let vector = try encodings(), vectorDigests = digests()
        cpng_force_scalar(1)
        XCTAssertEqual(cpng_scalar_forced(), 1)
        let scalar = try encodings(), scalarDigests = digests()
        XCTAssertEqual(vector, scalar)
        XCTAssertEqual(vectorDigests, scalarDigests)
        // And the digest is SHA-256: the empty string's.
        XCTAssertEqual(scalarDigests[0].map { String(format: "%02x", $0) }.joined(),
                       "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
