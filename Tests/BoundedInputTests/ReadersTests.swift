import BoundedInput
import Foundation
import XCTest

final class JSONReaderTests: XCTestCase {
    func read(_ text: String, _ body: (inout JSONReader) throws(DocumentError) -> Void) throws(DocumentError) {
        var reader = JSONReader(Array(text.utf8), source: "t.json")
        try body(&reader)
        try reader.finish()
    }

    func error(_ text: String, _ body: (inout JSONReader) throws(DocumentError) -> Void) -> String {
        do throws(DocumentError) { try read(text, body); return "no error" } catch { return error.description }
    }

    func testReadsValuesWithEscapesAndPaths() throws {
        var seen: [String] = []
        try read(#"{"a": "x\u00e9\ud83d\ude00\n", "b": [1, -2.5e2, true, null], "c": {}}"#) { (r: inout JSONReader) throws(DocumentError) in
            try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
                seen.append(key)
                switch key {
                case "a": XCTAssertEqual(try r.readString(), "xé😀\n")
                case "b":
                    try r.readArray(maxCount: 4) { (r: inout JSONReader, i: Int) throws(DocumentError) in
                        switch i {
                        case 0: XCTAssertEqual(try r.readInteger(in: 0...9), 1)
                        case 1: XCTAssertEqual(try r.readNumber(), -250)
                        case 2: XCTAssertTrue(try r.readBool())
                        default: XCTAssertTrue(try r.readNull())
                        }
                    }
                default: try r.skipValue()
                }
            }
        }
        XCTAssertEqual(seen, ["a", "b", "c"])
    }

    func testErrorsNameLineColumnAndKeyPath() {
        let object = { (r: inout JSONReader) throws(DocumentError) in
            try r.readObject { (r: inout JSONReader, _: String) throws(DocumentError) in
                try r.readArray(maxCount: 2) { (r: inout JSONReader, _: Int) throws(DocumentError) in _ = try r.readNumber() }
            }
        }
        XCTAssertEqual(error("{\"a\": [1,\n 2, 3]}", object), "t.json:2:5: a: more than 2 elements")
        XCTAssertEqual(error("{\"a\": [1, \"x\"]}", object), "t.json:1:11: a[1]: expected a number, got a string")
        XCTAssertEqual(error("{\"a\": [], \"a\": []}", object), "t.json:1:11: the key 'a' appears twice in this object")
        XCTAssertEqual(error("{\"a\": [01]}", object), "t.json:1:9: a: expected ',' or ']' in an array")
        XCTAssertEqual(error("{\"a\": []} x", object), "t.json:1:11: unexpected text after the end of the document")
        XCTAssertEqual(error("{\"a\": [1e999]}", object), "t.json:1:8: a[0]: a number out of range (beyond ±1.8e308, a double's range)")
        XCTAssertEqual(error("\"\\ud800\"", { (r: inout JSONReader) throws(DocumentError) in _ = try r.readString() }),
                       "t.json:1:8: a lone UTF-16 surrogate in a \\u escape")
        XCTAssertEqual(error("\"abcdef\"", { (r: inout JSONReader) throws(DocumentError) in _ = try r.readString(maxBytes: 4) }),
                       "t.json:1:7: a string longer than 4 bytes")
        XCTAssertEqual(error("\"\u{1}\"", { (r: inout JSONReader) throws(DocumentError) in _ = try r.readString() }),
                       "t.json:1:2: a control character (0x1) inside a string")
    }

    /// A UTF-8 byte-order mark (as some Windows editors save JSON) is skipped, and columns on the first
    /// line count from after it; anywhere else it is an unexpected character.
    func testAByteOrderMarkAtTheStartIsSkipped() throws {
        let object = { (r: inout JSONReader) throws(DocumentError) in
            try r.readObject { (r: inout JSONReader, _: String) throws(DocumentError) in _ = try r.readNumber() }
        }
        XCTAssertEqual(error("\u{FEFF}{\"a\": 1}", object), "no error")
        XCTAssertEqual(error("\u{FEFF}{\"a\": x}", object), "t.json:1:7: a: unexpected character 'x' where a value was expected")
        XCTAssertEqual(error("{\"a\": \u{FEFF}1}", object), "t.json:1:7: a: unexpected character '0xef' where a value was expected")
    }

    func testUnknownKeysSuggestTheClosestName() {
        let result = error("{\"fsp\": 1}") { (r: inout JSONReader) throws(DocumentError) in
            try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in throw r.unknownKey(key, known: ["fps", "scale"]) }
        }
        XCTAssertEqual(result, "t.json:1:2: fsp: unknown key 'fsp'; did you mean 'fps'?")
        XCTAssertEqual(closestName(to: "zzzzzz", among: ["fps"]), nil)
    }

    func testSkippingIsBoundedInDepthNotInWidth() throws {
        try read("[" + String(repeating: "0,", count: 100_000) + "0]") { (r: inout JSONReader) throws(DocumentError) in try r.skipValue() }
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        XCTAssertTrue(error(deep) { (r: inout JSONReader) throws(DocumentError) in try r.skipValue() }.hasSuffix("nested more than 64 levels deep"))
    }
}

