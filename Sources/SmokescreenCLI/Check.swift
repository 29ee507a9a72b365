import ArgumentParser
import Choreography

/// `smokescreen check scene.json`: validates a scene file as a render would, without drawing frames.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a scene file: its JSON, states, images and transitions, and every limit render enforces (exit 0 when it renders, 65 with the first problem otherwise).")

    @Argument(help: "The scene file (.json).")
    var scene: String

    @Option(parsing: .unconditional, help: "Check the canvas at this scale only (1, 2 or 3; default: every scale render accepts).")
    var scale: Int?

    func validate() throws {
        if let scale { try checkScale(scale) }
    }

    func run() throws {
        let scales = scale.map { [Double($0)] } ?? SceneDocument.renderScales
        let names = try reportingErrors { try SceneDocument.check(path: scene, scales: scales) }
        print("\(scene): OK, \(names.count) transition\(names.count == 1 ? "" : "s"): \(names.joined(separator: ", "))")
    }
}
