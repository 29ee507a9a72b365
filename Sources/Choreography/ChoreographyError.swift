import BoundedInput

/// A choreography that does not fit the trees it is given (exit 65: bad input data), or a transition a
/// scene file does not have (exit 64: bad usage, as for an unknown built-in).
public struct ChoreographyError: ExitStatusError, Equatable, Sendable {
    /// The transition's name.
    public var transition: String
    /// What does not fit, naming the entry (`matches[0]`) and the view or phase.
    public var reason: String
    /// 65 (bad input data) unless said otherwise.
    public var exitStatus: Int32

    /// An error about `transition`; `exitStatus` defaults to 65.
    public init(transition: String, reason: String, exitStatus: Int32 = ExitStatus.dataError) {
        self.transition = transition
        self.reason = reason
        self.exitStatus = exitStatus
    }

    public var description: String { "\(transition): \(reason)" }
}
