/// The tool's version: the one place it is set. `smokescreen --version` prints it and every manifest
/// records it as `generator` (`"smokescreen <version>"`), which is how a folder's files are known to be
/// Smokescreen's.
public enum SmokescreenVersion {
    /// Semantic version of this build of Smokescreen.
    public static let current = "0.5.0"

    /// The manifest's `generator` value: `"smokescreen 0.5.0"`.
    public static var generator: String { "smokescreen \(current)" }
}
