import ArgumentParser
import FrameStore
import MergeParts
import Foundation
import PNGIO
import RasterCore
import XCTest
import SmokescreenCLI

/// Temporary folders removed after each test.
class TemporaryFolderTestCase: XCTestCase {
    var folders: [String] = []
    override func tearDown() { for f in folders { try? FileManager.default.removeItem(atPath: f) } }

    func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        folders.append(path)
        return path
    }

    func json(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text, file: file, line: line)
    }

    func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}

/// `smokescreen check` on a durations plist: on its own, and as a transition reads it with --durations.
final class CheckDurationsTests: TemporaryFolderTestCase {
    static let shipped = SafetyTests.root + "/assets/vesper/durations.plist"

    func testTheShippedPlistChecksOnItsOwnAndForItsTransition() throws {
        let alone = try SafetyTests.run(["check", Self.shipped])
        XCTAssertEqual(alone.status, 0, alone.standardError)
        XCTAssertEqual(alone.standardOutput, "\(Self.shipped): OK, 5 blocks: navigationBar, tableView, selectedNote, picture, chrome\n")
        let document = try json(try SafetyTests.run(["check", Self.shipped, "--json"]).standardOutput)
        XCTAssertEqual(document["ok"] as? Bool, true)
        XCTAssertEqual(document["blocks"] as? [String], ["navigationBar", "tableView", "selectedNote", "picture", "chrome"])
        let forTransition = try SafetyTests.run(["check", "vesper-timeline-to-detail", "--durations", Self.shipped, "--json"])
        XCTAssertEqual(forTransition.status, 0, forTransition.standardError)
        let result = try json(forTransition.standardOutput)
        XCTAssertEqual(result["transitions"] as? [String], ["vesper-timeline-to-detail"])
        XCTAssertEqual(result["durations"] as? String, Self.shipped)
    }

    func testABadPlistIsNamedWithLineColumnAndKeyPath() throws {
        let folder = try temporaryFolder()
        let bad = folder + "/bad.plist"
        // Line 3: the <string> element of tableView.duration.
        try write("<plist>\n<dict>\n  <key>tableView</key><dict><key>duration</key><string>fast</string></dict>\n</dict>\n</plist>\n", to: bad)
        let alone = try SafetyTests.run(["check", bad, "--json"])
        XCTAssertEqual(alone.status, 65)
        XCTAssertEqual(alone.standardError, "smokescreen: \(bad):3:48: tableView.duration: must be a number of seconds, got the string 'fast'\n")
        let document = try json(alone.standardOutput)
        XCTAssertEqual(document["ok"] as? Bool, false)
        XCTAssertEqual(document["exitStatus"] as? Int, 65)
        XCTAssertEqual(document["error"] as? String, "\(bad):3:48: tableView.duration: must be a number of seconds, got the string 'fast'")

        // Valid blocks, but not the ones the transition needs: an error only with the transition.
        let partial = folder + "/partial.plist"
        try write("<plist><dict><key>tableView</key><dict><key>duration</key><real>0.3</real></dict></dict></plist>", to: partial)
        XCTAssertEqual(try SafetyTests.run(["check", partial]).status, 0)
        let forTransition = try SafetyTests.run(["check", "vesper-timeline-to-detail", "--durations", partial])
        XCTAssertEqual(forTransition.status, 65)
        XCTAssertTrue(forTransition.standardError.hasPrefix("smokescreen: \(partial):1:8: navigationBar: missing"), forTransition.standardError)

        // A scene file with --durations: its phases' timings checked against the limits, with the plist's place.
        let long = folder + "/long.plist"
        try write("<plist><dict><key>tile</key><dict><key>duration</key><real>-1</real></dict></dict></plist>", to: long)
        let scene = try SafetyTests.run(["check", "assets/scenes/tile-expand.json", "--durations", long])
        XCTAssertEqual(scene.status, 65)
        XCTAssertTrue(scene.standardError.contains("\(long):1:"), scene.standardError)
        XCTAssertTrue(scene.standardError.contains("tile.duration: must be a finite number ≥ 0, got -1"), scene.standardError)
    }

