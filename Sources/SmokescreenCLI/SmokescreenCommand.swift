import ArgumentParser
import FrameStore

/// The command-line tool: thin wiring over the libraries. `smokescreen`'s `main` runs it; tests parse
/// and run its subcommands in process.
public struct SmokescreenCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "smokescreen",
        abstract: "Render UIKit-style view transitions to PNG frames, compare frames, and measure them.",
        version: SmokescreenVersion.current,
        subcommands: [Render.self, List.self, Inspect.self, Memory.self, Diff.self, Preview.self, LintCommand.self, Bench.self, Check.self, Merge.self],
        defaultSubcommand: Render.self
    )

    public init() {}
}
