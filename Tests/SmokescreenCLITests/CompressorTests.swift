import FrameStore
import Foundation
import PNGIO
import XCTest
import SmokescreenCLI

/// The `fast` preset (ISA-L) against `portable` (zlib level 1, the bytes of earlier versions) on a sample
/// of the built-ins at @1x and @2x: the same decoded pixels, frame by frame; and `fast`'s bytes the same
/// for any number of jobs and from one run to the next.
final class CompressorTests: XCTestCase {
    var folders: [String] = []
    override func tearDown() { for f in folders { try? FileManager.default.removeItem(atPath: f) } }

    func render(_ name: String, scale: Int, compression: String, jobs: Int) throws -> (folder: String, manifest: Manifest) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("compressor-\(getpid())-\(UUID().uuidString)").path
        folders.append(out)
        var command = try SmokescreenCommand.parseAsRoot(["render", name, "--scale", "\(scale)", "--fps", "10", "--out", out,
                                                          "--compression", compression, "--jobs", "\(jobs)", "--quiet"])
        try command.run()
        return (out, try XCTUnwrap(try Manifest.read(from: out + "/manifest.json")))
    }

    func testFastAndPortableDecodeToTheSamePixelsAndFastIsTheSameForAnyJobsAndRun() throws {
        let sample = [("reference", 1), ("vesper-timeline-to-detail", 1), ("table-batch-mixed", 1), ("inippon-pages-curl", 1),
                      ("reference", 2), ("inippon-pages-curl", 2)]
        for (name, scale) in sample {
            let what = "\(name) @\(scale)x"
            let fast = try render(name, scale: scale, compression: "fast", jobs: 2)
            let portable = try render(name, scale: scale, compression: "portable", jobs: 1)
            XCTAssertTrue(fast.manifest.compressor?.hasPrefix("isa-l ") ?? false, "\(fast.manifest.compressor ?? "nil")")
            XCTAssertTrue(portable.manifest.compressor?.hasPrefix("zlib ") ?? false, "\(portable.manifest.compressor ?? "nil")")
            XCTAssertEqual(fast.manifest.frames.map(\.file), portable.manifest.frames.map(\.file))
            XCTAssertGreaterThan(fast.manifest.frameCount, 1, what)
            for file in fast.manifest.frames.map(\.file) {
                let a = try PNGCodec.read(contentsOf: fast.folder + "/" + file, scale: Double(scale))
                let b = try PNGCodec.read(contentsOf: portable.folder + "/" + file, scale: Double(scale))
                XCTAssertEqual(a, b, "\(what) \(file): fast and portable decode to different pixels")
            }
            // One machine, any number of jobs, any run: the same bytes.
            let oneJob = try render(name, scale: scale, compression: "fast", jobs: 1)
            XCTAssertEqual(oneJob.manifest.frames.map(\.sha256), fast.manifest.frames.map(\.sha256), "\(what): --jobs 1 and 2")
            let again = try render(name, scale: scale, compression: "fast", jobs: 2)
            XCTAssertEqual(again.manifest.frames.map(\.sha256), fast.manifest.frames.map(\.sha256), "\(what): two runs")
        }
    }
}
