import BoundedInput
import Foundation
import FrameStore
import PNGIO
import RasterCore

/// Compares two frame sequences frame by frame, matching frames by name.
///
/// Frames in both sequences are read (PNGIO; the scale comes from an `@2x`-style file name suffix, else 1)
/// and compared with ``comparison``; frames only in the expected sequence are *missing*, frames only in
/// the actual one *extra*. Two single files are compared with each other whatever their names. With an
/// ``artifactsDirectory``, each failing frame's diff image is written there as it is found, and a
/// ``DiffSheet`` at the end (``FailureArtifacts``).
///
/// A frame is not decoded when the manifests of both sides (`manifest.json` in a folder, or the manifest
/// given), written by Smokescreen, record the same SHA-256 for it and both files still hash to it: the
/// files are then the bytes Smokescreen wrote and encoded, so they match. A file that changed after its
/// manifest was written, a side without a manifest, and two single files are always decoded, so a
/// broken or hostile file is reported, never matched.
///
/// Frames are compared on all cores, a few at a time, so memory stays bounded by a few frames (plus the
/// ``DiffSheet/maxRows`` frames kept for the sheet).
public struct SequenceComparison: Sendable {
    /// How each pair of frames is compared; default exact.
    public var comparison: FrameComparison
    /// Where to write diff images and the sheet; `nil` (default) writes nothing.
    public var artifactsDirectory: String?
    /// Also write the expected and actual frames of failing frames into the artifacts folder; default false.
    public var includeInputImages: Bool
    /// How many frames are compared at once; default the number of active processors (at least 1).
    public var concurrency: Int

    /// A comparison; defaults: exact, no artifacts folder, no input images in it.
    public init(comparison: FrameComparison = .exact, artifactsDirectory: String? = nil, includeInputImages: Bool = false,
                concurrency: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.comparison = comparison
        self.artifactsDirectory = artifactsDirectory
        self.includeInputImages = includeInputImages
        self.concurrency = concurrency
    }

    /// Compares the frames of `actual` with those of `expected`. Never throws: unreadable frames and
    /// artifact write failures are in the report.
    public func run(expected: StoredFrames, actual: StoredFrames) -> SequenceReport {
        var report = SequenceReport(comparison: comparison, expectedPath: expected.path, actualPath: actual.path)

        // Pair the frames: by name, or two single files with each other.
        // `digest`: the SHA-256 both manifests record for the frame, when they agree.
        var pairs: [(name: String, expected: String, actual: String, digest: String?)] = []
        if expected.source == .file && actual.source == .file, let e = expected.frames.first, let a = actual.frames.first {
            pairs = [(e.name, e.path, a.path, nil)]
        } else {
            var actualByName: [String: String] = [:]
            for frame in actual.frames where actualByName[frame.name] == nil { actualByName[frame.name] = frame.path }
            let expectedNames = Set(expected.frames.map(\.name))
            let expectedDigests = Self.frameDigests(expected), actualDigests = Self.frameDigests(actual)
            for frame in expected.frames {
                guard let path = actualByName[frame.name] else { report.missing.append(frame.name); continue }
                let digest = expectedDigests[frame.name].flatMap { $0 == actualDigests[frame.name] ? $0 : nil }
                pairs.append((frame.name, frame.path, path, digest))
            }
            report.extra = actual.frames.map(\.name).filter { !expectedNames.contains($0) }
        }
        report.compared = pairs.count

        var artifacts: FailureArtifacts?
        if let directory = artifactsDirectory {
            do throws(ArtifactError) {
                artifacts = try FailureArtifacts(directory: directory, includeInputs: includeInputImages,
                                                 style: comparison.diffImage ?? DiffImageStyle())
                artifacts?.title = "\(expected.path) (expected) against \(actual.path) (actual)"
                artifacts?.comparisonDescription = "\(comparison)"
                artifacts?.times = Self.frameTimes(expected).merging(Self.frameTimes(actual)) { first, _ in first }
            } catch {
                report.artifactError = error
            }
        }
        let writeTo = artifacts?.directory
        // Diff images are only drawn when they are written.
        var drawing = comparison
        if writeTo == nil { drawing.diffImage = nil } else if drawing.diffImage == nil { drawing.diffImage = DiffImageStyle() }
        let frameComparison = drawing

        let workers = max(1, min(concurrency, 16))
        let batch = workers * 2
        var start = 0
        while start < pairs.count {
            let chunk = Array(pairs[start..<min(pairs.count, start + batch)])
            let outcomes = Slots<FrameOutcome>(count: chunk.count)
            let includeInputs = includeInputImages
            DispatchQueue.concurrentPerform(iterations: chunk.count) { index in
                let pair = chunk[index]
                outcomes.set(index, Self.compareFrame(name: pair.name, expectedPath: pair.expected, actualPath: pair.actual,
                                                      digest: pair.digest, comparison: frameComparison, writeTo: writeTo, includeInputs: includeInputs))
            }
            for outcome in outcomes.values {
                if outcome.notDecoded { report.notDecoded += 1 }
                report.unreadable += outcome.unreadable
                if report.artifactError == nil, let error = outcome.writeError { report.artifactError = error }
                guard var difference = outcome.difference else {
                    if outcome.unreadable.isEmpty { artifacts?.recordMatch(name: outcome.name) }
                    continue
                }
                let diffImage = difference.diffImage
                difference.diffImage = nil  // the report keeps numbers only
                report.failures.append(.init(name: outcome.name, difference: difference))
                artifacts?.recordWritten(outcome.written, row: DiffSheet.Row(name: outcome.name, expected: outcome.expected,
                                                                             actual: outcome.actual, diff: diffImage), difference: difference)
            }
            start += batch
        }

        for name in report.missing { artifacts?.recordAbsent(name: name, missing: true) }
        for name in report.extra { artifacts?.recordAbsent(name: name, missing: false) }
        if var artifacts, report.artifactError == nil {
            do throws(ArtifactError) {
                let sheet = try artifacts.finish()
                report.artifacts = SequenceReport.Artifacts(directory: artifacts.directory, files: artifacts.written,
                                                            sheet: sheet?.path, sheetNote: sheet?.note)
            } catch {
                report.artifactError = error
            }
        }
        return report
    }

