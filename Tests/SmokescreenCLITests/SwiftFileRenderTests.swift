import Foundation
import PNGIO
import SmokescreenCLI
import XCTest

/// `smokescreen render File.swift…` run as a user runs it: iOS code in `SwiftFiles/`, compiled against
/// the package's UIKit library in its release build (`script/test` builds it before the suite; without
/// it the first render here builds it, minutes), each render compiling only its files (about a second),
/// then the bad inputs.
final class SwiftFileRenderTests: XCTestCase {
    static let files = SafetyTests.root + "/Tests/SmokescreenCLITests/SwiftFiles"
    var folders: [String] = []
    override func tearDown() { for f in folders { try? FileManager.default.removeItem(atPath: f) } }

    func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("swift-render-\(getpid())-\(UUID().uuidString)").path
        folders.append(path)
        return path
    }

    private func render(_ files: [String], _ options: [String] = []) throws -> SafetyTests.Run {
        try SafetyTests.run(["render"] + files.map { Self.files + "/" + $0 } + ["--package", SafetyTests.root] + options)
    }

    func testIOSCodeRendersUnchangedTheSameEveryRunAndForAnyJobs() throws {
        let one = try temporaryFolder(), two = try temporaryFolder()
        let options = ["--device", "iPhoneSE", "--scale", "1", "--fps", "10"]
        let first = try render(["swipe-dismiss/SwipeDownDismiss.swift", "swipe-dismiss/Script.swift"], options + ["--out", one, "--jobs", "1"])
        XCTAssertEqual(first.status, 0, first.standardError)
        // The source pass says what it changed, with the lines.
        XCTAssertTrue(first.standardError.contains("SwipeDownDismiss.swift:42: #selector(handlePan(_:)) → Selector(handlePan(_:), name: \"handlePan(_:)\")"),
                      first.standardError)
        XCTAssertTrue(first.standardError.contains("SwipeDownDismiss.swift:14: removed @objc"))
        XCTAssertTrue(first.standardOutput.contains("Script: frames 20 of 20"), first.standardOutput)
        let second = try render(["swipe-dismiss/SwipeDownDismiss.swift", "swipe-dismiss/Script.swift"], options + ["--out", two, "--jobs", "2"])
        XCTAssertEqual(second.status, 0, second.standardError)
        // The UIKit library is built once: with no change to the package's sources since, the second
        // render only compiles the two files.
        XCTAssertFalse(second.standardError.contains("bringing Smokescreen's UIKit up to date"), second.standardError)
        XCTAssertTrue(second.standardError.contains("compiling 2 files against Smokescreen's UIKit"), second.standardError)
        let names = try FileManager.default.contentsOfDirectory(atPath: one).filter { $0.hasSuffix(".png") }.sorted()
        XCTAssertEqual(names.count, 20, "t = 0 … 1.9 at 10 fps")
        for name in names {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: one + "/" + name)), try Data(contentsOf: URL(fileURLWithPath: two + "/" + name)),
                           "\(name) differs between the runs")
        }
        // What the frames show: the card up (white), springing back after the short drag, gone at the end.
        func pixel(_ frame: Int, _ x: Int, _ y: Int) throws -> [UInt8] {
            let bitmap = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: one + "/" + names[frame]))), scale: 1)
            let p = bitmap[x, y].unpremultiplied
            return [p.r, p.g, p.b]
        }
        let indigo: [UInt8] = [88, 86, 214], white: [UInt8] = [255, 255, 255]
        XCTAssertEqual(try pixel(0, 180, 300), indigo)
        XCTAssertEqual(try pixel(7, 180, 100), white, "the card is up")
        XCTAssertEqual(try pixel(19, 180, 300), indigo, "dismissed by the long drag")
        // In dark mode the same code draws iOS's dark colours: indigo's dark value, the card black.
        let dark = try temporaryFolder()
        let darkRun = try render(["swipe-dismiss/SwipeDownDismiss.swift", "swipe-dismiss/Script.swift"], options + ["--out", dark, "--appearance", "dark"])
        XCTAssertEqual(darkRun.status, 0, darkRun.standardError)
        func darkPixel(_ frame: Int, _ x: Int, _ y: Int) throws -> [UInt8] {
            let bitmap = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: dark + "/" + names[frame]))), scale: 1)
            let p = bitmap[x, y].unpremultiplied
            return [p.r, p.g, p.b]
        }
        XCTAssertEqual(try darkPixel(0, 180, 300), [94, 92, 230])
        XCTAssertEqual(try darkPixel(7, 180, 100), [0, 0, 0], "the card's systemBackground in dark mode")
        // Turned on its side: the SE's screen 667 × 375 points, the same screen behind.
        let landscape = try temporaryFolder()
        let landscapeRun = try render(["swipe-dismiss/SwipeDownDismiss.swift", "swipe-dismiss/Script.swift"], options + ["--out", landscape, "--orientation", "landscape"])
        XCTAssertEqual(landscapeRun.status, 0, landscapeRun.standardError)
        let turned = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: landscape + "/" + names[0]))), scale: 1)
        XCTAssertEqual([turned.width, turned.height], [667, 375])
        let p = turned[330, 300].unpremultiplied
        XCTAssertEqual([p.r, p.g, p.b], indigo)
    }

    /// The samples in `SwiftFiles/`, one a pattern of iOS transition code, each rendered at @1x and 10
    /// fps on an iPhone SE and compared pixel by pixel with the frames in its `golden/` folder (looked at
    /// @2x before they were kept). A sample without goldens records them and fails once.
    func testEverySampleMatchesItsGoldenFrames() throws {
        let samples = ["swipe-dismiss", "sheet-animator", "tab-switch", "flip-card", "expand-button", "delayed-fade"]
        for sample in samples {
            let folder = Self.files + "/" + sample
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }.sorted()
            let out = try temporaryFolder()
            let run = try render(files.map { sample + "/" + $0 }, ["--device", "iPhoneSE", "--scale", "1", "--fps", "10", "--out", out, "--quiet"])
            XCTAssertEqual(run.status, 0, "\(sample): \(run.standardError)")
            guard run.status == 0 else { continue }
            let golden = folder + "/golden"
            let frames = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }.sorted()
            if !FileManager.default.fileExists(atPath: golden) {
                try FileManager.default.createDirectory(atPath: golden, withIntermediateDirectories: true)
                for frame in frames { try FileManager.default.copyItem(atPath: out + "/" + frame, toPath: golden + "/" + frame) }
                XCTFail("\(sample): recorded \(frames.count) golden frames in \(golden); look at them, keep them, run again")
                continue
            }
            let expected = try FileManager.default.contentsOfDirectory(atPath: golden).filter { $0.hasSuffix(".png") }.sorted()
            XCTAssertEqual(frames, expected, "\(sample): the frames rendered are not the golden ones")
            for frame in frames where expected.contains(frame) {
                let a = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: golden + "/" + frame))), scale: 1)
                let b = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/" + frame))), scale: 1)
                XCTAssertTrue(a.width == b.width && a.height == b.height && (0..<a.height).allSatisfy { y in (0..<a.width).allSatisfy { a[$0, y] == b[$0, y] } },
                              "\(sample)/\(frame) differs from its golden frame")
            }
        }
    }

    func testACompileErrorNamesTheUsersFileLineAndColumn() throws {
        let run = try render(["bad/DoesNotCompile.swift"], ["--out", try temporaryFolder()])
        XCTAssertEqual(run.status, 65)
        XCTAssertTrue(run.standardError.contains(Self.files + "/bad/DoesNotCompile.swift:6:10: error: value of type 'UIView' has no member 'frobnicate'"),
                      run.standardError)
        XCTAssertTrue(run.standardError.contains("the files do not compile against Smokescreen's UIKit (1 error)"))
    }

    func testATrapALoopAndATransitionNeverCompletedEndWithAMessage() throws {
        let trap = try render(["bad/Traps.swift"], ["--out", try temporaryFolder(), "--quiet"])
        XCTAssertEqual(trap.status, 1)
        XCTAssertTrue(trap.standardError.contains("the script crashed (signal 4: a trap in Swift code"), trap.standardError)
        let out = try temporaryFolder()
        let loop = try render(["bad/NeverReturns.swift"], ["--out", out, "--quiet", "--timeout", "3"])
        XCTAssertEqual(loop.status, 1)
        XCTAssertTrue(loop.standardError.contains("ran for over 3 s of wall-clock time and was stopped"), loop.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing written")
        let never = try render(["bad/NeverCompletes.swift"], ["--out", try temporaryFolder(), "--quiet"])
        XCTAssertEqual(never.status, 1)
        XCTAssertTrue(never.standardError.contains("never called completeTransition(_:) for: presentation of UIViewController from UIViewController"),
                      never.standardError)
    }

    /// Stopping the tool (a CI's timeout, Ctrl-C) stops what it waits for: the script's process goes with it.
    func testStoppingTheToolStopsItsChild() throws {
        guard FileManager.default.isExecutableFile(atPath: SafetyTests.tool) else { throw XCTSkip("\(SafetyTests.tool) is not built") }
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: SafetyTests.tool)
        tool.arguments = ["render", Self.files + "/bad/NeverReturns.swift", "--package", SafetyTests.root, "--out", try temporaryFolder(),
                          "--quiet", "--timeout", "120"]
        tool.standardError = FileHandle.nullDevice
        try tool.run()
        defer { if tool.isRunning { kill(tool.processIdentifier, SIGKILL) } }
        // The script running: the tool's child given the render's arguments (after the compile, a second).
        func children() -> [pid_t] {
            let path = "/proc/\(tool.processIdentifier)/task/\(tool.processIdentifier)/children"
            return ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: " ").compactMap { pid_t($0) }
        }
        var child: pid_t?
        let deadline = Date().addingTimeInterval(90)
        while child == nil, tool.isRunning, Date() < deadline {
            if let pid = children().first, let command = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8),
               command.contains("--time-limit") { child = pid } else { usleep(100_000) }
        }
        let script = try XCTUnwrap(child, "the script never started")
        kill(tool.processIdentifier, SIGTERM)
        tool.waitUntilExit()
        XCTAssertEqual(tool.terminationStatus, 128 + SIGTERM)
        var gone = false
        for _ in 0..<50 where !gone {
            gone = kill(script, 0) != 0 && errno == ESRCH
            if !gone { usleep(100_000) }
        }
        XCTAssertTrue(gone, "the script (pid \(script)) outlived the tool")
    }

    func testAScriptWritesOnlyItsRenderFolder() throws {
        let run = try render(["bad/WritesElsewhere.swift"], ["--out", try temporaryFolder(), "--quiet"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.standardError.contains("writes only its render folder"), run.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/somewhere-else"))
    }

    func testBadArgumentsAreRefusedBeforeCompiling() throws {
        let noEntry = try render(["bad/NoEntryPoint.swift"], ["--out", try temporaryFolder()])
        XCTAssertEqual(noEntry.status, 64)
        XCTAssertTrue(noEntry.standardError.contains("none of the files defines func run(on stage: Stage)"))
        let missing = try render(["bad/Missing.swift"], ["--out", try temporaryFolder()])
        XCTAssertEqual(missing.status, 66, missing.standardError)
        let mixed = try SafetyTests.run(["render", Self.files + "/bad/Traps.swift", "card-expand"])
        XCTAssertEqual(mixed.status, 64)
        XCTAssertTrue(mixed.standardError.contains("card-expand: not a Swift file"), mixed.standardError)
        let device = try render(["bad/Traps.swift"], ["--device", "Nokia3310"])
        XCTAssertEqual(device.status, 64)
        XCTAssertTrue(device.standardError.contains("--device: no device 'Nokia3310'"))
        let textSize = try render(["bad/Traps.swift"], ["--text-size", "AX9"])
        XCTAssertEqual(textSize.status, 64)
        XCTAssertTrue(textSize.standardError.contains("--text-size: no text size 'AX9'"), textSize.standardError)
        let orientation = try render(["bad/Traps.swift"], ["--orientation", "sideways"])
        XCTAssertEqual(orientation.status, 64)
        XCTAssertTrue(orientation.standardError.contains("--orientation: 'sideways' is neither portrait nor landscape"), orientation.standardError)
        let builtIn = try SafetyTests.run(["render", "nav-push", "--orientation", "landscape"])
        XCTAssertEqual(builtIn.status, 64)
        XCTAssertTrue(builtIn.standardError.contains("--orientation is for Swift files"), builtIn.standardError)
        let appearance = try render(["bad/Traps.swift"], ["--appearance", "dim"])
        XCTAssertEqual(appearance.status, 64)
        XCTAssertTrue(appearance.standardError.contains("--appearance: 'dim' is neither light nor dark"), appearance.standardError)
        let frames = try render(["bad/Traps.swift"], ["--frames", "0..3"])
        XCTAssertEqual(frames.status, 64)
        let notPackage = try SafetyTests.run(["render", Self.files + "/bad/Traps.swift", "--package", "/tmp"])
        XCTAssertEqual(notPackage.status, 64)
        XCTAssertTrue(notPackage.standardError.contains("not Smokescreen's package"), notPackage.standardError)
    }

    /// The library is rebuilt only when the package's manifest or a file under `Sources/` is newer than
    /// the last build: the newest time covers files edited, added (their folder's time) and the manifest.
    func testTheNewestSourceTimeSeesEditsAdditionsAndTheManifest() throws {
        let root = try temporaryFolder()
        try FileManager.default.createDirectory(atPath: root + "/Sources/Kit/Deep", withIntermediateDirectories: true)
        func write(_ path: String, at time: Double) throws {
            if !FileManager.default.fileExists(atPath: root + "/" + path) { try "// \(path)".write(toFile: root + "/" + path, atomically: true, encoding: .utf8) }
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: time)], ofItemAtPath: root + "/" + path)
        }
        try write("Package.swift", at: 1_000)
        try write("Sources/Kit/Deep/A.swift", at: 2_000)
        for folder in ["Sources", "Sources/Kit", "Sources/Kit/Deep"] {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 500)], ofItemAtPath: root + "/" + folder)
        }
        XCTAssertEqual(SwiftFileRender.newestSource(root: root), 2_000)
        try write("Sources/Kit/Deep/A.swift", at: 3_000)
        XCTAssertEqual(SwiftFileRender.newestSource(root: root), 3_000, "an edit deep in a target")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 4_000)], ofItemAtPath: root + "/Sources/Kit")
        XCTAssertEqual(SwiftFileRender.newestSource(root: root), 4_000, "a file added to or removed from a target")
        try write("Package.swift", at: 5_000)
        XCTAssertEqual(SwiftFileRender.newestSource(root: root), 5_000, "the manifest")
        XCTAssertEqual(SwiftFileRender.newestSource(root: root + "/none"), .infinity, "no package: always build")
        XCTAssertNil(SwiftFileRender.parseStamp("12 x"))
        XCTAssertEqual(SwiftFileRender.parseStamp("12.5 13.25\n").map { [$0.0, $0.1] }, [12.5, 13.25])
    }

    /// A package that names the stage but cannot build it: the build's failure is reported as such, not
    /// as the user's files failing to compile.
    func testAPackageThatCannotBuildTheLibraryEndsWithAMessage() throws {
        let root = try temporaryFolder()
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try "// swift-tools-version:5.9\nthis is not a manifest \"SmokescreenStage\"\n".write(toFile: root + "/Package.swift", atomically: true, encoding: .utf8)
        let cache = try temporaryFolder()
        let run = try SafetyTests.run(["render", Self.files + "/bad/Traps.swift", "--package", root, "--out", try temporaryFolder()],
                                      environment: ["SMOKESCREEN_CACHE": cache])
        XCTAssertEqual(run.status, 1, run.standardError)
        XCTAssertTrue(run.standardError.contains("building Smokescreen's UIKit (swift build -c release --product SmokescreenStageRuntime in \(root)) failed"),
                      run.standardError)
    }

    /// The tool does not link the stage's module: the names it accepts are the stage runner's, read from
    /// its source.
    func testTheDeviceAndTextSizeNamesAreTheStageRunners() throws {
        let runner = try String(contentsOfFile: SafetyTests.root + "/Sources/SmokescreenStage/StageRunner.swift", encoding: .utf8)
        for name in StageDevices.names + StageTextSizes.names {
            XCTAssertTrue(runner.contains("\"\(name)\": ."), "StageRunner knows '\(name)'")
        }
        let keys = runner.matches(of: /"([A-Za-z0-9]+)": \./).map { String($0.1) }
        XCTAssertEqual(Set(keys), Set(StageDevices.names + StageTextSizes.names), "and no other")
    }
}
