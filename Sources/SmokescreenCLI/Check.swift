import ArgumentParser
import BoundedInput
import Choreography

/// `smokescreen check scene.json`: validates a scene file as a render would, without drawing frames.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a scene file: its JSON, states, images and transitions, and every limit render enforces (exit 0 when it renders, 65 with the first problem otherwise).")

    @Argument(help: "The scene file (.json).")
    var scene: String

    @Option(parsing: .unconditional, help: "Check the canvas at this scale only (1, 2 or 3; default: every scale render accepts).")
    var scale: Int?

    @Flag(help: "Print one JSON object: {file, ok, transitions} when it renders, {file, ok: false, error, exitStatus} when not (the error also on stderr).")
    var json = false

    func validate() throws {
        if let scale { try checkScale(scale) }
    }

    func run() throws {
        let scales = scale.map { [Double($0)] } ?? SceneDocument.renderScales
        struct Result: Encodable { var file: String; var ok: Bool; var transitions: [String]?; var error: String?; var exitStatus: Int32? }
        let names: [String]
        do {
            names = try SceneDocument.check(path: scene, scales: scales)
        } catch {
            let (message, status) = (error as? any ExitStatusError).map { ($0.description, $0.exitStatus) } ?? ("\(error)", ExitStatus.failure)
            printError(message)
            if json { print(try jsonText(Result(file: scene, ok: false, error: message, exitStatus: status))) }
            throw ExitCode(status)
        }
        if json {
            print(try jsonText(Result(file: scene, ok: true, transitions: names)))
        } else {
            print("\(scene): OK, \(names.count) transition\(names.count == 1 ? "" : "s"): \(names.joined(separator: ", "))")
        }
    }
}