    /// Frame times by name from the manifest of a render folder or manifest file; empty when there is none.
    static func frameTimes(_ frames: StoredFrames) -> [String: Double] {
        let path = frames.source == .manifest ? frames.path : frames.path + "/manifest.json"
        guard frames.source != .file, let manifest = try? Manifest.read(from: path) else { return [:] }
        return Dictionary(manifest.frames.map { ($0.file, $0.time) }, uniquingKeysWith: { first, _ in first })
    }

    /// The SHA-256 of each frame file by name, from the manifest of a render folder or a manifest file
    /// that Smokescreen wrote (its `generator`); empty when there is none, or it cannot be read (the
    /// frames are then decoded, and a bad manifest given as a side is reported where it is opened).
    static func frameDigests(_ frames: StoredFrames) -> [String: String] {
        let path = frames.source == .manifest ? frames.path : frames.path + "/manifest.json"
        guard frames.source != .file, let manifest = try? Manifest.read(from: path),
              Manifest.isSmokescreenGenerator(manifest.generator) else { return [:] }
        var digests: [String: String] = [:]
        for frame in manifest.frames { if let sha = frame.sha256, digests[frame.file] == nil { digests[frame.file] = sha } }
        return digests
    }

    /// What comparing one pair of frames gave.
    struct FrameOutcome: Sendable {
        var name: String
        /// True when the files were the bytes both manifests vouch for, and not decoded.
        var notDecoded = false
        var difference: FrameDifference?
        var unreadable: [SequenceReport.Unreadable] = []
        var writeError: ArtifactError?
        var written: [String] = []
        /// Kept only for failing frames, for the sheet.
        var expected: Bitmap?
        var actual: Bitmap?
    }

    /// Compares one pair; `digest` is the SHA-256 both sides' manifests record for it, if they agree.
    static func compareFrame(name: String, expectedPath: String, actualPath: String, digest: String? = nil, comparison: FrameComparison,
                             writeTo directory: String?, includeInputs: Bool) -> FrameOutcome {
        var outcome = FrameOutcome(name: name)
        func readBytes(_ path: String) -> [UInt8]? {
            do throws(PNGError) { return try PNGCodec.readBytes(contentsOf: path) } catch {
                outcome.unreadable.append(SequenceReport.Unreadable(error))
                return nil
            }
        }
        func decode(_ bytes: [UInt8]?, _ path: String) -> Bitmap? {
            guard let bytes else { return nil }
            do throws(PNGError) { return try PNGCodec.decodeWithHeader(bytes, name: path, scale: PNGCodec.scale(forPath: path)).bitmap } catch {
                outcome.unreadable.append(SequenceReport.Unreadable(error))
                return nil
            }
        }
        let expectedBytes = readBytes(expectedPath), actualBytes = readBytes(actualPath)
        // Not decoded only when both files are, byte for byte, what both manifests vouch for: the hash of
        // the bytes on disk now, not the manifest alone (a file changed after its manifest was written is
        // decoded, and reported if it is broken). Anything else is decoded, so a broken or hostile file
        // compared with itself is reported, not matched.
        if let digest, let expectedBytes, let actualBytes, expectedBytes == actualBytes, Digest.sha256Hex(expectedBytes) == digest {
            outcome.notDecoded = true
            return outcome
        }
        let expected = decode(expectedBytes, expectedPath), actual = decode(actualBytes, actualPath)
        guard let expected, let actual, let difference = comparison.compare(expected, actual) else { return outcome }
        outcome.difference = difference
        outcome.expected = expected
        outcome.actual = actual
        if let directory {
            do throws(ArtifactError) {
                outcome.written = try FailureArtifacts.writeFrame(name: name, expected: expected, actual: actual, difference: difference,
                                                                  to: directory, includeInputs: includeInputs)
            } catch {
                outcome.writeError = error
            }
        }
        return outcome
    }
}
