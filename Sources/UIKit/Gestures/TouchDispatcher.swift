/// Delivers the stage's scripted touches as UIKit does: the touch goes to the view under it
/// (`hitTest`), to the gesture recognizers of that view and its ancestors (the view's first), and to the
/// view's touch methods (`touchesBegan(_:with:)`…, up the responder chain); once a recognizer
/// recognizes, the others that may not recognize with it fail (the delegate's
/// `shouldRecognizeSimultaneouslyWith`), and the view's touches are cancelled when the recognizer
/// `cancelsTouchesInView`. One finger at a time.
package final class TouchDispatcher {
    private let window: UIWindow
    private var touch: UITouch?
    private var hitView: UIView?
    private var recognizers: [UIGestureRecognizer] = []
    private var viewTouchesCancelled = false
    private var lastTap: (time: TimeInterval, point: CGPoint, count: Int)?

    package init(window: UIWindow) {
        self.window = window
    }

    /// Whether a finger is down.
    package var isTouching: Bool { touch != nil }

    /// A finger comes down at `point` (window coordinates) at `time`.
    package func touchDown(at point: CGPoint, time: TimeInterval) {
        if touch != nil { touchUp(at: point, time: time, velocity: nil) }
        window.layoutIfNeeded()
        let view = window.hitTest(point, with: nil)
        // Taps within 0.35 s and 10 points of the last count up, as UIKit's tap count.
        var count = 1
        if let last = lastTap, time - last.time <= 0.35, hypot(point.x - last.point.x, point.y - last.point.y) <= 10 { count = last.count + 1 }
        if count == 1, !pendingRecognizers.isEmpty { failPendingTaps() }
        let touch = UITouch(at: point, in: window, view: view, time: time, tapCount: count)
        self.touch = touch
        hitView = view
        viewTouchesCancelled = false
        var chain: [UIGestureRecognizer] = []
        var current = view
        while let v = current {
            chain += v.attachedRecognizers.filter { $0.isEnabled && $0.state == .possible }
            current = v.superview
        }
        // Recognizers waiting for this tap follow it even when it lands elsewhere.
        for recognizer in pendingRecognizers where !chain.contains(where: { $0 === recognizer }) { chain.append(recognizer) }
        pendingRecognizers = []
        pendingTaps = []
        recognizers = chain.filter { $0.delegate?.gestureRecognizer($0, shouldReceive: touch) ?? true }
        let event = UIEvent(touches: [touch], timestamp: time)
        for recognizer in recognizers {
            recognizer.dispatcher = self
            recognizer.trackedTouches = [touch]
            recognizer.lastLocation = point
            recognizer.touchesBegan([touch], with: event)
        }
        if !viewTouchesCancelled { view?.touchesBegan([touch], with: event) }
    }

    /// The finger moves to `point` at `time`.
    package func touchMoved(to point: CGPoint, time: TimeInterval) {
        guard let touch else { return }
        touch.move(to: point, at: time, phase: .moved)
        let event = UIEvent(touches: [touch], timestamp: time)
        for recognizer in active {
            recognizer.lastLocation = point
            recognizer.touchesMoved([touch], with: event)
        }
        if !viewTouchesCancelled { hitView?.touchesMoved([touch], with: event) }
    }

    /// The finger lifts at `point` at `time`; `velocity` (points a second, window coordinates) is what a
    /// pan reports as its release velocity, when the script gives one.
    package func touchUp(at point: CGPoint, time: TimeInterval, velocity: CGVector?) {
        guard let touch else { return }
        touch.move(to: point, at: time, phase: .ended)
        let event = UIEvent(touches: [touch], timestamp: time)
        for recognizer in active {
            recognizer.lastLocation = point
            if let velocity, let pan = recognizer as? UIPanGestureRecognizer { pan.releaseVelocity = velocity }
            recognizer.touchesEnded([touch], with: event)
        }
        if !viewTouchesCancelled { hitView?.touchesEnded([touch], with: event) }
        lastTap = (time, point, touch.tapCount)
        self.touch = nil
        // A tap recognizer that needs more taps waits for the next one (within 0.35 s), and so do the
        // recognizers that require it to fail.
        pendingTaps = recognizers.filter { ($0 as? UITapGestureRecognizer).map { $0.state == .possible && touch.tapCount < $0.numberOfTapsRequired } ?? false }
        let waiting = recognizers.filter { r in r.state == .possible && pendingTaps.contains { r.requiresFailure(of: $0) } }
        let settled = recognizers.filter { r in !pendingTaps.contains { $0 === r } && !waiting.contains { $0 === r } }
        for recognizer in settled where recognizer.state == .possible && !recognizer.waitsForRequirement { recognizer.state = .failed }
        for recognizer in settled { recognizer.requirementFailed() }
        for recognizer in settled where recognizer.state == .possible { recognizer.state = .failed }
        for recognizer in settled { recognizer.resetNow() }
        for recognizer in pendingTaps + waiting { recognizer.trackedTouches = [] }
        pendingRecognizers = pendingTaps + waiting
        recognizers = []
        hitView = nil
    }

    /// Tap recognizers waiting for another tap, and those waiting for them to fail.
    private var pendingTaps: [UIGestureRecognizer] = []
    private var pendingRecognizers: [UIGestureRecognizer] = []

    /// The clock moved to `time`: a long press begins by time; taps waited for too long fail.
    package func tick(at time: TimeInterval) {
        if touch != nil {
            for recognizer in active { recognizer.tick(at: time) }
        } else if let last = lastTap, !pendingRecognizers.isEmpty, time - last.time > 0.35 {
            failPendingTaps()
        }
    }

    /// The taps waited for did not come: those recognizers fail, and those waiting for that recognize.
    private func failPendingTaps() {
        let pending = pendingRecognizers
        pendingRecognizers = []
        let saved = recognizers
        recognizers = pending
        for tap in pendingTaps where tap.state == .possible { tap.state = .failed }
        for recognizer in pending { recognizer.requirementFailed() }
        for recognizer in pending where recognizer.state == .possible { recognizer.state = .failed }
        for recognizer in pending { recognizer.resetNow() }
        pendingTaps = []
        recognizers = saved
    }

    private var active: [UIGestureRecognizer] {
        recognizers.filter { $0.state != .failed && $0.state != .cancelled && $0.isEnabled }
    }

    // MARK: Called by recognizers

    /// Whether a recognizer already recognizing keeps `recognizer` from beginning.
    func isBlocked(_ recognizer: UIGestureRecognizer) -> Bool {
        recognizers.contains { other in
            other !== recognizer && (other.state == .began || other.state == .changed || other.state == .ended)
                && !Self.simultaneous(recognizer, other)
        }
    }

    func didRecognize(_ recognizer: UIGestureRecognizer) {
        for other in recognizers where other !== recognizer && other.state == .possible && !Self.simultaneous(recognizer, other) {
            if other.requiresFailure(of: recognizer) || !other.waitsForRequirement {
                other.state = .failed
            }
            other.requirementRecognized(recognizer)
        }
        if recognizer.cancelsTouchesInView, !viewTouchesCancelled, let touch {
            viewTouchesCancelled = true
            touch.move(to: touch.location(in: nil), at: touch.timestamp, phase: .cancelled)
            hitView?.touchesCancelled([touch], with: UIEvent(touches: [touch], timestamp: touch.timestamp))
            touch.move(to: touch.location(in: nil), at: touch.timestamp, phase: .moved)
        }
    }

    func didFail(_ recognizer: UIGestureRecognizer) {
        for other in recognizers where other !== recognizer { other.requirementFailed() }
    }

    func forget(_ recognizer: UIGestureRecognizer) {
        recognizers.removeAll { $0 === recognizer }
    }

    private static func simultaneous(_ a: UIGestureRecognizer, _ b: UIGestureRecognizer) -> Bool {
        a.delegate?.gestureRecognizer(a, shouldRecognizeSimultaneouslyWith: b) == true
            || b.delegate?.gestureRecognizer(b, shouldRecognizeSimultaneouslyWith: a) == true
    }
}
