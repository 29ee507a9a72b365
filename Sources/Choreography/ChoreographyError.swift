import BoundedInput

/// A choreography that does not fit the trees it is given (exit 65: bad input data).
public struct ChoreographyError: ExitStatusError, Equatable, Sendable {
    /// The transition's name.
    public var transition: String
    public var reason: String

    public init(transition: String, reason: String) {
        self.transition = transition
        self.reason = reason
    }

    public var description: String { "\(transition): \(reason)" }
    public var exitStatus: Int32 { ExitStatus.dataError }
}
