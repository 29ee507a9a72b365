import FrameStore
import Foundation
import PNGIO
import Previews
import RasterCore
import XCTest

/// The animated previews store only what changes: a frame with the pixels of the one before lengthens
/// that frame, any other frame after the first is the rectangle that changed. Read back by the encoders'
/// own structure (GIF image descriptors, APNG `fcTL` chunks) and by ffmpeg, pixel by pixel.
final class StoredFramesTests: XCTestCase {
    static let red = PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255)
    static let blue = PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255)
    static let white = PremultipliedRGBA8(r: 250, g: 250, b: 250, a: 255)

    var folder = ""
    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("stored-frames-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// A 30x20 px render folder at 10 fps: red; red again (the same file); red with a blue 4x3 px patch at
    /// (10, 5); the same pixels in a file compressed otherwise (so only the pixels tell it repeats);
    /// near-white.
    func renderFolder() throws -> PreviewFrames {
        var red = try Bitmap(width: 30, height: 20, fill: .clear)
        red.fill(Self.red)
        var patched = red
        patched.fill(PixelRect(x: 10, y: 5, width: 4, height: 3), with: Self.blue)
        var white = red
        white.fill(Self.white)
        let frames: [(Bitmap, PNGCompression)] = [(red, .fast), (red, .fast), (patched, .fast), (patched, .small), (white, .fast)]
        var entries: [Manifest.Frame] = []
        for (i, (bitmap, compression)) in frames.enumerated() {
            let file = FrameFileName.name(i)
            try PNGCodec.write(bitmap, to: folder + "/" + file, compression: compression)
            entries.append(Manifest.Frame(file: file, time: Double(i) / 10, sha256: nil))
        }
        let manifest = Manifest(name: "patches", pointSize: [30, 20], scale: 1, fps: 10, compression: "fast", frames: entries, durations: [:], fingerprint: nil)
        try Data(try manifest.encoded()).write(to: URL(fileURLWithPath: folder + "/manifest.json"))
        return try PreviewFrames(folder: folder)
    }

    func testOnlyChangedFramesAndRectanglesAreStored() throws {
        let frames = try renderFolder()
        XCTAssertFalse(try frames.repeatsPrevious(0))
        XCTAssertTrue(try frames.repeatsPrevious(1), "the same bytes")
        XCTAssertFalse(try frames.repeatsPrevious(3), "other bytes: only the pixels say it repeats")
        var drawn: [Int] = []
        let stored = try StoredFrames.walk(frames) { _, index, _ in drawn.append(index) }
        XCTAssertEqual(drawn, [0, 2, 4])
        XCTAssertEqual(stored.frames.map(\.rectangle), [PixelRect(x: 0, y: 0, width: 30, height: 20),
                                                        PixelRect(x: 10, y: 5, width: 4, height: 3),
                                                        PixelRect(x: 0, y: 0, width: 30, height: 20)])
        XCTAssertEqual(stored.durations(of: frames), [0.2, 0.2, 0.1])
    }

    func testChangedRectangleFindsTheCornersOfAChange() throws {
        let a = try Bitmap(width: 9, height: 7, fill: .clear)
        XCTAssertNil(a.changedRectangle(since: a))
        var b = a
        b[8, 6] = Self.red
        XCTAssertEqual(b.changedRectangle(since: a), PixelRect(x: 8, y: 6, width: 1, height: 1))
        b[0, 2] = Self.blue
        XCTAssertEqual(b.changedRectangle(since: a), PixelRect(x: 0, y: 2, width: 9, height: 5))
        var c = a
        c[4, 3] = Self.blue
        c[2, 5] = Self.blue
        XCTAssertEqual(c.changedRectangle(since: a), PixelRect(x: 2, y: 3, width: 3, height: 3))
    }

    func testTheGIFStoresThreeImagesAndPlaysAsTheFrames() throws {
        let frames = try renderFolder()
        let bytes = try AnimatedGIF.encode(frames)
        let images = try Self.gifImages(bytes)
        XCTAssertEqual(images.map(\.rectangle), [PixelRect(x: 0, y: 0, width: 30, height: 20),
                                                 PixelRect(x: 10, y: 5, width: 4, height: 3),
                                                 PixelRect(x: 0, y: 0, width: 30, height: 20)])
        XCTAssertEqual(images.map(\.delay), [20, 20, 10])
        let decoded = try decode(bytes, "a.gif")
        XCTAssertEqual(decoded.count, 3)
        // The patch is drawn over the first image; three flat colours fit the palette exactly.
        XCTAssertEqual(pixel(decoded[1], 11, 6), [0, 0, 255, 255])
        XCTAssertEqual(pixel(decoded[1], 9, 6), [255, 0, 0, 255])
        XCTAssertEqual(pixel(decoded[1], 29, 19), [255, 0, 0, 255])
        XCTAssertEqual(pixel(decoded[2], 11, 6), [250, 250, 250, 255])
    }

    func testTheAPNGStoresThreeFramesAndPlaysAsTheFrames() throws {
        let frames = try renderFolder()
        let bytes = try AnimatedPNG.encode(frames)
        let chunks = try AnimatedPNG.chunks(of: bytes)
        let actl = try XCTUnwrap(chunks.first { $0.type == "acTL" })
        XCTAssertEqual(Self.be32(actl.data, 0), 3)
        let controls = chunks.filter { $0.type == "fcTL" }.map(\.data)
        XCTAssertEqual(controls.map { PixelRect(x: Self.be32($0, 12), y: Self.be32($0, 16), width: Self.be32($0, 4), height: Self.be32($0, 8)) },
                       [PixelRect(x: 0, y: 0, width: 30, height: 20), PixelRect(x: 10, y: 5, width: 4, height: 3),
                        PixelRect(x: 0, y: 0, width: 30, height: 20)])
        XCTAssertEqual(controls.map { Int($0[20]) << 8 | Int($0[21]) }, [200, 200, 100], "milliseconds")
        XCTAssertEqual(controls.map { [$0[24], $0[25]] }, [[0, 0], [0, 0], [0, 0]], "dispose none, blend source")
        let decoded = try decode(bytes, "a.png")
        XCTAssertEqual(decoded.count, 3)
        XCTAssertEqual(pixel(decoded[1], 11, 6), [0, 0, 255, 255])
        XCTAssertEqual(pixel(decoded[1], 9, 6), [255, 0, 0, 255])
        XCTAssertEqual(pixel(decoded[2], 0, 0), [250, 250, 250, 255])
    }

    // MARK: Reading back

    static func be32(_ data: [UInt8], _ offset: Int) -> Int {
        Int(data[offset]) << 24 | Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8 | Int(data[offset + 3])
    }

    /// Each image of a GIF: its rectangle and the delay (hundredths) of the graphic control before it.
    static func gifImages(_ gif: [UInt8]) throws -> [(rectangle: PixelRect, delay: Int)] {
        func le16(_ i: Int) -> Int { Int(gif[i]) | Int(gif[i + 1]) << 8 }
        var i = 13
        if gif[10] & 0x80 != 0 { i += 3 << (Int(gif[10] & 7) + 1) }
        func skipSubBlocks() { while gif[i] != 0 { i += Int(gif[i]) + 1 }; i += 1 }
        var images: [(PixelRect, Int)] = [], delay = 0
        while i < gif.count {
            switch gif[i] {
            case 0x21:
                if gif[i + 1] == 0xF9 { delay = le16(i + 4) }
                i += 2
                skipSubBlocks()
            case 0x2C:
                images.append((PixelRect(x: le16(i + 1), y: le16(i + 3), width: le16(i + 5), height: le16(i + 7)), delay))
                let packed = gif[i + 9]
                i += 10
                if packed & 0x80 != 0 { i += 3 << (Int(packed & 7) + 1) }
                i += 1  // LZW minimum code size
                skipSubBlocks()
            case 0x3B:
                return images
            default:
                throw XCTSkip("not a GIF block at \(i): \(gif[i])")
            }
        }
        XCTFail("no trailer")
        return images
    }

    /// Every frame ffmpeg decodes from `bytes`, as RGBA bytes (skips when ffmpeg is not installed).
    func decode(_ bytes: [UInt8], _ name: String) throws -> [[UInt8]] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            throw XCTSkip("ffmpeg is not installed (Debian: apt-get install ffmpeg); .ci/run installs it")
        }
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-i", path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgba", "-"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = [UInt8](out.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let size = 30 * 20 * 4
        return stride(from: 0, to: data.count, by: size).map { Array(data[$0..<min(data.count, $0 + size)]) }
    }

    func pixel(_ frame: [UInt8], _ x: Int, _ y: Int) -> [UInt8] { Array(frame[(y * 30 + x) * 4..<(y * 30 + x) * 4 + 4]) }
}
