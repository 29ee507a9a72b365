import Foundation
import PNGIO
import RasterCore
import XCTest

/// Every ```sh block of README.md and the guides in docs/ is run, line by line, as a reader would paste
/// it: each line must exit 0 (or the status its comment names, `exit N`), and what its comment says it
/// makes after `→` must be there (a path), or be what it prints (a number). A figure a block writes into
/// docs/images/ must have the pixels of the one checked in: the figures are what their commands make.
///
/// Each document's blocks run in order in a scratch folder of their own (blocks of one document build on
/// each other), with the repository's assets and tests linked in, a copy of docs/images/ to write into,
/// and `smokescreen` on PATH as the release build of the tool (`SMOKESCREEN_TOOL`, or
/// `.build/release/smokescreen`, which the quick start's first command makes). A few words are read as
/// this run needs them (``rewrites``), and a few commands are not run here, each with the place that runs
/// them (``notRunHere``). `smokescreen serve` runs until it has answered its API, then gets Ctrl-C and must
/// exit 0.
///
/// Without a release build it is skipped, saying so (with `SMOKESCREEN_DOCS_REQUIRED=1`, as `.ci/run`
/// sets, it fails instead). With `SMOKESCREEN_DOCS_RECORD=1` a figure its command makes otherwise replaces
/// the one checked in (look at it before committing).
final class DocumentedCommandsTests: XCTestCase {
    static let root = SafetyTests.root

