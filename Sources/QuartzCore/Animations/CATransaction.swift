/// Core Animation's transactions, as far as animation code uses them: a completion block that runs once
/// every animation added inside the transaction has ended (at that virtual time), the default
/// duration (0.25 s) and timing function of the animations added, and disabled actions. Without
/// `begin()`, the calls go to the implicit transaction, committed by `commit()`.
open class CATransaction: NSObject {
    final class Frame {
        var duration: Double?
        var timingFunction: CAMediaTimingFunction?
        var disableActions = false
        var completion: (() -> Void)?
        var pending = 0
        var committed = false

        /// Runs the completion once it is committed and nothing it waits for runs.
        func settle() {
            guard committed, pending == 0, let completion else { return }
            self.completion = nil
            completion()
        }
    }

    nonisolated(unsafe) static var stack: [Frame] = []
    nonisolated(unsafe) static var implicit = Frame()

    static var current: Frame { stack.last ?? implicit }

    open class func begin() { stack.append(Frame()) }

    /// Ends the transaction begun last (or the implicit one): its completion runs when its animations end,
    /// at once when it has none.
    open class func commit() {
        let frame = stack.popLast() ?? {
            let f = implicit
            implicit = Frame()
            return f
        }()
        frame.committed = true
        if frame.pending == 0, frame.completion != nil {
            // As Core Animation: at the end of the turn, not inside commit.
            if let engine = StageContext.engine { engine.schedule(at: engine.currentTime) { frame.settle() } } else { frame.settle() }
        }
    }

    open class func flush() {}

    open class func setCompletionBlock(_ block: (() -> Void)?) { current.completion = block }
    open class func completionBlock() -> (() -> Void)? { current.completion }
    open class func setAnimationDuration(_ duration: CFTimeInterval) { current.duration = duration }
    /// Seconds of an animation whose duration is 0: the transaction's, 0.25 by default.
    open class func animationDuration() -> CFTimeInterval { stack.reversed().lazy.compactMap(\.duration).first ?? 0.25 }
    open class func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) { current.timingFunction = function }
    open class func animationTimingFunction() -> CAMediaTimingFunction? { current.timingFunction }
    /// Accepted: layers here have no implicit animations to disable.
    open class func setDisableActions(_ flag: Bool) { current.disableActions = flag }
    open class func disableActions() -> Bool { current.disableActions }

    /// The transaction an animation added now belongs to: it waits for it.
    static func animationAdded() -> Frame {
        let frame = current
        frame.pending += 1
        return frame
    }
}
