import Foundation
import PNGIO
import RasterCore
import XCTest

final class PNGFileTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pngio-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func contents() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: directory).sorted() }

    func testWriteAndReadBack() throws {
        let bitmap = try PNGTest.randomBitmap(width: 9, height: 4, opaque: true)
        let path = directory + "/frame.png"
        try PNGCodec.write(bitmap, to: path)
        XCTAssertEqual(try contents(), ["frame.png"], "no temporary file left behind")
        XCTAssertEqual(try PNGCodec.read(contentsOf: path), bitmap)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path))), try PNGCodec.encode(bitmap))
        let (_, header) = try PNGCodec.readWithHeader(contentsOf: path)
        XCTAssertEqual(header.colorType, .rgb)
    }

    func testWriteReplacesAnExistingFile() throws {
        let path = directory + "/frame.png"
        try Data(repeating: 7, count: 100_000).write(to: URL(fileURLWithPath: path))
        let first = try PNGTest.randomBitmap(width: 5, height: 5, opaque: true, seed: 1)
        let second = try PNGTest.randomBitmap(width: 3, height: 2, opaque: true, seed: 2)
        try PNGCodec.write(first, to: path, compression: .small)
        XCTAssertEqual(try PNGCodec.read(contentsOf: path), first)
        try PNGCodec.write(second, to: path)
        XCTAssertEqual(try PNGCodec.read(contentsOf: path), second)
        XCTAssertEqual(try contents(), ["frame.png"])
    }

    func testWriteIntoMissingDirectoryFails() throws {
        let path = directory + "/missing/frame.png"
        let error = PNGTest.assertThrows(.writeFailed, path: path) {
            try PNGCodec.write(try Bitmap(width: 1, height: 1, fill: .white), to: path)
        }
        XCTAssertEqual(error?.description, "\(path): cannot write PNG: cannot create a temporary file: No such file or directory")
        XCTAssertEqual(try contents(), [])
    }

    func testWriteOverADirectoryFailsAndRemovesTheTemporaryFile() throws {
        let path = directory + "/sub"
        try FileManager.default.createDirectory(atPath: path + "/inner", withIntermediateDirectories: true)
        PNGTest.assertThrows(.writeFailed, path: path) { try PNGCodec.write(try Bitmap(width: 1, height: 1), to: path) }
        XCTAssertEqual(try contents(), ["sub"])
        PNGTest.assertThrows(.writeFailed, path: directory + "/") { try PNGCodec.write(try Bitmap(width: 1, height: 1), to: directory + "/") }
        PNGTest.assertThrows(.writeFailed, path: "") { try PNGCodec.write(try Bitmap(width: 1, height: 1), to: "") }
    }

    func testWriteWithBadCompressionLeavesNothing() throws {
        let path = directory + "/x.png"
        PNGTest.assertThrows(.invalidArgument, path: path) {
            try PNGCodec.write(try Bitmap(width: 1, height: 1), to: path, compression: PNGCompression(zlibLevel: 11))
        }
        XCTAssertEqual(try contents(), [])
    }

    func testScaleFromFileName() throws {
        let bitmap = try PNGTest.randomBitmap(width: 4, height: 4, opaque: false)
        for (file, scale) in [("icon@2x.png", 2.0), ("icon@3x.png", 3), ("icon.png", 1), ("icon@2x.PNG", 2)] {
            let path = directory + "/" + file
            try PNGCodec.write(bitmap, to: path)
            let read = try PNGCodec.read(contentsOf: path)
            XCTAssertEqual(read.scale, scale, file)
            XCTAssertEqual(read.pointSize.width, 4 / scale, file)
            XCTAssertEqual(try PNGCodec.read(contentsOf: path, scale: 5).scale, 5, "an explicit scale wins")
        }
        XCTAssertEqual(PNGCodec.scale(forPath: "assets/button@2x.png"), 2)
        XCTAssertEqual(PNGCodec.scale(forPath: "a@3x/button.png"), 1, "only the file name counts")
        XCTAssertEqual(PNGCodec.scale(forPath: "x@1.5x.png"), 1.5)
        XCTAssertEqual(PNGCodec.scale(forPath: "x@x.png"), 1)
        XCTAssertEqual(PNGCodec.scale(forPath: "x@0x.png"), 1)
        XCTAssertEqual(PNGCodec.scale(forPath: "x@2x-dark.png"), 1)
        XCTAssertEqual(PNGCodec.scale(forPath: "me@home.png"), 1)
        XCTAssertEqual(PNGCodec.scale(forPath: "x@2x"), 2)
    }

    func testMissingFile() {
        let path = directory + "/nope.png"
        let error = PNGTest.assertThrows(.fileNotFound, path: path) { _ = try PNGCodec.read(contentsOf: path) }
        XCTAssertEqual(error?.description, "\(path): file not found (No such file or directory)")
    }

    func testDirectoryPath() {
        let error = PNGTest.assertThrows(.notRegularFile, path: directory) { _ = try PNGCodec.read(contentsOf: directory) }
        XCTAssertEqual(error?.reason, "a directory, not a regular file")
    }

    func testEmptyAndCorruptFiles() throws {
        let empty = directory + "/empty.png"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        PNGTest.assertThrows(.notPNG, path: empty) { _ = try PNGCodec.read(contentsOf: empty) }

        let truncated = directory + "/truncated@2x.png"
        let png = try PNGCodec.encode(try PNGTest.randomBitmap(width: 8, height: 8, opaque: false))
        _ = FileManager.default.createFile(atPath: truncated, contents: Data(png[..<(png.count / 2)]))
        let error = PNGTest.assertThrows(.corrupt, path: truncated) { _ = try PNGCodec.read(contentsOf: truncated) }
        XCTAssertTrue(error?.description.hasPrefix("\(truncated): corrupt PNG: truncated") ?? false)
    }

    func testFileOverTheSizeLimitIsRefusedBeforeReading() throws {
        let path = directory + "/huge.png"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(PNGCodec.maxFileSize) + 1)  // sparse: no disk space used
        try handle.close()
        let error = PNGTest.assertThrows(.tooLarge, path: path) { _ = try PNGCodec.read(contentsOf: path) }
        XCTAssertEqual(error?.reason, "1073741825 bytes, over the limit of 1073741824 bytes")
    }

    func testPathThroughAFileIsUnreadable() throws {
        let file = directory + "/plain.png"
        try PNGCodec.write(try Bitmap(width: 1, height: 1), to: file)
        let path = file + "/inner.png"
        let error = PNGTest.assertThrows(.unreadable, path: path) { _ = try PNGCodec.read(contentsOf: path) }
        XCTAssertEqual(error?.description, "\(path): cannot read file: Not a directory")
    }

    func testAFIFOOrADeviceIsRefusedAtOnceWithoutReading() throws {
        let fifo = directory + "/pipe.png"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        // Nobody writes to the FIFO: a blocking open or read would hang this test.
        let error = PNGTest.assertThrows(.notRegularFile, path: fifo) { _ = try PNGCodec.read(contentsOf: fifo) }
        XCTAssertEqual(error?.reason, "a named pipe (FIFO), not a regular file")
        let device = PNGTest.assertThrows(.notRegularFile, path: "/dev/urandom") { _ = try PNGCodec.read(contentsOf: "/dev/urandom") }
        XCTAssertEqual(device?.reason, "a character device, not a regular file")
    }

    /// A file that exists but cannot be opened, whoever runs the test (permissions do not stop root, so
    /// the file is a symbolic link that loops).
    func testUnreadableFile() throws {
        let a = directory + "/a.png", b = directory + "/b.png"
        XCTAssertEqual(symlink(b, a), 0)
        XCTAssertEqual(symlink(a, b), 0)
        let error = PNGTest.assertThrows(.unreadable, path: a) { _ = try PNGCodec.read(contentsOf: a) }
        XCTAssertEqual(error?.reason, "Too many levels of symbolic links")
    }
}
