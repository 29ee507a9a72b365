import ArgumentParser
import Foundation
import SmokescreenScenes
import XCTest
import SmokescreenCLI

/// README.md and the guides in docs/ stay true: every `smokescreen` command line in their code blocks
/// parses as the tool takes it (parsed and validated, never run), every relative link and image resolves
/// to a file in the repository (and an anchor to a heading of that file), and the README stays a front
/// door of at most 250 lines.
final class DocumentationTests: XCTestCase {
    static let root = SafetyTests.root
    static let readmeLineLimit = 250

    /// The documents checked: README.md and every Markdown file directly in docs/, as repository paths.
    static func documents() throws -> [String] {
        let guides = try FileManager.default.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }.sorted()
        return ["README.md"] + guides.map { "docs/" + $0 }
    }

    static func read(_ document: String) throws -> String {
        try String(contentsOfFile: root + "/" + document, encoding: .utf8)
    }

    // MARK: The README's length

    func testTheReadmeIsAFrontDoorOfAtMost250Lines() throws {
        let lines = try Self.read("README.md").split(separator: "\n", omittingEmptySubsequences: false)
        // A final newline leaves one empty element that is not a line.
        let count = lines.last == "" ? lines.count - 1 : lines.count
        XCTAssertLessThanOrEqual(count, Self.readmeLineLimit, "README.md has \(count) lines; move detail into a guide under docs/")
        XCTAssertGreaterThan(count, 0)
    }

    // MARK: Command lines

    /// A command line found in a fenced code block: the document, the line it starts on (1-based) and
    /// its text with `\`-continued lines joined.
    struct CodeLine {
        var document: String
        var line: Int
        var text: String
    }

    /// Languages whose code blocks hold shell commands (an untagged block may too). JSON, Swift, XML and
    /// the like hold data or code in which "smokescreen" is a word, not a command.
    static let shellLanguages: Set<String> = ["", "sh", "bash", "shell", "console", "yaml", "yml"]

    static func shellCodeLines(in document: String, text: String) -> [CodeLine] {
        var result: [CodeLine] = []
        var language: String?   // nil outside a fence
        var pending: CodeLine?
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                language = language == nil ? String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces).lowercased() : nil
                pending = nil
                continue
            }
            guard let language, shellLanguages.contains(language) else { continue }
            var line = pending ?? CodeLine(document: document, line: index + 1, text: "")
            line.text += (line.text.isEmpty ? "" : " ") + trimmed
            if line.text.hasSuffix("\\") {
                line.text.removeLast()
                pending = line
            } else {
                pending = nil
                result.append(line)
            }
        }
        return result
    }

    /// `text` without a trailing shell comment (a `#` at the start or after a blank, outside quotes).
    static func strippingComment(_ text: String) -> String {
        var quote: Character?
        var previous: Character = " "
        for (offset, character) in text.enumerated() {
            if let q = quote {
                if character == q { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#", previous == " " {
                return String(text.prefix(offset))
            }
            previous = character
        }
        return text
    }

    /// Splits a shell line into words, honouring single and double quotes; `&&`, `||`, `;` and `|`
    /// become separate words so that the commands of a pipeline or list can be told apart.
    static func shellWords(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var inWord = false
        var characters = Array(text)[...]
        func finish() { if inWord { words.append(word) }; word = ""; inWord = false }
        while let character = characters.popFirst() {
            if let q = quote {
                if character == q { quote = nil } else { word.append(character) }
                continue
            }
            switch character {
            case "\"", "'": quote = character; inWord = true
            case " ", "\t": finish()
            case ";": finish(); words.append(";")
            case "&" where word.hasSuffix(">") && characters.first != "&":
                word.append(character)   // 2>&1: a redirection, not a list
            case "&", "|":
                finish()
                if characters.first == character { characters.removeFirst() }
                words.append(character == "&" ? "&&" : "|")
            default: word.append(character); inWord = true
            }
        }
        finish()
        return words
    }

    /// Shell variables the examples use, each replaced by a value the engine would give.
    static let shellVariables: [(String, String)] = [
        ("${{ matrix.part }}", "1"),      // GitHub Actions matrix (docs/scale-out)
        ("$CI_NODE_INDEX", "1"),          // GitLab CI parallel
        ("$SLURM_ARRAY_TASK_ID", "1"),
    ]

    /// Placeholders a document may write in a command, each replaced deliberately by a real value;
    /// any other upper-case word fails the test until it is added here.
    static let placeholders: [String: String] = [
        "NAME": "vesper-timeline-to-detail",
        "K/N": "1/4",
        "T": "0.3",
        "FILE": "assets/vesper/durations.plist",
    ]

    /// The arguments of each `smokescreen` invocation in `line`: after `smokescreen`, a path ending in
    /// `/smokescreen`, or `swift run [options] smokescreen`, in every command of a list or pipeline;
    /// redirections and leading `VAR=value` assignments dropped.
    static func invocations(in line: String) -> [[String]] {
        var text = strippingComment(line)
        for (variable, value) in shellVariables { text = text.replacingOccurrences(of: variable, with: value) }
        var commands: [[String]] = [[]]
        for word in shellWords(text) {
            if ["&&", ";", "|"].contains(word) { commands.append([]) } else { commands[commands.count - 1].append(word) }
        }
        var result: [[String]] = []
        for var words in commands {
            // YAML `script:` keys and list dashes, `time`, `env` and assignments in front of the command.
            while let first = words.first,
                  first == "script:" || first == "-" || first == "time" || first == "env" || first == "$"
                    || (first.contains("=") && !first.hasPrefix("-")) {
                words.removeFirst()
            }
            guard let first = words.first else { continue }
            var arguments: ArraySlice<String>
            if first == "smokescreen" || first.hasSuffix("/smokescreen") {
                arguments = words.dropFirst()
            } else if first == "swift", words.count > 1, words[1] == "run" {
                // swift run's own options come before the product: `swift run -c release smokescreen …`.
                guard let product = words.firstIndex(of: "smokescreen") else { continue }
                arguments = words[(product + 1)...]
            } else {
                continue
            }
            var kept: [String] = []
            var skipNext = false
            for word in arguments {
                if skipNext { skipNext = false; continue }
                if word == ">" || word == "2>" || word == ">>" || word == "<" { skipNext = true; continue }
                if word.hasPrefix(">") || word.hasPrefix("2>") || word.hasPrefix("<") { continue }
                kept.append(word)
            }
            result.append(kept)
        }
        return result
    }

    /// The arguments with placeholders replaced; throws naming a placeholder the table does not know.
    static func substitutingPlaceholders(_ arguments: [String], renderFolder: String) throws -> [String] {
        let subcommand = arguments.first { !$0.hasPrefix("-") }
        var result: [String] = []
        var previous = ""
        for argument in arguments {
            var value = argument
            if let replacement = placeholders[argument] {
                value = replacement
            } else if argument.contains("$") || argument.contains("…")
                        || (argument.count > 1 && argument.allSatisfy { $0.isUppercase || $0 == "_" || $0 == "/" }) {
                throw PlaceholderError(word: argument)
            } else if (subcommand == "preview" || subcommand == "lint"), argument != subcommand, !argument.hasPrefix("-"),
                      argument.contains("/") || TransitionCatalog.transition(named: argument) == nil,
                      !argument.lowercased().hasSuffix(".json"),
                      !["--out", "--preview-out", "--durations", "--assets", "--scene", "--transition", "--only", "--fps",
                        "--scale", "--sheet-width", "--tile-width"].contains(previous), Double(argument) == nil,
                      !["sheet", "gif", "apng", "mp4"].contains(argument) {
                // A render folder read by preview or lint: the documents name folders a render made
                // (`out/…`, or one a line before made), which need not exist here, so an existing one stands in.
                value = renderFolder
            } else if previous == "--golden" {
                value = renderFolder   // golden frames a line before rendered
            }
            result.append(value)
            previous = argument
        }
        return result
    }

    struct PlaceholderError: Error, CustomStringConvertible {
        var word: String
        var description: String { "placeholder '\(word)' has no value in DocumentationTests.placeholders (or an unhandled shell variable)" }
    }

    func testEveryDocumentedCommandParses() throws {
        let renderFolder = FileManager.default.temporaryDirectory.appendingPathComponent("documentation-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: renderFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: renderFolder) }

        var parsed = 0
        var subcommandsSeen: Set<String> = []
        for document in try Self.documents() {
            for codeLine in Self.shellCodeLines(in: document, text: try Self.read(document)) {
                for arguments in Self.invocations(in: codeLine.text) {
                    let place = "\(codeLine.document):\(codeLine.line)"
                    let substituted: [String]
                    do {
                        substituted = try Self.substitutingPlaceholders(arguments, renderFolder: renderFolder)
                    } catch {
                        XCTFail("\(place): `\(codeLine.text)`: \(error)")
                        continue
                    }
                    // Repository files a command reads (scene files, plists) must exist.
                    for argument in substituted where argument.hasPrefix("assets/") || argument.hasPrefix("docs/") {
                        XCTAssertTrue(FileManager.default.fileExists(atPath: Self.root + "/" + argument),
                                      "\(place): `\(codeLine.text)`: \(argument) is not in the repository")
                    }
                    do {
                        let command = try SmokescreenCommand.parseAsRoot(substituted)
                        parsed += 1
                        subcommandsSeen.insert(type(of: command)._commandName)
                    } catch {
                        let message = SmokescreenCommand.message(for: error).trimmingCharacters(in: .whitespacesAndNewlines)
                        // --help and --version "fail" with exit status 0: they parse.
                        if SmokescreenCommand.exitCode(for: error) == .success { parsed += 1; continue }
                        XCTFail("\(place): `\(codeLine.text)` does not parse as \(substituted): \(message)")
                    }
                }
            }
        }
        // Not vacuous: the documents show every subcommand at least once.
        XCTAssertGreaterThanOrEqual(parsed, 40, "commands found and parsed")
        let all = Set(SmokescreenCommand.subcommandNames)
        XCTAssertEqual(all.subtracting(subcommandsSeen), [], "subcommands no document shows in a code block")
    }

    /// The extraction itself, on the shapes of line the documents use.
    func testCommandExtractionHandlesListsCommentsAndSwiftRun() throws {
        XCTAssertEqual(Self.invocations(in: "swift run -c release smokescreen   # render the default"), [[]])
        XCTAssertEqual(Self.invocations(in: "swift build -c release && .build/release/smokescreen bench --summary --runs 7 --markdown"),
                       [["bench", "--summary", "--runs", "7", "--markdown"]])
        XCTAssertEqual(Self.invocations(in: "script: smokescreen render --all --shard auto --quiet --out part-$CI_NODE_INDEX"),
                       [["render", "--all", "--shard", "auto", "--quiet", "--out", "part-1"]])
        XCTAssertEqual(Self.invocations(in: "smokescreen merge /tmp/p1 /tmp/p2 --out /tmp/m && diff -r /tmp/all /tmp/m"),
                       [["merge", "/tmp/p1", "/tmp/p2", "--out", "/tmp/m"]])
        XCTAssertEqual(Self.invocations(in: "SMOKESCREEN_FORCE_SCALAR=1 smokescreen lint reference > /dev/null"), [["lint", "reference"]])
        XCTAssertEqual(Self.invocations(in: "swift build -c release --product smokescreen"), [])
        XCTAssertEqual(Self.invocations(in: "smokescreen render --frames 10..19 --match 'inippon-*'"),
                       [["render", "--frames", "10..19", "--match", "inippon-*"]])
        XCTAssertThrowsError(try Self.substitutingPlaceholders(["render", "SOMETHING"], renderFolder: "/tmp"))
        XCTAssertEqual(try Self.substitutingPlaceholders(["inspect", "NAME", "--json", "--time", "T"], renderFolder: "/tmp"),
                       ["inspect", "vesper-timeline-to-detail", "--json", "--time", "0.3"])
        // A wrong command fails to parse, so the check above can fail.
        XCTAssertThrowsError(try SmokescreenCommand.parseAsRoot(["render", "--scael", "2"]))
    }

    // MARK: Links

    /// The anchors GitHub gives a document's headings: lower-cased, punctuation other than `-` and `_`
    /// dropped, spaces as `-`, a repeated heading suffixed `-1`, `-2`, ….
    static func anchors(in text: String) -> Set<String> {
        var result: Set<String> = []
        var counts: [String: Int] = [:]
        var inFence = false
        for line in text.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle(); continue }
            guard !inFence, line.hasPrefix("#") else { continue }
            let hashes = line.prefix { $0 == "#" }.count
            guard hashes <= 6, line.dropFirst(hashes).first == " " else { continue }
            let title = line.dropFirst(hashes).trimmingCharacters(in: .whitespaces)
            let slug = String(title.lowercased().compactMap { c -> Character? in
                if c == " " { return "-" }
                if c.isLetter || c.isNumber || c == "-" || c == "_" { return c }
                return nil
            })
            let n = counts[slug, default: 0]
            counts[slug] = n + 1
            result.insert(n == 0 ? slug : "\(slug)-\(n)")
        }
        return result
    }

    /// Every `[text](target)` and `![alt](target)` outside code (fenced blocks and inline code) and
    /// outside HTML comments, with its line.
    static func links(in text: String) -> [(line: Int, target: String)] {
        var result: [(Int, String)] = []
        var inFence = false
        var inComment = false
        let pattern = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)(?:\s+"[^"]*")?\)"#)
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            if raw.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle(); continue }
            if inFence { continue }
            var line = raw
            // HTML comments (a slot for a guide still being written) are not links.
            if inComment {
                guard let end = line.range(of: "-->") else { continue }
                line = String(line[end.upperBound...])
                inComment = false
            }
            while let start = line.range(of: "<!--") {
                if let end = line.range(of: "-->", range: start.upperBound..<line.endIndex) {
                    line.removeSubrange(start.lowerBound..<end.upperBound)
                } else {
                    line = String(line[..<start.lowerBound])
                    inComment = true
                }
            }
            // Inline code: `[a](b)` between backticks is an example, not a link.
            let parts = line.components(separatedBy: "`")
            let prose = parts.enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            let range = NSRange(prose.startIndex..., in: prose)
            for match in pattern.matches(in: prose, range: range) {
                if let target = Range(match.range(at: 1), in: prose) { result.append((index + 1, String(prose[target]))) }
            }
        }
        return result
    }

    func testEveryLinkAndImageResolvesInsideTheRepository() throws {
        let root = URL(fileURLWithPath: Self.root).standardizedFileURL.path
        var checked = 0
        for document in try Self.documents() {
            let text = try Self.read(document)
            let folder = (document as NSString).deletingLastPathComponent
            for (line, target) in Self.links(in: text) {
                let place = "\(document):\(line)"
                if target.contains("://") || target.hasPrefix("mailto:") {
                    XCTFail("\(place): \(target) leads outside the repository; name it as plain text instead")
                    continue
                }
                let pieces = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let pathPart = pieces[0], anchor = pieces.count > 1 ? pieces[1] : nil
                let file: String
                if pathPart.isEmpty {
                    file = document
                } else {
                    let resolved = URL(fileURLWithPath: Self.root + "/" + (folder.isEmpty ? "" : folder + "/") + pathPart).standardizedFileURL.path
                    guard resolved.hasPrefix(root + "/") else {
                        XCTFail("\(place): \(target) resolves to \(resolved), outside the repository")
                        continue
                    }
                    guard FileManager.default.fileExists(atPath: resolved) else {
                        XCTFail("\(place): \(target): no such file \(resolved)")
                        continue
                    }
                    file = String(resolved.dropFirst(root.count + 1))
                }
                if let anchor {
                    guard file.hasSuffix(".md") else {
                        XCTFail("\(place): \(target): an anchor into a file that is not Markdown")
                        continue
                    }
                    let anchors = Self.anchors(in: try Self.read(file))
                    XCTAssertTrue(anchors.contains(anchor), "\(place): \(target): \(file) has no heading with anchor '#\(anchor)'")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 40, "links found and checked")
    }

    func testAnchorsFollowGitHubsRule() {
        let text = "# Smokescreen\n## iNippon's pages and the page curl\n```sh\n# not a heading\n```\n## Build and test times\n## Notes\n## Notes\n"
        XCTAssertEqual(Self.anchors(in: text), ["smokescreen", "inippons-pages-and-the-page-curl", "build-and-test-times", "notes", "notes-1"])
        XCTAssertEqual(Self.links(in: "see [a](b.md#c) and `[x](y)` and ![i](img.png)\n<!-- [z](gone.md) -->").map(\.target), ["b.md#c", "img.png"])
    }
}