    func testWrongCombinationsAndMissingFiles() throws {
        let missing = try SafetyTests.run(["check", "/nonexistent/durations.plist"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.standardError.hasPrefix("smokescreen: /nonexistent/durations.plist: "), missing.standardError)
        let fixed = try SafetyTests.run(["check", "nav-push", "--durations", Self.shipped])
        XCTAssertEqual(fixed.status, 64)
        XCTAssertTrue(fixed.standardError.contains("--durations: 'nav-push' has no durations file"), fixed.standardError)
        let twice = try SafetyTests.run(["check", Self.shipped, "--durations", Self.shipped])
        XCTAssertEqual(twice.status, 64)
        XCTAssertTrue(twice.standardError.contains("is a durations plist, checked on its own"), twice.standardError)
        let typo = try SafetyTests.run(["check", "nav-psuh"])
        XCTAssertEqual(typo.status, 64)
        XCTAssertTrue(typo.standardError.contains("did you mean 'nav-push'?"), typo.standardError)
    }
}

/// `merge --json`: one object saying what was merged.
final class MergeJSONTests: TemporaryFolderTestCase {
    func fileBytes(_ folder: String, suffix: String = ".png") throws -> Int {
        var total = 0
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: folder))
        for case let file as String in enumerator where file.hasSuffix(suffix) {
            total += (try FileManager.default.attributesOfItem(atPath: folder + "/" + file)[.size] as? Int) ?? 0
        }
        return total
    }

    func testMergeJSONForOneTransitionsPartsAndForCatalogueParts() throws {
        let folder = try temporaryFolder()
        for k in 1...2 {
            let part = try SafetyTests.run(["render", "reference", "--scale", "1", "--fps", "4", "--shard", "\(k)/2", "--out", folder + "/r\(k)", "--quiet"])
            XCTAssertEqual(part.status, 0, part.standardError)
        }
        let merged = try SafetyTests.run(["merge", folder + "/r1", folder + "/r2", "--out", folder + "/r", "--json"])
        XCTAssertEqual(merged.status, 0, merged.standardError)
        let summary = try json(merged.standardOutput)
        XCTAssertEqual(summary["kind"] as? String, "transition")
        XCTAssertEqual(summary["name"] as? String, "reference")
        XCTAssertEqual(summary["parts"] as? Int, 2)
        XCTAssertEqual(summary["transitions"] as? Int, 1)
        XCTAssertEqual(summary["frames"] as? Int, 5, "1 s at 4 fps")
        XCTAssertEqual(summary["out"] as? String, folder + "/r")
        XCTAssertEqual(summary["bytes"] as? Int, try fileBytes(folder + "/r"))
        XCTAssertGreaterThanOrEqual(summary["seconds"] as? Double ?? -1, 0)

        for k in 1...2 {
            let part = try SafetyTests.run(["render", "--all", "--match", "nav-p*", "--scale", "1", "--fps", "4",
                                            "--shard", "\(k)/2", "--out", folder + "/c\(k)", "--quiet"])
            XCTAssertEqual(part.status, 0, part.standardError)
        }
        let catalogue = try SafetyTests.run(["merge", folder + "/c1", folder + "/c2", "--out", folder + "/c", "--json"])
        XCTAssertEqual(catalogue.status, 0, catalogue.standardError)
        let record = try json(try String(contentsOfFile: folder + "/c/catalogue.json", encoding: .utf8))
        let entries = try XCTUnwrap(record["catalogue"] as? [[String: Any]])
        let all = try json(catalogue.standardOutput)
        XCTAssertEqual(all["kind"] as? String, "catalogue")
        XCTAssertNil(all["name"])
        XCTAssertEqual(all["parts"] as? Int, 2)
        XCTAssertEqual(all["transitions"] as? Int, entries.count)
        XCTAssertEqual(all["frames"] as? Int, entries.reduce(0) { $0 + ($1["frames"] as? Int ?? 0) })
        XCTAssertEqual(all["bytes"] as? Int, try fileBytes(folder + "/c"))
        // The summary line says the same.
        let line = try SafetyTests.run(["merge", folder + "/c1", folder + "/c2", "--out", folder + "/c-again"])
        XCTAssertEqual(line.standardOutput, "\(entries.count) transitions, \(all["frames"] as? Int ?? 0) frames from 2 parts → \(folder)/c-again\n")
    }
}

