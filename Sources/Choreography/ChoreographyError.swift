import BoundedInput

/// A choreography that does not fit the trees it is given (exit 65: bad input data).
public struct ChoreographyError: ExitStatusError, Equatable, Sendable {
    /// The transition's name.
    public var transition: String
    /// What does not fit, naming the entry (`matches[0]`) and the view or phase.
    public var reason: String

    /// An error about `transition`.
    public init(transition: String, reason: String) {
        self.transition = transition
        self.reason = reason
    }

    public var description: String { "\(transition): \(reason)" }
    /// 65: bad input data.
    public var exitStatus: Int32 { ExitStatus.dataError }
}
