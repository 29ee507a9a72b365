import ArgumentParser
import Choreography

/// `smokescreen check scene.json`: validates a scene file as a render would, without drawing frames.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a scene file: its JSON, states, images and transitions (exit 0 when it renders, 65 with the first problem otherwise).")

    @Argument(help: "The scene file (.json).")
    var scene: String

    func run() throws {
        let names = try reportingErrors { try SceneDocument.check(path: scene) }
        print("\(scene): OK, \(names.count) transition\(names.count == 1 ? "" : "s"): \(names.joined(separator: ", "))")
    }
}