final class PropertyListReaderTests: XCTestCase {
    func parse(_ text: String) throws(DocumentError) -> PropertyListNode {
        try PropertyListReader.parse(Array(text.utf8), source: "p.plist")
    }

    func message(_ text: String) -> String {
        do throws(DocumentError) { _ = try parse(text); return "no error" } catch { return error.description }
    }

    func testReadsAppleXMLPlists() throws {
        let node = try parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <!-- a comment -->
            <dict>
                <key>a &amp; b</key><string>&lt;x&gt; &#233;<![CDATA[<raw>]]></string>
                <key>n</key><array><real>0.5</real><integer>-3</integer><true/><false/><string/></array>
                <key>empty</key><dict/>
            </dict>
            </plist>
            """)
        XCTAssertEqual(node["a & b"]?.value, .string("<x> é<raw>"))
        XCTAssertEqual(node["a & b"]?.position, SourcePosition(line: 6, column: 25))
        guard case .array(let items)? = node["n"]?.value else { return XCTFail() }
        XCTAssertEqual(items.map(\.value), [.number(0.5), .number(-3), .bool(true), .bool(false), .string("")])
        XCTAssertEqual(node["empty"]?.value, .dictionary([]))
    }

    func testErrorsHavePositionsAndKeyPaths() {
        XCTAssertEqual(message("<plist><dict><key>a</key><real>x</real></dict></plist>"),
                       "p.plist:1:26: a: <real> holds 'x', not a finite number")
        XCTAssertEqual(message("<plist><dict><key>a</key><real>1</real>\n<key>a</key><real>2</real></dict></plist>"),
                       "p.plist:2:1: a: the key 'a' appears twice in this dictionary")
        XCTAssertEqual(message("<plist><dict><key>a</key></dict></plist>"), "p.plist:1:14: a: the key 'a' has no value")
        XCTAssertEqual(message("<plist><dict><key>a</key><string>x</strin></dict></plist>"), "p.plist:1:35: expected </string>, got </strin>")
        XCTAssertEqual(message("<plist><string>&ent;</string></plist>"), "p.plist:1:16: unknown entity '&ent;'")
        XCTAssertEqual(message("bplist00"), "p.plist:1:1: a binary property list; save it as XML (plutil -convert xml1)")
        XCTAssertEqual(message("<plist><dict>"), "p.plist:1:14: the file ends where an element was expected")
        XCTAssertEqual(message("<plist><date>x</date></plist><x/>"), "p.plist:1:30: unexpected content after </plist>")
        let deep = "<plist>" + String(repeating: "<array>", count: 40) + String(repeating: "</array>", count: 40) + "</plist>"
        XCTAssertTrue(message(deep).hasSuffix("nested more than 32 levels deep"), message(deep))
    }
}

final class FilesTests: XCTestCase {
    func testRegularFilesOnlyAndTheLimitBeforeReading() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bounded-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/f"
        try Data("12345".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(try InputFile.read(file, limit: 5, what: "file"), Array("12345".utf8))
        XCTAssertThrowsError(try InputFile.read(file, limit: 4, what: "test file")) {
            XCTAssertEqual($0 as? InputFileError, InputFileError(path: file, kind: .tooLarge,
                                                                 reason: "the test file is 5 bytes, over the limit of 4 bytes",
                                                                 detail: "5 bytes, over the limit of 4 bytes"))
        }
        XCTAssertThrowsError(try InputFile.read(folder, limit: 4, what: "test file")) {
            XCTAssertEqual(($0 as? InputFileError)?.exitStatus, ExitStatus.noInput)
            XCTAssertEqual(($0 as? InputFileError)?.reason, "the test file is a directory, not a regular file")
        }
        XCTAssertThrowsError(try InputFile.read(folder + "/none", limit: 4, what: "test file")) {
            XCTAssertEqual(($0 as? InputFileError)?.description, "\(folder)/none: cannot open the test file: No such file or directory")
        }
    }

    func testAtomicWritesAndTheirLeftovers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try AtomicFile.write(Array("new".utf8), to: folder + "/a.txt")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["a.txt"], "no temporary file stays behind")
        XCTAssertThrowsError(try AtomicFile.write([1], to: folder + "/missing/a.txt")) {
            XCTAssertEqual(($0 as? AtomicFileError)?.exitStatus, ExitStatus.cannotCreate)
        }
        let names = [".frame_0001.png.tmp-\(getpid())-ab12", ".manifest.json.tmp-2000000000-ff", ".x.tmp-12-zz", "frame_0001.png", ".tmp-1-a"]
        let leftovers = AtomicFile.leftovers(in: names)
        XCTAssertEqual(leftovers.map(\.destination), ["frame_0001.png", "manifest.json"])
        XCTAssertEqual(leftovers.map(\.isAbandoned), [false, true], "this process is alive; pid 2,000,000,000 is not")
    }
}
