import Dispatch
import Foundation
internal import Motion

// The main queue's and timers' time on a stage is the stage's clock. Swift lets a module's own type
// shadow one of the same name from a module it imports, so code that imports UIKit (this module) and
// calls `DispatchQueue.main.asyncAfter` or `Timer.scheduledTimer` gets these: on the main queue and with
// a stage, the work runs at the virtual time it falls due (a frame taken then shows it); every other
// queue, and everything without a stage, is Dispatch's and Foundation's own.

/// Dispatch's queue, with the main queue on the stage's clock: `async` runs at the next tick of it,
/// `asyncAfter` at the virtual time `deadline` names (its distance from now). Other queues are
/// Dispatch's (`underlying`).
public final class DispatchQueue: @unchecked Sendable, Equatable {
    /// Dispatch's queue this one stands for.
    public let underlying: Dispatch.DispatchQueue
    private let isMain: Bool

    private init(underlying: Dispatch.DispatchQueue, isMain: Bool) {
        self.underlying = underlying
        self.isMain = isMain
    }

    public typealias Attributes = Dispatch.DispatchQueue.Attributes
    public typealias AutoreleaseFrequency = Dispatch.DispatchQueue.AutoreleaseFrequency

    /// The main queue: the stage's clock when a stage runs.
    public static let main = DispatchQueue(underlying: .main, isMain: true)

    public static func global(qos: DispatchQoS.QoSClass = .default) -> DispatchQueue {
        DispatchQueue(underlying: .global(qos: qos), isMain: false)
    }

    public convenience init(label: String, qos: DispatchQoS = .unspecified, attributes: Attributes = [],
                            autoreleaseFrequency: AutoreleaseFrequency = .inherit, target: DispatchQueue? = nil) {
        self.init(underlying: Dispatch.DispatchQueue(label: label, qos: qos, attributes: attributes, autoreleaseFrequency: autoreleaseFrequency,
                                                     target: target?.underlying), isMain: false)
    }

    public var label: String { underlying.label }

    /// The stage's engine, when this is the main queue and a stage runs.
    private var clock: AnimationEngine? { isMain ? StageContext.engine : nil }

    public func async(group: DispatchGroup? = nil, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
                      execute work: @escaping () -> Void) {
        if let clock { clock.perform(afterDelay: 0) { work() } } else { let box = Unchecked(work); underlying.async(group: group, qos: qos, flags: flags) { box.value() } }
    }

    public func async(execute workItem: DispatchWorkItem) {
        if let clock { clock.perform(afterDelay: 0) { workItem.perform() } } else { underlying.async(execute: workItem) }
    }

    /// `asyncAfter(deadline: .now() + d)`: on a stage `.now()` is the stage's clock (``StageDeadline``), so
    /// the work runs exactly `d` virtual seconds later, however long the wall clock takes between reading
    /// `.now()` and this call.
    public func asyncAfter(deadline: StageDeadline, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
                           execute work: @escaping () -> Void) {
        if let clock { Self.perform(on: clock, afterDelay: Self.seconds(until: deadline), work) } else {
            let box = Unchecked(work); underlying.asyncAfter(deadline: deadline.dispatchTime, qos: qos, flags: flags) { box.value() }
        }
    }

    public func asyncAfter(deadline: StageDeadline, execute workItem: DispatchWorkItem) {
        if let clock { Self.perform(on: clock, afterDelay: Self.seconds(until: deadline)) { workItem.perform() } } else {
            underlying.asyncAfter(deadline: deadline.dispatchTime, execute: workItem)
        }
    }

    /// A `DispatchTime` made before the call (`let t = DispatchTime.now() + d`): its distance from now,
    /// read to the millisecond.
    @_disfavoredOverload
    public func asyncAfter(deadline: DispatchTime, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
                           execute work: @escaping () -> Void) {
        if let clock { Self.perform(on: clock, afterDelay: Self.seconds(until: StageDeadline(deadline)), work) } else {
            let box = Unchecked(work); underlying.asyncAfter(deadline: deadline, qos: qos, flags: flags) { box.value() }
        }
    }

    @_disfavoredOverload
    public func asyncAfter(deadline: DispatchTime, execute workItem: DispatchWorkItem) {
        if let clock { Self.perform(on: clock, afterDelay: Self.seconds(until: StageDeadline(deadline))) { workItem.perform() } } else {
            underlying.asyncAfter(deadline: deadline, execute: workItem)
        }
    }

    public func asyncAfter(wallDeadline: DispatchWallTime, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
                           execute work: @escaping () -> Void) {
        if let clock { Self.perform(on: clock, afterDelay: Self.seconds(until: wallDeadline), work) } else {
            let box = Unchecked(work); underlying.asyncAfter(wallDeadline: wallDeadline, qos: qos, flags: flags) { box.value() }
        }
    }

