import XCTest

/// The UIKit layer sits on top: no Smokescreen module imports it (docs/ARCHITECTURE.md).
final class LayeringTests: XCTestCase {
    func testNoSmokescreenModuleImportsTheUIKitLayer() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        // (UIKitBenchmark is a program on top of both: the UIKit layer against the native API.)
        let layer: Set<String> = ["UIKit", "QuartzCore", "CoreGraphics", "SmokescreenStage", "SmokescreenStageTesting", "UIKitBenchmark"]
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !layer.contains($0) }
        XCTAssertGreaterThan(modules.count, 20)
        var offenders: [String] = []
        for module in modules {
            guard let files = FileManager.default.enumerator(atPath: sources.appendingPathComponent(module).path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: sources.appendingPathComponent(module).appendingPathComponent(file), encoding: .utf8)
                // Imports stand at the start of a line; an indented one is text (a generated file's, in a string).
                for line in text.split(separator: "\n") where !(line.first?.isWhitespace ?? true) {
                    let words = line.split(separator: " ").map(String.init)
                    if let i = words.firstIndex(of: "import"), i + 1 < words.count, layer.contains(words[i + 1]) {
                        offenders.append("\(module)/\(file): \(line)")
                    }
                }
            }
        }
        XCTAssertEqual(offenders, [])
    }
}
