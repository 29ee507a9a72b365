import BoundedInput
import Foundation
import PNGIO
import RasterCore

/// Writes what a person looks at after a failed comparison into one folder:
/// `<frame>.diff.png` for each failing frame (with `includeInputs`, also `<frame>.expected.png` and
/// `<frame>.actual.png`), ``sheetFileName`` with labelled expected | actual | diff rows (see ``DiffSheet``;
/// every failing frame, ``DiffSheet/maxRows`` a page: `sheet.png`, `sheet-2.png`, …), and
/// ``reportFileName``, an HTML page of every compared frame (see ``HTMLReport``).
/// `<frame>` is the frame's name without `.png`, with `/` replaced by `_`.
///
/// Files are written atomically (PNGIO) and replace files of the same name; nothing else in the folder is
/// touched.
public struct FailureArtifacts: Sendable {
    /// The folder the files go to.
    public let directory: String
    /// Also write the expected and actual frames.
    public let includeInputs: Bool
    /// The diff image style (its colours are kept when the sheet is scaled down).
    public let style: DiffImageStyle
    /// Paths written so far, in order.
    public private(set) var written: [String] = []
    /// The failing frames of the sheet page being filled, kept in full (at most ``DiffSheet/maxRows``).
    private var rows: [DiffSheet.Row] = []
    private var failingFrames = 0
    private var pages: [(path: String, note: String)] = []
    private var pageError: ArtifactError?
    /// What the HTML report lists: every frame that failed, then those that matched.
    private var entries: [HTMLReport.Entry] = []
    private var matches: [String] = []
    /// Frame times by name (seconds), when the frames came with a manifest.
    public var times: [String: Double] = [:]
    /// The report's heading (what was compared with what). Default "Comparison".
    public var title = "Comparison"
    /// How frames were compared, for the report.
    public var comparisonDescription = ""

    /// The sheet's file name in the folder (its first page; more pages are `sheet-2.png`, …).
    public static let sheetFileName = "sheet.png"
    /// The HTML report's file name in the folder.
    public static let reportFileName = "report.html"

