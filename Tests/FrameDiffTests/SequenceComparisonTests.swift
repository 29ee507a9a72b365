import FrameStore
import Foundation
import PNGIO
import RasterCore
import XCTest
import FrameDiff
import SmokescreenCLI

final class SequenceComparisonTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("framediff-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A 6x4 frame filled with a grey that depends on `index`.
    static func frame(_ index: Int) throws -> Bitmap {
        let v = UInt8(40 * index % 256)
        return try Bitmap(width: 6, height: 4, fill: PremultipliedRGBA8(r: v, g: v, b: 255 - v, a: 255))
    }

    func folder(_ name: String, frames: [Int: Bitmap]) throws -> String {
        let path = directory + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (index, bitmap) in frames { try PNGCodec.write(bitmap, to: path + String(format: "/frame_%04d.png", index)) }
        return path
    }

    /// expected has frames 0…3; actual lacks 2, changes 1 in a 2x1 patch, and adds 4.
    func makeSequences() throws -> (expected: String, actual: String) {
        let expected = try folder("expected", frames: [0: try Self.frame(0), 1: try Self.frame(1), 2: try Self.frame(2), 3: try Self.frame(3)])
        var changed = try Self.frame(1)
        changed[2, 1] = .black
        changed[3, 1] = PremultipliedRGBA8(r: 40, g: 40, b: 200, a: 255)
        let actual = try folder("actual", frames: [0: try Self.frame(0), 1: changed, 3: try Self.frame(3), 4: try Self.frame(4)])
        return (expected, actual)
    }

    func testMissingExtraAndChangedFrames() throws {
        let (expected, actual) = try makeSequences()
        let outcome = DiffInvocation(expected: expected, actual: actual).run()
        XCTAssertEqual(outcome.exitCode, 1)
        XCTAssertEqual(outcome.standardError, "")
        XCTAssertEqual(outcome.standardOutput, """
            comparing actual \(actual) with expected \(expected) (exact)
              differs  frame_0001.png: 2 of 24 pixels differ (8.33%), max channel delta 215, in x 2 y 1 w 2 h 1
              missing  frame_0002.png: in the expected frames only
              extra    frame_0004.png: in the actual frames only
            MISMATCH: 3 frames compared, 1 differ, 1 missing, 1 extra

            """)

        let json = DiffInvocation(expected: expected, actual: actual, json: true).run()
        XCTAssertEqual(json.exitCode, 1)
        XCTAssertEqual(json.standardOutput, """
            {"match":false,"compared":3,"frames":[{"name":"frame_0001.png","differentPixels":2,"maxChannelDelta":215,\
            "boundingBox":[2,1,2,1],"reason":null}],"missing":["frame_0002.png"],"extra":["frame_0004.png"],"unreadable":[]}

            """)
        // It is one valid JSON object.
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(object["match"] as? Bool, false)
        XCTAssertEqual((object["frames"] as? [Any])?.count, 1)
    }

    func testMatchingSequences() throws {
        let expected = try folder("e", frames: [0: try Self.frame(0), 1: try Self.frame(1)])
        let actual = try folder("a", frames: [0: try Self.frame(0), 1: try Self.frame(1)])
        let outcome = DiffInvocation(expected: expected, actual: actual, json: true).run()
        XCTAssertEqual(outcome.exitCode, 0)
        XCTAssertEqual(outcome.standardOutput, "{\"match\":true,\"compared\":2,\"frames\":[],\"missing\":[],\"extra\":[],\"unreadable\":[]}\n")
        let text = DiffInvocation(expected: expected, actual: actual).run()
        XCTAssertTrue(text.standardOutput.hasSuffix("MATCH: 2 frames compared\n"), text.standardOutput)
    }

    func testFractionKeepsAFrameOutOfTheReport() throws {
        let (expected, actual) = try makeSequences()
        // 2 of 24 pixels differ in frame 1: allowed at 1/12, so only missing and extra remain.
        let report = try XCTUnwrap(DiffInvocation(expected: expected, actual: actual, maxDifferentFraction: 2.0 / 24).run().report)
        XCTAssertTrue(report.failures.isEmpty)
        XCTAssertEqual(report.missing, ["frame_0002.png"])
        XCTAssertEqual(report.exitCode, 1)
        let tolerant = try XCTUnwrap(DiffInvocation(expected: expected, actual: actual, tolerance: 215).run().report)
        XCTAssertTrue(tolerant.failures.isEmpty)
    }

    func testUnreadablePNGIsExitCode65WithFileAndReason() throws {
        let (expected, actual) = try makeSequences()
        let broken = actual + "/frame_0003.png"
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: broken))
        let outcome = DiffInvocation(expected: expected, actual: actual, json: true).run()
        XCTAssertEqual(outcome.exitCode, 65)
        XCTAssertEqual(outcome.standardError, "smokescreen: \(broken): not a PNG file (bad signature)\n")
        let report = try XCTUnwrap(outcome.report)
        XCTAssertEqual(report.unreadable, [SequenceReport.Unreadable(path: broken, reason: "not a PNG file (bad signature)")])
        XCTAssertEqual(report.failures.map(\.name), ["frame_0001.png"], "the other frames are still compared")
        XCTAssertTrue(outcome.standardOutput.hasSuffix(
            "\"unreadable\":[{\"file\":\(JSONText.string(broken)),\"reason\":\"not a PNG file (bad signature)\"}]}\n"))

        // A truncated PNG names libpng's reason.
        let bytes = try PNGCodec.encode(try Self.frame(0))
        try Data(bytes.prefix(40)).write(to: URL(fileURLWithPath: broken))
        let truncated = DiffInvocation(expected: expected, actual: actual).run()
        XCTAssertEqual(truncated.exitCode, 65)
        XCTAssertTrue(truncated.standardError.hasPrefix("smokescreen: \(broken): corrupt PNG: "), truncated.standardError)
    }

    func testDiffOutWritesDiffImagesAndSheet() throws {
        let (expected, actual) = try makeSequences()
        let out = directory + "/out/nested"
        let outcome = DiffInvocation(expected: expected, actual: actual, diffOut: out).run()
        XCTAssertEqual(outcome.exitCode, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).sorted(),
                       ["frame_0001.actual.png", "frame_0001.diff.png", "frame_0001.expected.png", "report.html", "sheet.png",
                        "smokescreen-files.json"], "the artifacts and the record of Smokescreen's files (OutputFolder)")
        let diff = try PNGCodec.read(contentsOf: out + "/frame_0001.diff.png")
        XCTAssertEqual(diff[2, 1], PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
        let sheet = try PNGCodec.read(contentsOf: out + "/sheet.png")
        XCTAssertEqual(sheet.width, 4 + 6 + 4 + 6 + 4 + 6 + 4)
        XCTAssertEqual(sheet.height, 4 + 14 + 4 + 4)
        XCTAssertEqual(sheet[0, 0], DiffSheet.background)
        XCTAssertEqual(sheet[4, 18], try Self.frame(1)[0, 0], "expected at the left")
        XCTAssertEqual(sheet[14 + 2, 18 + 1], .black, "actual in the middle")
        XCTAssertEqual(sheet[24 + 2, 18 + 1], PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255), "diff at the right")
        XCTAssertTrue(outcome.standardOutput.contains("sheet: \(out)/sheet.png (1 frame, expected | actual | diff, full size)"),
                      outcome.standardOutput)
        // The report: every compared frame, the failing one first with its time from the manifest (none
        // here: folders without one) and its three images.
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        XCTAssertTrue(html.contains("<h2>frame_0001.png — differs</h2>"), html)
        XCTAssertTrue(html.contains("src=\"frame_0001.expected.png\"") && html.contains("src=\"frame_0001.diff.png\""))
        XCTAssertTrue(html.contains("<td>frame_0000.png</td>"), "matching frames are listed")
        XCTAssertLessThan(try XCTUnwrap(html.range(of: "differs</h2>")).lowerBound, try XCTUnwrap(html.range(of: "matching frame")).lowerBound)
    }

    /// A diff folder that cannot be created is an output folder that cannot be created: 73, as for
    /// render folders (checked before comparing, by `OutputFolder`).
    func testUnwritableDiffOutIsExitCode73() throws {
        let (expected, actual) = try makeSequences()
        let file = directory + "/a-file"
        try Data().write(to: URL(fileURLWithPath: file))
        let outcome = DiffInvocation(expected: expected, actual: actual, diffOut: file).run()
        XCTAssertEqual(outcome.exitCode, 73)
        XCTAssertEqual(outcome.standardError, "smokescreen: --out: \(file): cannot create the output folder: Not a directory\n")
        let below = DiffInvocation(expected: expected, actual: actual, diffOut: file + "/sub").run()
        XCTAssertEqual(below.exitCode, 73)
        XCTAssertEqual(below.standardError,
                       "smokescreen: --out: \(file)/sub: cannot create the output folder: \(file): Not a directory\n")
    }

    func testFileHelpersNameTheSystemReason() throws {
        let path = directory + "/twenty.json"
        try Data(repeating: 32, count: 20).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try POSIXFiles.read(path, limit: 20).count, 20)
        XCTAssertThrowsError(try POSIXFiles.read(path, limit: 19)) { XCTAssertEqual(($0 as? POSIXFailure)?.reason, "20 bytes, over the limit of 19 bytes") }
        XCTAssertThrowsError(try POSIXFiles.read(directory + "/none", limit: 19)) {
            XCTAssertEqual(($0 as? POSIXFailure)?.reason, "No such file or directory")
        }
        XCTAssertThrowsError(try StoredFrames.folder(at: path)) {
            XCTAssertEqual($0 as? FrameInputError, FrameInputError(path: path, reason: "cannot list the folder: Not a directory"))
        }
        try POSIXFiles.createDirectories(directory + "/x/y/z")
        try POSIXFiles.createDirectories(directory + "/x/y/z")  // existing folders are fine
        XCTAssertEqual(try POSIXFiles.list(directory + "/x"), ["y"])
    }

    func testExitCodeMapping() throws {
        var report = SequenceReport(comparison: .exact, expectedPath: "e", actualPath: "a")
        XCTAssertEqual(DiffExitCode.code(for: report), 0)
        report.extra = ["frame_0009.png"]
        XCTAssertEqual(DiffExitCode.code(for: report), 1)
        report.artifactError = ArtifactError(path: "out", reason: "Permission denied")
        XCTAssertEqual(DiffExitCode.code(for: report), 74)
        report.unreadable = [SequenceReport.Unreadable(path: "a/frame_0001.png", reason: "corrupt PNG: x")]
        XCTAssertEqual(DiffExitCode.code(for: report), 65)
        report = SequenceReport(comparison: .exact, expectedPath: "e", actualPath: "a")
        report.failures = [.init(name: "f", difference: FrameDifference(differentPixels: 1, maxChannelDelta: 1, boundingBox: nil, pixelCount: 4))]
        XCTAssertEqual(report.exitCode, 1)
    }

    func testUsageErrorsAre64() throws {
        let (expected, actual) = try makeSequences()
        let cases: [(DiffInvocation, String)] = [
            (DiffInvocation(expected: expected, actual: actual, tolerance: 256), "--tolerance must be 0…255 (per channel), got 256"),
            (DiffInvocation(expected: expected, actual: actual, tolerance: -1), "--tolerance must be 0…255 (per channel), got -1"),
            (DiffInvocation(expected: expected, actual: actual, maxDifferentFraction: 1.5), "--max-different-fraction must be 0…1, got 1.5"),
            (DiffInvocation(expected: expected, actual: actual, maxDifferentFraction: .nan), "--max-different-fraction must be 0…1, got nan"),
            (DiffInvocation(expected: expected, actual: actual, threshold: .infinity), "--threshold must be 0…1, got inf"),
            (DiffInvocation(expected: expected, actual: actual, tolerance: 2, threshold: 0.1),
             "--tolerance and --threshold select different modes: give one of them"),
            (DiffInvocation(expected: expected, actual: actual, includeAA: true), "--include-aa needs --threshold (perceptual mode)"),
            (DiffInvocation(expected: "", actual: actual), "EXPECTED and ACTUAL must not be empty"),
        ]
        for (invocation, message) in cases {
            XCTAssertThrowsError(try invocation.validate()) { XCTAssertEqual(($0 as? DiffUsageError)?.message, message) }
            let outcome = invocation.run()
            XCTAssertEqual(outcome.exitCode, 64, message)
            XCTAssertEqual(outcome.standardError, "smokescreen: \(message)\n")
            XCTAssertEqual(outcome.standardOutput, "")
        }
        let mixed = DiffInvocation(expected: expected + "/frame_0000.png", actual: actual).run()
        XCTAssertEqual(mixed.exitCode, 64)
        XCTAssertEqual(mixed.standardError, "smokescreen: \(expected)/frame_0000.png is a PNG file but \(actual) is a folder: "
                       + "compare two files, or two folders or manifests\n")
    }

    func testModeSelection() {
        XCTAssertEqual(DiffInvocation(expected: "e", actual: "a").comparison, FrameComparison(diffImage: nil))
        XCTAssertEqual(DiffInvocation(expected: "e", actual: "a", tolerance: 0).comparison.mode, .exact)
        XCTAssertEqual(DiffInvocation(expected: "e", actual: "a", tolerance: 3).comparison.mode, .tolerance(perChannel: 3))
        XCTAssertEqual(DiffInvocation(expected: "e", actual: "a", threshold: 0.2, includeAA: true).comparison.mode,
                       .perceptual(threshold: 0.2, includeAA: true))
        XCTAssertEqual(DiffInvocation(expected: "e", actual: "a", maxDifferentFraction: 0.5, diffOut: "o").comparison,
                       FrameComparison(maxDifferentFraction: 0.5, diffImage: DiffImageStyle()))
    }

    func testAMissingInputIs66AndInputsThatCannotBeOpenedAre65() throws {
        let missing = DiffInvocation(expected: directory + "/nope", actual: directory).run()
        XCTAssertEqual(missing.exitCode, 66, "no such input, as for every command")
        XCTAssertEqual(missing.standardError, "smokescreen: \(directory)/nope: no such file or folder\n")
        XCTAssertEqual(missing.standardOutput, "", "nothing compared, no report")

        let empty1 = try folder("empty1", frames: [:]), empty2 = try folder("empty2", frames: [:])
        let empty = DiffInvocation(expected: empty1, actual: empty2, json: true).run()
        XCTAssertEqual(empty.exitCode, 65)
        XCTAssertEqual(empty.standardOutput, "")

        let notJSON = directory + "/manifest.json"
        try Data("{frames".utf8).write(to: URL(fileURLWithPath: notJSON))
        let bad = DiffInvocation(expected: notJSON, actual: empty1).run()
        XCTAssertEqual(bad.exitCode, 65)
        XCTAssertEqual(bad.standardError, "smokescreen: \(notJSON): 1:2: expected a key in quotes\n")
    }

    func testTwoFilesAreComparedWhateverTheirNames() throws {
        let a = directory + "/golden.png", b = directory + "/today.png"
        try PNGCodec.write(try Self.frame(1), to: a)
        try PNGCodec.write(try Self.frame(2), to: b)
        let report = try XCTUnwrap(DiffInvocation(expected: a, actual: b).run().report)
        XCTAssertEqual(report.compared, 1)
        XCTAssertEqual(report.failures.map(\.name), ["golden.png"])
        XCTAssertEqual(report.failures.first?.difference.differentPixels, 24)
        XCTAssertEqual(DiffInvocation(expected: a, actual: a).run().exitCode, 0)
    }

    func testFolderAgainstManifest() throws {
        let (expected, actual) = try makeSequences()
        // The manifest lists frames 0, 1 and 3 of the actual folder, in a sub-folder path form too.
        try FileManager.default.createDirectory(atPath: actual + "/more", withIntermediateDirectories: true)
        try PNGCodec.write(try Self.frame(3), to: actual + "/more/frame_0003.png")
        let manifest = """
            {"name": "vesper", "pointSize": [6, 4], "scale": 1, "fps": 30, "frameCount": 3,
             "frames": [{"file": "frame_0000.png", "time": 0, "sha256": "x"}, {"file": "frame_0001.png", "time": 0.033, "sha256": "y"},
                        {"file": "frame_0003.png", "time": 0.1, "sha256": "z"}],
             "durations": {"fade": 0.3}}
            """
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: actual + "/manifest.json"))
        let sequence = try StoredFrames.open(actual + "/manifest.json")
        XCTAssertEqual(sequence.source, .manifest)
        XCTAssertEqual(sequence.frames.map(\.name), ["frame_0000.png", "frame_0001.png", "frame_0003.png"])
        XCTAssertEqual(sequence.frames.last?.path, actual + "/frame_0003.png")

        let outcome = DiffInvocation(expected: expected, actual: actual + "/manifest.json", json: true).run()
        XCTAssertEqual(outcome.exitCode, 1)
        XCTAssertEqual(outcome.report?.failures.map(\.name), ["frame_0001.png"])
        XCTAssertEqual(outcome.report?.missing, ["frame_0002.png"])
        XCTAssertEqual(outcome.report?.extra, [])
        XCTAssertEqual(try StoredFrames.open(expected).frames.map(\.name),
                       ["frame_0000.png", "frame_0001.png", "frame_0002.png", "frame_0003.png"], "manifest.json and other files are not frames")
    }

    func testBadManifests() throws {
        let path = directory + "/m.json"
        let cases: [(String, String)] = [
            ("[1, 2]", "1:1: expected an object, got an array"),
            ("{}", "no \"frames\" array at the top level"),
            ("{\"frames\": {}}", "1:12: frames: expected an array, got an object"),
            ("{\"frames\": [{\"time\": 0}]}", "1:24: frames[0]: missing \"file\" (a string)"),
            ("{\"frames\": [{\"file\": 7}]}", "1:22: frames[0].file: expected a string, got a number"),
            ("{\"name\": \"x\", \"name\": \"y\"}", "1:15: the key 'name' appears twice in this object"),
            (String(repeating: "[", count: 100), "1:1: expected an object, got an array"),
            ("{\"x\": " + String(repeating: "[", count: 100) + "}", "1:71: x" + String(repeating: "[0]", count: 64) + ": nested more than 64 levels deep"),
            ("{\"frames\": [{\"file\": \"../x.png\"}]}", "frames[0].file \"../x.png\" must be a relative path inside the manifest's folder"),
            ("{\"frames\": [{\"file\": \"/etc/x.png\"}]}", "frames[0].file \"/etc/x.png\" must be a relative path inside the manifest's folder"),
            ("{\"frames\": [{\"file\": \"\"}]}", "frames[0].file \"\" must be a relative path inside the manifest's folder"),
            ("{\"frames\": [{\"file\": \"a\\u0000.png\"}]}", "frames[0].file \"a\u{0}.png\" must be a relative path inside the manifest's folder"),
            ("{\"frames\": [{\"file\": \"a//b.png\"}]}", "frames[0].file \"a//b.png\" must be a relative path inside the manifest's folder"),
            ("{\"frames\": [{\"file\": \"a.png\"}, {\"file\": \"a.png\"}]}", "frames[1].file \"a.png\" is listed twice"),
            ("", "1:1: the document ends where a value was expected"),
        ]
        for (text, reason) in cases {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try StoredFrames.open(path), text) {
                XCTAssertEqual($0 as? FrameInputError, FrameInputError(path: path, reason: reason), text)
            }
        }
    }

    func testFolderOrderIsByFrameNumber() throws {
        let path = try folder("order", frames: [:])
        for name in ["frame_10.png", "frame_9.png", "frame_0002.png", "frame_.png", "frame_1a.png", "other.png", "frame_0001.PNG"] {
            try Data().write(to: URL(fileURLWithPath: path + "/" + name))
        }
        XCTAssertEqual(try StoredFrames.folder(at: path).frames.map(\.name), ["frame_0002.png", "frame_9.png", "frame_10.png"])
    }

    func testConcurrencyDoesNotChangeTheReport() throws {
        var expectedFrames: [Int: Bitmap] = [:], actualFrames: [Int: Bitmap] = [:]
        for i in 0..<9 {
            expectedFrames[i] = try Self.frame(i)
            var frame = try Self.frame(i)
            if i % 2 == 1 { frame[i % 6, 0] = .black }
            actualFrames[i] = frame
        }
        let expected = try StoredFrames.open(try folder("ce", frames: expectedFrames))
        let actual = try StoredFrames.open(try folder("ca", frames: actualFrames))
        let serial = SequenceComparison(concurrency: 1).run(expected: expected, actual: actual)
        let parallel = SequenceComparison(concurrency: 4).run(expected: expected, actual: actual)
        XCTAssertEqual(serial.failures.map(\.name), ["frame_0001.png", "frame_0003.png", "frame_0005.png", "frame_0007.png"])
        XCTAssertEqual(serial.json, parallel.json)
    }

    func testJSONStringEscaping() {
        XCTAssertEqual(JSONText.string("a\"b\\c\nd\u{1}é"), "\"a\\\"b\\\\c\\nd\\u0001é\"")
    }
}
