import BoundedInput
import PNGIO
import RasterCore

/// The result of comparing two frame sequences (``SequenceComparison``): the failing frames, the missing
/// and extra ones, the unreadable files and the artifacts written.
///
/// ``json`` is one JSON object on one line, with keys in this order:
///
/// ```json
/// {"match":false,"compared":3,
///  "frames":[{"name":"frame_0001.png","differentPixels":12,"maxChannelDelta":200,"boundingBox":[3,4,5,2],"reason":null}],
///  "missing":["frame_0002.png"],"extra":["frame_0003.png"],
///  "unreadable":[{"file":"out/frame_0004.png","reason":"corrupt PNG: IDAT: incorrect data check"}]}
/// ```
///
/// - `match`: true when every frame matched and none is missing, extra or unreadable (exit code 0).
/// - `compared`: how many frames were in both sequences (unreadable ones included).
/// - `frames`: only the frames that **failed**, in the expected sequence's order; matching frames are not
///   listed (so `frames` is empty on a match, and a frame within `--max-different-fraction` is not
///   listed). `boundingBox` is `[x, y, width, height]` in pixels, or `null` when no pixel is counted (a
///   scale-only difference). `reason` is `null` for a pixel difference, or says why the frames could not
///   be compared pixel for pixel (`size differs: …`, `scale differs: …`).
/// - `missing`: names in the expected sequence only; `extra`: names in the actual sequence only.
/// - `unreadable`: files that could not be read as PNG, with PNGIO's reason.
public struct SequenceReport: Sendable {
    /// A frame that did not match.
    public struct Failure: Sendable {
        /// The frame's name, e.g. `frame_0003.png`.
        public var name: String
        /// How it differs (without the diff image, which went to the artifacts folder if one was given).
        public var difference: FrameDifference

        /// A failing frame.
        public init(name: String, difference: FrameDifference) { self.name = name; self.difference = difference }
    }

    /// A file that could not be read as PNG.
    public struct Unreadable: Sendable, Hashable {
        /// The file's path.
        public var path: String
        /// E.g. `not a PNG file (bad signature)`.
        public var reason: String

        /// An unreadable file.
        public init(path: String, reason: String) { self.path = path; self.reason = reason }

        /// From a PNGIO error: its path and its description without the leading path.
        public init(_ error: PNGError) {
            let text = error.description, prefix = error.path + ": "
            self.init(path: error.path, reason: text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text)
        }
    }

    /// The files written to the artifacts folder.
    public struct Artifacts: Sendable {
        /// The artifacts folder.
        public var directory: String
        /// Every file written, diff images first, the sheet last.
        public var files: [String]
        /// The sheet's path; `nil` when no frame failed.
        public var sheet: String?
        /// What the sheet shows (rows, scale).
        public var sheetNote: String?
    }

    /// How frames were compared.
    public var comparison: FrameComparison
    /// The expected side as given.
    public var expectedPath: String
    /// The actual side as given.
    public var actualPath: String
    /// Frames present in both sequences.
    public var compared = 0
    /// Compared frames that were not decoded: both manifests (written by Smokescreen) record the same
    /// SHA-256 for the frame and both files still have it, so they are the same bytes Smokescreen wrote
    /// (a match). Counted among ``compared``; not in ``json``.
    public var notDecoded = 0
    /// Frames that did not match, in order.
    public var failures: [Failure] = []
    /// Names only in the expected sequence.
    public var missing: [String] = []
    /// Names only in the actual sequence.
    public var extra: [String] = []
    /// Files that could not be read as PNG.
    public var unreadable: [Unreadable] = []
    /// What was written to the artifacts folder, when one was given and writing succeeded.
    public var artifacts: Artifacts?
    /// The first failure to write an artifact.
    public var artifactError: ArtifactError?

    /// An empty report of comparing `expectedPath` with `actualPath`.
    public init(comparison: FrameComparison, expectedPath: String, actualPath: String) {
        self.comparison = comparison
        self.expectedPath = expectedPath
        self.actualPath = actualPath
    }

    /// True when every compared frame matched and nothing is missing, extra or unreadable.
    public var isMatch: Bool { failures.isEmpty && missing.isEmpty && extra.isEmpty && unreadable.isEmpty }

    /// The process exit code for this report; see ``DiffExitCode/code(for:)``.
    public var exitCode: Int32 { DiffExitCode.code(for: self) }

