import Foundation
import PNGIO
import RasterCore

/// Writes what a person looks at after a failed comparison into one folder:
/// `<frame>.diff.png` for each failing frame (with `includeInputs`, also `<frame>.expected.png` and
/// `<frame>.actual.png`), and ``sheetFileName`` with expected | actual | diff rows (see ``DiffSheet``).
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
    /// The first failing frames, kept in full for the sheet (at most ``DiffSheet/maxRows``).
    private var rows: [DiffSheet.Row] = []
    private var failingFrames = 0

    /// The sheet's file name in the folder.
    public static let sheetFileName = "sheet.png"

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
            written += try Self.writeFrame(name: name, expected: expected, actual: actual, difference: difference,
                                           to: directory, includeInputs: includeInputs)
        } else if includeInputs {
            let base = directory + "/" + Self.stem(for: name)
            for (bitmap, suffix) in [(expected, ".expected.png"), (actual, ".actual.png")] {
                guard let bitmap else { continue }
                do { try PNGCodec.write(bitmap, to: base + suffix) } catch { throw ArtifactError(path: base + suffix, reason: error.reason) }
                written.append(base + suffix)
            }
        }
        keepForSheet(DiffSheet.Row(name: name, expected: expected, actual: actual, diff: difference?.diffImage))
    }

    /// Records a failing frame whose files were already written (by ``writeFrame(name:expected:actual:difference:to:includeInputs:)``).
    public mutating func recordWritten(_ paths: [String], row: DiffSheet.Row) {
        written += paths
        keepForSheet(row)
    }

    private mutating func keepForSheet(_ row: DiffSheet.Row) {
        failingFrames += 1
        if rows.count < DiffSheet.maxRows { rows.append(row) }
    }

    /// Writes the sheet of the frames added so far.
    /// - Returns: the sheet's path and what it shows, or `nil` when no frame failed.
    public mutating func finish() throws(ArtifactError) -> (path: String, note: String)? {
        guard let sheet = DiffSheet.make(rows: rows, failingFrames: failingFrames, marks: style) else { return nil }
        let path = directory + "/" + Self.sheetFileName
        do { try PNGCodec.write(sheet.bitmap, to: path) } catch { throw ArtifactError(path: path, reason: error.reason) }
        written.append(path)
        rows = []  // the full-size frames are no longer needed
        return (path, sheet.note)
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
