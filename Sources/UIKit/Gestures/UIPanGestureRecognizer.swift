/// Follows a finger that moves: `.began` once it has moved 10 points from where it came down, `.changed`
/// as it moves, `.ended` when it lifts. ``translation(in:)`` is how far it moved since it came down (or
/// since ``setTranslation(_:in:)``), ``velocity(in:)`` how fast it moves now (points a second).
open class UIPanGestureRecognizer: UIGestureRecognizer {
    /// Points a finger moves before a pan begins (UIKit's hysteresis).
    static let hysteresis: CGFloat = 10

    open var minimumNumberOfTouches = 1
    open var maximumNumberOfTouches = Int.max
    /// Window coordinates of the point translations are measured from.
    private var origin: CGPoint?
    private var samples: [(time: TimeInterval, point: CGPoint)] = []
    /// The velocity the script says the finger had when it lifted (window coordinates), if it says one.
    var releaseVelocity: CGVector?

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        guard let touch = touches.first else { return }
        origin = touch.location(in: nil)
        samples = [(touch.timestamp, touch.location(in: nil))]
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        guard let touch = touches.first, let origin else { return }
        let point = touch.location(in: nil)
        samples.append((touch.timestamp, point))
        if samples.count > 8 { samples.removeFirst(samples.count - 8) }
        switch state {
        case .possible:
            if hypot(point.x - origin.x, point.y - origin.y) >= Self.hysteresis, trackedTouches.count >= minimumNumberOfTouches {
                state = .began
            }
        case .began, .changed:
            state = .changed
        default:
            break
        }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        if let touch = touches.first { samples.append((touch.timestamp, touch.location(in: nil))) }
        switch state {
        case .began, .changed: state = .ended
        case .possible: state = .failed
        default: break
        }
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .began || state == .changed { state = .cancelled } else if state == .possible { state = .failed }
    }

    /// How far the finger moved since it came down (or since the last ``setTranslation(_:in:)``), in
    /// `view`'s coordinates (the window's when nil).
    open func translation(in view: UIView?) -> CGPoint {
        guard let origin, let current = samples.last?.point else { return .zero }
        let a = convertFromWindow(origin, to: view), b = convertFromWindow(current, to: view)
        return CGPoint(x: b.x - a.x, y: b.y - a.y)
    }

    /// Makes the translation read `translation` now (in `view`'s coordinates).
    open func setTranslation(_ translation: CGPoint, in view: UIView?) {
        guard let current = samples.last?.point else { return }
        let here = convertFromWindow(current, to: view)
        let start = CGPoint(x: here.x - translation.x, y: here.y - translation.y)
        if let view, let window = view.window ?? self.view?.window { origin = view.convert(start, to: window) } else { origin = start }
    }

    /// Points a second, in `view`'s coordinates: the motion between the last two samples of the finger
    /// (the stage samples it at each tick), or the velocity the script gave for its release.
    open func velocity(in view: UIView?) -> CGPoint {
        var v: CGVector
        if state == .ended, let releaseVelocity {
            v = releaseVelocity
        } else {
            // The last sample and the one before it in time (the lift repeats the last move's time).
            guard let b = samples.last, let a = samples.last(where: { $0.time < b.time }) else { return .zero }
            let dt = b.time - a.time
            v = CGVector(dx: (b.point.x - a.point.x) / dt, dy: (b.point.y - a.point.y) / dt)
        }
        // A vector: map two points one second of motion apart.
        let base = samples.last?.point ?? .zero
        let p0 = convertFromWindow(base, to: view), p1 = convertFromWindow(CGPoint(x: base.x + v.dx, y: base.y + v.dy), to: view)
        return CGPoint(x: p1.x - p0.x, y: p1.y - p0.y)
    }

    open override func reset() {
        origin = nil
        samples = []
        releaseVelocity = nil
    }
}

/// A pan that begins only from an edge of the screen (within 20 points of one of ``edges``).
open class UIScreenEdgePanGestureRecognizer: UIPanGestureRecognizer {
    /// Points from the edge a touch must come down within.
    static let edgeWidth: CGFloat = 20
    open var edges: UIRectEdge = []

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        super.touchesBegan(touches, with: event)
        guard let touch = touches.first, let window = touch.window else { return }
        let p = touch.location(in: nil), b = window.bounds, w = Self.edgeWidth
        let near = (edges.contains(.left) && p.x - b.minX <= w) || (edges.contains(.right) && b.maxX - p.x <= w)
            || (edges.contains(.top) && p.y - b.minY <= w) || (edges.contains(.bottom) && b.maxY - p.y <= w)
        if !near { state = .failed }
    }
}

/// Recognizes taps: ``numberOfTapsRequired`` touches that come down and lift without moving 10 points.
open class UITapGestureRecognizer: UIGestureRecognizer {
    open var numberOfTapsRequired = 1
    open var numberOfTouchesRequired = 1
    private var start: CGPoint?

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        start = touches.first?.location(in: nil)
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        guard let start, let p = touches.first?.location(in: nil) else { return }
        if hypot(p.x - start.x, p.y - start.y) > 10 { state = .failed }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        guard state == .possible, let touch = touches.first else { return }
        if touch.tapCount >= numberOfTapsRequired { state = .ended }
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .possible { state = .failed }
    }

    open override func reset() { start = nil }
}

/// Recognizes a finger held down ``minimumPressDuration`` seconds without moving ``allowableMovement``
/// points: `.began` then (at the first tick of the stage's clock after it), `.changed` as it moves,
/// `.ended` when it lifts.
open class UILongPressGestureRecognizer: UIGestureRecognizer {
    /// Seconds. Default 0.5.
    open var minimumPressDuration: TimeInterval = 0.5
    /// Points. Default 10.
    open var allowableMovement: CGFloat = 10
    open var numberOfTapsRequired = 0
    open var numberOfTouchesRequired = 1
    private var start: (time: TimeInterval, point: CGPoint)?

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        guard let touch = touches.first else { return }
        start = (touch.timestamp, touch.location(in: nil))
    }

    override func tick(at time: TimeInterval) {
        guard state == .possible, let start, !trackedTouches.isEmpty, time - start.time >= minimumPressDuration - 1e-9 else { return }
        state = .began
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        guard let start, let p = touches.first?.location(in: nil) else { return }
        switch state {
        case .possible where hypot(p.x - start.point.x, p.y - start.point.y) > allowableMovement: state = .failed
        case .began, .changed: state = .changed
        default: break
        }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        switch state {
        case .began, .changed: state = .ended
        case .possible: state = .failed
        default: break
        }
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .began || state == .changed { state = .cancelled } else if state == .possible { state = .failed }
    }

    open override func reset() { start = nil }
}
