import BoundedInput
import FrameStore
import Foundation
import PNGIO
import RasterCore
import XCTest

/// What a hostile or careless user can do to the tool, run as the user would: the built `smokescreen`
/// executable in a child process, its exit status, its messages, what it leaves on disk and its peak
/// resident memory (measured by the parent as the child's `ru_maxrss`), never a timing.
final class SafetyTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// The tool the tests run: `$SMOKESCREEN_TOOL` (script/test sets it to the release build it has just
    /// brought up to date: whole renders in child processes take a twentieth of a debug build's time),
    /// else the release build beside the tests.
    static let tool = ProcessInfo.processInfo.environment["SMOKESCREEN_TOOL"] ?? root + "/.build/release/smokescreen"
    var folders: [String] = []
    override func tearDown() { for f in folders { try? FileManager.default.removeItem(atPath: f) } }

    func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("safety-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        folders.append(path)
        return path
    }

    struct Run {
        var status: Int32
        var standardOutput: String
        var standardError: String
        /// Peak resident set of the child, in KiB.
        var peakKiB: Int
    }

    /// Runs the tool with `arguments`, standard input closed, and measures its peak memory through a
    /// Python wrapper (`resource.getrusage(RUSAGE_CHILDREN).ru_maxrss` after it exits).
    func run(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil) throws -> Run {
        try Self.run(arguments, environment: environment, directory: directory)
    }

    static func run(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil) throws -> Run {
        guard FileManager.default.isExecutableFile(atPath: Self.tool) else { throw XCTSkip("\(Self.tool) is not built (swift build first)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // The child's stdout goes to stdout as it is; its peak memory is the last line, on stdout too.
        let script = "import resource,subprocess,sys\nr=subprocess.run(sys.argv[1:],stdin=subprocess.DEVNULL)\n"
            + "sys.stdout.flush()\nsys.stdout.write('\\n' + str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\nsys.exit(r.returncode)"
        process.arguments = ["python3", "-c", script, Self.tool] + arguments
        var env = ProcessInfo.processInfo.environment
        env["SMOKESCREEN_ASSETS"] = nil
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? Self.root)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Both pipes are drained at once: a child that fills one while the other is read would block.
        nonisolated(unsafe) var errData = Data()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        let output = String(decoding: outData, as: UTF8.self)
        let lastBreak = output.lastIndex(of: "\n")
        return Run(status: process.terminationStatus, standardOutput: lastBreak.map { String(output[..<$0]) } ?? "",
                   standardError: String(decoding: errData, as: UTF8.self),
                   peakKiB: Int(lastBreak.map { String(output[output.index(after: $0)...]) } ?? output) ?? -1)
    }

    func snapshot(_ folder: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            result[name] = FileManager.default.contents(atPath: folder + "/" + name)
        }
        return result
    }

    // 1. Data loss.
    func testAFolderWithTheUsersFilesIsNeverWrittenInto() throws {
        for userFile in ["manifest.json", "frame_0000.png"] {
            let out = try temporaryFolder()
            try Data("the user's own \(userFile)".utf8).write(to: URL(fileURLWithPath: out + "/" + userFile))
            let before = try snapshot(out)
            let result = try run(["render", "reference", "--scale", "1", "--out", out, "--quiet"])
            XCTAssertEqual(result.status, 73, result.standardError)
            XCTAssertTrue(result.standardError.contains("holds '\(userFile)', which Smokescreen did not write"), result.standardError)
            XCTAssertEqual(try snapshot(out), before, "the user's files are byte-for-byte unchanged and nothing was added")
            // --force renders beside the user's files but never over them.
            let forced = try run(["render", "reference", "--scale", "1", "--out", out, "--quiet", "--force"])
            XCTAssertEqual(forced.status, 73, forced.standardError)
            XCTAssertTrue(forced.standardError.contains("never replaced, even with --force"), forced.standardError)
            XCTAssertEqual(try snapshot(out), before)
        }
        let out = try temporaryFolder()
        try Data("notes".utf8).write(to: URL(fileURLWithPath: out + "/notes.txt"))
        let forced = try run(["render", "reference", "--scale", "1", "--out", out, "--quiet", "--force", "--frames", "0..2"])
        XCTAssertEqual(forced.status, 0, forced.standardError)
        XCTAssertEqual(FileManager.default.contents(atPath: out + "/notes.txt"), Data("notes".utf8))
        XCTAssertEqual(try snapshot(out).keys.sorted(), ["frame_0000.png", "frame_0001.png", "frame_0002.png", "manifest.json", "notes.txt"])
    }

    // 3. The manifest agrees with the files, whatever runs at once.
    func testTwoDifferentRendersIntoOneFolderAtOnceLeaveAManifestThatDescribesTheFiles() throws {
        let out = try temporaryFolder()
        guard FileManager.default.isExecutableFile(atPath: Self.tool) else { throw XCTSkip("\(Self.tool) is not built") }
        // Both start at once; the second waits for the folder lock, then replaces the first's render.
        let processes = [["--fps", "30", "--compression", "store"], ["--fps", "10", "--compression", "fast"]].map { extra in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.tool)
            process.arguments = ["render", "reference", "--scale", "1", "--out", out, "--quiet"] + extra
            process.standardError = FileHandle.nullDevice
            return process
        }
        for process in processes { try process.run() }
        for process in processes { process.waitUntilExit() }
        let statuses = processes.map(\.terminationStatus)
        XCTAssertEqual(statuses, [0, 0])
        let manifest = try XCTUnwrap(try Manifest.read(from: out + "/manifest.json"))
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0 != "manifest.json" }.sorted()
        XCTAssertEqual(onDisk, manifest.frames.map(\.file), "every frame file is listed, and nothing else is there")
        for frame in manifest.frames {
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: out + "/" + frame.file))
            XCTAssertEqual(Digest.sha256Hex(Array(bytes)), frame.sha256, frame.file)
        }
    }

    // 3 and 8: a killed run's temporary files are removed by the next run in the folder.
    func testLeftoverTemporaryFilesOfAKilledRunAreRemoved() throws {
        let out = try temporaryFolder()
        XCTAssertEqual(try run(["render", "reference", "--scale", "1", "--out", out, "--quiet", "--frames", "0..1"]).status, 0)
        // What a SIGKILL during a write leaves: a temporary file of a process that no longer exists.
        let dead: Int32 = 2_000_000_000
        let leftover = ".frame_0001.png.tmp-\(dead)-1f2e"
        try Data("half a PNG".utf8).write(to: URL(fileURLWithPath: out + "/" + leftover))
        let result = try run(["render", "reference", "--scale", "1", "--out", out, "--quiet", "--frames", "0..1"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/" + leftover))
    }

    // 4. A huge manifest given to diff stays within a memory bound.
    func testAHugeManifestDoesNotBlowUpDiff() throws {
        let folder = try temporaryFolder()
        try PNGCodec.write(try Bitmap(width: 2, height: 2, fill: .white), to: folder + "/frame_0000.png")
        // 20 MB of tiny values under a key the reader skips: a tree parser would box every one.
        var text = "{\"junk\": ["
        text += String(repeating: "0,", count: 10_000_000)
        text += "0], \"frames\": [{\"file\": \"frame_0000.png\"}]}"
        let manifest = folder + "/big.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: manifest))
        let result = try run(["diff", folder, manifest])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertLessThan(result.peakKiB, 300_000, "peak resident \(result.peakKiB) KiB for a 20 MB manifest")
    }

    // 6. A huge durations file is refused before it is read.
    func testAHugeSparseDurationsFileIsRefusedBeforeReading() throws {
        let folder = try temporaryFolder()
        let path = folder + "/durations.plist"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 3 << 30)  // 3 GB, sparse: no disk used
        try handle.close()
        let result = try run(["render", "--durations", path, "--out", folder + "/out", "--quiet"])
        XCTAssertEqual(result.status, 65, result.standardError)
        XCTAssertTrue(result.standardError.contains("\(path): the durations file is 3221225472 bytes, over the limit of 1048576 bytes"), result.standardError)
        XCTAssertLessThan(result.peakKiB, 200_000, "peak resident \(result.peakKiB) KiB")
    }

    // 7. FIFOs and devices never hang a run.
    func testAFIFOOrADeviceIsRefusedAtOnce() throws {
        let folder = try temporaryFolder()
        let fifo = folder + "/pipe"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let durations = try run(["render", "--durations", fifo, "--out", folder + "/a", "--quiet"])
        XCTAssertEqual(durations.status, 66, durations.standardError)
        XCTAssertTrue(durations.standardError.contains("\(fifo): the durations file is a named pipe (FIFO), not a regular file"), durations.standardError)
        let random = try run(["render", "--durations", "/dev/urandom", "--out", folder + "/b", "--quiet"])
        XCTAssertEqual(random.status, 66, random.standardError)
        XCTAssertTrue(random.standardError.contains("a character device, not a regular file"), random.standardError)
        try PNGCodec.write(try Bitmap(width: 2, height: 2, fill: .white), to: folder + "/one.png")
        let frame = try run(["diff", folder + "/one.png", fifo])
        XCTAssertNotEqual(frame.status, 0)
        XCTAssertTrue(frame.standardError.contains("a named pipe (FIFO), not a regular file"), frame.standardError)
        let manifestFIFO = folder + "/m.json"
        XCTAssertEqual(mkfifo(manifestFIFO, 0o644), 0)
        let manifest = try run(["diff", folder, manifestFIFO])
        XCTAssertEqual(manifest.status, 65, manifest.standardError)
        XCTAssertTrue(manifest.standardError.contains("a named pipe (FIFO), not a regular file"), manifest.standardError)
    }

    // 9. Messages name the argument, file or key path, once, with the right exit status.
    func testMessagesAndExitStatuses() throws {
        let folder = try temporaryFolder()
        let scale = try run(["render", "--scale", "-1", "--quiet"])
        XCTAssertEqual(scale.status, 64)
        XCTAssertTrue(scale.standardError.contains("--scale must be 1, 2 or 3, got -1"), scale.standardError)
        let out = try run(["render", "--out", "", "--quiet"])
        XCTAssertEqual(out.status, 64)
        XCTAssertTrue(out.standardError.contains("--out: the path is empty"), out.standardError)
        let assets = try run(["render", "--quiet", "--out", folder + "/x"], environment: ["SMOKESCREEN_ASSETS": folder + "/asets"])
        XCTAssertEqual(assets.status, 66)
        XCTAssertTrue(assets.standardError.contains("SMOKESCREEN_ASSETS: '\(folder)/asets' is not a folder"), assets.standardError)
        let missing = try run(["render", "--assets", folder + "/nope", "--quiet"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.standardError.contains("--assets: '\(folder)/nope' is not a folder"), missing.standardError)
        let reference = try run(["render", "reference", "--durations", Self.root + "/assets/vesper/durations.plist", "--quiet"])
        XCTAssertEqual(reference.status, 64)
        XCTAssertTrue(reference.standardError.contains("'reference' has no durations file"), reference.standardError)

        let duplicate = folder + "/dup.plist"
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
              <key>navigationBar</key><dict><key>duration</key><real>0.3</real></dict>
              <key>tableView</key><dict><key>duration</key><real>0.35</real></dict>
              <key>selectedNote</key><dict><key>duration</key><real>0.5</real><key>duration</key><real>0.6</real></dict>
            </dict></plist>
            """.utf8).write(to: URL(fileURLWithPath: duplicate))
        let dup = try run(["render", "--durations", duplicate, "--out", folder + "/d", "--quiet"])
        XCTAssertEqual(dup.status, 65)
        XCTAssertTrue(dup.standardError.contains("\(duplicate):5:67: selectedNote.duration: the key 'duration' appears twice in this dictionary"), dup.standardError)
        XCTAssertEqual(dup.standardError.components(separatedBy: duplicate).count, 2, "the path appears once")

        let broken = folder + "/broken.plist"
        try Data("<plist><dict>\n<key>navigationBar</key>\n<dict><key>duration</key><real>0.3</rea></dict>".utf8).write(to: URL(fileURLWithPath: broken))
        let syntax = try run(["render", "--durations", broken, "--out", folder + "/e", "--quiet"])
        XCTAssertEqual(syntax.status, 65)
        XCTAssertTrue(syntax.standardError.contains("\(broken):3:"), syntax.standardError)
        XCTAssertFalse(syntax.standardError.contains("NSCocoaErrorDomain"), syntax.standardError)

        let typo = folder + "/typo.plist"
        try Data("""
            <plist><dict>
              <key>navigationBar</key><dict><key>duration</key><real>0.3</real></dict>
              <key>tableView</key><dict><key>duration</key><real>0.35</real><key>dellay</key><real>1</real></dict>
              <key>selectedNote</key><dict><key>duration</key><real>0.5</real></dict>
              <key>selectedNotes</key><dict/>
            </dict></plist>
            """.utf8).write(to: URL(fileURLWithPath: typo))
        let warned = try run(["render", "--durations", typo, "--out", folder + "/f", "--quiet", "--scale", "1"])
        XCTAssertEqual(warned.status, 0, warned.standardError)
        XCTAssertTrue(warned.standardError.contains("warning: \(typo):3:"), warned.standardError)
        XCTAssertTrue(warned.standardError.contains("tableView.dellay: unknown key"), warned.standardError)
        XCTAssertTrue(warned.standardError.contains("did you mean 'delay'?"), warned.standardError)
        XCTAssertTrue(warned.standardError.contains("'selectedNotes' is not a block of this transition"), warned.standardError)
    }

    func testMoreFramesThanTheLimitIsAUsageError() throws {
        let folder = try temporaryFolder()
        let slow = folder + "/slow.plist"
        try Data("""
            <plist><dict>
              <key>navigationBar</key><dict><key>duration</key><real>200</real></dict>
              <key>tableView</key><dict><key>duration</key><real>0.35</real></dict>
              <key>selectedNote</key><dict><key>duration</key><real>0.5</real></dict>
            </dict></plist>
            """.utf8).write(to: URL(fileURLWithPath: slow))
        let result = try run(["render", "--durations", slow, "--fps", "1000", "--out", folder + "/o", "--quiet"])
        XCTAssertEqual(result.status, 64, result.standardError)
        XCTAssertTrue(result.standardError.contains("more than the limit of 100000 frames"), result.standardError)
    }
}

/// Hostile PNG files (made here with Python's zlib), given to `smokescreen diff` as a user would.
final class HostilePNGTests: XCTestCase {
    var folder = ""
    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// Writes PNGs with Python: `name.png` for each case of the script.
    func makeFiles() throws {
        let script = """
            import struct, sys, zlib
            out = sys.argv[1]
            def chunk(kind, data, length=None):
                n = len(data) if length is None else length
                return struct.pack('>I', n) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
            sig = b'\\x89PNG\\r\\n\\x1a\\n'
            ihdr = chunk(b'IHDR', struct.pack('>IIBBBBB', 1, 1, 8, 6, 0, 0, 0))
            # 44 bytes: a text chunk that claims 0x7FFFFFF0 bytes.
            for kind in (b'tEXt', b'zTXt'):
                open(out + '/' + kind.decode() + '.png', 'wb').write(sig + ihdr + chunk(kind, b'k\\0', 0x7FFFFFF0)[:11])
            row = b'\\x00\\xff\\x00\\x00\\xff'
            def idat_with_zeros(count):
                c = zlib.compressobj(9)
                data = c.compress(row)
                block = bytes(1 << 20)
                for _ in range(count >> 20): data += c.compress(block)
                return data + c.flush()
            # 256 MiB of zeros after the one row: about 256 KB compressed, over the bound before inflating.
            open(out + '/huge-extra.png', 'wb').write(sig + ihdr + chunk(b'IDAT', idat_with_zeros(256 << 20)) + chunk(b'IEND', b''))
            # 8 MiB of zeros: under the bound, so caught by libpng as extra compressed data.
            open(out + '/small-extra.png', 'wb').write(sig + ihdr + chunk(b'IDAT', idat_with_zeros(8 << 20)) + chunk(b'IEND', b''))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, folder]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testHugeTextChunksAndExtraImageDataAreRefusedWithinAMemoryBound() throws {
        try makeFiles()
        for (file, message) in [("tEXt.png", "tEXt: chunk data is too large"), ("zTXt.png", "zTXt: chunk data is too large"),
                                ("huge-extra.png", "extra data after the image"), ("small-extra.png", "IDAT")] {
            let path = folder + "/" + file
            let result = try SafetyTests.run(["diff", path, path])
            XCTAssertEqual(result.status, 65, "\(file): \(result.standardError)")
            XCTAssertTrue(result.standardError.contains(message), "\(file): \(result.standardError)")
            XCTAssertLessThan(result.peakKiB, 150_000, "\(file): peak resident \(result.peakKiB) KiB")
        }
    }
}
