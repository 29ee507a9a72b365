import ArgumentParser
import Choreography

/// `smokescreen schema`: the JSON Schema of scene files on stdout, for editors (completion and errors as
/// one types) and validators. The bytes of `docs/scene.schema.json`.
struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of scene files, for an editor's completion and checks (`smokescreen schema > scene.schema.json`).")

    func run() throws {
        print(SceneDocument.schema, terminator: "")
    }
}
