import TransitionCompositor

/// Why a stage could not go on: each names what to change.
public enum StageError: Error, CustomStringConvertible, Equatable {
    /// Something was still animating when the time limit came (virtual seconds): an animation that
    /// repeats forever, a paused property animator, or a transition that never completes.
    case stillRunning(after: Double, running: [String])
    /// Nothing is left to animate, but view controller transitions are still running: their animators
    /// never called `completeTransition(_:)` (each named, with when it started).
    case transitionNeverCompleted([String])
    /// A render limit would be passed: too many frames, or too many views drawn in all frames.
    case overLimit(String)
    /// The device or frame rate is outside what a stage accepts.
    case invalidSetting(String)

    public var description: String {
        switch self {
        case .stillRunning(let seconds, let running):
            let list = running.isEmpty ? "" : ": " + running.prefix(5).joined(separator: "; ") + (running.count > 5 ? "; …" : "")
            return "the stage was still animating after \(format(seconds)) s (an animation that repeats forever, a paused animator or a "
                + "transition that never calls completeTransition?)\(list)"
        case .transitionNeverCompleted(let transitions):
            return "nothing is left to animate, but the animator never called completeTransition(_:) for: " + transitions.joined(separator: "; ")
                + " (a stage waits for time to pass; a transition ends only when its animator completes it)"
        case .overLimit(let reason): return reason
        case .invalidSetting(let reason): return reason
        }
    }

    private func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.3f", seconds)
    }
}
