import Synchronization
import FrameStore
import Foundation
import PNGIO
import RasterCore
import SnapshotView
import XCTest
import TransitionCompositor

final class FrameWriterTests: XCTestCase {
    var folders: [String] = []

    override func tearDown() {
        for f in folders { try? FileManager.default.removeItem(atPath: f) }
    }

    func makeFolder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("frames-\(getpid())-\(UUID().uuidString)").path
        folders.append(path)
        return path
    }

    /// `count` frames of a box sliding right, standing still for frames 3…5.
    func makeSequence(count: Int = 10) -> FrameSequence {
        let canvas = View(frame: Rect(x: 0, y: 0, width: 12, height: 4))
        canvas.backgroundColor = .white
        let box = View(frame: Rect(x: 0, y: 0, width: 3, height: 4))
        box.backgroundColor = Color(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.8)
        try! canvas.addSubview(box)
        var nodes: [RenderNode] = []
        for i in 0..<count {
            let x = Double(i < 3 ? i : i <= 5 ? 3 : i - 2) * 0.75
            box.frame = Rect(x: x, y: 0, width: 3, height: 4)
            nodes.append(canvas.renderNode()!)
        }
        return FrameSequence(name: "slide", pointSize: canvas.bounds.size, scale: 1, fps: 10,
                             times: (0..<count).map { Double($0) / 10 }, nodes: nodes, durations: ["slide": 0.9])
    }

    func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    func contents(_ folder: String) -> [String: Data] {
        Dictionary(uniqueKeysWithValues: files(folder).map { ($0, FileManager.default.contents(atPath: folder + "/" + $0)!) })
    }

    func testOneAndTwoJobsWriteByteIdenticalFiles() throws {
        let sequence = makeSequence()
        let one = makeFolder(), two = makeFolder()
        let r1 = try FrameWriter(directory: one, jobs: 1).write(sequence)
        let r2 = try FrameWriter(directory: two, jobs: 2).write(sequence)
        XCTAssertEqual(contents(one), contents(two))
        XCTAssertEqual(files(one), (0..<10).map(FrameFileName.name) + ["manifest.json"], "no temporary file is left")
        XCTAssertEqual(r1.written, Array(0..<10))
        XCTAssertEqual(r1.bytes, r2.bytes)
        // Frames 4 and 5 repeat frame 3: one thread compresses it once (frame 5 starts a new run).
        XCTAssertEqual(r1.reusedEncodings, 2)
        XCTAssertEqual(contents(one)["frame_0004.png"], contents(one)["frame_0003.png"])

        // The manifest's digests are the files' and the frames decode to what was drawn.
        let manifest = try XCTUnwrap(try Manifest.read(from: one + "/manifest.json"))
        XCTAssertEqual(manifest.frameCount, 10)
        XCTAssertEqual(manifest.name, "slide")
        XCTAssertEqual(manifest.durations, ["slide": 0.9])
        for frame in manifest.frames {
            XCTAssertEqual(frame.sha256, Digest.sha256Hex(Array(contents(one)[frame.file]!)), frame.file)
        }
        var canvas = try sequence.makeCanvas()
        sequence.draw(frame: 7, into: &canvas)
        XCTAssertEqual(try PNGCodec.read(contentsOf: one + "/frame_0007.png", scale: 1), canvas)
    }

    func testRunsShrinkTowardsTheEnd() {
        let lengths = { (count: Int, jobs: Int) in FrameWriter.runs(of: Array(0..<count), jobs: jobs).map(\.count) }
        XCTAssertEqual(lengths(30, 2), [8, 6, 4, 3, 3, 2, 1, 1, 1, 1])
        XCTAssertEqual(lengths(10, 1), [5, 3, 1, 1])
        XCTAssertEqual(lengths(100, 2).prefix(5), [8, 8, 8, 8, 8])
        XCTAssertEqual(lengths(0, 2), [])
        let runs = FrameWriter.runs(of: [0, 3, 6, 9, 12], jobs: 2)
        XCTAssertEqual(runs.flatMap { $0 }, [0, 3, 6, 9, 12], "every frame once, in order")
    }

    func testShardsTogetherEqualTheWhole() throws {
        let sequence = makeSequence()
        let whole = makeFolder(), parts = makeFolder()
        _ = try FrameWriter(directory: whole, jobs: 2).write(sequence)
        let first = try FrameWriter(directory: parts, jobs: 1).write(sequence, selection: FrameSelection(shard: (1, 3)))
        XCTAssertEqual(first.written, [0, 3, 6, 9])
        XCTAssertNil(first.manifest.frames[1].sha256, "not written yet")
        _ = try FrameWriter(directory: parts, jobs: 2).write(sequence, selection: FrameSelection(shard: (2, 3)))
        _ = try FrameWriter(directory: parts, jobs: 1).write(sequence, selection: FrameSelection(shard: (3, 3)))
        XCTAssertEqual(contents(parts), contents(whole), "frames and the merged manifest")

        let range = makeFolder()
        let r = try FrameWriter(directory: range, jobs: 2).write(sequence, selection: FrameSelection(range: 2...4))
        XCTAssertEqual(r.written, [2, 3, 4])
        XCTAssertEqual(files(range), ["frame_0002.png", "frame_0003.png", "frame_0004.png", "manifest.json"])
    }

    func testAReRenderReplacesOnlyWhatThisToolWrote() throws {
        let folder = makeFolder()
        _ = try FrameWriter(directory: folder, jobs: 2).write(makeSequence(count: 10))
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/frame_9999.png"))  // not in the manifest
        let before = contents(folder)
        XCTAssertThrowsError(try FrameWriter(directory: folder, jobs: 2).write(makeSequence(count: 6))) { error in
            XCTAssertEqual(error as? FrameStoreError, .foreignFile(folder: folder, file: "frame_9999.png", reason: "not listed in a Smokescreen manifest here"))
        }
        XCTAssertEqual(contents(folder), before, "a refused render changes nothing")
        let report = try FrameWriter(directory: folder, jobs: 2, force: true).write(makeSequence(count: 6))
        XCTAssertEqual(report.removedStaleFiles, ["frame_0006.png", "frame_0007.png", "frame_0008.png", "frame_0009.png"])
        XCTAssertEqual(files(folder), (0..<6).map(FrameFileName.name) + ["frame_9999.png", "manifest.json", "notes.txt"])
        XCTAssertEqual(String(decoding: contents(folder)["notes.txt"]!, as: UTF8.self), "keep me")
    }

    func testAFolderThatCannotBeCreatedIsExit73() throws {
        let folder = makeFolder()
        try Data("a file".utf8).write(to: URL(fileURLWithPath: folder))
        XCTAssertThrowsError(try FrameWriter(directory: folder + "/sub", jobs: 1).write(makeSequence(count: 2))) { error in
            XCTAssertEqual((error as? FrameStoreError)?.exitStatus, 73, "\(error)")
            XCTAssertTrue("\(error)".contains(folder), "\(error)")
        }
    }

    func testFrameFileNames() {
        XCTAssertEqual(FrameFileName.name(0), "frame_0000.png")
        XCTAssertEqual(FrameFileName.name(123), "frame_0123.png")
        XCTAssertEqual(FrameFileName.name(12345), "frame_12345.png")
    }

    func testAPartialRenderOfOtherInputsKeepsNoOldDigestsAndLeavesNoStaleFrames() throws {
        let folder = makeFolder()
        _ = try FrameWriter(directory: folder, jobs: 2).write(makeSequence(count: 10))
        var changed = makeSequence(count: 6)
        changed.fingerprint = "other inputs"
        // Without --force a part of another render does not replace the whole one: refused, nothing touched.
        let before = contents(folder)
        XCTAssertThrowsError(try FrameWriter(directory: folder, jobs: 1).write(changed, selection: FrameSelection(range: 0...1))) { error in
            XCTAssertEqual((error as? FrameStoreError)?.exitStatus, 73)
            XCTAssertTrue("\(error)".contains("holds 10 frames of another render (10 → 6 frames, input files or traits (--appearance, --text-size, --system-fonts)): writing only 2 of 6 frames"), "\(error)")
        }
        XCTAssertEqual(contents(folder), before)
        let warnings = Mutex([String]())
        let report = try FrameWriter(directory: folder, jobs: 1, force: true, onWait: { m in warnings.withLock { $0.append(m) } })
            .write(changed, selection: FrameSelection(range: 0...1))
        XCTAssertTrue(warnings.withLock { $0 }.contains { $0.hasSuffix("replacing it (--force)") })
        XCTAssertEqual(report.manifest.frames.map { $0.sha256 != nil }, [true, true, false, false, false, false],
                       "frames 2…5 on disk came from other inputs: no digest vouches for them")
        XCTAssertEqual(report.removedStaleFiles, (2..<10).map(FrameFileName.name),
                       "frames of the other render that this one did not rewrite go: the manifest lists only what is on disk")
        XCTAssertEqual(files(folder), ["frame_0000.png", "frame_0001.png", "manifest.json"])
        let json = String(decoding: contents(folder)["manifest.json"]!, as: UTF8.self)
        XCTAssertTrue(json.contains("\"sha256\" : null"), "a frame not written yet has a null digest, not a missing key")
        XCTAssertTrue(json.contains("\"fingerprint\" : \"other inputs\""))
    }

    func testShardsFinishingAtOnceInOneFolderLoseNoDigest() throws {
        let sequence = makeSequence(count: 10)
        for _ in 0..<3 {
            let folder = makeFolder()
            DispatchQueue.concurrentPerform(iterations: 2) { k in
                _ = try? FrameWriter(directory: folder, jobs: 1).write(sequence, selection: FrameSelection(shard: (k + 1, 2)))
            }
            let manifest = try XCTUnwrap(try Manifest.read(from: folder + "/manifest.json"))
            XCTAssertTrue(manifest.frames.allSatisfy { $0.sha256 != nil }, "\(manifest.frames.map(\.sha256))")
        }
    }

    func testBitmapsOfEveryWorkerAreChargedToTheCallersLedger() throws {
        let sequence = makeSequence(count: 10)
        let canvasBytes = try sequence.makeCanvas().width * sequence.makeCanvas().height * 4
        let (_, one) = try MemoryLedger.measure { try FrameWriter(directory: makeFolder(), jobs: 1).write(sequence) }
        let (_, two) = try MemoryLedger.measure { try FrameWriter(directory: makeFolder(), jobs: 2).write(sequence) }
        XCTAssertGreaterThanOrEqual(one.peakBytes, canvasBytes)
        XCTAssertGreaterThanOrEqual(two.totalAllocatedBytes, 2 * canvasBytes, "both workers' canvases are counted")
    }
}
