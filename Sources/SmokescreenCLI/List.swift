import ArgumentParser
import SmokescreenScenes

/// `smokescreen list`: the built-in transitions, one line each, or as JSON.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the built-in transitions.")

    @Flag(help: "JSON on stdout: each transition's name, summary, size in points, default frame rate, and whether it is the default.")
    var json = false

    struct Entry: Encodable {
        var name: String
        var summary: String
        /// `[width, height]` in points.
        var pointSize: [Double]
        /// Frames per second when none is asked for.
        var defaultFPS: Double
        var isDefault: Bool
        /// Whether `--durations` applies.
        var readsDurationsFile: Bool
    }

    func run() throws {
        if json {
            print(try jsonText(TransitionCatalog.all.map {
                Entry(name: $0.name, summary: $0.summary, pointSize: [$0.pointSize.width, $0.pointSize.height], defaultFPS: $0.defaultFPS,
                      isDefault: $0.name == TransitionCatalog.defaultName, readsDurationsFile: $0.readsDurationsFile)
            }))
            return
        }
        let width = TransitionCatalog.all.map(\.name.count).max() ?? 0
        for t in TransitionCatalog.all {
            let marker = t.name == TransitionCatalog.defaultName ? " (default)" : ""
            // Padded in Swift: String.padding(toLength:) goes through NSString, a few hundred µs of this run.
            print("\(t.name)\(String(repeating: " ", count: width - t.name.count))  \(t.summary)\(marker)")
        }
    }
}
