/// The object told about a gesture recognizer's decisions.
public protocol UIGestureRecognizerDelegate: NSObjectProtocol {
    func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool
    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                           shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer) -> Bool
    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer, shouldRequireFailureOf otherGestureRecognizer: UIGestureRecognizer) -> Bool
    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer, shouldBeRequiredToFailBy otherGestureRecognizer: UIGestureRecognizer) -> Bool
    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer, shouldReceive touch: UITouch) -> Bool
}

extension UIGestureRecognizerDelegate {
    public func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool { true }
    public func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                                  shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    public func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer, shouldRequireFailureOf otherGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    public func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer, shouldBeRequiredToFailBy otherGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    public func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer, shouldReceive touch: UITouch) -> Bool { true }
}

/// UIKit's gesture recognizer: it watches the touches of its view (and of the views under it), moves
/// through UIKit's states, and sends its actions to its targets when its state changes to `.began`,
/// `.changed`, `.ended` (`.recognized`) or `.cancelled`. Touches come from the stage's script (`tap`,
/// `pan`, `longPress`) at the ticks of its clock.
///
/// `state` is settable, as it is for subclasses that import `UIKit.UIGestureRecognizerSubclass` (the
/// source pass turns that import into `UIKit`); a subclass overrides `touchesBegan(_:with:)` and the
/// others, and `reset()`.
open class UIGestureRecognizer: NSObject {
    /// UIKit's states.
    public enum State: Int, Sendable {
        case possible, began, changed, ended, cancelled, failed
        public static let recognized = State.ended
    }

    private struct Target {
        weak var object: AnyObject?
        let value: Any?
        let action: Selector
        var target: Any? { object ?? value }
    }

    private var targets: [Target] = []
    private var storedState = State.possible
    /// The view the recognizer is attached to.
    open internal(set) weak var view: UIView?
    /// Asked before the recognizer begins and about other recognizers.
    open weak var delegate: UIGestureRecognizerDelegate?
    /// Whether it takes part; setting it false while it recognizes cancels it. Default true.
    open var isEnabled = true {
        didSet {
            guard !isEnabled, oldValue else { return }
            if storedState == .began || storedState == .changed { state = .cancelled }
            dispatcher?.forget(self)
            resetNow()
        }
    }
    /// Whether the view's own touch methods get `touchesCancelled` once the gesture is recognized.
    /// Default true.
    open var cancelsTouchesInView = true
    open var delaysTouchesBegan = false
    open var delaysTouchesEnded = true
    open var requiresExclusiveTouchType = true
    open var name: String?
    private var failureRequirements: [Weak<UIGestureRecognizer>] = []
    weak var dispatcher: TouchDispatcher?
    /// The touches the recognizer follows now.
    var trackedTouches: [UITouch] = []
    /// Recognition that waits for a recognizer it requires to fail.
    private var waitingState: State?

    /// A recognizer that sends `action` to `target` (either may be nil, as in UIKit).
    public init(target: Any?, action: Selector?) {
        super.init()
        if let action { addTarget(target as Any, action: action) }
    }

    public override convenience init() { self.init(target: nil, action: nil) }

    open func addTarget(_ target: Any, action: Selector) {
        let object = (target as AnyObject?).flatMap { type(of: target) is AnyClass ? $0 : nil }
        targets.append(Target(object: object, value: object == nil ? target : nil, action: action))
    }

    open func removeTarget(_ target: Any?, action: Selector?) {
        targets.removeAll { entry in
            let sameTarget = target == nil || (entry.object != nil && entry.object === (target as AnyObject?))
            return sameTarget && (action == nil || entry.action == action)
        }
    }

    /// The recognizer's state. Setting it moves it as UIKit does: a first move to `.began` or
    /// `.ended` asks the delegate's and then its view's `gestureRecognizerShouldBegin` (false fails it) and waits for the
    /// recognizers it requires to fail; the actions go out for `.began`, `.changed`, `.ended` and
    /// `.cancelled`.
    open var state: State {
        get { storedState }
        set { move(to: newValue) }
    }

    private func move(to newState: State) {
        let old = storedState
        if old == .possible, newState == .began || newState == .ended {
            if delegate?.gestureRecognizerShouldBegin(self) == false || view?.gestureRecognizerShouldBegin(self) == false
                || (dispatcher?.isBlocked(self) ?? false) {
                storedState = .failed
                dispatcher?.didFail(self)
                return
            }
            if failureRequirements.contains(where: { $0.value?.state == .possible && $0.value?.trackedTouches.isEmpty == false }) {
                waitingState = newState
                return
            }
        }
        guard newState != old || newState == .changed else { return }
        storedState = newState
        switch newState {
        case .began, .ended:
            if old == .possible { dispatcher?.didRecognize(self) }
            sendActions()
        case .changed, .cancelled:
            sendActions()
        case .failed:
            dispatcher?.didFail(self)
        case .possible:
            break
        }
    }

