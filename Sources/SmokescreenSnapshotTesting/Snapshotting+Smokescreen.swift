import Foundation
import FrameDiff
import RasterCore
import SnapshotTesting
import SnapshotView
import TransitionCompositor
import XCTest

#if canImport(Testing)
import Testing
#endif

extension Snapshotting where Value: SnapshotView.View, Format == SnapshotFrames {
    /// `.image(scale: 2)`, exact: swift-snapshot-testing's `as: .image` spelling.
    public static var image: Snapshotting { .image() }

    /// A view tree rendered as a window shows it (`View.snapshot(scale:)`: the view's bounds and its
    /// subtree), stored as a PNG of `bounds.size × scale` pixels and compared with Smokescreen's pixel diff.
    ///
    /// ```swift
    /// assertSnapshot(of: card, as: .image(scale: 2))
    /// ```
    /// - Parameters:
    ///   - scale: pixels per point (1, 2, 3…); default 2. Keep references small with `scale: 1`.
    ///   - comparison: how the image is compared with its reference; default `FrameComparison.exact`. See
    ///     ``SnapshotTesting/Diffing/frames(comparison:)`` for the tolerance options and the failure artifacts.
    public static func image(scale: Double = 2, comparison: FrameComparison = .exact) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .frames(comparison: comparison)) { view in
            Async { callback in
                do {
                    callback(SnapshotFrames(frames: [try view.snapshot(scale: scale)]))
                } catch {
                    SnapshotFailure.report("cannot render the view at @\(scale)x: \(error)")
                }
            }
        }
    }
}

extension Snapshotting where Value: Transition, Format == SnapshotFrames {
    /// `.frames(fps: nil, scale: 2)`: every frame at the transition's own rate, @2x, exact.
    public static var frames: Snapshotting { .frames() }

    /// Every frame of a transition, rendered as `smokescreen render` renders it, stored as one PNG (a grid
    /// of frames, see ``SmokescreenSnapshotTesting/SnapshotFrames``) and compared frame by frame.
    ///
    /// ```swift
    /// assertSnapshot(of: VesperTransition(.timelineToDetail), as: .frames(fps: 30, scale: 1))
    /// ```
    /// - Parameters:
    ///   - fps: frames per second; `nil`: the transition's own rate (60 for most). The frames are at
    ///     0, 1/fps, 2/fps, … and the exact end.
    ///   - scale: pixels per point (1, 2, 3…); default 2. References are `pointSize × scale` pixels a
    ///     frame: keep them small with `scale: 1` and a low frame rate.
    ///   - assetsDirectory: the `assets/` folder the transition reads its images from; `nil` (default):
    ///     `$SMOKESCREEN_ASSETS`, else `./assets`, else the `assets/` folder of the Smokescreen checkout
    ///     this module was built from.
    ///   - durationsFile: a durations plist to use instead of the transition's own; default none.
    ///   - holdFrames: frames repeated after the end; default 0.
    ///   - comparison: how each frame is compared with its reference; default `FrameComparison.exact`.
    public static func frames(fps: Double? = nil, scale: Double = 2, assetsDirectory: String? = nil, durationsFile: String? = nil,
                              holdFrames: Int = 0, comparison: FrameComparison = .exact) -> Snapshotting {
        Snapshotting<any Transition, SnapshotFrames>.frames(fps: fps, scale: scale, assetsDirectory: assetsDirectory,
                                                            durationsFile: durationsFile, holdFrames: holdFrames, comparison: comparison)
            .pullback { (transition: Value) -> any Transition in transition }
    }
}

