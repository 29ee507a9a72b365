import BoundedInput
import FrameDiff
import Foundation
import PNGIO
import RasterCore

/// A frame with a name; the name is its golden's file name (`.png` is added when missing).
public struct NamedFrame: Sendable {
    /// The golden's file name (`.png` added when missing).
    public var name: String
    /// The frame.
    public var bitmap: Bitmap

    /// A frame named `name`.
    public init(_ name: String, _ bitmap: Bitmap) { self.name = name; self.bitmap = bitmap }

    /// `frame_0000.png`, `frame_0001.png`, … for a list of bitmaps.
    public static func numbered(_ bitmaps: [Bitmap]) -> [NamedFrame] {
        bitmaps.enumerated().map { NamedFrame(String(format: "frame_%04d.png", $0.offset), $0.element) }
    }
}

/// One golden set: the frames a test expects, stored as PNG files in a folder, and the check of produced
/// frames against them. The XCTest assertions (`assertFrames(_:matchGoldenNamed:comparison:file:line:)`)
/// are thin wrappers over `verify(_:)`, which returns the failure message instead of failing, so that it
/// can be tested itself.
///
/// Layout beside the test file `Tests/X/ScrollTests.swift`: `Tests/X/__Snapshots__/ScrollTests/<name>/frame_0000.png …`.
/// Goldens carry no scale (PNG has none): each is read at the scale of the frame it is compared with.
public struct GoldenFrames: Sendable {
    /// The golden set's name (a folder name).
    public var name: String
    /// The folder of the golden PNGs.
    public var directory: String
    /// Where expected, actual and diff images and the sheet go when the check fails.
    public var failureDirectory: String
    /// Whether to record or compare.
    public var recordMode: RecordMode
    /// How frames are compared.
    public var comparison: FrameComparison
    /// How recorded goldens are compressed; default ``goldenCompression`` (`PNGCompression/small`).
    /// It only changes the files' size: goldens are compared by their decoded pixels, never their bytes.
    public var compression: PNGCompression

    /// The PNG preset goldens are recorded with: `PNGCompression/small`, the smallest of the presets on
    /// every kind of image, because goldens are checked in and recorded rarely.
    public static let goldenCompression = PNGCompression.small

    /// A golden set named `name` in `directory`, failure artifacts in `failureDirectory`, PNGs recorded with `compression`.
    public init(name: String, directory: String, failureDirectory: String, recordMode: RecordMode, comparison: FrameComparison,
                compression: PNGCompression = GoldenFrames.goldenCompression) {
        self.name = name
        self.directory = directory
        self.failureDirectory = failureDirectory
        self.recordMode = recordMode
        self.comparison = comparison
        self.compression = compression
    }

    /// The environment variable naming the root folder for failure artifacts (default
    /// `$TMPDIR/smokescreen-failures`, `/tmp/smokescreen-failures` without `TMPDIR`).
    public static let failuresEnvironmentVariable = "SMOKESCREEN_FAILURES_DIR"

    /// The golden set `name` of the test file at `testFilePath` (`#filePath`):
    /// goldens in `<test file's folder>/__Snapshots__/<test file name without extension>/<name>/`, failure
    /// artifacts in `<failures root>/<test file name without extension>/<name>/`, the record mode from
    /// `SMOKESCREEN_RECORD`.
    /// - Throws: ``GoldenSetupError`` for a name that is empty, has a `/`, or starts with `.`, or a bad
    ///   `SMOKESCREEN_RECORD` value.
    public static func forTestFile(_ testFilePath: String, name: String, comparison: FrameComparison,
                                   environment: [String: String] = ProcessInfo.processInfo.environment) throws(GoldenSetupError) -> GoldenFrames {
        try validate(name, what: "golden name")
        let url = URL(fileURLWithPath: testFilePath)
        let testName = url.deletingPathExtension().lastPathComponent
        let goldens = url.deletingLastPathComponent().appendingPathComponent("__Snapshots__").appendingPathComponent(testName)
            .appendingPathComponent(name).path
        var root = environment[failuresEnvironmentVariable] ?? ""
        if root.isEmpty {
            var temporary = environment["TMPDIR"] ?? ""
            if temporary.isEmpty { temporary = "/tmp" }
            root = (temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary) + "/smokescreen-failures"
        }
        let mode = try RecordMode(environmentValue: environment[RecordMode.environmentVariable])
        return GoldenFrames(name: name, directory: goldens, failureDirectory: root + "/" + testName + "/" + name,
                            recordMode: mode, comparison: comparison)
    }

