import FrameDiff
import RasterCore
import TransitionCompositor
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
///   - file: the test file (default: the caller's); goldens are found beside it.
///   - line: the line failures are reported at (default: the caller's).
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

/// Fails the test unless every frame of `transition`, rendered with `settings`, matches the golden set
/// `name` beside the test file: `__Snapshots__/<TestFileNameWithoutExtension>/<name>/frame_0000.png …`,
/// the frames named as `smokescreen render` names its files.
///
/// Recording, failure messages and artifacts are those of `assertFrames(_:matchGoldenNamed:comparison:file:line:)`:
/// a mismatch names each failing frame with its differing pixel count and bounding box, and the frames
/// that are missing (the transition got shorter) or extra (it got longer). A render that throws fails
/// the test with the error. Frames are drawn one at a time, so a long transition is never all in memory.
///
/// Goldens are PNG files of `width × scale` by `height × scale` pixels for each of the transition's
/// frames: keep them small with `scale: 1` and a low frame rate (`fps: 10` samples every 0.1 s, plus a
/// last frame at the exact end).
/// - Parameters:
///   - transition: the transition to render, e.g. a `SmokescreenScenes` built-in.
///   - settings: scale (pixels per point), frames per second (nil: the transition's default), assets
///     folder, durations file and hold frames.
///   - name: the golden set's folder name (no `/`, not starting with `.`).
///   - file: the test file (default: the caller's); goldens are found beside it.
///   - line: the line failures are reported at (default: the caller's).
///   - comparison: how frames are compared; default exact.
public func assertTransition(_ transition: any Transition, settings: RenderSettings, matchGoldenNamed name: String,
                             comparison: FrameComparison = .exact, file: StaticString = #filePath, line: UInt = #line) {
    if let message = GoldenFrames.check(transition, settings: settings, name: name, testFile: "\(file)", comparison: comparison) {
        XCTFail(message, file: file, line: line)
    }
}

/// Fails the test unless every frame of `sequence` (e.g. `RenderedTransition.sequence`) matches the golden
/// set `name`; frames are drawn at the sequence's scale and named `frame_0000.png`, `frame_0001.png`, …
/// (see ``assertTransition(_:settings:matchGoldenNamed:comparison:file:line:)``).
/// - Parameters:
///   - sequence: the frozen frames of a render.
///   - name: the golden set's folder name (no `/`, not starting with `.`).
///   - file: the test file (default: the caller's); goldens are found beside it.
///   - line: the line failures are reported at (default: the caller's).
///   - comparison: how frames are compared; default exact.
public func assertFrames(_ sequence: FrameSequence, matchGoldenNamed name: String, comparison: FrameComparison = .exact,
                         file: StaticString = #filePath, line: UInt = #line) {
    if let message = GoldenFrames.check(sequence, name: name, testFile: "\(file)", comparison: comparison) {
        XCTFail(message, file: file, line: line)
    }
}

extension GoldenFrames {
    /// The whole check for a test file: locations and record mode from the environment, then
    /// `verify(_:)`. Returns the failure message, or `nil`.
    public static func check(_ frames: [NamedFrame], name: String, testFile: String, comparison: FrameComparison,
                             environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        do throws(GoldenSetupError) {
            guard try GoldenShard.includes(name, environment: environment) else { return nil }
            return try forTestFile(testFile, name: name, comparison: comparison, environment: environment).verify(frames)
        } catch {
            return "'\(name)': \(error)"
        }
    }
}
