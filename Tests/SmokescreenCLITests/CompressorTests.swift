import FrameStore
import Foundation
import PNGIO
import XCTest
@testable import SmokescreenCLI

/// The `fast` preset (ISA-L) against `portable` (zlib level 1, the bytes of earlier versions) on a sample
/// of the built-ins: different bytes, the same decoded pixels, frame by frame; and `fast`'s bytes the same
/// for any number of jobs.
final class CompressorTests: XCTestCase {
    var folders: [String] = []
    override func tearDown() { for f in folders { try? FileManager.default.removeItem(atPath: f) } }

    func render(_ name: String, compression: String, jobs: Int) throws -> (folder: String, manifest: Manifest) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("compressor-\(getpid())-\(UUID().uuidString)").path
        folders.append(out)
        var command = try SmokescreenCommand.parseAsRoot(["render", name, "--scale", "1", "--fps", "10", "--out", out,
                                                          "--compression", compression, "--jobs", "\(jobs)", "--quiet"])
        try command.run()
        return (out, try XCTUnwrap(try Manifest.read(from: out + "/manifest.json")))
    }

    func testFastAndPortableDecodeToTheSamePixelsOnASampleOfBuiltIns() throws {
        for name in ["reference", "vesper-timeline-to-detail", "table-batch-mixed", "inippon-pages-curl"] {
            let fast = try render(name, compression: "fast", jobs: 2)
            let portable = try render(name, compression: "portable", jobs: 1)
            XCTAssertTrue(fast.manifest.compressor?.hasPrefix("isa-l ") ?? false, "\(fast.manifest.compressor ?? "nil")")
            XCTAssertTrue(portable.manifest.compressor?.hasPrefix("zlib ") ?? false, "\(portable.manifest.compressor ?? "nil")")
            XCTAssertEqual(fast.manifest.frames.map(\.file), portable.manifest.frames.map(\.file))
            XCTAssertGreaterThan(fast.manifest.frameCount, 1, name)
            for file in fast.manifest.frames.map(\.file) {
                let a = try PNGCodec.read(contentsOf: fast.folder + "/" + file, scale: 1)
                let b = try PNGCodec.read(contentsOf: portable.folder + "/" + file, scale: 1)
                XCTAssertEqual(a, b, "\(name) \(file): fast and portable decode to different pixels")
            }
            // One machine, any number of jobs: the same bytes.
            let oneJob = try render(name, compression: "fast", jobs: 1)
            XCTAssertEqual(oneJob.manifest.frames.map(\.sha256), fast.manifest.frames.map(\.sha256), name)
        }
    }
}