/// `--no-status-bar` reaches the settings of every command that renders a built-in.
final class StatusBarOptionTests: XCTestCase {
    func testTheSwitchReachesTheSettings() throws {
        for command in ["render", "inspect", "memory"] {
            let parsed = try SmokescreenCommand.parseAsRoot([command, "nav-push", "--no-status-bar"])
            let options = try XCTUnwrap((parsed as? Render)?.transitionOptions ?? (parsed as? Inspect)?.transitionOptions
                                        ?? (parsed as? Memory)?.transitionOptions, command)
            XCTAssertFalse(try options.settings(scale: 1).drawsStatusBar, command)
            let plain = try SmokescreenCommand.parseAsRoot([command, "nav-push"])
            let defaults = try XCTUnwrap((plain as? Render)?.transitionOptions ?? (plain as? Inspect)?.transitionOptions
                                         ?? (plain as? Memory)?.transitionOptions, command)
            XCTAssertTrue(try defaults.settings(scale: 1).drawsStatusBar, command)
        }
        XCTAssertTrue(try XCTUnwrap(try SmokescreenCommand.parseAsRoot(["preview", "nav-push", "--no-status-bar"]) as? Preview).noStatusBar)
        XCTAssertTrue(try XCTUnwrap(try SmokescreenCommand.parseAsRoot(["lint", "nav-push", "--no-status-bar"]) as? LintCommand).noStatusBar)
    }
}

/// `--appearance` reaches the settings of every command that renders; a bad name is refused; a render
/// folder's colours are fixed; a built-in of its own colours says that dark changes nothing.
final class AppearanceOptionTests: XCTestCase {
    func testTheOptionReachesTheSettings() throws {
        for command in ["render", "inspect", "memory"] {
            let parsed = try SmokescreenCommand.parseAsRoot([command, "nav-push", "--appearance", "dark"])
            let options = try XCTUnwrap((parsed as? Render)?.transitionOptions ?? (parsed as? Inspect)?.transitionOptions
                                        ?? (parsed as? Memory)?.transitionOptions, command)
            XCTAssertEqual(try options.settings(scale: 1).appearance, .dark, command)
            let plain = try SmokescreenCommand.parseAsRoot([command, "nav-push"])
            let defaults = try XCTUnwrap((plain as? Render)?.transitionOptions ?? (plain as? Inspect)?.transitionOptions
                                         ?? (plain as? Memory)?.transitionOptions, command)
            XCTAssertEqual(try defaults.settings(scale: 1).appearance, .light, command)
        }
        XCTAssertEqual(try XCTUnwrap(try SmokescreenCommand.parseAsRoot(["preview", "nav-push", "--appearance", "dark"]) as? Preview).appearance.value, .dark)
        XCTAssertEqual(try XCTUnwrap(try SmokescreenCommand.parseAsRoot(["lint", "nav-push", "--appearance", "dark"]) as? LintCommand).appearance.value, .dark)
        XCTAssertEqual(try XCTUnwrap(try SmokescreenCommand.parseAsRoot(["serve", "nav-push", "--appearance", "dark"]) as? Serve).appearance.value, .dark)
        for command in ["render", "preview", "lint", "serve"] {
            XCTAssertThrowsError(try SmokescreenCommand.parseAsRoot([command, "nav-push", "--appearance", "dim"]), command) { error in
                XCTAssertTrue(SmokescreenCommand.message(for: error).contains("--appearance: 'dim' is neither light nor dark"), "\(command): \(error)")
            }
        }
    }

