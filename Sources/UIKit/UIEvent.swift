/// A touch on the screen, as the stage's scripted input makes them (see docs/uikit.md): where it is,
/// what phase it is in, and when (virtual seconds).
open class UITouch: NSObject {
    /// Where a touch is in its life.
    public enum Phase: Int, Sendable {
        case began, moved, stationary, ended, cancelled, regionEntered, regionMoved, regionExited
    }

    /// Finger, pencil or pointer; scripted touches are direct (a finger).
    public enum TouchType: Int, Sendable {
        case direct, indirect, pencil, indirectPointer
    }

    open internal(set) var phase: Phase
    /// Virtual seconds of the stage's clock when it last changed.
    open internal(set) var timestamp: TimeInterval
    /// How many taps in quick succession this touch is part of (1 for a single tap).
    open internal(set) var tapCount: Int
    open var type: TouchType { .direct }
    /// The view the touch began in.
    open internal(set) weak var view: UIView?
    /// The window it is in.
    open internal(set) weak var window: UIWindow?
    open var majorRadius: CGFloat { 20 }
    open var force: CGFloat { 0 }
    private var locationInWindow: CGPoint
    private var previousInWindow: CGPoint

    package init(at point: CGPoint, in window: UIWindow, view: UIView?, time: TimeInterval, tapCount: Int = 1) {
        phase = .began
        timestamp = time
        self.tapCount = tapCount
        self.view = view
        self.window = window
        locationInWindow = point
        previousInWindow = point
        super.init()
    }

    /// Moves the touch to `point` (window coordinates) at `time`.
    package func move(to point: CGPoint, at time: TimeInterval, phase: Phase) {
        previousInWindow = locationInWindow
        locationInWindow = point
        timestamp = time
        self.phase = phase
    }

    /// Where the touch is, in `view`'s coordinates (the window's when nil).
    open func location(in view: UIView?) -> CGPoint {
        guard let view, let window else { return locationInWindow }
        return view.convert(locationInWindow, from: window)
    }

    /// Where it was before the last move, in `view`'s coordinates.
    open func previousLocation(in view: UIView?) -> CGPoint {
        guard let view, let window else { return previousInWindow }
        return view.convert(previousInWindow, from: window)
    }
}

/// An event: the touches of one moment of scripted input.
open class UIEvent: NSObject {
    public enum EventType: Int, Sendable {
        case touches, motion, remoteControl, presses, scroll, hover, transform
    }

    open var type: EventType { .touches }
    /// Virtual seconds of the stage's clock.
    open internal(set) var timestamp: TimeInterval
    private var touches: Set<UITouch>

    package init(touches: Set<UITouch>, timestamp: TimeInterval) {
        self.touches = touches
        self.timestamp = timestamp
        super.init()
    }

    open var allTouches: Set<UITouch>? { touches }
    open func touches(for view: UIView) -> Set<UITouch>? { touches.filter { $0.view === view } }
    open func touches(for window: UIWindow) -> Set<UITouch>? { touches.filter { $0.window === window } }
}
