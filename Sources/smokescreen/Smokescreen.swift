import ArgumentParser

/// The command-line tool: thin wiring over the libraries.
@main
struct Smokescreen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smokescreen",
        abstract: "Render UIKit-style view transitions to PNG frames, compare frames, and measure them.",
        subcommands: [Bench.self, Diff.self]
    )
}
