import RasterCore
import SnapshotView

/// The view a transition animates on: placed at the top of a container's z-order while the real views
/// are swapped underneath it, and removed when the last animation that uses it has completed.
///
/// Each animation block calls ``incrementUseCount()`` before it starts and ``decrementUseCount()`` in
/// its completion, so the smokescreen goes away after the longest block, whichever that is.
public final class Smokescreen: View {
    /// The view the smokescreen covers (not retained: the container owns the smokescreen while shown).
    public private(set) weak var container: View?
    /// How many animation blocks are using the smokescreen. 0 when it is not in the container.
    public private(set) var useCount = 0

    /// A smokescreen covering `container`'s bounds; it joins the container on the first increment.
    public init(container: View, name: String = "smokescreen") {
        self.container = container
        super.init(frame: container.bounds, name: name)
        isOpaque = false
    }

    /// Adds the smokescreen on top of the container when the count goes from 0 to 1 (sized to the
    /// container's bounds then), and keeps it on top of anything added since.
    public func incrementUseCount() throws {
        guard let container else { throw SmokescreenError.containerGone(name: name ?? "smokescreen") }
        useCount += 1
        if superview !== container {
            ViewChangeObservation.withoutObserver { frame = container.bounds }
            try container.addSubview(self)
        } else {
            container.bringSubviewToFront(self)
        }
    }

    /// Removes the smokescreen (and everything in it) when the count returns to 0. A decrement with the
    /// count already at 0 throws ``SmokescreenError/useCountBelowZero(name:)`` and changes nothing.
    public func decrementUseCount() throws {
        guard useCount > 0 else { throw SmokescreenError.useCountBelowZero(name: name ?? "smokescreen") }
        useCount -= 1
        if useCount == 0 {
            removeFromSuperview()
            for child in subviews { child.removeFromSuperview() }
        }
    }
}

/// Misuse of a ``Smokescreen``.
public enum SmokescreenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// More decrements than increments.
    case useCountBelowZero(name: String)
    /// The container was released while the smokescreen was still wanted.
    case containerGone(name: String)

    public var description: String {
        switch self {
        case .useCountBelowZero(let name): "\(name): decrementUseCount() with the use count already 0 (one more decrement than increments)"
        case .containerGone(let name): "\(name): its container no longer exists"
        }
    }
}
