import Foundation
import XCTest

/// `smokescreen schema` prints the scene schema: the bytes of `docs/scene.schema.json` (which
/// `SceneSchemaTests` validates scenes with), on stdout, exit 0.
final class SchemaCommandTests: XCTestCase {
    func testItPrintsTheShippedSchema() throws {
        guard FileManager.default.isExecutableFile(atPath: SafetyTests.tool) else { throw XCTSkip("\(SafetyTests.tool) is not built (swift build first)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SafetyTests.tool)
        process.arguments = ["schema"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let printed = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let shipped = try Data(contentsOf: URL(fileURLWithPath: SafetyTests.root + "/docs/scene.schema.json"))
        XCTAssertEqual(printed, shipped)
    }
}
