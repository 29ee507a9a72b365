import Foundation
import XCTest

/// A package that depends on this one by path golden-tests a built-in transition with SmokescreenTesting,
/// importing Foundation next to every library module without ambiguity: what a user's project does.
///
/// It builds this package again in a scratch folder (a few minutes on two cores), so it runs when
/// `SMOKESCREEN_CONSUMER_TEST=1` (`.ci/run` sets it) and is skipped otherwise, saying so.
final class ConsumerPackageTests: XCTestCase {
    func testAConsumerPackageGoldenTestsABuiltInTransition() throws {
        guard ProcessInfo.processInfo.environment["SMOKESCREEN_CONSUMER_TEST"] == "1" else {
            print("ConsumerPackageTests: skipped: set SMOKESCREEN_CONSUMER_TEST=1 to build a consumer package (minutes)")
            throw XCTSkip("set SMOKESCREEN_CONSUMER_TEST=1 to run")
        }
        let root = SafetyTests.root
        let identity = URL(fileURLWithPath: root).lastPathComponent.lowercased()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tests = folder + "/Tests/ConsumerTests"
        let goldens = tests + "/__Snapshots__/ConsumerTests/vesper"
        try FileManager.default.createDirectory(atPath: folder + "/Sources/Consumer", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: goldens, withIntermediateDirectories: true)
        // The goldens this repository checks in for the same transition and settings.
        let source = root + "/Tests/SmokescreenScenesGoldenTests/__Snapshots__/TransitionGoldenTests/vesper-timeline-to-detail"
        for name in try FileManager.default.contentsOfDirectory(atPath: source) {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: goldens + "/" + name)
        }
        let products = ["BoundedInput", "RasterCore", "PNGIO", "Typesetting", "SnapshotView", "Motion", "FrameStore", "TransitionCompositor",
                        "Choreography", "FrameDiff", "SmokescreenTesting", "SmokescreenScenes"]
        try """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "Consumer",
                dependencies: [.package(path: "\(root)")],
                targets: [
                    .target(name: "Consumer", dependencies: [.product(name: "SmokescreenScenes", package: "\(identity)")]),
                    .testTarget(
                        name: "ConsumerTests",
                        dependencies: ["Consumer", \(products.map { ".product(name: \"\($0)\", package: \"\(identity)\")" }.joined(separator: ", "))],
                        exclude: ["__Snapshots__"]  // the goldens are resources of the test, not sources
                    ),
                ]
            )
            """.write(toFile: folder + "/Package.swift", atomically: true, encoding: .utf8)
        try """
            import Foundation
            import SmokescreenScenes

            /// The transitions this app tests.
            public let catalogue = TransitionCatalog.all.map(\\.name)
            """.write(toFile: folder + "/Sources/Consumer/Consumer.swift", atomically: true, encoding: .utf8)
        try """
            import BoundedInput
            import Choreography
            import Consumer
            import Foundation
            import FrameDiff
            import FrameStore
            import Motion
            import PNGIO
            import RasterCore
            import SmokescreenScenes
            import SmokescreenTesting
            import SnapshotView
            import TransitionCompositor
            import Typesetting
            import XCTest

            final class ConsumerTests: XCTestCase {
                func testVesperMatchesItsGoldens() {
                    // Foundation's and Smokescreen's types side by side, unqualified.
                    let transform: Transform2D = .identity
                    let foundationTransform = AffineTransform.identity
                    XCTAssertTrue(transform.isIdentity)
                    XCTAssertEqual(foundationTransform, AffineTransform.identity)
                    XCTAssertTrue(catalogue.contains("vesper-timeline-to-detail"))
                    let settings = RenderSettings(scale: 1, fps: 10, assetsDirectory: "\(root)/assets")
                    assertTransition(VesperTransition(.timelineToDetail), settings: settings, matchGoldenNamed: "vesper")
                }
            }
            """.write(toFile: tests + "/ConsumerTests.swift", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "test", "--package-path", folder, "--scratch-path", folder + "/.build"]
        var environment = ProcessInfo.processInfo.environment
        environment["SMOKESCREEN_RECORD"] = "never"   // the goldens must match, never be recorded
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, String(output.suffix(4000)))
        XCTAssertTrue(output.contains("Executed 1 test, with 0 failures"), String(output.suffix(4000)))
    }
}
