import BoundedInput
import FrameDiff
import Foundation
import FrameStore

/// `diff --all EXPECTED ACTUAL`: two catalogue folders (`render --all` or `merge` output) compared
/// transition by transition, each as `diff` compares two folders, with one HTML page over all of them.
public struct CatalogueDiff {
    /// The options of one folder comparison; its `expected`, `actual` and `diffOut` are replaced per
    /// transition.
    public var options: DiffInvocation

    public init(options: DiffInvocation) { self.options = options }

    /// One transition's result.
    public struct Row: Sendable {
        public var name: String
        /// `match`, `differs`, `missing` (in ACTUAL only), `extra` (in ACTUAL only), or `unreadable`.
        public var status: String
        public var detail: String
        /// Its own report.html, relative to the diff folder, when one was written.
        public var report: String?
        public var sheet: String?
    }

    /// The transitions of a catalogue folder: the subfolders holding a manifest.json.
    static func names(in folder: String) throws -> Set<String> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CatalogueDiffError(description: "\(folder): no such folder")
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Set(entries.filter { FileManager.default.fileExists(atPath: "\(folder)/\($0)/\(Manifest.fileName)") })
    }

    /// One row as a line of the text.
    static func line(_ row: Row) -> String { "\(row.status.padding(toLength: 10, withPad: " ", startingAt: 0)) \(row.name): \(row.detail)\n" }

    /// Compares; returns the rows (sorted by name), the text and the exit code (0 all match, 1 not).
    /// With `eachRow`, each transition's line is handed over as soon as it is compared (a long run shows
    /// its progress) and the text holds only the closing lines.
    public func run(eachRow: ((String) -> Void)? = nil) throws -> (rows: [Row], text: String, exitCode: Int32) {
        let expected = try Self.names(in: options.expected), actual = try Self.names(in: options.actual)
        if expected.isEmpty && actual.isEmpty {
            throw CatalogueDiffError(description: "neither \(options.expected) nor \(options.actual) holds a transition folder (a subfolder with manifest.json)")
        }
        // The top folder follows the rule of every output folder (each transition's subfolder too).
        let output = try options.diffOut.map { try OutputFolder(path: $0, option: options.diffOutOption) }
        defer { output?.close() }
        var rows: [Row] = [] {
            didSet { if let eachRow, let row = rows.last, rows.count > oldValue.count { eachRow(Self.line(row)) } }
        }
        var text = ""
        for name in expected.union(actual).sorted() {
            guard expected.contains(name) else {
                rows.append(Row(name: name, status: "extra", detail: "only in \(options.actual)"))
                continue
            }
            guard actual.contains(name) else {
                rows.append(Row(name: name, status: "missing", detail: "not in \(options.actual)"))
                continue
            }
            var one = options
            one.expected = "\(options.expected)/\(name)"
            one.actual = "\(options.actual)/\(name)"
            one.diffOut = options.diffOut.map { "\($0)/\(name)" }
            one.json = false
            let outcome = one.run()
            let report = outcome.report
            let status = outcome.exitCode == 0 ? "match" : (report?.unreadable.isEmpty == false ? "unreadable" : "differs")
            let detail: String
            if let report {
                detail = status == "match" ? "\(report.compared) frames match"
                    : "\(report.failures.count) of \(report.compared) frames differ, \(report.missing.count) missing, \(report.extra.count) extra"
            } else {
                detail = outcome.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let html = options.diffOut.flatMap { dir in
                FileManager.default.fileExists(atPath: "\(dir)/\(name)/\(FailureArtifacts.reportFileName)") ? "\(name)/\(FailureArtifacts.reportFileName)" : nil
            }
            let sheet = options.diffOut.flatMap { dir in FileManager.default.fileExists(atPath: "\(dir)/\(name)/sheet.png") ? "\(name)/sheet.png" : nil }
            rows.append(Row(name: name, status: status, detail: detail, report: html, sheet: sheet))
        }
        if eachRow == nil { for row in rows { text += Self.line(row) } }
        let failing = rows.filter { $0.status != "match" }.count
        text += "\(rows.count) transitions, \(failing == 0 ? "all match" : "\(failing) do not match")\n"
        if let dir = options.diffOut, let output {
            try output.claimEverythingWritten()
            try output.claim([FailureArtifacts.reportFileName])
            try AtomicFile.write(Array(Self.html(rows, expected: options.expected, actual: options.actual).utf8), to: "\(dir)/\(FailureArtifacts.reportFileName)")
            text += "report: \(dir)/\(FailureArtifacts.reportFileName)\n"
        }
        return (rows, text, failing == 0 ? 0 : 1)
    }

    /// One page: a row per transition, its status, and for those that differ their sheet and a link to
    /// their own report.
    static func html(_ rows: [Row], expected: String, actual: String) -> String {
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        let failing = rows.filter { $0.status != "match" }
        var body = "<h1>\(failing.isEmpty ? "All \(rows.count) transitions match" : "\(failing.count) of \(rows.count) transitions do not match")</h1>\n"
        body += "<p>expected <code>\(escape(expected))</code>, actual <code>\(escape(actual))</code></p>\n<table>\n<tr><th>transition</th><th>status</th><th>detail</th></tr>\n"
        for row in rows {
            let name = row.report.map { "<a href=\"\(escape($0))\">\(escape(row.name))</a>" } ?? escape(row.name)
            body += "<tr class=\"\(row.status)\"><td>\(name)</td><td>\(row.status)</td><td>\(escape(row.detail))</td></tr>\n"
        }
        body += "</table>\n"
        for row in failing {
            body += "<section id=\"\(escape(row.name))\"><h2>\(escape(row.name)): \(escape(row.status))</h2><p>\(escape(row.detail))"
            if let report = row.report { body += " — <a href=\"\(escape(report))\">frame by frame</a>" }
            body += "</p>"
            if let sheet = row.sheet { body += "<img src=\"\(escape(sheet))\" alt=\"\(escape(row.name)) sheet\">" }
            body += "</section>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>smokescreen diff --all</title>
            <style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}
            tr.match td:nth-child(2){color:#1a7f37}tr:not(.match) td:nth-child(2){color:#c11;font-weight:bold}img{max-width:100%}</style></head>
            <body>
            \(body)</body></html>

            """
    }
}

/// A catalogue folder that cannot be compared (exit 65).
public struct CatalogueDiffError: ExitStatusError, Sendable {
    public var description: String
    public var exitStatus: Int32 { ExitStatus.dataError }
}
