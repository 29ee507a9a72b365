import BoundedInput

/// What went wrong in a render, with the file or key path, for the CLI's exit codes.
public enum RenderError: ExitStatusError, Equatable, Sendable {
    /// Input data that cannot be used (exit 65): a plist, manifest or asset.
    case badInput(path: String, reason: String)
    /// Reading or writing files failed (exit 74).
    case io(path: String, reason: String)
    /// Rendering itself failed (exit 1): a frame, a snapshot, an animation.
    case failed(what: String, reason: String)
    /// The settings ask for more than `Limits` allow, e.g. more frames than
    /// `Limits/framesPerRender` (exit 64, a usage error).
    case outOfLimits(what: String, reason: String)
    /// Stopped because ``RenderSettings/isCancelled`` said so (exit 1): nobody wants the render any more.
    case cancelled(what: String)

    public var description: String {
        switch self {
        case let .badInput(path, reason): "\(path): \(reason)"
        case let .io(path, reason): "\(path): \(reason)"
        case let .failed(what, reason), let .outOfLimits(what, reason): "\(what): \(reason)"
        case let .cancelled(what): "\(what): the render was cancelled"
        }
    }

    /// The process exit status this error stands for.
    public var exitStatus: Int32 {
        switch self {
        case .badInput: ExitStatus.dataError
        case .io: ExitStatus.ioError
        case .failed, .cancelled: ExitStatus.failure
        case .outOfLimits: ExitStatus.usage
        }
    }
}