    private func sendActions() {
        for entry in targets { entry.action.perform(target: entry.target, sender: self) }
    }

    /// Recognizes after the recognizers it waited for failed.
    func requirementFailed() {
        guard let waiting = waitingState, storedState == .possible,
              !failureRequirements.contains(where: { $0.value?.state == .possible && $0.value?.trackedTouches.isEmpty == false }) else { return }
        waitingState = nil
        move(to: waiting)
        if waiting == .began { move(to: .ended) }
    }

    /// Fails when a recognizer it waited for recognized instead.
    func requirementRecognized(_ other: UIGestureRecognizer) {
        guard waitingState != nil, failureRequirements.contains(where: { $0.value === other }) else { return }
        waitingState = nil
        storedState = .failed
    }

    var waitsForRequirement: Bool { waitingState != nil }

    /// Recognizes only after `otherGestureRecognizer` fails.
    open func require(toFail otherGestureRecognizer: UIGestureRecognizer) {
        failureRequirements.append(Weak(otherGestureRecognizer))
    }

    func requiresFailure(of other: UIGestureRecognizer) -> Bool {
        failureRequirements.contains { $0.value === other } || delegate?.gestureRecognizer(self, shouldRequireFailureOf: other) == true
            || other.delegate?.gestureRecognizer(other, shouldBeRequiredToFailBy: self) == true
    }

    // MARK: Touches

    /// Where the touches are (their centroid), in `view`'s coordinates (the window's when nil).
    open func location(in view: UIView?) -> CGPoint {
        guard !trackedTouches.isEmpty else { return lastLocation.map { convertFromWindow($0, to: view) } ?? .zero }
        let points = trackedTouches.map { $0.location(in: view) }
        return CGPoint(x: points.map(\.x).reduce(0, +) / CGFloat(points.count), y: points.map(\.y).reduce(0, +) / CGFloat(points.count))
    }

    open func location(ofTouch touchIndex: Int, in view: UIView?) -> CGPoint {
        trackedTouches.indices.contains(touchIndex) ? trackedTouches[touchIndex].location(in: view) : location(in: view)
    }

    open var numberOfTouches: Int { trackedTouches.count }

    /// The last place a touch was, in window coordinates (kept after the touches end).
    var lastLocation: CGPoint?

    func convertFromWindow(_ point: CGPoint, to view: UIView?) -> CGPoint {
        guard let view, let window = view.window ?? self.view?.window else { return point }
        return view.convert(point, from: window)
    }

    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {}
    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {}
    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {}
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {}
    /// Called when the recognizer goes back to `.possible` after a gesture, to clear what it kept.
    open func reset() {}
    /// Stops following `touch`.
    open func ignore(_ touch: UITouch, for event: UIEvent) { trackedTouches.removeAll { $0 === touch } }

    /// Called by the stage's clock at each tick while touches are down (a long press begins by time).
    func tick(at time: TimeInterval) {}

    /// Back to `.possible` once a gesture ends.
    func resetNow() {
        trackedTouches = []
        waitingState = nil
        storedState = .possible
        reset()
    }
}

/// A weak reference.
struct Weak<T: AnyObject> {
    weak var value: T?
    init(_ value: T) { self.value = value }
}

extension UIView {
    /// The recognizers attached to the view, in the order added.
    public var gestureRecognizers: [UIGestureRecognizer]? {
        get { attachedRecognizers.isEmpty ? nil : attachedRecognizers }
        set {
            for recognizer in attachedRecognizers { recognizer.view = nil }
            attachedRecognizers = []
            for recognizer in newValue ?? [] { addGestureRecognizer(recognizer) }
        }
    }

    /// Attaches `gestureRecognizer` (taking it from another view).
    public func addGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {
        gestureRecognizer.view?.removeGestureRecognizer(gestureRecognizer)
        gestureRecognizer.view = self
        attachedRecognizers.append(gestureRecognizer)
    }

    public func removeGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {
        guard gestureRecognizer.view === self else { return }
        attachedRecognizers.removeAll { $0 === gestureRecognizer }
        gestureRecognizer.view = nil
    }
}