    /// Parts of a catalogue rendered with other traits are not parts of the same render: merge says which.
    func testACatalogueRecordsItsTraits() throws {
        let light = CatalogueRender.Record(generator: "smokescreen 0", scale: 1, fps: nil, compression: "fast", match: nil, part: 1, parts: 2, catalogue: [])
        var dark = light
        dark.part = 2
        dark.appearance = "dark"
        XCTAssertFalse(dark.isSameRender(as: light))
        let text = String(decoding: try dark.encoded(), as: UTF8.self)
        XCTAssertTrue(text.contains(#""appearance" : "dark""#), text)
        XCTAssertFalse(String(decoding: try light.encoded(), as: UTF8.self).contains("appearance"), "left out when light")
        let file = try CatalogueFile.parse(try dark.encoded(), path: "catalogue.json")
        XCTAssertEqual(file.appearance, "dark")
        XCTAssertNil(file.textSize)
        XCTAssertEqual(RenderMerge.record(file), dark)
    }

    func testTheTextSizeReachesTheSettings() throws {
        for (flag, name) in [("--text-size", "AX2"), ("--content-size", "xSmall")] {
            let parsed = try XCTUnwrap(try SmokescreenCommand.parseAsRoot(["render", "table-row-styles", flag, name]) as? Render)
            XCTAssertEqual(try parsed.transitionOptions.settings(scale: 1).textSize, name == "AX2" ? .accessibilityLarge : .extraSmall)
        }
        XCTAssertEqual(try XCTUnwrap(try SmokescreenCommand.parseAsRoot(["serve", "nav-push", "--text-size", "xxxLarge"]) as? Serve).textSize.value,
                       .extraExtraExtraLarge)
        XCTAssertEqual(try XCTUnwrap(try SmokescreenCommand.parseAsRoot(["preview", "nav-push", "--text-size", "AX5"]) as? Preview).textSize.value,
                       .accessibilityExtraExtraExtraLarge)
        for command in ["render", "preview", "lint", "serve", "inspect"] {
            XCTAssertThrowsError(try SmokescreenCommand.parseAsRoot([command, "nav-push", "--text-size", "AX9"]), command) { error in
                XCTAssertTrue(SmokescreenCommand.message(for: error).contains("--text-size: no text size 'AX9'"), "\(command): \(error)")
            }
        }
    }

    /// `--system-fonts DIR`: a folder of SF Pro's files (made here from DejaVu under Apple's file names)
    /// draws the system font's text in them; a folder that is missing or lacks a design is refused naming
    /// it, by every command that renders.
    func testSystemFontsFromAFolder() throws {
        for command in ["render", "preview", "lint", "serve", "inspect"] {
            XCTAssertThrowsError(try SmokescreenCommand.parseAsRoot([command, "nav-push", "--system-fonts", "/nonexistent/sf"]), command) { error in
                XCTAssertTrue(SmokescreenCommand.message(for: error).contains("--system-fonts: /nonexistent/sf: no such folder"), "\(command): \(error)")
            }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("system-fonts-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fonts = folder + "/fonts"
        try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: fonts + "/SF-Pro-Text-Regular.otf")
        let half = try SafetyTests.run(["render", "table-row-styles", "--system-fonts", fonts, "--frames", "0", "--scale", "1", "--out", folder + "/x", "--quiet"])
        XCTAssertEqual(half.status, 64)
        XCTAssertTrue(half.standardError.contains("no SF-Pro-Display-"), half.standardError)
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", toPath: fonts + "/SF-Pro-Display-Regular.otf")
        let plain = try SafetyTests.run(["render", "table-row-styles", "--frames", "0", "--scale", "1", "--out", folder + "/inter", "--quiet"],
                                        environment: ["SMOKESCREEN_SYSTEM_FONTS": ""])
        let sf = try SafetyTests.run(["render", "table-row-styles", "--system-fonts", fonts, "--frames", "0", "--scale", "1", "--out", folder + "/sf", "--quiet"])
        XCTAssertEqual(plain.status, 0, plain.standardError)
        XCTAssertEqual(sf.status, 0, sf.standardError)
        let a = try Data(contentsOf: URL(fileURLWithPath: folder + "/inter/frame_0000.png"))
        let b = try Data(contentsOf: URL(fileURLWithPath: folder + "/sf/frame_0000.png"))
        XCTAssertNotEqual(a, b, "the rows' text in the folder's fonts")
        // The render says which fonts drew it: the next frames with Inter into the same folder are refused.
        let mixed = try SafetyTests.run(["render", "table-row-styles", "--frames", "1", "--scale", "1", "--out", folder + "/sf", "--quiet"],
                                        environment: ["SMOKESCREEN_SYSTEM_FONTS": ""])
        XCTAssertNotEqual(mixed.status, 0)
        XCTAssertTrue(mixed.standardError.contains("--system-fonts"), mixed.standardError)
    }

    func testTheToolSaysWhatDarkChanges() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appearance-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fixed = try SafetyTests.run(["render", "reference", "--appearance", "dark", "--frames", "0", "--scale", "1", "--out", folder + "/reference", "--quiet"])
        XCTAssertEqual(fixed.status, 0, fixed.standardError)
        XCTAssertTrue(fixed.standardError.contains("'reference' draws colours of its own design: --appearance dark changes nothing in it"), fixed.standardError)
        let fixedText = try SafetyTests.run(["render", "reference", "--text-size", "AX1", "--frames", "0", "--scale", "1", "--out", folder + "/reference", "--quiet"])
        XCTAssertEqual(fixedText.status, 0, fixedText.standardError)
        XCTAssertTrue(fixedText.standardError.contains("'reference' draws fonts of its own design: --text-size AX1 changes nothing in it"), fixedText.standardError)
        let table = try SafetyTests.run(["render", "table-multiple-selection", "--appearance", "dark", "--frames", "0", "--scale", "1",
                                         "--out", folder + "/table", "--quiet"])
        XCTAssertEqual(table.status, 0, table.standardError)
        XCTAssertFalse(table.standardError.contains("warning"), table.standardError)
        // A render folder's colours were fixed when it was rendered.
        let preview = try SafetyTests.run(["preview", folder + "/table", "--appearance", "dark"])
        XCTAssertEqual(preview.status, 64)
        XCTAssertTrue(preview.standardError.contains("its colours were fixed when it was rendered"), preview.standardError)
    }
}

/// One default scale: 2 for every command that renders, in the parsed value and in the help.
final class DefaultScaleTests: XCTestCase {
    func testEveryRenderingCommandDefaultsToTwo() throws {
        XCTAssertEqual(try XCTUnwrap(try SmokescreenCommand.parseAsRoot(["render"]) as? Render).scale, 2)
        XCTAssertEqual(try XCTUnwrap(try SmokescreenCommand.parseAsRoot(["inspect"]) as? Inspect).scale, 2)
        XCTAssertEqual(try XCTUnwrap(try SmokescreenCommand.parseAsRoot(["bench"]) as? Bench).scale, 2)
        XCTAssertEqual(try XCTUnwrap(try SmokescreenCommand.parseAsRoot(["preview"]) as? Preview).scale, 2)
        XCTAssertEqual(try XCTUnwrap(try SmokescreenCommand.parseAsRoot(["lint"]) as? LintCommand).scale, 2)
        let commands: [(String, any ParsableCommand.Type)] = [("render", Render.self), ("inspect", Inspect.self), ("bench", Bench.self),
                                                               ("preview", Preview.self), ("lint", LintCommand.self), ("check", Check.self)]
        for (name, type) in commands {
            let help = SmokescreenCommand.helpMessage(for: type, columns: 10_000)
            let line = try XCTUnwrap(help.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--scale <scale>") }, "\(name): \(help)")
            XCTAssertTrue(line.contains("2 for every command"), "\(name): \(line)")
            XCTAssertFalse(line.contains("(default: 1)"), "\(name): \(line)")
        }
    }

    /// preview renders at @2x by default: the animated PNG of `preview NAME` is the one of `render NAME --preview`.
    func testPreviewAndRenderPreviewAgreeByDefault() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scale-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let preview = try SafetyTests.run(["preview", "reference", "--fps", "3", "--only", "apng", "--out", folder + "/p", "--quiet"])
        XCTAssertEqual(preview.status, 0, preview.standardError)
        let render = try SafetyTests.run(["render", "reference", "--fps", "3", "--out", folder + "/r", "--quiet",
                                          "--preview", "--only", "apng", "--preview-out", folder + "/q"])
        XCTAssertEqual(render.status, 0, render.standardError)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/p/animation.png")),
                       try Data(contentsOf: URL(fileURLWithPath: folder + "/q/animation.png")))
        XCTAssertEqual(try XCTUnwrap(try Manifest.read(from: folder + "/r/manifest.json")).scale, 2)
    }
}

/// `diff` does not decode a frame pair whose files both hash to the SHA-256 both manifests record, and
/// decodes everything else.
final class DiffDigestTests: TemporaryFolderTestCase {
    /// Two renders of the same input: byte-identical frames, and manifests with their digests.
    func twoRenders() throws -> (String, String) {
        let folder = try temporaryFolder()
        for side in ["a", "b"] {
            let run = try SafetyTests.run(["render", "reference", "--scale", "1", "--fps", "4", "--out", "\(folder)/\(side)", "--quiet"])
            XCTAssertEqual(run.status, 0, run.standardError)
        }
        return (folder + "/a", folder + "/b")
    }

