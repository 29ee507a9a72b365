import XCTest
import SmokescreenScenes
import TransitionCompositor

/// `smokescreen memory`'s figures by cause: a render thread's frame and encoder, and the peak of a render
/// on several threads built from them.
final class MemoryReportCausesTests: XCTestCase {
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../assets").standardized.path

    func testPerThreadBytesAreTheFrameAndTheEncoderAndThePeakAddsThemPerThread() throws {
        let report = try MemoryReport.measure(ReferenceTransition()) { RenderSettings(scale: Double($0), fps: 5, assetsDirectory: Self.assets) }
        for s in report.scales {
            XCTAssertEqual(s.perThreadBytes, s.frameBuffer.bytes + s.encoderBytes, "@\(s.scale)x")
            // The encoder holds ISA-L's level buffer (282,624 bytes at level 1) and stream record, zlib's state
            // for the zero runs (2^18 bytes) and one part of filtered rows, but not the filtered frame
            // (opaque: RGB, 1 + 3 × width bytes a row) from @2x up, where the frame is larger.
            XCTAssertGreaterThan(s.encoderBytes, 282_624 + (1 << 18), "@\(s.scale)x")
            if s.scale >= 2 { XCTAssertLessThan(s.encoderBytes, s.frameBuffer.height * (1 + 3 * s.frameBuffer.width), "@\(s.scale)x") }
            XCTAssertEqual(s.renderPeakBytes(jobs: 1), s.peakBytes + s.encoderBytes)
            XCTAssertEqual(s.renderPeakBytes(jobs: 3), s.peakBytes + s.encoderBytes + 2 * s.perThreadBytes)
        }
    }
}
