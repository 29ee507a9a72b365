import BoundedInput

/// What went wrong reading a part or publishing the merge: one line naming the part, member, file or
/// folder and the reason, with its exit status (65 bad data, 66 not an input, 73 cannot create, 74 I/O).
public struct MergePartsError: ExitStatusError, Equatable, Sendable {
    public var description: String
    public var exitStatus: Int32

    /// An error `description` with `exitStatus` (default 65, bad data).
    public init(_ description: String, exitStatus: Int32 = ExitStatus.dataError) {
        self.description = description
        self.exitStatus = exitStatus
    }
}
