import Foundation
package import Motion
package import SnapshotView

/// What UIKit's static calls (`UIView.animate`, `snapshotView`) run on: the animation engine of the
/// stage in use, with its virtual clock. One stage is in use at a time (the last one made), as one
/// application runs at a time. Without a stage, animations apply their changes at once and complete at
/// once, as if no time passed. Package access: the stage (module SmokescreenStage) sets it.
package enum StageContext {
    /// The engine of the stage in use, if any.
    nonisolated(unsafe) package static var engine: AnimationEngine?

    /// What views show now: the engine's presentation values, or the model values without one.
    package static var presentation: any PresentationSource { engine ?? ModelPresentation() }

    /// The stage's time in seconds (0 without a stage).
    package static var now: Double { engine?.currentTime ?? 0 }

    /// Pixels per point of the stage's screen (what `UIScreen.main.scale` says), for drawing a layer
    /// into a context.
    nonisolated(unsafe) package static var displayScale: Double = 3
}

/// What UIKit logs and goes on from (a present on a controller already presenting, a push of a controller
/// already in the stack): written to standard error as UIKit writes to the console, and kept for the
/// stage to list.
package enum UIKitLog {
    nonisolated(unsafe) private static var logged: [String] = []

    package static func warn(_ message: String) {
        logged.append(message)
        FileHandle.standardError.write(Data("UIKit: \(message)\n".utf8))
    }

    /// What was logged since the last call.
    package static func take() -> [String] {
        defer { logged = [] }
        return logged
    }
}