    func testFramesVouchedForByBothManifestsAreNotDecoded() throws {
        let (a, b) = try twoRenders()
        let outcome = DiffInvocation(expected: a, actual: b).run()
        XCTAssertEqual(outcome.exitCode, 0, outcome.standardError)
        let report = try XCTUnwrap(outcome.report)
        XCTAssertEqual(report.compared, 5)
        XCTAssertEqual(report.notDecoded, 5)
        XCTAssertTrue(outcome.standardOutput.contains("MATCH: 5 frames compared, 5 not decoded"), outcome.standardOutput)
        // The manifest files themselves as the sides: the same.
        XCTAssertEqual(DiffInvocation(expected: a + "/manifest.json", actual: b + "/manifest.json").run().report?.notDecoded, 5)
        // A side without a manifest: every frame decoded (and still a match).
        try FileManager.default.removeItem(atPath: b + "/manifest.json")
        let without = DiffInvocation(expected: a, actual: b).run()
        XCTAssertEqual(without.exitCode, 0, without.standardError)
        XCTAssertEqual(without.report?.notDecoded, 0)
    }

    func testAFileChangedAfterItsManifestIsDecoded() throws {
        let (a, b) = try twoRenders()
        // The same broken bytes on both sides: byte-identical, but not what the manifests record.
        let truncated = Data(try Data(contentsOf: URL(fileURLWithPath: a + "/frame_0002.png")).prefix(60))
        for side in [a, b] { try truncated.write(to: URL(fileURLWithPath: side + "/frame_0002.png")) }
        let outcome = DiffInvocation(expected: a, actual: b).run()
        XCTAssertEqual(outcome.exitCode, 65, outcome.standardOutput)
        let report = try XCTUnwrap(outcome.report)
        XCTAssertEqual(report.notDecoded, 4)
        XCTAssertEqual(Set(report.unreadable.map(\.path)), [a + "/frame_0002.png", b + "/frame_0002.png"])
        // Other pixels re-encoded under the manifest's name: decoded and reported as a difference.
        try Data(PNGCodec.encode(try Bitmap(width: 375, height: 667, fill: PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255)))).write(to: URL(fileURLWithPath: b + "/frame_0003.png"))
        let differs = DiffInvocation(expected: a, actual: b).run()
        XCTAssertEqual(differs.report?.failures.map(\.name), ["frame_0003.png"])
    }

    func testManifestsSmokescreenDidNotWriteVouchForNothing() throws {
        let (a, b) = try twoRenders()
        for side in [a, b] {
            let path = side + "/manifest.json"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let generator = try XCTUnwrap(text.range(of: "\"generator\" : \"smokescreen "))
            try text.replacingCharacters(in: generator, with: "\"generator\" : \"another-tool ").write(toFile: path, atomically: true, encoding: .utf8)
        }
        let outcome = DiffInvocation(expected: a, actual: b).run()
        XCTAssertEqual(outcome.exitCode, 0, outcome.standardError)
        XCTAssertEqual(outcome.report?.notDecoded, 0)
    }
}
