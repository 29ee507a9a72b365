import Foundation
import FrameStore
import XCTest

/// A package that depends on this one by its version (`from: "0.5.0"`, SwiftPM resolving the release tag
/// of a clone of this repository) golden-tests a built-in transition with SmokescreenTesting,
/// importing Foundation next to every library module without ambiguity: what a user's project does. A second
/// test file of it uses `import Smokescreen` and the swift-snapshot-testing strategies of
/// `SmokescreenSnapshotTesting`: `assertSnapshot` of a view tree and of a scene transition against this
/// repository's references (`Tests/SmokescreenSnapshotTestingTests/__Snapshots__`), and a built-in
/// transition recorded and compared with no assets folder given (found in this checkout).
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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The repository as a consumer gets it: a git clone (its committed state) whose release is a tag,
        // resolved by version. The clone's tag of this version is put on its HEAD (a commit made since the
        // release was tagged is what is under test).
        let version = SmokescreenVersion.current
        let clone = folder + "-repository/smokescreen"
        defer { try? FileManager.default.removeItem(atPath: folder + "-repository") }
        let identity = "smokescreen"
        let git = try Self.shell("git clone --quiet '\(root)' '\(clone)' && cd '\(clone)' && git tag -f '\(version)' >/dev/null && git tag --points-at HEAD")
        XCTAssertEqual(git.status, 0, git.output)
        XCTAssertTrue(git.output.split(separator: "\n").contains(Substring(version)), "HEAD of the clone is tagged \(version): \(git.output)")
        let tests = folder + "/Tests/ConsumerTests"
        let goldens = tests + "/__Snapshots__/ConsumerTests/vesper"
        try FileManager.default.createDirectory(atPath: folder + "/Sources/Consumer", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: goldens, withIntermediateDirectories: true)
        // The goldens this repository checks in for the same transition and settings.
        let source = root + "/Tests/SmokescreenScenesGoldenTests/__Snapshots__/TransitionGoldenTests/vesper-timeline-to-detail"
        for name in try FileManager.default.contentsOfDirectory(atPath: source) {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: goldens + "/" + name)
        }
        // The references of the snapshot strategies' own tests, for the same views and transition.
        let references = tests + "/__Snapshots__/StrategyTests"
        try FileManager.default.copyItem(atPath: root + "/Tests/SmokescreenSnapshotTestingTests/__Snapshots__/StrategyTests", toPath: references)
        let products = ["Smokescreen", "SmokescreenSnapshotTesting", "BoundedInput", "RasterCore", "PNGIO", "Typesetting", "SnapshotView", "Motion", "FrameStore", "TransitionCompositor",
                        "Choreography", "FrameDiff", "SmokescreenTesting", "SmokescreenScenes"]
        try """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "Consumer",
                dependencies: [.package(url: "file://\(clone)", from: "\(version)")],
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
        try Self.strategyTests.write(toFile: tests + "/StrategyTests.swift", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "test", "--package-path", folder, "--scratch-path", folder + "/.build"]
        var environment = ProcessInfo.processInfo.environment
        environment["SMOKESCREEN_RECORD"] = "never"   // the goldens must match, never be recorded
        environment["SNAPSHOT_TESTING_RECORD"] = "never"  // so must the snapshot references
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, String(output.suffix(4000)))
        XCTAssertTrue(output.contains("Executed 4 tests, with 0 failures"), String(output.suffix(4000)))
        let resolved = try String(contentsOfFile: folder + "/Package.resolved", encoding: .utf8)
        XCTAssertTrue(resolved.contains("\"version\" : \"\(version)\""), "resolved by its version: \(resolved)")
    }

    static func shell(_ command: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// The consumer's snapshot tests: the card and the scene of `SmokescreenSnapshotTestingTests/StrategyTests`
    /// (same test names, so the references copied beside it are theirs), through `import Smokescreen`.
    static let strategyTests = #"""
        import Foundation
        import Smokescreen
        import SmokescreenSnapshotTesting
        import XCTest

        final class StrategyTests: XCTestCase {
            func testAViewTreeMatchesItsReference() throws {
                let window = View(frame: Rect(x: 0, y: 0, width: 40, height: 30), name: "window")
                window.backgroundColor = .white
                let panel = View(frame: Rect(x: 4, y: 5, width: 28, height: 20), name: "panel")
                panel.backgroundColor = Color(hex: 0x007AFF)
                panel.cornerRadius = 5
                let badge = View(frame: Rect(x: 26, y: 2, width: 10, height: 10), name: "badge")
                badge.backgroundColor = Color(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.8)
                badge.cornerRadius = 5
                try window.addSubview(panel)
                try window.addSubview(badge)
                assertSnapshot(of: window, as: .image(scale: 1))
            }

            func testATransitionMatchesItsFrameReferences() throws {
                let path = NSTemporaryDirectory() + "/consumer-grow-\(UUID().uuidString).json"
                defer { try? FileManager.default.removeItem(atPath: path) }
                try """
                    {
                      "size": [48, 32],
                      "states": {
                        "small": { "backgroundColor": "#FFFFFF",
                                   "subviews": [ { "name": "square", "frame": [4, 4, 12, 12], "backgroundColor": "#E74C3C", "cornerRadius": 3 } ] },
                        "large": { "backgroundColor": "#FFFFFF",
                                   "subviews": [ { "name": "square", "frame": [22, 6, 22, 22], "backgroundColor": "#3498DB", "cornerRadius": 6 } ] }
                      },
                      "transitions": [
                        { "name": "grow", "from": "small", "to": "large",
                          "phases": [ { "name": "move", "duration": 0.3, "curve": "easeInEaseOut" } ],
                          "matched": [ { "id": "square", "phase": "move", "style": "opaqueCrossFade" } ] }
                      ]
                    }
                    """.write(toFile: path, atomically: true, encoding: .utf8)
                assertSnapshot(of: try SceneTransition.load(path: path, transition: "grow"), as: .frames(fps: 10, scale: 1))
            }

            /// A built-in that reads images, with no assets folder given: found in the Smokescreen checkout.
            func testABuiltInRecordsAndMatches() throws {
                let folder = NSTemporaryDirectory() + "/consumer-references-\(UUID().uuidString)"
                defer { try? FileManager.default.removeItem(atPath: folder) }
                let vesper = VesperTransition(.timelineToDetail)
                let recorded = verifySnapshot(of: vesper, as: .frames(fps: 10, scale: 1), named: "vesper", record: .all,
                                              snapshotDirectory: folder)
                XCTAssertTrue(recorded?.hasPrefix("Record mode is on.") == true, recorded ?? "")
                XCTAssertNil(verifySnapshot(of: vesper, as: .frames(fps: 10, scale: 1), named: "vesper", record: .never,
                                            snapshotDirectory: folder))
            }
        }
        """#
}