    // MARK: JSON

    /// The report as one JSON object on one line (see the type's documentation for the shape).
    public var json: String {
        var out = "{\"match\":\(isMatch),\"compared\":\(compared),\"frames\":["
        out += failures.map { failure in
            let d = failure.difference
            let box = d.boundingBox.map { "[\($0.x),\($0.y),\($0.width),\($0.height)]" } ?? "null"
            return "{\"name\":\(JSONText.string(failure.name)),\"differentPixels\":\(d.differentPixels),"
                + "\"maxChannelDelta\":\(d.maxChannelDelta),\"boundingBox\":\(box),"
                + "\"reason\":\(d.reason.map(JSONText.string) ?? "null")}"
        }.joined(separator: ",")
        out += "],\"missing\":[" + missing.map(JSONText.string).joined(separator: ",")
        out += "],\"extra\":[" + extra.map(JSONText.string).joined(separator: ",")
        out += "],\"unreadable\":[" + unreadable.map {
            "{\"file\":\(JSONText.string($0.path)),\"reason\":\(JSONText.string($0.reason))}"
        }.joined(separator: ",")
        return out + "]}"
    }

    // MARK: text

    /// A summary for people, one finding per line, ending with `MATCH` or `MISMATCH` and the counts.
    public var text: String {
        var lines: [String] = []
        lines.append("comparing actual \(actualPath) with expected \(expectedPath) (\(comparison))")
        for failure in failures { lines.append("  differs  \(failure.name): \(failure.difference.summary)") }
        for name in missing { lines.append("  missing  \(name): in the expected frames only") }
        for name in extra { lines.append("  extra    \(name): in the actual frames only") }
        for file in unreadable { lines.append("  unreadable  \(file.path): \(file.reason)") }
        if let artifacts {
            let diffs = artifacts.files.filter { $0.hasSuffix(".diff.png") }.count
            var line = "diff images: \(diffs) in \(artifacts.directory)"
            if let sheet = artifacts.sheet { line += "; sheet: \(sheet) (\(artifacts.sheetNote ?? ""))" }
            if let report = artifacts.files.first(where: { $0.hasSuffix("/" + FailureArtifacts.reportFileName) }) { line += "; report: \(report)" }
            lines.append(line)
        }
        if let artifactError { lines.append("cannot write the diff output: \(artifactError)") }
        var counts = ["\(compared) frame\(compared == 1 ? "" : "s") compared"]
        if notDecoded > 0 { counts.append("\(notDecoded) not decoded (the SHA-256 both manifests record)") }
        if !failures.isEmpty { counts.append("\(failures.count) differ") }
        if !missing.isEmpty { counts.append("\(missing.count) missing") }
        if !extra.isEmpty { counts.append("\(extra.count) extra") }
        if !unreadable.isEmpty { counts.append("\(unreadable.count) unreadable") }
        lines.append((isMatch ? "MATCH: " : "MISMATCH: ") + counts.joined(separator: ", "))
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Exit codes of `smokescreen diff`: the tool's `ExitStatus` values, named for what they mean here.
public enum DiffExitCode {
    /// Everything matched.
    public static let match: Int32 = 0
    /// A frame differs, or is missing or extra.
    public static let mismatch = ExitStatus.failure
    /// Bad usage: an invalid option value, or a file compared with a folder.
    public static let usage = ExitStatus.usage
    /// An input could not be read: a PNG that is not readable as PNG, a bad manifest.
    public static let dataError = ExitStatus.dataError
    /// An input path that does not exist: 66, as for every other command.
    public static let noInput = ExitStatus.noInput
    /// An output (diff image, sheet, their folder) could not be written.
    public static let ioError = ExitStatus.ioError

    /// The exit code for a finished comparison: 65 when a frame was unreadable, else 74 when an artifact
    /// could not be written, else 1 for any mismatch, else 0. (An unreadable input says more about the
    /// comparison than a failed diff image, and a mismatch with a failed diff image must not look like a
    /// plain mismatch.)
    public static func code(for report: SequenceReport) -> Int32 {
        if !report.unreadable.isEmpty { return dataError }
        if report.artifactError != nil { return ioError }
        return report.isMatch ? match : mismatch
    }
}

/// JSON string literals, escaped per RFC 8259.
package enum JSONText {
    package static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
