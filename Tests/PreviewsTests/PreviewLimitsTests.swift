import BoundedInput
import FrameStore
import Foundation
import PNGIO
import Previews
import RasterCore
import SnapshotView
import TransitionCompositor
import XCTest

/// Issue 32 in Previews: delays of any size never trap (D14), the contact sheet's size is checked before
/// any tile (D10), a render folder's manifest name is checked before it names a folder (D8), and a frame
/// that is not a regular file is refused with 66 (D20).
final class PreviewLimitsTests: XCTestCase {
    var folder = ""
    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("preview-limits-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// A render folder of two 4x3 px frames with `times` and `fps` in its manifest, named `name`.
    func renderFolder(name: String = "tiny", fps: Double = 10, times: [Double] = [0, 0.1]) throws -> String {
        var frames: [Manifest.Frame] = []
        for (i, time) in times.enumerated() {
            let file = FrameFileName.name(i)
            try PNGCodec.write(try Bitmap(width: 4, height: 3, fill: .white), to: folder + "/" + file)
            frames.append(Manifest.Frame(file: file, time: time, sha256: nil))
        }
        let manifest = Manifest(name: name, pointSize: [4, 3], scale: 1, fps: fps, compression: "fast", frames: frames, durations: [:], fingerprint: nil)
        try Data(try manifest.encoded()).write(to: URL(fileURLWithPath: folder + "/manifest.json"))
        return folder
    }

    // MARK: D14

    func testDelaysOfAnySizeNeverTrap() throws {
        let delays = AnimatedGIF.centiseconds([1e300, .infinity, -5, .nan, 0.5])
        XCTAssertEqual(delays.first, 65535, "GIF's longest delay")
        XCTAssertTrue(delays.allSatisfy { (2...65535).contains($0) }, "\(delays)")
        // The longest delay the manifest limits allow: one frame interval at the lowest frame rate.
        let frames = try PreviewFrames(folder: try renderFolder(fps: Limits.minFPS, times: [0, 600]))
        XCTAssertEqual(frames.displayDurations.last, 1 / Limits.minFPS)
        XCTAssertNoThrow(try AnimatedPNG.encode(frames))
        XCTAssertNoThrow(try AnimatedGIF.encode(frames))
    }

    // MARK: D10

    func testTheSheetsSizeIsCheckedBeforeAnyTile() throws {
        let frames = try PreviewFrames(folder: try renderFolder(times: Array(stride(from: 0.0, to: 20, by: 0.1))))
        var layout = ContactSheet.Layout()
        layout.width = 8000
        layout.tileWidth = 2000
        layout.rows = 50
        XCTAssertThrowsError(try ContactSheet.checkSize(of: frames, layout: layout)) { error in
            XCTAssertEqual((error as? PreviewError)?.exitStatus, 64)
            XCTAssertTrue("\(error)".contains("the contact sheet would be 8000x"), "\(error)")
        }
        XCTAssertThrowsError(try ContactSheet.make(frames, layout: layout))
        XCTAssertNoThrow(try ContactSheet.checkSize(of: frames))
        XCTAssertEqual(ContactSheet.size(of: frames).width, 1200)
        XCTAssertEqual(try ContactSheet.make(frames).height, ContactSheet.size(of: frames).height)
    }

    // MARK: D8

    func testAManifestNameThatIsNotANameIsRefused() throws {
        XCTAssertThrowsError(try PreviewFrames(folder: try renderFolder(name: "../../elsewhere"))) { error in
            XCTAssertEqual((error as? any ExitStatusError)?.exitStatus, 65)
            XCTAssertEqual("\(error)", "\(folder)/manifest.json: name: '../../elsewhere' is not a name: only ASCII letters, digits, - and _ (it names a folder)")
        }
        XCTAssertEqual(try PreviewFrames(folder: try renderFolder(name: "ok-name_2")).name, "ok-name_2")
    }

    // MARK: D20

    func testAFIFOFrameIsRefusedWith66() throws {
        let frames = try PreviewFrames(folder: try renderFolder(times: [0, 0.1, 0.2]))
        try FileManager.default.removeItem(atPath: folder + "/frame_0001.png")
        XCTAssertEqual(mkfifo(folder + "/frame_0001.png", 0o644), 0)
        XCTAssertThrowsError(try frames.frame(1)) { error in
            XCTAssertEqual((error as? any ExitStatusError)?.exitStatus, 66, "\(error)")
        }
    }
}
