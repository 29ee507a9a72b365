import ArgumentParser
import SmokescreenScenes

/// `smokescreen list`: the built-in transitions, one line each.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the built-in transitions.")

    func run() {
        let width = TransitionCatalog.all.map(\.name.count).max() ?? 0
        for t in TransitionCatalog.all {
            let marker = t.name == TransitionCatalog.defaultName ? " (default)" : ""
            print("\(t.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(t.summary)\(marker)")
        }
    }
}
