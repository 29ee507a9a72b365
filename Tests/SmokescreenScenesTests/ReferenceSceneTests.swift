import PNGIO
import RasterCore
import SmokescreenScenes
import XCTest

/// The reference scene at @1x (debug builds are slow): known pixels of the first and last frames.
final class ReferenceSceneTests: XCTestCase {
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("assets").path

    /// A colour seen through the smokescreen (black at alpha 77): each channel times 178/255, rounded.
    private func underSmokescreen(_ r: Double, _ g: Double, _ b: Double) -> PremultipliedRGBA8 {
        func ch(_ c: Double) -> UInt8 { UInt8((c * 178 / 255).rounded()) }
        return PremultipliedRGBA8(r: ch(r), g: ch(g), b: ch(b), a: 255)
    }

    func testProgressFollowsEaseInEaseOut() {
        XCTAssertEqual(ReferenceScene.progress(frame: 0), 0)
        XCTAssertEqual(ReferenceScene.progress(frame: 29), 1)
        XCTAssertLessThan(ReferenceScene.progress(frame: 3), 3.0 / 29, "eases in")
    }

    func testFirstFrame() throws {
        let scene = try ReferenceScene(assetsDirectory: Self.assets)
        XCTAssertEqual(scene.thumbnail.width, 200)
        let frame = try scene.render(frame: 0, scale: 1)
        XCTAssertEqual(frame.width, 375); XCTAssertEqual(frame.height, 667)
        XCTAssertTrue(frame.isOpaque)
        XCTAssertEqual(frame[200, 20], underSmokescreen(0, 122, 255), "navigation bar")
        XCTAssertEqual(frame[200, 100], underSmokescreen(255, 255, 255), "row 0 background")
        XCTAssertEqual(frame[200, 123], underSmokescreen(198, 198, 200), "row 0 separator")
        XCTAssertEqual(frame[10, 123], underSmokescreen(255, 255, 255), "separators start at x = 16")
        XCTAssertEqual(frame[200, 270], underSmokescreen(209, 209, 214), "the selected row's highlight")
        XCTAssertEqual(frame[16, 72], underSmokescreen(255, 255, 255), "thumbnail corners are rounded off")
        XCTAssertNotEqual(frame[38, 94], underSmokescreen(255, 255, 255), "thumbnail centre shows the image")
    }

    func testLastFrameShowsOnlyTheGrownSelection() throws {
        let scene = try ReferenceScene(assetsDirectory: Self.assets)
        let frame = try scene.render(frame: 29, scale: 1)
        XCTAssertEqual(frame[200, 300], underSmokescreen(209, 209, 214))
        XCTAssertEqual(frame[200, 123], underSmokescreen(209, 209, 214), "faded rows are not drawn at p = 1")
        XCTAssertEqual(frame[200, 666], underSmokescreen(198, 198, 200), "separator at the table's bottom")
        XCTAssertNotEqual(frame[38, 94], underSmokescreen(209, 209, 214), "thumbnail at (16, 8) of the table")
    }

    func testRenderingIsDeterministic() throws {
        let scene = try ReferenceScene(assetsDirectory: Self.assets)
        XCTAssertEqual(try scene.render(frame: 11, scale: 1), try scene.render(frame: 11, scale: 1))
    }
}

/// The benchmark as a library: what `smokescreen bench` prints comes from these values (figures are
/// timings, so only their shape is checked here; speed lives in the benchmark, not in tests).
final class ReferenceBenchmarkTests: XCTestCase {
    func testOneRunAtOneXMeasuresEveryPart() throws {
        let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("assets").path
        var told: [String] = []
        let bench = try ReferenceBenchmark(assetsDirectory: assets, runs: 1, scale: 1, jobs: 2, progress: { told.append($0) })
        let pipeline = try bench.pipeline()
        XCTAssertEqual(pipeline.frames, 30)
        XCTAssertGreaterThan(pipeline.bytes, 0)
        let drawing = try bench.drawing()
        XCTAssertEqual([drawing.width, drawing.height], [375, 667])
        XCTAssertLessThanOrEqual(drawing.minSeconds, drawing.medianSeconds)
        XCTAssertEqual(try bench.viewTree().views, 71)
        let encodings = try bench.encodings(sweep: false)
        XCTAssertEqual(encodings.map(\.name), ["libpng-default", "fast", "portable", "small", "balanced", "store"])
        XCTAssertEqual(encodings[0].relativeToLibpngDefaults, 1)
        XCTAssertEqual(told.count, 4, "progress before each part: \(told)")
    }
}
