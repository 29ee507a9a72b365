import FrameStore
import FrameDiff
import Foundation
import RasterCore
import TransitionCompositor

extension GoldenFrames {
    /// Checks every frame of `sequence` against the goldens, as `verify(_:)` checks named frames.
    ///
    /// Frames are named as `FrameWriter` names the files of a render (`Manifest/frameFileName(_:)`:
    /// `frame_0000.png`, `frame_0001.png`, …), so a golden set can be made from a folder that
    /// `smokescreen render` wrote, and they are drawn one at a time at the sequence's scale as they are
    /// checked: only the frame being checked and the first failing frames (for the sheet) are held in
    /// memory, never the whole sequence.
    /// - Returns: `nil` when every frame matches; otherwise the failure message (also after recording).
    public func verify(_ sequence: FrameSequence) -> String? {
        var canvas: Bitmap
        do { canvas = try sequence.makeCanvas() } catch { return "'\(name)': \(error)" }
        return verify(names: (0..<sequence.count).map(FrameFileName.name)) { index in
            sequence.draw(frame: index, into: &canvas)
            return canvas
        }
    }

    /// The whole check of a frame sequence for a test file: locations and record mode from the
    /// environment (see ``forTestFile(_:name:comparison:environment:)``), then the sequence form of `verify(_:)`.
    /// - Returns: the failure message, or `nil`.
    public static func check(_ sequence: FrameSequence, name: String, testFile: String, comparison: FrameComparison,
                             environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        do throws(GoldenSetupError) {
            guard try GoldenShard.includes(name, environment: environment) else { return nil }
            return try forTestFile(testFile, name: name, comparison: comparison, environment: environment).verify(sequence)
        } catch {
            return "'\(name)': \(error)"
        }
    }

    /// The whole check of a transition for a test file: locations and record mode from the environment,
    /// then the transition rendered with `settings` and every frame checked
    /// (the sequence form of `verify(_:)`). A render that throws is a failure that names the transition
    /// and the error (a bad durations file, a missing asset).
    /// - Returns: the failure message, or `nil`.
    public static func check(_ transition: any Transition, settings: RenderSettings, name: String, testFile: String,
                             comparison: FrameComparison,
                             environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let goldens: GoldenFrames
        do throws(GoldenSetupError) {
            // Another machine's part: not rendered at all.
            guard try GoldenShard.includes(name, environment: environment) else { return nil }
            goldens = try forTestFile(testFile, name: name, comparison: comparison, environment: environment)
        } catch {
            return "'\(name)': \(error)"
        }
        let rendered: RenderedTransition
        do { rendered = try transition.render(settings) } catch {
            return "'\(name)': cannot render the transition '\(transition.name)': \(error)"
        }
        return goldens.verify(rendered.sequence)
    }
}
