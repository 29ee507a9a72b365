import BoundedInput
import FrameStore
import Foundation
import XCTest

final class RenderFolderTests: XCTestCase {
    var folders: [String] = []
    override func tearDown() { for f in folders { try? FileManager.default.removeItem(atPath: f) } }

    func makeFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("folder-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        folders.append(path)
        return path
    }

    func manifest(generator: String = SmokescreenVersion.generator, files: [String] = ["frame_0000.png"]) throws -> [UInt8] {
        try Manifest(generator: generator, name: "n", pointSize: [10, 10], scale: 1, fps: 10, compression: "fast",
                     frames: files.map { Manifest.Frame(file: $0, time: 0, sha256: nil) }, durations: [:], fingerprint: nil).encoded()
    }

    func testAManifestRoundTripsAndBadOnesAreRefusedWithTheirPlace() throws {
        let bytes = try manifest()
        XCTAssertEqual(try Manifest.parse(bytes, path: "m.json").generator, SmokescreenVersion.generator)
        func error(_ text: String) -> String {
            do { _ = try Manifest.parse(Array(text.utf8), path: "m.json"); return "no error" } catch { return "\(error)" }
        }
        XCTAssertEqual(error("{\"name\": \"x\", \"fsp\": 3}"), "m.json:1:15: fsp: unknown key 'fsp'; did you mean 'fps'?")
        XCTAssertEqual(error("{\"name\": \"x\"}"), "m.json: generator: missing")
        let wrongFile = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "frame_0000.png", with: "../etc/passwd")
        XCTAssertTrue(error(wrongFile).contains("frames[0].file: '../etc/passwd' is not a frame file name"), error(wrongFile))
        let wrongCount = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"frameCount\" : 1", with: "\"frameCount\" : 2")
        XCTAssertEqual(error(wrongCount), "m.json: frameCount: is 2 but frames lists 1")
    }

    func testOwnershipComesFromTheManifestsGenerator() throws {
        let folder = try makeFolder()
        XCTAssertNil(try RenderFolder(path: folder).manifest, "an empty folder is fine")
        // A manifest.json that Smokescreen did not write is the user's: refused, even though it parses.
        try Data(try manifest(generator: "someone else")).write(to: URL(fileURLWithPath: folder + "/manifest.json"))
        XCTAssertThrowsError(try RenderFolder(path: folder)) {
            XCTAssertEqual($0 as? FrameStoreError, .foreignFile(folder: folder, file: "manifest.json", reason: "its generator is not smokescreen"))
        }
        let forced = try RenderFolder(path: folder, force: true)
        XCTAssertThrowsError(try forced.checkWritable(["manifest.json"]), "never written over, even with force")
        forced.close()
        // Ours: the manifest and the frames it lists.
        try Data(try manifest()).write(to: URL(fileURLWithPath: folder + "/manifest.json"))
        try Data("png".utf8).write(to: URL(fileURLWithPath: folder + "/frame_0000.png"))
        let ours = try RenderFolder(path: folder)
        XCTAssertEqual(ours.manifest?.frames.map(\.file), ["frame_0000.png"])
        XCTAssertEqual(ours.foreignFiles, [])
    }

    func testASecondRenderWaitsForTheFolderLock() throws {
        let folder = try makeFolder()
        let first = try RenderFolder(path: folder)
        let waited = expectation(description: "the second render says it waits")
        let opened = expectation(description: "the second render gets the folder once the first closes it")
        let path = folder
        Thread.detachNewThread {
            let second = try? RenderFolder(path: path, onWait: { message in
                XCTAssertTrue(message.contains("another render is writing into this folder"), message)
                waited.fulfill()
            })
            XCTAssertNotNil(second)
            opened.fulfill()
        }
        wait(for: [waited], timeout: 10)
        first.close()
        wait(for: [opened], timeout: 10)
    }

    func testAFolderPathThroughAFileCannotBeCreated() throws {
        let folder = try makeFolder()
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/file"))
        XCTAssertThrowsError(try RenderFolder(path: folder + "/file/sub")) {
            XCTAssertEqual(($0 as? FrameStoreError)?.exitStatus, ExitStatus.cannotCreate)
            XCTAssertEqual("\($0)", "\(folder)/file/sub: cannot create the output folder: \(folder)/file: Not a directory")
        }
    }
}
