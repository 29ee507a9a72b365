import FrameDiff
import RasterCore
import XCTest

/// Fails the test unless `frames` match the golden set `name` beside the test file:
/// `__Snapshots__/<TestFileNameWithoutExtension>/<name>/frame_0000.png …`.
///
/// Missing goldens are recorded as `SMOKESCREEN_RECORD` says (`missing`, the default: record a set that
/// does not exist; `all`: re-record; `never`: fail), and a run that records fails too, saying so. On a
/// mismatch the failure names each failing frame with its differing pixel count and bounding box, the
/// missing and extra frames, and the folder holding expected, actual and diff images and `sheet.png`
/// (`$TMPDIR/smokescreen-failures/<TestFile>/<name>/`, or under `SMOKESCREEN_FAILURES_DIR`).
/// - Parameters:
///   - frames: the frames, named `frame_0000.png`, `frame_0001.png`, … in order.
///   - name: the golden set's folder name (no `/`, not starting with `.`).
///   - comparison: how frames are compared; default exact.
public func assertFrames(_ frames: [Bitmap], matchGoldenNamed name: String, comparison: FrameComparison = .exact,
                         file: StaticString = #filePath, line: UInt = #line) {
    assertFrames(NamedFrame.numbered(frames), matchGoldenNamed: name, comparison: comparison, file: file, line: line)
}

/// Fails the test unless the named frames match the golden set `name`; each frame's golden is
/// `<frame name>.png` (see `assertFrames(_:matchGoldenNamed:comparison:file:line:)` for bitmaps).
public func assertFrames(_ frames: [NamedFrame], matchGoldenNamed name: String, comparison: FrameComparison = .exact,
                         file: StaticString = #filePath, line: UInt = #line) {
    if let message = GoldenFrames.check(frames, name: name, testFile: "\(file)", comparison: comparison) {
        XCTFail(message, file: file, line: line)
    }
}

/// Fails the test unless `bitmap` matches the one-frame golden set `name`
/// (`__Snapshots__/<TestFile>/<name>/frame_0000.png`); see `assertFrames(_:matchGoldenNamed:comparison:file:line:)` for bitmaps.
public func assertSnapshot(of bitmap: Bitmap, named name: String, comparison: FrameComparison = .exact,
                           file: StaticString = #filePath, line: UInt = #line) {
    assertFrames([bitmap], matchGoldenNamed: name, comparison: comparison, file: file, line: line)
}

extension GoldenFrames {
    /// The whole check for a test file: locations and record mode from the environment, then
    /// ``verify(_:)``. Returns the failure message, or `nil`.
    public static func check(_ frames: [NamedFrame], name: String, testFile: String, comparison: FrameComparison,
                             environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        do throws(GoldenSetupError) {
            return try forTestFile(testFile, name: name, comparison: comparison, environment: environment).verify(frames)
        } catch {
            return "'\(name)': \(error)"
        }
    }
}
