import BoundedInput
import Foundation
import XCTest

/// Marks: positions kept while reading and turned into errors afterwards (for limits checked once the
/// whole document is known), in one pass and in the marks' own order.
final class JSONReaderMarkTests: XCTestCase {
    func testMarksBecomeErrorsAtTheirValueWithTheirKeyPath() throws {
        let text = "{\n  \"a\": 1,\n  \"list\": [\n    {\"b\":   \"x\"},\n    {\"b\": 2}\n  ]\n}"
        var reader = JSONReader(Array(text.utf8), source: "m.json")
        var marks: [JSONReader.Mark] = []
        try reader.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "a":
                marks.append(r.mark())
                _ = try r.readNumber()
            default:
                try r.readArray(maxCount: 10) { (r: inout JSONReader, _: Int) throws(DocumentError) in
                    try r.readObject { (r: inout JSONReader, _: String) throws(DocumentError) in
                        marks.append(r.mark())
                        try r.skipValue()
                    }
                }
            }
        }
        try reader.finish()
        // Asked for out of order: each still gets its own place.
        let errors = reader.errors(at: [marks[2], marks[0], marks[1]], reason: "r")
        XCTAssertEqual(errors.map(\.description), ["m.json:5:11: list[1].b: r", "m.json:2:8: a: r", "m.json:4:13: list[0].b: r"])
        XCTAssertEqual(reader.errors(at: []), [])
    }
}
