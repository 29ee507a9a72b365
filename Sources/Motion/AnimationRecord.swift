import Foundation
import SnapshotView

/// Where an interactive animation ended (UIKit's `UIViewAnimatingPosition`).
public enum AnimatingPosition: String, Hashable, Sendable {
    /// At its end values.
    case end
    /// Back at its start values (it was reversed, or cancelled).
    case start
    /// Wherever it was when stopped.
    case current
}

/// What an engine ran: one entry per animation block, keyframe animation, property animator run or
/// interactive transition, for timelines (`smokescreen inspect`) and tests. Times are the engine's
/// virtual seconds.
public struct AnimationRecord: Hashable, Sendable, CustomStringConvertible {
    /// What made the animation.
    public enum Kind: String, Hashable, Sendable {
        /// `animate(duration:…)`.
        case block
        /// `animateKeyframes(…)`.
        case keyframes
        /// A ``PropertyAnimator``.
        case animator
        /// A ``PercentDrivenTransition``.
        case transition
    }

    /// How the animation ended, if it has.
    public enum Outcome: Hashable, Sendable {
        /// Not ended yet.
        case running
        /// Ran to its end (or applied at once); the completion got `finished == true`.
        case finished(at: Double)
        /// Its animations were removed before the end; the completion got `finished == false`.
        case interrupted(at: Double)
        /// An animator or transition ended at a position (its completions were told so).
        case ended(at: Double, position: AnimatingPosition)
        /// An animator stopped without finishing: no completion ran.
        case stopped(at: Double)
    }

    /// A property the animation changed, by view name (the class name for unnamed views).
    public struct AnimatedProperty: Hashable, Sendable, CustomStringConvertible {
        /// The view's name (or its type when unnamed).
        public let view: String
        /// The animated property.
        public let property: ViewProperty
        public var description: String { "\(view).\(property)" }
    }

    /// Something that happened to an interactive animation (paused, scrubbed, continued, reversed…).
    public struct Event: Hashable, Sendable, CustomStringConvertible {
        /// Seconds of the engine's clock.
        public let time: Double
        /// What happened, e.g. `paused at 0.40`.
        public let note: String
        public var description: String { "\(AnimationRecord.format(time)) \(note)" }
    }

    /// Index in ``AnimationEngine/records``.
    public let id: Int
    /// The enclosing block's record, for nested blocks.
    public let parentID: Int?
    /// What made the animation.
    public let kind: Kind
    /// When the call was made (seconds).
    public let createdAt: Double
    /// When the animation starts moving: `createdAt` plus the delay (seconds).
    public internal(set) var start: Double
    /// When it ends or ended (seconds); infinity while unknown or never (repeating forever, paused).
    public internal(set) var end: Double
    /// Seconds of one cycle (one direction), after inheritance; 0 when applied at once.
    public internal(set) var duration: Double
    /// The curve or the spring with its parameters.
    public internal(set) var timing: String
    /// How often it repeats.
    public internal(set) var repetition: AnimationRepeat
    /// Whether each repetition runs back as well.
    public internal(set) var autoreverses: Bool
    /// Whether it started from the presentation value.
    public internal(set) var beginsFromCurrentState: Bool
    /// False when the changes were applied at once: zero duration, nothing changed, or inside
    /// ``AnimationEngine/performWithoutAnimation(_:)``.
    public internal(set) var animated: Bool
    /// Every property it animates.
    public internal(set) var properties: [AnimatedProperty]
    /// How it ended, if it has.
    public internal(set) var outcome: Outcome
    /// Interactive events (pause, scrub, reverse, continue), in order.
    public internal(set) var events: [Event]

    /// One line: id, kind, start → end, timing, repetition, properties, outcome.
    public var description: String {
        var parts = ["#\(id)", kind.rawValue, "\(AnimationRecord.format(start)) → \(AnimationRecord.format(end))"]
        if let parentID { parts.append("in #\(parentID)") }
        parts.append(animated ? timing : "not animated")
        if repetition != .none || autoreverses {
            parts.append("repeat \(repetition)" + (autoreverses ? " autoreverse" : ""))
        }
        if beginsFromCurrentState { parts.append("beginFromCurrentState") }
        parts.append(properties.isEmpty ? "(no changes)" : properties.map(\.description).joined(separator: ", "))
        switch outcome {
        case .running: parts.append("running")
        case .finished(let t): parts.append("finished at \(AnimationRecord.format(t))")
        case .interrupted(let t): parts.append("interrupted at \(AnimationRecord.format(t))")
        case .ended(let t, let position): parts.append("ended at \(AnimationRecord.format(t)) (\(position.rawValue))")
        case .stopped(let t): parts.append("stopped at \(AnimationRecord.format(t))")
        }
        return parts.joined(separator: "  ")
    }

    static func format(_ t: Double) -> String {
        t.isFinite ? String(format: "%.3f", t) : "open"
    }

    static func name(of view: View) -> String { view.name ?? String(describing: type(of: view)) }
}