    /// Prepares the folder, creating it (and its parents) when missing.
    /// - Throws: ``ArtifactError`` when the folder cannot be created or is not a folder.
    public init(directory: String, includeInputs: Bool = false, style: DiffImageStyle = DiffImageStyle()) throws(ArtifactError) {
        self.directory = directory
        self.includeInputs = includeInputs
        self.style = style
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ArtifactError(path: directory, reason: "exists and is not a folder") }
            return
        }
        do throws(POSIXFailure) {
            try POSIXFiles.createDirectories(directory)
        } catch {
            let at = error.path == directory ? "" : " (at \(error.path))"
            throw ArtifactError(path: directory, reason: "cannot create the folder: \(error.reason)\(at)")
        }
    }

    /// The file name stem for a frame name: `frame_0001.png` → `frame_0001`. Different names always give
    /// different stems: `%` becomes `%25` and `/` becomes `%2F` (so `a/b.png` and `a_b.png` stay apart),
    /// and a leading `.` becomes `%2E` so that no artifact is a hidden file.
    public static func stem(for name: String) -> String {
        let base = name.hasSuffix(".png") ? String(name.dropLast(4)) : name
        var stem = base.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
        if stem.hasPrefix(".") { stem = "%2E" + stem.dropFirst() }
        // A name that is ".png" alone, or a name that kept its ".png" in another case, still differs.
        if stem.isEmpty { stem = "%" }
        if !name.hasSuffix(".png") { stem += "%" }
        return stem
    }

    /// Writes the files of one failing frame (no sheet); safe to call from several threads at once.
    /// - Returns: the paths written.
    public static func writeFrame(name: String, expected: Bitmap?, actual: Bitmap?, difference: FrameDifference,
                                  to directory: String, includeInputs: Bool) throws(ArtifactError) -> [String] {
        let base = directory + "/" + stem(for: name)
        var paths: [String] = []
        func put(_ bitmap: Bitmap?, _ suffix: String) throws(ArtifactError) {
            guard let bitmap else { return }
            let path = base + suffix
            do { try PNGCodec.write(bitmap, to: path) } catch { throw ArtifactError(path: path, reason: error.reason) }
            paths.append(path)
        }
        if includeInputs {
            try put(expected, ".expected.png")
            try put(actual, ".actual.png")
        }
        try put(difference.diffImage, ".diff.png")
        return paths
    }

    /// Writes the files of one failing frame and keeps it for the sheet when it is among the first
    /// ``DiffSheet/maxRows`` failing frames. A frame without a counterpart has a `nil` expected or actual
    /// frame and no difference.
    public mutating func add(name: String, expected: Bitmap?, actual: Bitmap?, difference: FrameDifference?) throws(ArtifactError) {
        if let difference {
            let paths = try Self.writeFrame(name: name, expected: expected, actual: actual, difference: difference,
                                            to: directory, includeInputs: includeInputs)
            written += paths
            record(name: name, paths: paths, difference: difference, expected: expected, actual: actual)
        } else {
            var paths: [String] = []
            if includeInputs {
                let base = directory + "/" + Self.stem(for: name)
                for (bitmap, suffix) in [(expected, ".expected.png"), (actual, ".actual.png")] {
                    guard let bitmap else { continue }
                    do { try PNGCodec.write(bitmap, to: base + suffix) } catch { throw ArtifactError(path: base + suffix, reason: error.reason) }
                    paths.append(base + suffix)
                }
            }
            written += paths
            record(name: name, paths: paths, difference: nil, expected: expected, actual: actual)
        }
        try keepForSheet(DiffSheet.Row(name: name, expected: expected, actual: actual, diff: difference?.diffImage,
                                       measure: difference.map(Self.measure) ?? (expected == nil ? "extra" : "missing")))
    }

    /// Records a failing frame whose files were already written (by ``writeFrame(name:expected:actual:difference:to:includeInputs:)``).
    public mutating func recordWritten(_ paths: [String], row: DiffSheet.Row, difference: FrameDifference? = nil) {
        written += paths
        record(name: row.name, paths: paths, difference: difference, expected: row.expected, actual: row.actual)
        var row = row
        if row.measure.isEmpty, let difference { row.measure = Self.measure(difference) }
        do { try keepForSheet(row) } catch { pageError = pageError ?? error }
    }

    /// Records a frame only one side has (nothing to draw), for the report.
    public mutating func recordAbsent(name: String, missing: Bool) {
        entries.append(HTMLReport.Entry(name: name, kind: missing ? .missing : .extra, expectedFile: nil, actualFile: nil, diffFile: nil,
                                        difference: nil))
    }

    /// Records a frame that matched, for the report.
    public mutating func recordMatch(name: String) { matches.append(name) }

    static func measure(_ d: FrameDifference) -> String {
        d.reason ?? "\(d.differentPixels) px, max Δ \(d.maxChannelDelta)"
    }

    private mutating func record(name: String, paths: [String], difference: FrameDifference?, expected: Bitmap?, actual: Bitmap?) {
        func file(_ suffix: String) -> String? {
            paths.first { $0.hasSuffix(suffix) }.map { String($0.split(separator: "/").last ?? "") }
        }
        let kind: HTMLReport.Entry.Kind = difference != nil ? .differs : (expected == nil ? .extra : .missing)
        entries.append(HTMLReport.Entry(name: name, kind: kind, expectedFile: file(".expected.png"), actualFile: file(".actual.png"),
                                        diffFile: file(".diff.png"), difference: difference.map { var d = $0; d.diffImage = nil; return d }))
    }

    private mutating func keepForSheet(_ row: DiffSheet.Row) throws(ArtifactError) {
        failingFrames += 1
        rows.append(row)
        if rows.count == DiffSheet.maxRows { try writePage() }
    }

    /// Writes the rows kept as the next sheet page and lets their full-size frames go.
    private mutating func writePage() throws(ArtifactError) {
        guard let sheet = DiffSheet.make(rows: rows, failingFrames: rows.count, marks: style) else { return }
        let number = pages.count + 1
        let name = number == 1 ? Self.sheetFileName : "sheet-\(number).png"
        let path = directory + "/" + name
        do { try PNGCodec.write(sheet.bitmap, to: path) } catch { throw ArtifactError(path: path, reason: error.reason) }
        written.append(path)
        pages.append((path, sheet.note))
        rows = []
    }

    /// Writes the last sheet page and the HTML report.
    /// - Returns: the first sheet's path and what the sheets show, or `nil` when no frame failed (the
    ///   report is written either way).
    public mutating func finish() throws(ArtifactError) -> (path: String, note: String)? {
        if let pageError { throw pageError }
        if !rows.isEmpty { try writePage() }
        let report = HTMLReport(title: title, comparison: comparisonDescription, entries: entries, matches: matches, times: times)
        let path = directory + "/" + Self.reportFileName
        do { try AtomicFile.write(Array(report.html.utf8), to: path) } catch { throw ArtifactError(path: path, reason: "\(error)") }
        written.append(path)
        guard let first = pages.first else { return nil }
        let size = first.note.components(separatedBy: ", ").last ?? ""
        let note = pages.count == 1 ? first.note
            : "\(failingFrames) failing frames on \(pages.count) sheets (\(Self.sheetFileName), sheet-2.png, …), expected | actual | diff, \(size)"
        return (first.path, note)
    }
}

/// A failure artifact could not be written (I/O; `smokescreen diff` exits 74).
public struct ArtifactError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file or folder.
    public var path: String
    /// Why, e.g. `No such file or directory`.
    public var reason: String

    /// An error about `path`.
    public init(path: String, reason: String) { self.path = path; self.reason = reason }

    public var description: String { "\(path): \(reason)" }
}
