import Foundation
import FrameDiff
import PNGIO
import RasterCore
import SnapshotTesting

extension Diffing where Value == SnapshotFrames {
    /// The environment variable swift-snapshot-testing writes failed snapshots under; Smokescreen's
    /// failure artifacts go beside them (default: the temporary folder).
    public static var artifactsEnvironmentVariable: String { "SNAPSHOT_ARTIFACTS" }

    /// Frames stored as one PNG (see ``SnapshotFrames``) and compared frame by frame with FrameDiff.
    ///
    /// On a mismatch the message names how many frames differ, each differing frame with its pixel count,
    /// largest channel difference and bounding box (in pixels), the frames missing or extra, and the folder
    /// holding Smokescreen's failure artifacts: `<frame>.diff.png` (pixelmatch-style: differing pixels
    /// red over a faded copy of the expected frame), `<frame>.expected.png`, `<frame>.actual.png`,
    /// `sheet.png` (expected | actual | diff rows) and `report.html`. The same files are returned as
    /// `DiffAttachment.data` attachments, which Xcode shows with the failure (swift-snapshot-testing does
    /// not attach them on Linux, where the folder in the message is the way to them).
    ///
    /// The folder is `$SNAPSHOT_ARTIFACTS/smokescreen-<random>/` (the temporary folder without it), new
    /// for every failure, so parallel tests never share one.
    /// - Parameter comparison: how frames are compared; default `FrameComparison.exact` (any differing
    ///   byte fails). `.tolerance(n)` allows a channel difference of `n` (0…255) and
    ///   `.perceptual(threshold:)` is pixelmatch's test; both take `maxDifferentFraction` (0…1) of pixels
    ///   that may differ.
    public static func frames(comparison: FrameComparison = .exact) -> Diffing<SnapshotFrames> {
        .diff(
            toData: { frames in
                // A snapshot that could not be taken never reaches here (the strategy reports it and hands
                // swift-snapshot-testing nothing); a store that fails writes no reference at all.
                do { return Data(try frames.pngData()) } catch {
                    return Data()
                }
            },
            fromData: { data in
                data.isEmpty ? SnapshotFrames(problem: "the reference file is empty") : SnapshotFrames(png: [UInt8](data), name: "the reference")
            },
            diffV2: { reference, actual in
                guard let outcome = SnapshotFramesComparison(comparison: comparison).compare(reference: reference, actual: actual) else { return nil }
                return (outcome.message, outcome.attachments.map { DiffAttachment.data(Data($0.bytes), name: $0.name) })
            }
        )
    }
}

/// The comparison behind ``Diffing/frames(comparison:)``, as plain values so that it can be tested without
/// swift-snapshot-testing's closures.
public struct SnapshotFramesComparison: Sendable {
    /// How frames are compared.
    public var comparison: FrameComparison
    /// Where the failure artifacts' folders are made; `nil`: `$SNAPSHOT_ARTIFACTS`, else the temporary folder.
    public var artifactsRoot: String?

    /// A comparison of frames with `comparison`, artifacts under `artifactsRoot`.
    public init(comparison: FrameComparison = .exact, artifactsRoot: String? = nil) {
        self.comparison = comparison
        self.artifactsRoot = artifactsRoot
    }

    /// A failure: the message, the artifacts folder (nil when none could be written) and its files.
    public struct Outcome: Sendable {
        /// The failure message, several lines.
        public var message: String
        /// The folder of the artifacts, or `nil` when there are none.
        public var artifactsDirectory: String?
        /// Every file written, by name (`sheet.png`, `report.html`, `frame_0003.diff.png`, …), with its bytes.
        public var attachments: [(name: String, bytes: [UInt8])]
    }