    /// Runs `work` now on the main queue (the caller is on it), or on Dispatch's queue.
    public func sync<T>(execute work: () throws -> T) rethrows -> T {
        if isMain, Thread.isMainThread { return try work() }
        return try underlying.sync(execute: work)
    }

    public func sync(execute workItem: DispatchWorkItem) {
        if isMain, Thread.isMainThread { workItem.perform() } else { underlying.sync(execute: workItem) }
    }

    /// Runs `work` on the stage's clock `delay` seconds from now; an infinite delay (`.now() + .never`,
    /// `.distantFuture`) never comes, so the work never runs and the stage does not wait for it.
    private static func perform(on clock: AnimationEngine, afterDelay delay: Double, _ work: @escaping () -> Void) {
        if delay.isFinite { clock.perform(afterDelay: delay, work) }
    }

    /// Seconds of the stage's clock from now to `deadline` (0 when it has passed): exact for a deadline on
    /// the stage's clock. A `DispatchTime`'s is rounded to the millisecond: the wall-clock moments between
    /// `DispatchTime.now() + d` and this reading are not the script's delay.
    private static func seconds(until deadline: StageDeadline) -> Double {
        switch deadline.base {
        case let .stage(time):
            return max(0, time - StageContext.now)
        case let .dispatch(time):
            guard time != .distantFuture else { return .infinity }
            let seconds = max(0, (Double(time.uptimeNanoseconds) - Double(DispatchTime.now().uptimeNanoseconds)) / 1e9)
            return (seconds * 1000).rounded() / 1000
        }
    }

    /// Seconds from now to a wall-clock deadline (0 when it has passed), read to the millisecond;
    /// `.distantFuture` is never.
    private static func seconds(until deadline: DispatchWallTime) -> Double {
        guard deadline != .distantFuture else { return .infinity }
        let now = DispatchWallTime.now()
        let nanoseconds = Double(Int64(bitPattern: deadline.rawValue) &- Int64(bitPattern: now.rawValue)) * wallTimeDirection
        return (max(0, nanoseconds / 1e9) * 1000).rounded() / 1000
    }

    /// 1 or −1: which way a wall time's raw value moves as time passes. Dispatch stores a wall time as its
    /// nanoseconds negated (on Linux; as flagged nanoseconds elsewhere), so the difference of two raw values
    /// is the time between them, with this sign.
    private static let wallTimeDirection: Double = {
        let now = DispatchWallTime.now()
        return Int64(bitPattern: (now + 1.0).rawValue) &- Int64(bitPattern: now.rawValue) > 0 ? 1 : -1
    }()

    public static func == (a: DispatchQueue, b: DispatchQueue) -> Bool { a.underlying === b.underlying }
}

/// What `.now() + d` is in `DispatchQueue.main.asyncAfter(deadline: .now() + d)` in code that imports
/// UIKit: a time on the stage's clock while a stage runs (so the delay is exactly `d`, whatever the wall
/// clock does meanwhile), Dispatch's time otherwise. Written as Dispatch's is: `.now()`, `+` and `-` with
/// seconds (`Double`) or a `DispatchTimeInterval`. A `DispatchTime` passed to `asyncAfter` still works (its
/// distance from now is read to the millisecond). Smokescreen's own type: iOS's `asyncAfter` takes
/// `DispatchTime`, which code can still name and pass.
public struct StageDeadline: Sendable {
    enum Base: Sendable {
        /// Seconds of the stage's clock.
        case stage(Double)
        case dispatch(DispatchTime)
    }
    let base: Base

    init(_ time: DispatchTime) { base = .dispatch(time) }
    private init(base: Base) { self.base = base }

    /// Now: the stage's clock while a stage runs, else Dispatch's.
    public static func now() -> StageDeadline {
        StageContext.engine != nil ? StageDeadline(base: .stage(StageContext.now)) : StageDeadline(DispatchTime.now())
    }

    /// The deadline as Dispatch's time, for queues not on the stage's clock.
    var dispatchTime: DispatchTime {
        switch base {
        case let .stage(time):
            let seconds = time - StageContext.now
            return seconds.isFinite ? .now() + seconds : .distantFuture
        case let .dispatch(time):
            return time
        }
    }

    public static func + (deadline: StageDeadline, seconds: Double) -> StageDeadline {
        switch deadline.base {
        case let .stage(time): return StageDeadline(base: .stage(time + seconds))
        case let .dispatch(time): return StageDeadline(time + seconds)
        }
    }

    public static func - (deadline: StageDeadline, seconds: Double) -> StageDeadline { deadline + -seconds }

