/// A method to call on a target: what `#selector(…)` names on Apple's platforms, where the
/// Objective-C runtime finds the method by name. Swift on Linux has no such runtime, so a selector here
/// carries the method itself: the source pass (docs/uikit.md) rewrites `#selector(handlePan(_:))` to
/// `Selector(handlePan(_:), name: "handlePan(_:)")`, a reference to the method bound to `self`, and
/// `#selector(Type.method(_:))` to the unbound method, called on the target given with it.
///
/// A selector made from a string alone (`Selector("handlePan:")`) names a method it cannot call: sending
/// it is noted in the stage's `warnings`, never a crash.
public struct Selector: Hashable, CustomStringConvertible, @unchecked Sendable {
    /// The method's name as written.
    public let name: String
    private let call: ((Any?, Any?) -> Void)?

    /// A selector that only names a method (it cannot call it here).
    public init(_ name: String) {
        self.name = name
        call = nil
    }

    /// A method of no arguments, bound to its object.
    public init(_ method: @escaping () -> Void, name: String = "method") {
        self.name = name
        call = { _, _ in method() }
    }

    /// A method of one argument (the sender), bound to its object. A sender of another type is not
    /// passed: the call is made only when the sender is a `Sender`.
    public init<Sender>(_ method: @escaping (Sender) -> Void, name: String = "method") {
        self.name = name
        call = { _, sender in
            if let sender = sender as? Sender { method(sender) } else { UIKitLog.warn("\(name) was not called: its sender is not a \(Sender.self)") }
        }
    }

    /// An unbound method of no arguments (`Type.method`), called on the target.
    public init<Target>(_ method: @escaping (Target) -> () -> Void, name: String = "method") {
        self.name = name
        call = { target, _ in
            if let target = target as? Target { method(target)() } else { UIKitLog.warn("\(name) was not called: the target is not a \(Target.self)") }
        }
    }

    /// An unbound method of one argument (`Type.method(_:)`), called on the target with the sender.
    public init<Target, Sender>(_ method: @escaping (Target) -> (Sender) -> Void, name: String = "method") {
        self.name = name
        call = { target, sender in
            guard let target = target as? Target, let sender = sender as? Sender else {
                UIKitLog.warn("\(name) was not called: the target or sender is not of the method's types")
                return
            }
            method(target)(sender)
        }
    }

    /// Calls the method on `target` with `sender`.
    package func perform(target: Any?, sender: Any?) {
        guard let call else {
            UIKitLog.warn("\(name) was not called: a selector made from a string names no method without the Objective-C runtime "
                          + "(write #selector(…) and run the source pass)")
            return
        }
        call(target, sender)
    }

    public static func == (a: Selector, b: Selector) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { name }
}