    static func validate(_ name: String, what: String) throws(GoldenSetupError) {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."), !name.contains("\0") else {
            throw GoldenSetupError("\(what) \"\(name)\" must be a plain file name: not empty, no \"/\", not starting with \".\"")
        }
    }

    /// The golden file name of a frame name.
    static func fileName(_ frameName: String) -> String {
        frameName.lowercased().hasSuffix(".png") ? frameName : frameName + ".png"
    }

    /// Checks `frames` against the goldens, recording them as ``recordMode`` says.
    /// - Returns: `nil` when every frame matches its golden and no golden is missing or extra; otherwise the
    ///   failure message (also after recording). On a mismatch the message names the frames, their
    ///   differing pixel counts and bounding boxes, and the folder with expected, actual and diff images
    ///   and `sheet.png`.
    public func verify(_ frames: [NamedFrame]) -> String? {
        verify(names: frames.map(\.name)) { frames[$0].bitmap }
    }

    /// The check of `verify(_:)` for frames made on demand: `frame(i)` gives the bitmap named `names[i]`,
    /// and is called at most once for each frame, in order, so that only the frame being checked (and
    /// the first failing ones, for the sheet) are in memory at once.
    package func verify(names: [String], frame: (Int) -> Bitmap) -> String? {
        do throws(GoldenSetupError) {
            try Self.validate(name, what: "golden name")
            var seen = Set<String>()
            for frameName in names {
                try Self.validate(frameName, what: "frame name")
                guard seen.insert(Self.fileName(frameName)).inserted else {
                    throw GoldenSetupError("frame name \"\(frameName)\" is used twice")
                }
            }
        } catch {
            return "'\(name)': \(error)"
        }
        if names.isEmpty { return "'\(name)': no frames to check" }

        let goldens = goldenFiles()
        if recordMode == .all || (goldens.isEmpty && recordMode == .missing) {
            return record(names: names, frame: frame, replacing: goldens)
        }
        if goldens.isEmpty {
            return "'\(name)': no golden frames in \(directory), and \(RecordMode.environmentVariable)=never does not record them; "
                + "record them with \(RecordMode.environmentVariable)=missing (the default) or all, and check them in"
        }
        return compare(names: names, frame: frame, goldens: goldens)
    }

    /// The golden PNG file names in ``directory`` (hidden and temporary files are not goldens).
    func goldenFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") }.sorted()
    }

    /// Writes the frames as the golden set (with ``compression``), removing golden PNGs that are no longer
    /// produced.
    private func record(names: [String], frame: (Int) -> Bitmap, replacing old: [String]) -> String {
        do {
            try Directories.create(directory)
            for (index, frameName) in names.enumerated() {
                try PNGCodec.write(frame(index), to: directory + "/" + Self.fileName(frameName), compression: compression)
            }
            let kept = Set(names.map(Self.fileName))
            for stale in old where !kept.contains(stale) { try FileManager.default.removeItem(atPath: directory + "/" + stale) }
        } catch {
            return "'\(name)': cannot record golden frames in \(directory): \(error)"
        }
        removeFailureArtifacts()
        let why = recordMode == .all ? "\(RecordMode.environmentVariable)=all" : "none existed; \(RecordMode.environmentVariable)=missing is the default"
        return "'\(name)': recorded \(names.count) golden frame\(names.count == 1 ? "" : "s") in \(directory) (\(why)). "
            + "A test that records fails: look at them, check them in, and run the test again to compare."
    }

    /// Compares frame by frame, writing the failure artifacts of each failing frame as it is found.
    private func compare(names: [String], frame: (Int) -> Bitmap, goldens: [String]) -> String? {
        let goldenSet = Set(goldens)
        let produced = Set(names.map(Self.fileName))
        var drawing = comparison
        if drawing.diffImage == nil { drawing.diffImage = DiffImageStyle() }
        // Images of an earlier failure never pass for this run's.
        removeFailureArtifacts()

        var lines: [String] = []
        var matched: [String] = []
        var writer: FailureArtifacts?
        var artifactError: ArtifactError?
        func keep(_ file: String, expected: Bitmap?, actual: Bitmap?, difference: FrameDifference?) {
            guard artifactError == nil else { return }
            do throws(ArtifactError) {
                if writer == nil {
                    writer = try FailureArtifacts(directory: failureDirectory, includeInputs: true, style: drawing.diffImage ?? DiffImageStyle())
                }
                try writer!.add(name: file, expected: expected, actual: actual, difference: difference)
            } catch {
                artifactError = error
            }
        }

        for (index, frameName) in names.enumerated() {
            let file = Self.fileName(frameName)
            let actual = frame(index)
            guard goldenSet.contains(file) else {
                lines.append("  extra    \(file): produced, but there is no golden for it")
                keep(file, expected: nil, actual: actual, difference: nil)
                continue
            }
            let golden: Bitmap
            do throws(PNGError) { golden = try PNGCodec.read(contentsOf: directory + "/" + file, scale: actual.scale) } catch {
                lines.append("  unreadable golden \(error)")
                continue
            }
            if let difference = drawing.compare(golden, actual) {
                lines.append("  differs  \(file): \(difference.summary)")
                keep(file, expected: golden, actual: actual, difference: difference)
            } else {
                matched.append(file)
            }
        }
        for file in goldens where !produced.contains(file) {
            lines.append("  missing  \(file): in the goldens, but not produced")
            keep(file, expected: try? PNGCodec.read(contentsOf: directory + "/" + file), actual: nil, difference: nil)
        }
        guard !lines.isEmpty else { return nil }

        var message = "'\(name)' does not match its golden frames in \(directory) (\(comparison)):\n" + lines.joined(separator: "\n")
        if artifactError == nil, writer != nil {
            writer!.title = "'\(name)' against its golden frames in \(directory)"
            writer!.comparisonDescription = "\(comparison)"
            for file in matched { writer!.recordMatch(name: file) }
            do throws(ArtifactError) { _ = try writer!.finish() } catch { artifactError = error }
        }
        if let artifactError {
            message += "\nthe failure images could not be written: \(artifactError)"
        } else if writer != nil {
            message += "\nexpected, actual and diff images, \(FailureArtifacts.sheetFileName) and \(FailureArtifacts.reportFileName): \(failureDirectory)"
        }
        message += "\nto accept the new frames, run the test with \(RecordMode.environmentVariable)=all and check in \(directory)"
        return message
    }

    /// Removes the PNGs and report a previous failure left in ``failureDirectory`` (nothing else), and the folder when
    /// it is then empty, so that old images never pass for new ones.
    func removeFailureArtifacts() {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: failureDirectory) else { return }
        for name in names where name.hasSuffix(".png") || name == FailureArtifacts.reportFileName { try? manager.removeItem(atPath: failureDirectory + "/" + name) }
        if (try? manager.contentsOfDirectory(atPath: failureDirectory))?.isEmpty == true {
            try? manager.removeItem(atPath: failureDirectory)
        }
    }
}