    public static func + (deadline: StageDeadline, interval: DispatchTimeInterval) -> StageDeadline {
        switch deadline.base {
        case .stage: return deadline + Self.seconds(of: interval)
        case let .dispatch(time): return StageDeadline(time + interval)
        }
    }

    public static func - (deadline: StageDeadline, interval: DispatchTimeInterval) -> StageDeadline {
        switch deadline.base {
        case .stage: return deadline + -Self.seconds(of: interval)
        case let .dispatch(time): return StageDeadline(time - interval)
        }
    }

    /// An interval in seconds (`.never`: forever).
    static func seconds(of interval: DispatchTimeInterval) -> Double {
        switch interval {
        case let .seconds(n): return Double(n)
        case let .milliseconds(n): return Double(n) / 1e3
        case let .microseconds(n): return Double(n) / 1e6
        case let .nanoseconds(n): return Double(n) / 1e9
        case .never: return .infinity
        @unknown default: return .infinity
        }
    }
}

/// Foundation's timer, on the stage's clock when a stage runs: it fires at the virtual times it falls
/// due (every `timeInterval` when it repeats) until `invalidate()`; without a stage it is Foundation's.
open class Timer: NSObject, @unchecked Sendable {
    open private(set) var timeInterval: TimeInterval
    open private(set) var isValid = true
    open var tolerance: TimeInterval = 0
    open private(set) var userInfo: Any?
    private let repeats: Bool
    private let block: (Timer) -> Void
    private var foundationTimer: Foundation.Timer?
    private var scheduled = false
    /// When it fires next (media time on a stage).
    open private(set) var fireDate = Date()

    private init(interval: TimeInterval, repeats: Bool, action: @escaping (Timer) -> Void) {
        timeInterval = max(0.0001, interval.isFinite ? interval : 0.0001)
        self.repeats = repeats
        block = action
        super.init()
    }

    public convenience init(timeInterval interval: TimeInterval, repeats: Bool, block: @escaping (Timer) -> Void) {
        self.init(interval: interval, repeats: repeats, action: block)
    }

    public convenience init(timeInterval ti: TimeInterval, target aTarget: Any, selector aSelector: Selector, userInfo: Any?, repeats yesOrNo: Bool) {
        self.init(interval: ti, repeats: yesOrNo) { timer in aSelector.perform(target: aTarget, sender: timer) }
        self.userInfo = userInfo
    }

    /// A timer scheduled now (on the stage's clock when a stage runs).
    @discardableResult
    open class func scheduledTimer(withTimeInterval interval: TimeInterval, repeats: Bool, block: @escaping (Timer) -> Void) -> Timer {
        let timer = Timer(timeInterval: interval, repeats: repeats, block: block)
        timer.schedule()
        return timer
    }

    @discardableResult
    open class func scheduledTimer(timeInterval ti: TimeInterval, target aTarget: Any, selector aSelector: Selector, userInfo: Any?,
                                   repeats yesOrNo: Bool) -> Timer {
        let timer = Timer(timeInterval: ti, target: aTarget, selector: aSelector, userInfo: userInfo, repeats: yesOrNo)
        timer.schedule()
        return timer
    }

    /// Starts it (what adding it to a run loop does).
    func schedule() {
        guard !scheduled, isValid else { return }
        scheduled = true
        if let engine = StageContext.engine {
            scheduleTick(on: engine)
        } else {
            let box = Unchecked(self)
            foundationTimer = Foundation.Timer.scheduledTimer(withTimeInterval: timeInterval, repeats: repeats) { _ in
                let timer = box.value
                timer.block(timer)
                if !timer.repeats { timer.isValid = false }
            }
        }
    }

    private func scheduleTick(on engine: AnimationEngine) {
        fireDate = Date(timeIntervalSinceReferenceDate: engine.currentTime + timeInterval)
        // Held by the clock until it fires, as a run loop holds a scheduled timer.
        engine.perform(afterDelay: timeInterval) { [weak engine] in
            guard self.isValid else { return }
            self.block(self)
            if self.repeats, self.isValid, let engine { self.scheduleTick(on: engine) } else { self.isValid = false }
        }
    }

    /// Runs the block now (a repeating timer keeps its schedule).
    open func fire() {
        guard isValid else { return }
        block(self)
        if !repeats { invalidate() }
    }

    open func invalidate() {
        isValid = false
        foundationTimer?.invalidate()
        foundationTimer = nil
    }
}

extension RunLoop {
    /// Schedules one of the stage's timers (see ``Timer``).
    public func add(_ timer: Timer, forMode mode: RunLoop.Mode) { timer.schedule() }
}

/// A value handed to Dispatch's or Foundation's `@Sendable` closures: iOS code's blocks are not marked
/// sendable, and on a stage they run on the main thread.
struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