    /// Compares `actual` with `reference` frame by frame.
    /// - Returns: `nil` when they have the same number of frames and every frame matches; otherwise the failure.
    public func compare(reference: SnapshotFrames, actual: SnapshotFrames) -> Outcome? {
        if let problem = actual.problem { return Outcome(message: "No snapshot: \(problem)", artifactsDirectory: nil, attachments: []) }
        if let problem = reference.problem {
            return Outcome(message: "Cannot read the reference: \(problem). Delete it and record it again.", artifactsDirectory: nil, attachments: [])
        }
        // A reference PNG without a layout chunk has no scale: it is read at the scale of what it is compared with.
        var expectedFrames = reference.frames
        if reference.frames.count == 1, let first = actual.frames.first, expectedFrames[0].scale != first.scale,
           expectedFrames[0].width == first.width, expectedFrames[0].height == first.height,
           var copy = try? Bitmap(width: first.width, height: first.height, scale: first.scale) {
            copy.copy(from: expectedFrames[0], to: (0, 0))
            expectedFrames[0] = copy
        }
        let count = max(expectedFrames.count, actual.frames.count)
        var failures: [(name: String, expected: Bitmap?, actual: Bitmap?, difference: FrameDifference?)] = []
        var matched: [String] = []
        for index in 0..<count {
            let name = String(format: "frame_%04d.png", index)
            let expected = index < expectedFrames.count ? expectedFrames[index] : nil
            let produced = index < actual.frames.count ? actual.frames[index] : nil
            if let expected, let produced {
                if let difference = comparison.compare(expected, produced) {
                    failures.append((name, expected, produced, difference))
                } else {
                    matched.append(name)
                }
            } else {
                failures.append((name, expected, produced, nil))
            }
        }
        guard !failures.isEmpty else { return nil }

        var lines: [String] = []
        let differing = failures.filter { $0.difference != nil }
        let missing = failures.filter { $0.actual == nil }.map(\.name)
        let extra = failures.filter { $0.expected == nil }.map(\.name)
        lines.append("\(differing.count) of \(min(expectedFrames.count, actual.frames.count)) frames differ (\(comparison))"
            + (expectedFrames.count != actual.frames.count ? "; the reference has \(expectedFrames.count) frames, the snapshot \(actual.frames.count)" : ""))
        let shown = 8
        for failure in differing.prefix(shown) { lines.append("  \(failure.name): \(failure.difference!.summary)") }
        if differing.count > shown { lines.append("  … and \(differing.count - shown) more") }
        if !missing.isEmpty { lines.append("  missing (in the reference, not in the snapshot): \(Self.list(missing))") }
        if !extra.isEmpty { lines.append("  extra (in the snapshot, not in the reference): \(Self.list(extra))") }

        // The artifacts: a failure is reported with its message whether or not they could be written.
        do throws(ArtifactError) {
            let directory = try makeArtifactsDirectory()
            var artifacts = try FailureArtifacts(directory: directory, includeInputs: true, style: comparison.diffImage ?? DiffImageStyle())
            artifacts.title = "Snapshot against its reference"
            artifacts.comparisonDescription = "\(comparison)"
            for failure in failures {
                try artifacts.add(name: failure.name, expected: failure.expected, actual: failure.actual, difference: failure.difference)
            }
            for name in matched { artifacts.recordMatch(name: name) }
            let sheet = try artifacts.finish()
            lines.append("Artifacts: \(directory)/ (\(FailureArtifacts.reportFileName)"
                + (sheet.map { ", \(FailureArtifacts.sheetFileName): \($0.note)" } ?? "") + ", <frame>.diff.png)")
            var attachments: [(name: String, bytes: [UInt8])] = []
            for path in artifacts.written {
                guard let bytes = FileManager.default.contents(atPath: path) else { continue }
                attachments.append((URL(fileURLWithPath: path).lastPathComponent, [UInt8](bytes)))
            }
            return Outcome(message: lines.joined(separator: "\n"), artifactsDirectory: directory, attachments: attachments)
        } catch {
            lines.append("(no artifacts: \(error))")
            return Outcome(message: lines.joined(separator: "\n"), artifactsDirectory: nil, attachments: [])
        }
    }

    static func list(_ names: [String]) -> String {
        names.count <= 4 ? names.joined(separator: ", ") : "\(names[0]) … \(names[names.count - 1]) (\(names.count))"
    }

    /// A new folder `smokescreen-XXXXXX` under the artifacts root (made with `mkdtemp`, so it is never shared).
    func makeArtifactsDirectory() throws(ArtifactError) -> String {
        var root = artifactsRoot ?? ProcessInfo.processInfo.environment[Diffing<SnapshotFrames>.artifactsEnvironmentVariable] ?? ""
        if root.isEmpty { root = NSTemporaryDirectory() }
        if root.hasSuffix("/") && root.count > 1 { root.removeLast() }
        do { try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true) } catch {
            throw ArtifactError(path: root, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        var template = Array((root + "/smokescreen-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let made else { throw ArtifactError(path: root, reason: "cannot create a folder for the artifacts: \(String(cString: strerror(errno)))") }
        return String(cString: made)
    }
}
