import BoundedInput
import FrameDiff
import FrameStore

/// Everything `smokescreen diff EXPECTED ACTUAL` does, apart from parsing arguments and writing to the
/// terminal: the command-line tool only builds one of these and prints its ``DiffOutcome``.
///
/// Inputs are PNG files, folders of `frame_NNNN.png` files, or `manifest.json` files (see
/// ``StoredFrames/open(_:)``); two files, or two sequences (folder or manifest, in any mix).
/// The mode is exact unless ``tolerance`` or ``threshold`` is given.
///
/// Output: the text summary (``SequenceReport/text``), or with ``json`` exactly one JSON object
/// (``SequenceReport/json``) on standard output whenever frames were compared, whatever the exit code
/// (0, 1, 65 for an unreadable frame, 74). When the inputs cannot be opened at all (a missing path: 66; a
/// bad manifest: 65; a file against a folder: 64) nothing is compared and standard output is empty.
/// Messages naming the file and the reason go to standard error.
public struct DiffInvocation: Sendable, Hashable {
    /// The expected frames (a file, a folder or a manifest).
    public var expected: String
    /// The actual frames.
    public var actual: String
    /// Per-channel tolerance, 0…255 (selects tolerance mode).
    public var tolerance: Int?
    /// Fraction of each frame's pixels (0…1) allowed to differ; default 0.
    public var maxDifferentFraction: Double?
    /// Perceptual threshold, 0…1 (selects perceptual mode).
    public var threshold: Double?
    /// Perceptual mode: count anti-aliased pixels too.
    public var includeAA: Bool
    /// Folder for diff images and the sheet.
    public var diffOut: String?
    /// How the command line spelt the folder's option, for messages: `--out` unless `--diff-out`.
    public var diffOutOption = "--out"
    /// Print the JSON report instead of the text summary.
    public var json: Bool

    public init(expected: String, actual: String, tolerance: Int? = nil, maxDifferentFraction: Double? = nil,
                threshold: Double? = nil, includeAA: Bool = false, diffOut: String? = nil, json: Bool = false) {
        self.expected = expected
        self.actual = actual
        self.tolerance = tolerance
        self.maxDifferentFraction = maxDifferentFraction
        self.threshold = threshold
        self.includeAA = includeAA
        self.diffOut = diffOut
        self.json = json
    }

    /// Checks the option values (exit code 64 when they are wrong).
    /// - Throws: ``DiffUsageError`` naming the option and the accepted values.
    public func validate() throws(DiffUsageError) {
        if expected.isEmpty || actual.isEmpty { throw DiffUsageError("EXPECTED and ACTUAL must not be empty") }
        if let tolerance, !(0...255).contains(tolerance) {
            throw DiffUsageError("--tolerance must be 0…255 (per channel), got \(tolerance)")
        }
        if let fraction = maxDifferentFraction, !(fraction.isFinite && (0...1).contains(fraction)) {
            throw DiffUsageError("--max-different-fraction must be 0…1, got \(fraction)")
        }
        if let threshold, !(threshold.isFinite && (0...1).contains(threshold)) {
            throw DiffUsageError("--threshold must be 0…1, got \(threshold)")
        }
        if tolerance != nil && threshold != nil {
            throw DiffUsageError("--tolerance and --threshold select different modes: give one of them")
        }
        if includeAA && threshold == nil { throw DiffUsageError("--include-aa needs --threshold (perceptual mode)") }
        if let diffOut, diffOut.isEmpty { throw DiffUsageError("\(diffOutOption) must not be empty") }
    }

    /// The comparison the options select (diff images are drawn only with ``diffOut``).
    public var comparison: FrameComparison {
        let mode: FrameComparison.Mode
        if let threshold {
            mode = .perceptual(threshold: threshold, includeAA: includeAA)
        } else if let tolerance, tolerance > 0 {
            mode = .tolerance(perChannel: tolerance)
        } else {
            mode = .exact
        }
        return FrameComparison(mode: mode, maxDifferentFraction: maxDifferentFraction ?? 0,
                               diffImage: diffOut == nil ? nil : DiffImageStyle())
    }

    /// Validates, opens both inputs, compares them and writes the artifacts.
    public func run() -> DiffOutcome {
        do throws(DiffUsageError) { try validate() } catch {
            return DiffOutcome(standardError: "smokescreen: \(error)\n", exitCode: DiffExitCode.usage)
        }
        let expectedFrames: StoredFrames, actualFrames: StoredFrames
        do throws(FrameInputError) {
            expectedFrames = try StoredFrames.open(expected)
            actualFrames = try StoredFrames.open(actual)
        } catch {
            return DiffOutcome(standardError: "smokescreen: \(error)\n", exitCode: error.isMissing ? DiffExitCode.noInput : DiffExitCode.dataError)
        }
        if (expectedFrames.source == .file) != (actualFrames.source == .file) {
            let (file, other) = expectedFrames.source == .file ? (expected, actual) : (actual, expected)
            return DiffOutcome(standardError: "smokescreen: \(file) is a PNG file but \(other) is a \(expectedFrames.source == .file ? actualFrames.source.rawValue : expectedFrames.source.rawValue): "
                               + "compare two files, or two folders or manifests\n", exitCode: DiffExitCode.usage)
        }
        if expectedFrames.frames.isEmpty && actualFrames.frames.isEmpty {
            return DiffOutcome(standardError: "smokescreen: neither \(expected) nor \(actual) holds any frame_NNNN.png frames\n",
                               exitCode: DiffExitCode.dataError)
        }
        // The diff folder holds nothing but what Smokescreen wrote there (checked before comparing, and
        // locked for the run); what the comparison writes is recorded as Smokescreen's afterwards.
        var output: OutputFolder?
        if let diffOut {
            do throws(OutputFolderError) { output = try OutputFolder(path: diffOut, option: diffOutOption) } catch {
                return DiffOutcome(standardError: "smokescreen: \(error)\n", exitCode: ExitStatus.cannotCreate)
            }
        }
        defer { output?.close() }
        // With a diff folder, the expected and actual images of failing frames go there too, for the report.
        let report = SequenceComparison(comparison: comparison, artifactsDirectory: diffOut, includeInputImages: diffOut != nil)
            .run(expected: expectedFrames, actual: actualFrames)
        var errors = report.unreadable.map { "smokescreen: \($0.path): \($0.reason)\n" }.joined()
        do throws(OutputFolderError) { try output?.claimEverythingWritten() } catch {
            errors += "smokescreen: \(error)\n"
        }
        if let error = report.artifactError { errors += "smokescreen: cannot write the diff output: \(error)\n" }
        return DiffOutcome(standardOutput: json ? report.json + "\n" : report.text, standardError: errors,
                           exitCode: report.exitCode, report: report)
    }
}

/// What `smokescreen diff` prints and how it exits.
public struct DiffOutcome: Sendable {
    public var standardOutput: String
    public var standardError: String
    public var exitCode: Int32
    /// The report, when frames were compared.
    public var report: SequenceReport?

    public init(standardOutput: String = "", standardError: String = "", exitCode: Int32, report: SequenceReport? = nil) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.exitCode = exitCode
        self.report = report
    }
}

/// A `smokescreen diff` option value that is not accepted (exit code 64).
public struct DiffUsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
