import ArgumentParser
import FrameStore
import Foundation

/// The command-line tool: thin wiring over the libraries. `smokescreen`'s `main` runs it; tests parse
/// and run its subcommands in process.
public struct SmokescreenCommand: ParsableCommand {
    // Every subcommand's configuration gives its `commandName`: without one, ArgumentParser derives the
    // name from the type's with `String(describing:)`, whose dynamic casts scan every protocol conformance
    // in the process, for each subcommand at every start (about a millisecond of an empty run).
    public static let configuration = makeConfiguration(defaultSubcommand: Render.self)

    static func makeConfiguration(defaultSubcommand: ParsableCommand.Type?) -> CommandConfiguration {
        CommandConfiguration(
            commandName: "smokescreen",
            abstract: "Render UIKit-style view transitions to PNG frames, compare frames, and measure them.",
            version: SmokescreenVersion.current,
            subcommands: [Render.self, List.self, Inspect.self, Memory.self, Diff.self, Preview.self, LintCommand.self, Bench.self, Check.self, Schema.self, Merge.self, Serve.self],
            defaultSubcommand: defaultSubcommand
        )
    }

    public init() {}

    /// The root `runMain` parses `arguments` with: this command, or, when the first argument names a
    /// subcommand other than the default one, the same command without a default subcommand, which
    /// parses such a line the same way. (With a default subcommand, ArgumentParser reflects over every
    /// option of `render` at each start, to see whether it takes the rest of the line: about a
    /// millisecond of `smokescreen list`.)
    static func root(for arguments: [String]) -> ParsableCommand.Type {
        guard let name = subcommandName(in: arguments), name != Render._commandName else { return SmokescreenCommand.self }
        return SmokescreenNamedSubcommand.self
    }

    /// Parses the command line and runs the command, then exits. Errors are printed in one format,
    /// `smokescreen: <where>: <reason>` on stderr, with a pointer to the subcommand's help after a usage
    /// error; help and `--version` print as usual. The exit status is the error's: 64 for bad usage, the
    /// `ExitStatus` of a data or I/O error, 1 for a failed render or a mismatch.
    public static func runMain(_ arguments: [String]? = nil) -> Never {
        let arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
        let root = root(for: arguments)
        var parsed: ParsableCommand?
        do {
            var command = try root.parseAsRoot(arguments)
            parsed = command
            try command.run()
            Foundation.exit(0)
        } catch {
            let code = root.exitCode(for: error)
            if code == .success { root.exit(withError: error) }  // --help, --version: printed as usual
            let message = root.message(for: error).trimmingCharacters(in: .whitespacesAndNewlines)
            if !message.isEmpty {
                let text = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
                printError(text)
                if code == .validationFailure {
                    let name = parsed.map { type(of: $0)._commandName }
                        ?? subcommandName(in: arguments) ?? ""
                    let help = name.isEmpty || name == "smokescreen" ? "smokescreen --help" : "smokescreen \(name) --help"
                    FileHandle.standardError.write(Data("(see '\(help)')\n".utf8))
                }
            }
            Foundation.exit(code.rawValue)
        }
    }

    /// The subcommand named by the first argument, if it is one.
    static func subcommandName(in arguments: [String]) -> String? {
        guard let first = arguments.first else { return nil }
        return configuration.subcommands.map { $0._commandName }.first { $0 == first }
    }

    /// Every subcommand's name, for suggestions.
    package static var subcommandNames: [String] { configuration.subcommands.map { $0._commandName } }
}

/// `smokescreen` without a default subcommand: the root `SmokescreenCommand.runMain` parses a command line
/// with when its first argument names a subcommand (see `SmokescreenCommand.root(for:)`).
struct SmokescreenNamedSubcommand: ParsableCommand {
    static let configuration = SmokescreenCommand.makeConfiguration(defaultSubcommand: nil)
}