    static var tool: String? {
        let candidate = ProcessInfo.processInfo.environment["SMOKESCREEN_TOOL"] ?? root + "/.build/release/smokescreen"
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    /// A command line of a block: its document, line, text (continuations joined) and comment.
    struct Line {
        var document: String
        var number: Int
        var command: String
        var comment: String
    }

    /// The ```sh blocks of `document`, each as its lines.
    static func blocks(of document: String) throws -> [[Line]] {
        let text = try String(contentsOfFile: root + "/" + document, encoding: .utf8)
        var blocks: [[Line]] = [], current: [Line]?, pending: Line?
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if let block = current { blocks.append(block); current = nil } else if trimmed == "```sh" { current = [] }
                continue
            }
            guard current != nil, !trimmed.isEmpty else { continue }
            var line = pending ?? Line(document: document, number: index + 1, command: "", comment: "")
            let (command, comment) = split(trimmed)
            line.command += (line.command.isEmpty ? "" : " ") + command
            if !comment.isEmpty { line.comment += (line.comment.isEmpty ? "" : " ") + comment }
            if line.command.hasSuffix("\\") {
                line.command.removeLast()
                pending = line
            } else {
                pending = nil
                if !line.command.isEmpty { current!.append(line) }
            }
        }
        return blocks
    }

    /// The command and its trailing comment (a `#` at the start or after a blank, outside quotes).
    static func split(_ text: String) -> (String, String) {
        var quote: Character?
        var previous: Character = " "
        for index in text.indices {
            let c = text[index]
            if let q = quote { if c == q { quote = nil } } else if c == "'" || c == "\"" { quote = c } else if c == "#", previous == " " {
                return (String(text[..<index]).trimmingCharacters(in: .whitespaces), String(text[text.index(after: index)...]).trimmingCharacters(in: .whitespaces))
            }
            previous = c
        }
        return (text, "")
    }

    /// Words read as this run needs them, in order: (what the document says, what runs, why).
    static let rewrites: [(String, String, String)] = [
        ("swift run -c release smokescreen", "smokescreen", "the release build is the tool on PATH"),
        ("script/quickstart", "smokescreen", "the quick start itself is `.ci/run`'s first step, before the suite; here its tool"),
        ("/tmp/", "$SANDBOX/tmp/", "nothing is written outside the scratch folder"),
        ("~/", "$SANDBOX/home/", "nor into the home folder"),
        // (The last --runs given wins, so a documented --runs 7 after it is rewritten too.)
        ("smokescreen bench", "smokescreen bench --runs 1", "a benchmark's figures are measured by hand (docs/performance.md); here each runs once, to check that it runs as written"),
        ("--runs 7", "--runs 1", "the same"),
        // (A --scale given after it wins, as the last of an option does.)
        ("smokescreen render --all", "smokescreen render --all --scale 1",
         "the whole catalogue at @1x, a quarter of the pixels: what is checked here is that the commands, their parts and their merge run as written; the frames' pixels at @1x, @2x and @3x are PixelDigestTests' and the reference renderer's"),
    ]

    /// Commands not run here, by how they start (after any `NAME=value` assignments in front), with where
    /// they are run.
    static let notRunHere: [(String, String)] = [
        ("swift build", "the tool is built already: the quick start's first command builds it, and this test runs its build"),
        ("swift test", "the test suite is what runs this test (the quick start's second command)"),
        ("script/test", "the test suite is what runs this test"),
        ("swift package", "DocC takes minutes a target; docs/reference.md's coverage table is its output"),
        ("Fuzz/run", ".ci/run fuzzes every target after the suite"),
        ("smokescreen render Tests/SmokescreenCLITests/SwiftFiles/", "SwiftFileRenderTests renders these Swift files (at @1x, 10 fps, twice) and checks their frames"),
        (".build/release/uikit-bench", "UIKitBenchmarkTests runs the benchmark once, with the release build script/test makes"),
        ("script/curl-ab", "a minute's measurement of two revisions; KernelABScriptTests runs it once, the work tree against itself"),
        ("script/turn-ab", "the same, for the turn kernel; KernelABScriptTests runs it once"),
    ]

    /// `command` without the environment assignments in front of it (`A=1 B=2 script/test …` → `script/test …`).
    static func droppingAssignments(_ command: String) -> String {
        var words = command.split(separator: " ", omittingEmptySubsequences: false)[...]
        while let first = words.first, let equals = first.firstIndex(of: "="), equals != first.startIndex,
              first[..<equals].allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isUppercase || $0.isNumber)) }) {
            words = words.dropFirst()
        }
        return words.joined(separator: " ")
    }

    func testAssignmentsInFrontDoNotHideACommandNotRunHere() {
        let measurement = "SMOKESCREEN_SERVE_SCALE=2 SMOKESCREEN_SERVE_MEASURE=11 script/test --filter LivePreviewBrowserTests"
        XCTAssertEqual(Self.droppingAssignments(measurement), "script/test --filter LivePreviewBrowserTests")
        XCTAssertEqual(Self.notRunHere.first { Self.droppingAssignments(measurement).hasPrefix($0.0) }?.0, "script/test")
        // Only assignments go: a command's own `=` arguments and a lower-case first word stay.
        XCTAssertEqual(Self.droppingAssignments("smokescreen render --scale=2"), "smokescreen render --scale=2")
        XCTAssertEqual(Self.droppingAssignments("out=frames smokescreen list"), "out=frames smokescreen list")
        XCTAssertEqual(Self.droppingAssignments("=x smokescreen list"), "=x smokescreen list")
    }

    func testEveryDocumentedCommandRunsAsWritten() throws {
        guard let tool = Self.tool else {
            if ProcessInfo.processInfo.environment["SMOKESCREEN_DOCS_REQUIRED"] == "1" {
                XCTFail("no release build of the tool: run script/quickstart first")
                return
            }
            throw XCTSkip("no release build of the tool (script/quickstart makes one, or set SMOKESCREEN_TOOL)")
        }
        let documents = try DocumentationTests.documents().filter { !(try Self.blocks(of: $0)).isEmpty }
        let report = Report()
        // Two documents at a time (one a core): each has its own scratch folder; `serve` takes the one
        // port the documents name (8017) in turn.
        DispatchQueue.concurrentPerform(iterations: documents.count) { index in
            do { try Self.runDocument(documents[index], tool: tool, report: report) } catch {
                report.fail("\(documents[index]): \(error)")
            }
        }
        report.withLock {
            print("documented commands: \($0.ran) run, \($0.skipped.count) not run here:\n" + $0.skipped.sorted().joined(separator: "\n"))
            print("documented commands that took 3 s or more:\n" + $0.slow.sorted().joined(separator: "\n"))
            for problem in $0.problems { XCTFail(problem) }
            XCTAssertGreaterThan($0.ran, 60)
        }
    }

    /// What the documents' runs found, from several threads.
    final class Report: @unchecked Sendable {
        struct State { var ran = 0, skipped: [String] = [], slow: [String] = [], problems: [String] = [] }
        private let lock = NSLock()
        private var state = State()
        func withLock<T>(_ body: (inout State) -> T) -> T { lock.withLock { body(&state) } }
        func fail(_ problem: String) { withLock { $0.problems.append(problem) } }
        func check(_ condition: Bool, _ problem: @autoclosure () -> String) { if !condition { fail(problem()) } }
    }

    /// One `smokescreen serve` at a time: the documents' commands listen on the same port.
    static let servePort = NSLock()

    /// `document`'s blocks, in order, in a scratch folder of its own; then its figures.
    static func runDocument(_ document: String, tool: String, report: Report) throws {
        let sandbox = FileManager.default.temporaryDirectory.appendingPathComponent("docs-run-\(UUID().uuidString)").path
        try Self.prepare(sandbox, tool: tool)
        defer { try? FileManager.default.removeItem(atPath: sandbox) }
        // The figures as copied in: only those the document's commands write again are its own (the
        // documents run at once, and a copy another document's figure has since been recorded over is
        // stale, not a figure to check or record).
        let copied = try Self.modificationDates(in: sandbox + "/docs/images")
        for var line in try Self.blocks(of: document).flatMap({ $0 }) {
            // `swift build … && .build/release/smokescreen …`: the build is done; the rest runs.
            if line.command.hasPrefix("swift build"), let and = line.command.range(of: " && ") {
                line.command = "true" + line.command[and.lowerBound...]
            }
            let command = Self.droppingAssignments(line.command)
            if let (_, reason) = Self.notRunHere.first(where: { command.hasPrefix($0.0) }) {
                report.withLock { $0.skipped.append("\(document):\(line.number): \(line.command) (\(reason))") }
                continue
            }
            let started = Date()
            try Self.run(line, in: sandbox, report: report)
            let seconds = Date().timeIntervalSince(started)
            report.withLock {
                $0.ran += 1
                if seconds >= 3 { $0.slow.append(String(format: "%5.1f s  %@:%d: %@", seconds, document, line.number, line.command)) }
            }
        }
        try Self.compareFigures(in: sandbox, document: document, report: report, copied: copied)
    }

    /// The modification date of every file in `folder`, by name.
    static func modificationDates(in folder: String) throws -> [String: Date] {
        var dates: [String: Date] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            dates[name] = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.modificationDate] as? Date
        }
        return dates
    }

    /// The scratch folder: assets, tests and the Makefile linked, docs/images copied, the tool on PATH
    /// and at .build/release/smokescreen.
    static func prepare(_ sandbox: String, tool: String) throws {
        let fm = FileManager.default
        for folder in ["bin", "tmp", "home", "docs", ".build/release", "out"] {
            try fm.createDirectory(atPath: sandbox + "/" + folder, withIntermediateDirectories: true)
        }
        for entry in ["assets", "Tests", "Makefile", "script", "Fuzz"] {
            try fm.createSymbolicLink(atPath: sandbox + "/" + entry, withDestinationPath: root + "/" + entry)
        }
        try fm.copyItem(atPath: root + "/docs/images", toPath: sandbox + "/docs/images")
        try fm.createSymbolicLink(atPath: sandbox + "/bin/smokescreen", withDestinationPath: tool)
        try fm.createSymbolicLink(atPath: sandbox + "/.build/release/smokescreen", withDestinationPath: tool)
    }

    /// Runs `line` in `sandbox` and checks its status and what its comment names.
    static func run(_ line: Line, in sandbox: String, report: Report) throws {
        var command = line.command
        for (from, to, _) in Self.rewrites { command = command.replacingOccurrences(of: from, with: to) }
        // `make install` builds the tool again (-c release, static): its steps are checked with make -n;
        // NewcomerTests lays out what it installs and runs the tool from there.
        if command.hasPrefix("make install") { command = "make -n " + command.dropFirst("make ".count) + " >/dev/null" }
        // apt-get install: every package named is installed (the quick start's scripts install them).
        if command.hasPrefix("apt-get install") { command = "dpkg-query -W " + command.dropFirst("apt-get install".count) + " >/dev/null" }
        let place = "\(line.document):\(line.number): \(line.command)"
        let expected = line.comment.range(of: #"\bexit (\d+)\b"#, options: .regularExpression)
            .flatMap { Int32(line.comment[$0].dropFirst(5)) } ?? 0
        let result: (status: Int32, output: String)
        if command.hasPrefix("smokescreen serve") {
            result = try Self.servePort.withLock { try Self.serve(command, in: sandbox, report: report) }
        } else {
            result = try Self.shell(command, in: sandbox)
        }
        report.check(result.status == expected, "\(place): exit \(result.status), not \(expected)\n\(result.output.suffix(3000))")
        // What the comment says it makes: after →, paths that must exist, a number it must print.
        if let arrow = line.comment.range(of: "→") {
            for word in line.comment[arrow.upperBound...].split(separator: " ").map(String.init) {
                var token = word.trimmingCharacters(in: CharacterSet(charactersIn: ",;:()`"))
                for (from, to, _) in Self.rewrites { token = token.replacingOccurrences(of: from, with: to) }
                token = token.replacingOccurrences(of: "$SANDBOX", with: sandbox)
                if Int(token) != nil {
                    let printed = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
                    report.check(printed == token, "\(place): printed \(printed), not \(token)")
                } else if token.contains("/") || token.contains(".") {
                    let path = token.hasPrefix("/") ? token : sandbox + "/" + token
                    report.check(FileManager.default.fileExists(atPath: path), "\(place): \(token) is not there")
                }
            }
        }
    }

    /// `command` in bash in `sandbox` (PATH with the tool first), its status and output (both streams).
    static func shell(_ command: String, in sandbox: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: sandbox)
        process.environment = Self.environment(sandbox)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    static func environment(_ sandbox: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = sandbox + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["SANDBOX"] = sandbox
        environment["HOME"] = sandbox + "/home"
        environment.removeValue(forKey: "SMOKESCREEN_ASSETS")
        return environment
    }

    /// `smokescreen serve …` until it prints its URL, then its API asked once (200), then Ctrl-C: its
    /// status (0 expected) and output.
    static func serve(_ command: String, in sandbox: String, report: Report) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "exec " + command]
        process.currentDirectoryURL = URL(fileURLWithPath: sandbox)
        process.environment = Self.environment(sandbox)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        nonisolated(unsafe) var log = Data()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            log = err.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        var printed = Data()
        let deadline = Date().addingTimeInterval(60)
        while !printed.contains(UInt8(ascii: "\n")), Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += chunk
        }
        let text = String(decoding: printed, as: UTF8.self)
        var status: Int32 = -1
        if let range = text.range(of: #"http://[^ ]+/"#, options: .regularExpression) {
            let api = try Self.shell("curl -s -o /dev/null -w '%{http_code}' '\(text[range])api/transitions'", in: sandbox)
            report.check(api.output == "200", "\(command): GET /api/transitions answered \(api.output)")
        } else {
            report.fail("\(command): no URL printed: \(text)")
        }
        process.interrupt()
        process.waitUntilExit()
        drained.wait()
        status = process.terminationStatus
        return (status, text + String(decoding: log, as: UTF8.self))
    }

    /// Figures the document's commands wrote into the scratch copy of docs/images (those whose
    /// modification date is not the one `copied` holds): the same pixels as the repository's.
    static func compareFigures(in sandbox: String, document: String, report: Report, copied: [String: Date]) throws {
        let images = sandbox + "/docs/images"
        let now = try Self.modificationDates(in: images)
        for name in now.keys.sorted() where name.hasSuffix(".png") && (copied[name] == nil || now[name] != copied[name]) {
            let made = images + "/" + name, kept = Self.root + "/docs/images/" + name
            guard !FileManager.default.contentsEqual(atPath: made, andPath: kept) else { continue }
            let a = try PNGCodec.read(contentsOf: made), b = try PNGCodec.read(contentsOf: kept)
            // SMOKESCREEN_DOCS_RECORD=1: the figure as its command makes it now replaces the one checked in.
            if ProcessInfo.processInfo.environment["SMOKESCREEN_DOCS_RECORD"] == "1", !(a == b) {
                try FileManager.default.removeItem(atPath: kept)
                try FileManager.default.copyItem(atPath: made, toPath: kept)
                print("documented commands: recorded docs/images/\(name)")
                continue
            }
            report.check(a == b, "\(document): docs/images/\(name) as its command makes it differs from the one checked in (\(a.width)x\(a.height) against \(b.width)x\(b.height))")
        }
    }
}
