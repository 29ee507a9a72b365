import FrameStore
import Foundation
import PNGIO
import Previews
import RasterCore
import SnapshotView
import TransitionCompositor
import XCTest

/// Previews read back by independent readers (ffprobe and ffmpeg, from Debian's ffmpeg, which `.ci/run`
/// installs).
final class PreviewTests: XCTestCase {
    static let colors: [Color] = [Color(red8: 255, green8: 0, blue8: 0), Color(red8: 0, green8: 160, blue8: 0),
                                  Color(red8: 0, green8: 0, blue8: 255), Color(red8: 250, green8: 250, blue8: 250)]

    /// Four 30x20 px frames of solid red, green, blue, near-white at 0, 0.1, 0.25, 0.3 s (10 fps).
    static func frames() throws -> PreviewFrames {
        let view = View(frame: Rect(x: 0, y: 0, width: 30, height: 20), name: "swatch")
        let nodes = colors.map { color -> RenderNode in
            view.backgroundColor = color
            return view.renderNode()!
        }
        let sequence = FrameSequence(name: "swatches", pointSize: Size(width: 30, height: 20), scale: 1, fps: 10,
                                     times: [0, 0.1, 0.25, 0.3], nodes: nodes, durations: [:])
        var rendered = RenderedTransition(sequence: sequence, bitmaps: [], initialTree: "",
                                          timeline: [TimelineEntry(label: "fade", start: 0, end: 0.3, timing: "linear", properties: [])])
        rendered.inspection = nil
        return try PreviewFrames(rendered: rendered)
    }

    var folder = ""
    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("previews-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    func tool(_ name: String) throws -> String {
        for dir in ["/usr/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") { return "\(dir)/\(name)" }
        throw XCTSkip("\(name) is not installed (Debian: apt-get install ffmpeg); .ci/run installs it")
    }

