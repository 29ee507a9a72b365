import LivePreview
import XCTest

/// The request-head parser of `smokescreen serve`'s server: what it takes, where a head ends (also when
/// it comes in pieces), and the status each malformed head is answered with.
final class HTTPRequestHeadTests: XCTestCase {
    func parse(_ text: String) -> Result<(head: HTTPRequestHead, length: Int), HTTPRequestHead.ParseError>? {
        HTTPRequestHead.parse(Array(text.utf8)[...])
    }

    func head(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> HTTPRequestHead {
        switch parse(text) {
        case .success(let (head, _))?: return head
        case .failure(let error)?: XCTFail("refused: \(error)", file: file, line: line)
        case nil: XCTFail("incomplete", file: file, line: line)
        }
        throw XCTSkip("no head")
    }

    func refusal(_ text: String) -> HTTPRequestHead.ParseError? {
        if case .failure(let error)? = parse(text) { return error }
        return nil
    }

    func testAHeadIsReadWithItsFieldsAndItsLength() throws {
        let text = "GET /api/transitions?v=3 HTTP/1.1\r\nHost: 127.0.0.1:8017\r\nIf-None-Match:  \"abc\" \t\r\n\r\nGET / HTTP/1.1\r\n"
        guard case .success(let (head, length))? = parse(text) else { return XCTFail("not read") }
        XCTAssertEqual(head.method, .GET)
        XCTAssertEqual(head.uri, "/api/transitions?v=3")
        XCTAssertEqual(head.version, HTTPVersion(major: 1, minor: 1))
        XCTAssertEqual(head.headers.first(name: "host"), "127.0.0.1:8017", "names compare without case")
        XCTAssertEqual(head.headers.first(name: "IF-NONE-MATCH"), "\"abc\"", "optional whitespace trimmed both sides")
        XCTAssertNil(head.headers.first(name: "Origin"))
        XCTAssertEqual(length, text.utf8.count - "GET / HTTP/1.1\r\n".utf8.count, "the pipelined request after it is left")
    }

    func testAHeadNotYetWholeIsNil() {
        XCTAssertNil(parse(""))
        XCTAssertNil(parse("GET / HTTP/1.1\r\nHost: a\r\n"))
        XCTAssertNil(parse("GET / HTTP/1.1\r\nHost: a\r\n\r"))
        XCTAssertNil(parse("\r\n\r\n"), "empty lines before the request line are skipped")
    }

    func testBareLineFeedsAndLeadingEmptyLinesAreTaken() throws {
        let bare = try head("GET /a HTTP/1.0\nHost: x\n\n")
        XCTAssertEqual(bare.uri, "/a")
        XCTAssertEqual(bare.version, HTTPVersion(major: 1, minor: 0))
        guard case .success(let (leading, length))? = parse("\r\n\r\nHEAD / HTTP/1.1\r\n\r\n") else { return XCTFail("not read") }
        XCTAssertEqual(leading.method, .HEAD)
        XCTAssertEqual(length, 23, "the whole of it, the empty lines before included")
    }

    func testKeepAliveFollowsTheVersionAndTheConnectionTokens() throws {
        XCTAssertTrue(try head("GET / HTTP/1.1\r\n\r\n").isKeepAlive)
        XCTAssertFalse(try head("GET / HTTP/1.1\r\nConnection: Close\r\n\r\n").isKeepAlive)
        XCTAssertFalse(try head("GET / HTTP/1.1\r\nConnection: upgrade\r\nConnection: TE, close\r\n\r\n").isKeepAlive)
        XCTAssertFalse(try head("GET / HTTP/1.0\r\n\r\n").isKeepAlive)
        XCTAssertTrue(try head("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").isKeepAlive)
    }

    func testMalformedHeadsAreRefusedWithTheirStatus() {
        let bad: [(String, String)] = [
            ("GET /\r\n\r\n", "the request line is not METHOD TARGET HTTP/x.y"),
            ("GET  / HTTP/1.1\r\n\r\n", "the request line is not METHOD TARGET HTTP/x.y"),
            ("GET / HTTP/1.1 extra\r\n\r\n", "the request line is not METHOD TARGET HTTP/x.y"),
            ("G(T / HTTP/1.1\r\n\r\n", "the method is not a token"),
            ("GET /a\u{7F}b HTTP/1.1\r\n\r\n", "the request target has a control character or is not UTF-8"),
            ("GET / HTTP/1.x\r\n\r\n", "the version is not HTTP/x.y"),
            ("GET / http/1.1\r\n\r\n", "the version is not HTTP/x.y"),
            ("GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n", "a header line has no colon"),
            ("GET / HTTP/1.1\r\nHost : 127.0.0.1\r\n\r\n", "a header name is empty or not a token"),
            ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", "a header line has no colon"),
            ("GET / HTTP/1.1\r\n\tX: folded\r\n\r\n", "a header name is empty or not a token"),
            ("GET / HTTP/1.1\r\n: empty\r\n\r\n", "a header name is empty or not a token"),
            ("GET / HTTP/1.1\r\nX: a\u{1}b\r\n\r\n", "the value of X has a control character"),
            ("GET / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n", "Content-Length is not a number"),
            ("GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", "Content-Length is not a number"),
            ("GET / HTTP/1.1\r\nContent-Length: 0\r\ncontent-length: 40\r\n\r\n", "more than one Content-Length"),
            ("GET / HTTP/1.1\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n", "more than one Content-Length"),
        ]
        for (text, reason) in bad {
            XCTAssertEqual(refusal(text), HTTPRequestHead.ParseError(status: .badRequest, reason: reason), text.debugDescription)
        }
        XCTAssertEqual(refusal("GET / HTTP/2.0\r\n\r\n")?.status, .httpVersionNotSupported)
        XCTAssertEqual(refusal("GET / HTTP/1.2\r\n\r\n")?.status, .httpVersionNotSupported)
    }

    func testAHeadOverTheLimitIsRefusedBeforeItEnds() {
        let long = "GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: HTTPRequestHead.maximumSize)
        XCTAssertEqual(refusal(long)?.status, .requestHeaderFieldsTooLarge, "refused without waiting for its end")
        let justUnder = "GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: HTTPRequestHead.maximumSize - 23) + "\r\n\r\n"
        XCTAssertEqual(justUnder.utf8.count, HTTPRequestHead.maximumSize)
        XCTAssertNotNil(try? head(justUnder))
    }

    /// Every prefix of a head is incomplete, and the end is found from where the last search stopped (less
    /// three bytes), as the server searches only what came since its last read.
    func testAHeadInPiecesIsIncompleteUntilItsEnd() throws {
        let text = Array("GET /x HTTP/1.1\r\nHost: a\r\nAccept: */*\r\n\r\n".utf8)
        for count in 0..<text.count {
            XCTAssertNil(HTTPRequestHead.parse(text[..<count]), "\(count) bytes")
            XCTAssertNil(HTTPRequestHead.endOfHead(in: Array(text[..<count]), from: max(0, count - 4)), "\(count) bytes")
        }
        XCTAssertEqual(HTTPRequestHead.endOfHead(in: text, from: text.count - 4), text.count, "an end split across reads")
        XCTAssertEqual(HTTPRequestHead.endOfHead(in: Array("GET / HTTP/1.0\n\nrest".utf8), from: 0), 16, "bare line feeds")
        guard case .success(let (head, length))? = HTTPRequestHead.parse(text[...]) else { return XCTFail("not read") }
        XCTAssertEqual(head.uri, "/x")
        XCTAssertEqual(length, text.count)
    }

    /// A length of zeros is no body; any other, one too long for an Int included, is one (413).
    func testALengthOfAnySizeIsABody() throws {
        XCTAssertNil(PreviewServer.refusal(of: try head("GET / HTTP/1.1\r\nContent-Length: 000\r\n\r\n")))
        XCTAssertEqual(PreviewServer.refusal(of: try head("GET / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n"))?.status, .payloadTooLarge)
        XCTAssertEqual(PreviewServer.refusal(of: try head("GET / HTTP/1.1\r\nContent-Length: 1\r\n\r\n"))?.status, .payloadTooLarge)
        XCTAssertEqual(PreviewServer.refusal(of: try head("GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"))?.status, .payloadTooLarge)
    }
}
