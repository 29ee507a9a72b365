import Foundation
import XCTest

/// `Tests/Consumer/consumer-package-test.sh`: a package that depends on this one by its version (SwiftPM
/// resolving the release tag of a clone of this repository) golden-tests a built-in transition with
/// SmokescreenTesting and snapshot-tests a view tree and a scene through `import Smokescreen` and
/// SmokescreenSnapshotTesting, beside `import Foundation`: what a user's project does (the script says
/// what each of its four tests checks).
///
/// It builds this package again in a scratch folder (about 100 s of two cores' time), so it runs when
/// `SMOKESCREEN_CONSUMER_TEST=1` and is skipped otherwise, saying so. `.ci/run` runs the script itself, as a
/// step beside the quick start's commands, where a core would otherwise wait.
final class ConsumerPackageTests: XCTestCase {
    func testAConsumerPackageGoldenTestsABuiltInTransition() throws {
        guard ProcessInfo.processInfo.environment["SMOKESCREEN_CONSUMER_TEST"] == "1" else {
            print("ConsumerPackageTests: skipped: set SMOKESCREEN_CONSUMER_TEST=1 to build a consumer package (minutes)")
            throw XCTSkip("set SMOKESCREEN_CONSUMER_TEST=1 to run")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [SafetyTests.root + "/Tests/Consumer/consumer-package-test.sh"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, String(output.suffix(4000)))
        XCTAssertTrue(output.contains("consumer-package-test: ok: the consumer's 4 tests passed"), String(output.suffix(4000)))
    }
}