extension Snapshotting where Value == any Transition, Format == SnapshotFrames {
    /// Every frame of a transition held as `any Transition` (e.g. from `TransitionCatalog`); see the
    /// form for a concrete transition type for the parameters.
    public static func frames(fps: Double? = nil, scale: Double = 2, assetsDirectory: String? = nil, durationsFile: String? = nil,
                              holdFrames: Int = 0, comparison: FrameComparison = .exact) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .frames(comparison: comparison)) { transition in
            Async { callback in
                do throws(SnapshotFramesError) {
                    let settings = RenderSettings(scale: scale, fps: fps, assetsDirectory: assetsDirectory ?? SnapshotAssets.defaultDirectory(),
                                                  durationsFile: durationsFile, holdFrames: holdFrames)
                    callback(try SnapshotFrames.rendering(transition, settings: settings))
                } catch {
                    SnapshotFailure.report(error.reason)
                }
            }
        }
    }
}

extension SnapshotFrames {
    /// Every frame of `transition` rendered with `settings`, drawn one at a time from the frozen trees.
    /// - Throws: ``SnapshotFramesError`` naming the transition when it cannot be rendered (a missing asset,
    ///   a bad durations file) or its frames do not fit in one PNG.
    public static func rendering(_ transition: any Transition, settings: RenderSettings) throws(SnapshotFramesError) -> SnapshotFrames {
        let sequence: FrameSequence
        do { sequence = try transition.render(settings).sequence } catch {
            throw SnapshotFramesError("cannot render the transition '\(transition.name)': \(error)")
        }
        return try drawing(sequence, name: transition.name)
    }

    /// Every frame of `sequence`, drawn one at a time (`name` for messages).
    /// - Throws: ``SnapshotFramesError`` when the frames do not fit in one PNG.
    package static func drawing(_ sequence: FrameSequence, name: String) throws(SnapshotFramesError) -> SnapshotFrames {
        var canvas: Bitmap
        do { canvas = try sequence.makeCanvas() } catch {
            throw SnapshotFramesError("cannot draw the frames of '\(name)': \(error)")
        }
        let layout = Layout(frames: sequence.count, width: canvas.width, height: canvas.height, scale: canvas.scale)
        do { try Bitmap.validate(width: layout.columns * layout.width, height: layout.rows * layout.height, scale: canvas.scale) } catch {
            throw SnapshotFramesError("the \(sequence.count) frames of '\(name)' (\(canvas.width)x\(canvas.height) px each) "
                + "do not fit in one PNG (\(error)): lower the frame rate or the scale")
        }
        var frames: [Bitmap] = []
        frames.reserveCapacity(sequence.count)
        for index in 0..<sequence.count {
            sequence.draw(frame: index, into: &canvas)
            frames.append(canvas)
        }
        return SnapshotFrames(frames: frames)
    }
}

/// Where the transitions' images are found when the strategy is given no folder.
public enum SnapshotAssets {
    /// `$SMOKESCREEN_ASSETS` when set, else `./assets` when it is a folder, else the `assets/` folder of the
    /// Smokescreen checkout this module was compiled from (a package that depends on Smokescreen by path or
    /// by URL has it there), whether or not it exists: a render then names the missing file.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let variable = environment["SMOKESCREEN_ASSETS"], !variable.isEmpty { return variable }
        let local = FileManager.default.currentDirectoryPath + "/assets"
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: local, isDirectory: &isDirectory), isDirectory.boolValue { return local }
        // <checkout>/Sources/SmokescreenSnapshotTesting/<this file>
        return URL(fileURLWithPath: sourceFile).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("assets").path
    }
}

/// This file's path when it was compiled.
private let sourceFile = #filePath

/// A snapshot that could not be taken is a test failure with its reason. The strategy then hands
/// swift-snapshot-testing no value, so no reference is written (it reports a timeout after its `timeout`
/// argument, 5 seconds by default, after this message).
package enum SnapshotFailure {
    package static func report(_ reason: String) {
        let message = "SmokescreenSnapshotTesting: no snapshot taken: \(reason)"
        #if canImport(Testing)
        if Test.current != nil {
            Issue.record(Comment(rawValue: message))
            return
        }
        #endif
        XCTFail(message)
    }
}
