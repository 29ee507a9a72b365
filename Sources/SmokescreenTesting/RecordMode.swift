import Foundation

/// When golden frames are written, from the environment variable `SMOKESCREEN_RECORD`.
///
/// A test run that records golden frames always fails, with a message saying what it recorded: a new
/// golden is something to look at and check in, never a silent pass.
public enum RecordMode: String, Sendable, CaseIterable {
    /// Record a golden set that does not exist yet (no PNG in its folder); compare the others. The default.
    case missing
    /// Re-record every golden set that is checked, replacing its frames.
    case all
    /// Never record (for CI): a missing golden set fails.
    case never

    /// The environment variable that selects the mode.
    public static let environmentVariable = "SMOKESCREEN_RECORD"

    /// The mode named by `value`: unset or empty means ``missing``; otherwise `missing`, `all` or `never`,
    /// ignoring case and surrounding spaces.
    /// - Throws: ``GoldenSetupError`` for any other value.
    public init(environmentValue value: String?) throws(GoldenSetupError) {
        let text = (value ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        if text.isEmpty { self = .missing; return }
        guard let mode = RecordMode(rawValue: text) else {
            throw GoldenSetupError("\(Self.environmentVariable)=\(value ?? "") is not one of missing, all, never")
        }
        self = mode
    }
}

/// Golden frames cannot be checked as asked: a bad name, a bad `SMOKESCREEN_RECORD` value.
public struct GoldenSetupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
