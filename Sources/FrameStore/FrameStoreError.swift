import BoundedInput

/// Why an output folder could not be rendered into.
public enum FrameStoreError: ExitStatusError, Equatable, Sendable {
    /// The folder holds a file Smokescreen did not write (exit 73). `file` is the first such name.
    case foreignFile(folder: String, file: String, reason: String)
    /// The folder holds a whole render of other settings that a partial render would replace (exit 73).
    case otherRender(folder: String, reason: String)
    /// The folder cannot be created or opened (exit 73).
    case cannotCreate(path: String, reason: String)
    /// Reading or writing in the folder failed (exit 74).
    case io(path: String, reason: String)
    /// Drawing or encoding a frame failed (exit 1).
    case frameFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case let .foreignFile(folder, file, reason):
            "\(folder): holds '\(file)', which Smokescreen did not write (\(reason)); nothing was written. "
                + "Choose another --out folder, or pass --force to render beside files Smokescreen did not write (they are never changed or removed)"
        case let .otherRender(_, reason): reason
        case let .cannotCreate(path, reason): "\(path): cannot create the output folder: \(reason)"
        case let .io(path, reason): "\(path): \(reason)"
        case let .frameFailed(path, reason): "\(path): \(reason)"
        }
    }

    /// 73 for a foreign file or a folder that cannot be created, 74 for I/O, 1 for a frame that failed.
    public var exitStatus: Int32 {
        switch self {
        case .foreignFile, .otherRender, .cannotCreate: ExitStatus.cannotCreate
        case .io: ExitStatus.ioError
        case .frameFailed: ExitStatus.failure
        }
    }
}
