import Motion
import SnapshotView

/// How a bar button shows a finger on it, as UIKit's system buttons do: its content dims at once when the
/// finger comes down, the action runs when it lifts, and the button fades back to full opacity.
///
/// UIKit publishes none of these figures. The dimming is a system button's highlighted alpha (0.2, the
/// value UIKit's `UIButton.ButtonType.system` titles take while highlighted); the tap and the fade back
/// are estimates from screen recordings of iOS 17 (a quick tap; the fade back a little slower than the
/// press).
public enum BarButtonPress {
    /// The opacity of a pressed bar button's content: 0.2.
    public static let pressedAlpha = 0.2
    /// From the finger's touch down to its lift in a quick tap: 0.1 s (estimated).
    public static let tapDuration = 0.1
    /// How long a released button takes to come back to full opacity: 0.2 s, ease out (estimated).
    public static let releaseDuration = 0.2

    /// Schedules a tap on `button` on `engine`'s clock: the finger comes down ``tapDuration`` seconds
    /// before `time` (seconds from now; at once when `time` is shorter) and the button dims to
    /// ``pressedAlpha``; at `time` it lifts, the button fades back over ``releaseDuration``, and
    /// `action` runs (inside the same moment, so a transition it starts begins with the fade).
    ///
    /// `leaves`: the action takes the button away (a back button whose tap pops its item): it stays
    /// dimmed as it goes, instead of brightening while it fades out. Default false.
    public static func tap(_ button: @escaping () -> View?, liftingAt time: Double, on engine: AnimationEngine,
                           leaves: Bool = false, action: @escaping () -> Void) {
        engine.perform(afterDelay: max(0, time - tapDuration)) {
            guard let view = button() else { return }
            ViewChangeObservation.withoutObserver { view.alpha = pressedAlpha }
        }
        engine.perform(afterDelay: time) {
            if !leaves, let view = button() {
                engine.animate(duration: releaseDuration, options: [.overrideInheritedDuration, .overrideInheritedCurve],
                               curve: .easeOut, animations: { view.alpha = 1 })
            }
            action()
        }
    }
}