    func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments)")
        return data
    }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = "\(folder)/\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Frame durations (seconds) as ffprobe reads them.
    func durations(_ path: String) throws -> [Double] {
        let text = String(decoding: try run(try tool("ffprobe"), ["-v", "error", "-show_entries", "packet=duration_time", "-of", "csv=p=0", path]), as: UTF8.self)
        return text.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Every frame decoded by ffmpeg, as RGBA bytes.
    func decoded(_ path: String, width: Int, height: Int) throws -> [[UInt8]] {
        let data = [UInt8](try run(try tool("ffmpeg"), ["-v", "error", "-i", path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgba", "-"]))
        let size = width * height * 4
        return stride(from: 0, to: data.count, by: size).map { Array(data[$0..<min(data.count, $0 + size)]) }
    }

    func testAnimatedPNGReadsBackWithItsFramesDelaysAndPixels() throws {
        let frames = try Self.frames()
        let bytes = try AnimatedPNG.encode(frames)
        XCTAssertEqual(bytes, try AnimatedPNG.encode(frames), "deterministic")
        let path = try write(bytes, "a.png")
        let probe = String(decoding: try run(try tool("ffprobe"), ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", path]), as: UTF8.self)
        XCTAssertEqual(probe.trimmingCharacters(in: .whitespacesAndNewlines), "apng")
        let delays = try durations(path)
        XCTAssertEqual(delays.count, 4)
        for (d, expected) in zip(delays, [0.1, 0.15, 0.05, 0.1]) { XCTAssertEqual(d, expected, accuracy: 1e-6) }
        let pixels = try decoded(path, width: 30, height: 20)
        XCTAssertEqual(pixels.count, 4)
        XCTAssertEqual(Array(pixels[0].prefix(4)), [255, 0, 0, 255])
        XCTAssertEqual(Array(pixels[3].suffix(4)), [250, 250, 250, 255])
        // A reader without APNG support shows the first frame: it is an ordinary PNG too.
        let still = try PNGCodec.decode(bytes)
        XCTAssertEqual(still[0, 0], PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
    }

    func testGIFReadsBackWithItsFramesDelaysAndPixels() throws {
        let frames = try Self.frames()
        let bytes = try AnimatedGIF.encode(frames)
        XCTAssertEqual(bytes, try AnimatedGIF.encode(frames), "deterministic")
        XCTAssertEqual(Array(bytes.prefix(6)), Array("GIF89a".utf8))
        let path = try write(bytes, "a.gif")
        let delays = try durations(path)
        XCTAssertEqual(delays.count, 4)
        for (d, expected) in zip(delays, [0.1, 0.15, 0.05, 0.1]) { XCTAssertEqual(d, expected, accuracy: 1e-6) }
        let pixels = try decoded(path, width: 30, height: 20)
        XCTAssertEqual(pixels.count, 4)
        // Four flat colours fit the palette exactly.
        XCTAssertEqual(Array(pixels[0].prefix(4)), [255, 0, 0, 255])
        XCTAssertEqual(Array(pixels[2].prefix(4)), [0, 0, 255, 255])
        XCTAssertEqual(Array(pixels[3].suffix(4)), [250, 250, 250, 255])
    }

    func testGIFDelaysKeepTheTotalAndAreAtLeastTwoHundredths() {
        // 60 fps: 1.67 cs each would round to 2, 2, 1, …; the running total keeps them honest, the floor
        // of 2 keeps browsers from slowing them to 10.
        XCTAssertEqual(AnimatedGIF.centiseconds([0.1, 0.15, 0.05]), [10, 15, 5])
        XCTAssertEqual(AnimatedGIF.centiseconds(Array(repeating: 1.0 / 60, count: 6)), [2, 2, 2, 2, 2, 2])
        XCTAssertEqual(AnimatedGIF.centiseconds([0.034, 0.033, 0.033]), [3, 4, 3])
    }

    func testMP4WhenFFmpegIsInstalled() throws {
        _ = try tool("ffmpeg")
        let frames = try Self.frames()
        let path = "\(folder)/a.mp4"
        try Video.writeMP4(frames, to: path)
        let first = try Data(contentsOf: URL(fileURLWithPath: path))
        try Video.writeMP4(frames, to: path)
        XCTAssertEqual(first, try Data(contentsOf: URL(fileURLWithPath: path)), "deterministic")
        let probe = String(decoding: try run(try tool("ffprobe"), ["-v", "error", "-count_frames", "-show_entries",
                                                                   "stream=codec_name,pix_fmt,width,height,nb_read_frames", "-of", "csv=p=0", path]), as: UTF8.self)
        XCTAssertEqual(probe.trimmingCharacters(in: .whitespacesAndNewlines), "h264,30,20,yuv420p,4")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["a.mp4"], "no temporary file left")
    }

    func testWithoutFFmpegTheMP4IsAClearError() throws {
        XCTAssertNil(Video.ffmpegPath(environment: ["PATH": "/nonexistent"]))
        XCTAssertThrowsError(try Video.writeMP4(try Self.frames(), to: "\(folder)/a.mp4", environment: ["PATH": "/nonexistent"])) { error in
            XCTAssertTrue("\(error)".contains("MP4 needs the ffmpeg executable, which is not installed (Debian: apt-get install ffmpeg)"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "nothing written")
    }

    func testTheContactSheetChoosesEveryNthFrameAndTheLast() throws {
        var layout = ContactSheet.Layout()
        XCTAssertEqual(layout.columns, 6)
        let chosen = ContactSheet.chosenFrames(count: 100, layout: layout)
        XCTAssertEqual(chosen, Array(stride(from: 0, to: 100, by: 5)) + [99])
        XCTAssertEqual(ContactSheet.chosenFrames(count: 5, layout: layout), [0, 1, 2, 3, 4])
        layout.width = 400
        layout.tileWidth = 80
        layout.rows = 1
        XCTAssertEqual(layout.columns, 4)
        XCTAssertEqual(ContactSheet.chosenFrames(count: 10, layout: layout), [0, 3, 6, 9])
    }

    func testTheContactSheetLaysOutTilesLabelsAndTheTimeline() throws {
        var layout = ContactSheet.Layout()
        layout.width = 400
        layout.tileWidth = 80
        let sheet = try ContactSheet.make(try Self.frames(), layout: layout)
        // One row of four 80x53 tiles under a 30-px title, labels under them, one timeline bar.
        XCTAssertEqual(sheet.width, 400)
        let expectedHeight: Double = 30 + 12 + (53 + 18 + 12) + 20 + 24 + 14
        XCTAssertEqual(sheet.height, Int(expectedHeight.rounded(.up)))
        // Inside each tile, its frame's colour (downscaled flat colour stays exact).
        for (i, color) in Self.colors.enumerated() {
            let x = 12 + i * 92 + 40, y = 30 + 12 + 26
            XCTAssertEqual(sheet[x, y], color.premultiplied, "tile \(i)")
        }
        // Ink under the first tile (its label) and the timeline bar's blue across the strip.
        let labelRow = (0..<80).map { sheet[12 + $0, 30 + 12 + 53 + 9] }
        XCTAssertTrue(labelRow.contains { $0.r < 120 }, "a label under the tile")
        let barY = 30 + 12 + 53 + 18 + 12 + 8
        XCTAssertEqual(sheet[388 - 20, barY], Color(red8: 0x4A, green8: 0x90, blue8: 0xD9).premultiplied)
    }

    func testARenderFolderIsReadThroughItsManifestAndBadFoldersAreNamed() throws {
        XCTAssertThrowsError(try PreviewFrames(folder: folder)) { error in
            XCTAssertTrue("\(error)".contains("not a render folder: it has no manifest.json"), "\(error)")
            XCTAssertEqual((error as? PreviewError)?.exitStatus, 65)
        }
        let frames = try Self.frames()
        let sequence = FrameSequence(name: "swatches", pointSize: Size(width: 30, height: 20), scale: 1, fps: 10, times: frames.times,
                                     nodes: try (0..<4).map { i in
                                         let v = View(frame: Rect(x: 0, y: 0, width: 30, height: 20))
                                         v.backgroundColor = Self.colors[i]
                                         return try XCTUnwrap(v.renderNode())
                                     }, durations: [:])
        _ = try FrameWriter(directory: folder + "/render", compression: .fast, jobs: 1).write(sequence)
        let read = try PreviewFrames(folder: folder + "/render")
        XCTAssertEqual(read.times, [0, 0.1, 0.25, 0.3])
        XCTAssertEqual(try read.frame(2)[5, 5], PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255))
        XCTAssertEqual(try AnimatedPNG.encode(read), try AnimatedPNG.encode(frames), "the same frames from a folder give the same bytes")
    }
}
