@_exported import SmokescreenSnapshotTesting
import SmokescreenStage
import SnapshotTesting
@_exported import FrameDiff

extension Snapshotting where Value == Stage, Format == SnapshotFrames {
    /// `.frames()`: every frame the stage took, exact.
    public static var frames: Snapshotting { .frames() }

    /// Every frame a stage took (its `wait`s and `waitUntilIdle`s so far), stored as one PNG — a grid of
    /// frames — beside the test and compared frame by frame, as swift-snapshot-testing's strategies are:
    ///
    /// ```swift
    /// let stage = try Stage(device: .iPhoneSE, fps: 10, scale: 1)   // small references
    /// stage.show(controller)
    /// controller.expand(at: 0)
    /// try stage.waitUntilIdle()
    /// assertSnapshot(of: stage, as: .frames)
    /// ```
    /// - Parameter comparison: how each frame is compared with its reference; default exact.
    public static func frames(comparison: FrameComparison = .exact) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .frames(comparison: comparison)) { stage in
            Async { callback in
                do throws(SnapshotFramesError) {
                    callback(try SnapshotFrames.taken(by: stage))
                } catch {
                    SnapshotFailure.report(error.reason)
                }
            }
        }
    }
}

extension SnapshotFrames {
    /// The frames `stage` took.
    /// - Throws: ``SnapshotFramesError`` when it took none, or they do not fit in one PNG.
    public static func taken(by stage: Stage) throws(SnapshotFramesError) -> SnapshotFrames {
        let sequence = stage.frames(name: "stage")
        guard sequence.count > 0 else { throw SnapshotFramesError("the stage took no frames: let time pass with wait(_:) or waitUntilIdle() first") }
        return try drawing(sequence, name: "stage")
    }
}
