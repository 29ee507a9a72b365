import BoundedInput
import FrameStore
import Foundation
import XCTest

/// Issue 32 in FrameStore: manifest numbers checked before anything converts them (D14), `--shard auto`
/// with any integer in the environment (D15), and `OutputFolder`, RenderFolder's rule for previews and
/// diff images (D13).
final class SurfaceLimitsTests: XCTestCase {
    var folders: [String] = []
    override func tearDown() { for f in folders { try? FileManager.default.removeItem(atPath: f) } }

    func makeFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("surface-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        folders.append(path)
        return path
    }

    func manifestText(fps: Double = 10, scale: Double = 1, times: [Double] = [0, 0.1]) throws -> String {
        let frames = times.enumerated().map { Manifest.Frame(file: FrameFileName.name($0.offset), time: $0.element, sha256: nil) }
        return String(decoding: try Manifest(name: "n", pointSize: [10, 10], scale: scale, fps: fps, compression: "fast", frames: frames,
                                             durations: [:], fingerprint: nil).encoded(), as: UTF8.self)
    }

    func error(_ text: String) -> String {
        do { _ = try Manifest.parse(Array(text.utf8), path: "m.json"); return "no error" } catch {
            XCTAssertEqual((error as any ExitStatusError).exitStatus, 65)
            return "\(error)"
        }
    }

    // MARK: D14

    func testManifestNumbersOutsideTheLimitsAreRefusedWithTheirKey() throws {
        XCTAssertEqual(error(try manifestText()), "no error")
        XCTAssertEqual(error(try manifestText(fps: 1000, times: [0, 600, 610])), "no error", "hold frames after the longest transition")
        for fps in ["1e-300", "1e300", "1001", "0"] {
            let text = try manifestText().replacingOccurrences(of: "\"fps\" : 10", with: "\"fps\" : \(fps)")
            XCTAssertTrue(error(text).contains(": fps: must be"), error(text))
        }
        for time in ["1e300", "-1", "700000000"] {
            let text = try manifestText().replacingOccurrences(of: "\"time\" : 0.1", with: "\"time\" : \(time)")
            XCTAssertTrue(error(text).hasPrefix("m.json: frames[1].time: must be in 0…"), error(text))
        }
        let scaled = try manifestText().replacingOccurrences(of: "\"scale\" : 1", with: "\"scale\" : 1e300")
        XCTAssertTrue(error(scaled).contains("scale: must be in 0 < scale ≤ 16"), error(scaled))
        let wide = try manifestText(scale: 16).replacingOccurrences(of: "10,\n    10", with: "10000,\n    10")
        XCTAssertTrue(error(wide).contains("pointSize: 10000.0x10.0 pt at @16.0x is over the bitmap limits"), error(wide))
    }

    // MARK: D15

    func testShardAutoNamesTheVariableForEveryIntegerAndNeverOverflows() {
        let max = String(Int.max), min = String(Int.min)
        func failure(_ environment: [String: String], count: Int? = nil) -> String {
            do { let part = try ShardEnvironment.resolve(environment, count: count); return "\(part)" } catch { return error.description }
        }
        XCTAssertTrue(failure(["JOB_COMPLETION_INDEX": max], count: 2).contains("JOB_COMPLETION_INDEX=\(max) is outside 0…9999"))
        XCTAssertTrue(failure(["JOB_COMPLETION_INDEX": min], count: 2).contains("JOB_COMPLETION_INDEX=\(min) is outside"))
        XCTAssertTrue(failure(["JOB_COMPLETION_INDEX": "9999"], count: 10_000).contains("index: 10000, count: 10000"))
        for (id, low) in [(max, min), (min, max), (max, "0"), ("0", "1")] {
            let message = failure(["SLURM_ARRAY_TASK_ID": id, "SLURM_ARRAY_TASK_MIN": low, "SLURM_ARRAY_TASK_COUNT": "2"])
            XCTAssertTrue(message.contains("SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN must be 0…9999"), message)
        }
        XCTAssertTrue(failure(["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": max]).contains("parts is outside 1…10000"))
        XCTAssertTrue(failure(["CI_NODE_INDEX": max, "CI_NODE_TOTAL": max]).contains("parts is outside"))
        XCTAssertTrue(failure(["CI_NODE_INDEX": min, "CI_NODE_TOTAL": "3"]).contains("part \(min) is outside 1…3"))
    }

    // MARK: D13

    func testAnOutputFolderIsSmokescreensOnlyWhereItsRecordSaysSo() throws {
        let folder = try makeFolder()
        do {
            let output = try OutputFolder(path: folder + "/p", option: "--preview-out")
            try output.claim(["sheet.png"])
            try Data("png".utf8).write(to: URL(fileURLWithPath: folder + "/p/sheet.png"))
        }
        // Its own files: opened again.
        XCTAssertEqual(try OutputFolder(path: folder + "/p", option: "--preview-out").files, ["sheet.png"])
        // A file the record does not list is the user's.
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/p/notes.txt"))
        XCTAssertThrowsError(try OutputFolder(path: folder + "/p", option: "--preview-out")) { error in
            XCTAssertEqual((error as? OutputFolderError)?.exitStatus, 73)
            XCTAssertTrue("\(error)".contains("--preview-out: \(folder)/p holds 'notes.txt', which Smokescreen did not write (not listed in smokescreen-files.json)"), "\(error)")
        }
        // A record someone else wrote (or a broken one) makes nothing Smokescreen's.
        let other = folder + "/q"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        for record in ["{\"generator\": \"someone\", \"files\": [\"a.png\"]}", "{\"generator\": \"smokescreen 1\", \"files\": [\"../a\"]}", "not json"] {
            try Data(record.utf8).write(to: URL(fileURLWithPath: other + "/" + OutputFolder.markerName))
            XCTAssertThrowsError(try OutputFolder(path: other, option: "--diff-out")) { error in
                XCTAssertTrue("\(error)".contains("holds 'smokescreen-files.json', which Smokescreen did not write"), "\(error)")
            }
        }
        // A render folder is not a preview folder.
        let render = folder + "/r"
        try FileManager.default.createDirectory(atPath: render, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: render + "/manifest.json"))
        XCTAssertThrowsError(try OutputFolder(path: render, option: "--preview-out"))
        XCTAssertThrowsError(try OutputFolder(path: folder + "/p", option: "x").claim(["a/b"]))
    }
}
