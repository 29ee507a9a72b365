import ArgumentParser
import FrameDiff
import Foundation

/// `smokescreen diff EXPECTED ACTUAL`: compares frames; the work is `FrameDiff.DiffInvocation`.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare PNG frames: two files, or two folders of frame_NNNN.png files or manifest.json files.",
        discussion: """
            Exact by default: any differing RGBA byte, after each image is decoded and premultiplied \
            (as Smokescreen holds pixels), then un-premultiplied to nearest as its PNG writer does. \
            Frames Smokescreen wrote compare byte for byte; in other PNGs, fully transparent pixels \
            compare equal whatever their colour, and nearly transparent ones by their visible colour; \
            --tolerance selects a per-channel tolerance, --threshold pixelmatch's perceptual test.

            Exit codes: 0 match; 1 mismatch (a frame differs, is missing or extra); 64 bad usage; \
            65 an input cannot be read (not a PNG, corrupt, bad manifest); 66 an input path does not \
            exist; 74 the diff output cannot be written.

            --json prints exactly one JSON object (on one line) whenever frames were
            compared, shaped like this:
              {"match": bool, "compared": N,
               "frames": [{"name": "frame_0001.png", "differentPixels": N,
                           "maxChannelDelta": N, "boundingBox": [x, y, w, h] or null,
                           "reason": null or text}],
               "missing": [names], "extra": [names],
               "unreadable": [{"file": path, "reason": text}]}
            "frames" lists only the frames that failed, in order; matching frames are
            not listed. "reason" says why frames of different sizes or scales could
            not be compared pixel for pixel.
            """)

    @Argument(help: "The expected frames: a PNG file, a folder of frame_NNNN.png files, or a manifest.json.")
    var expected: String

    @Argument(help: "The actual frames, of the same kind (a file, or a folder or manifest).")
    var actual: String

    @Option(parsing: .unconditional, help: "Per-channel tolerance, 0-255: a pixel differs when a channel differs by more.")
    var tolerance: Int?

    @Option(name: .customLong("max-different-fraction"), parsing: .unconditional, help: "Fraction of each frame's pixels (0-1) that may differ (default 0).")
    var maxDifferentFraction: Double?

    @Option(parsing: .unconditional, help: "Perceptual mode (pixelmatch) with this threshold, 0-1; pixelmatch's default is 0.1.")
    var threshold: Double?

    @Flag(name: .customLong("include-aa"), help: "Perceptual mode: count anti-aliased pixels as different too.")
    var includeAA = false

    @Option(name: [.customLong("out"), .customLong("diff-out")], help: "Folder for a diff image of each failing frame, sheet.png and report.html (--diff-out is the same option). It must be empty or hold only what Smokescreen wrote there (exit 73 otherwise).")
    var diffOut: String?

    @Flag(help: "Print the JSON report instead of the text summary.")
    var json = false

    @Flag(help: "Print nothing on stdout: the exit status says it (0 match, 1 differ); errors still go to stderr.")
    var quiet = false

    @Flag(help: "EXPECTED and ACTUAL are catalogue folders (render --all or merge output): compare every transition folder in them, with one report.html over all in --diff-out.")
    var all = false

    var invocation: DiffInvocation {
        var invocation = DiffInvocation(expected: expected, actual: actual, tolerance: tolerance, maxDifferentFraction: maxDifferentFraction,
                                        threshold: threshold, includeAA: includeAA, diffOut: diffOut, json: json)
        // Messages name the option as it was typed (both spellings are one option).
        if CommandLine.arguments.contains(where: { $0 == "--diff-out" || $0.hasPrefix("--diff-out=") }) { invocation.diffOutOption = "--diff-out" }
        return invocation
    }

    func validate() throws {
        do { try invocation.validate() } catch { throw ValidationError(error.description) }
        if quiet && json { throw ValidationError("--quiet prints nothing and --json a report: choose one") }
        if all && json { throw ValidationError("--json is one comparison's report; with --all, read report.html or each transition's folder") }
    }

    func run() throws {
        if all {
            // A line per transition as it is compared (stdout is line-buffered: see runMain).
            let result = try reportingErrors { try CatalogueDiff(options: invocation).run(eachRow: { if !quiet { print($0, terminator: "") } }) }
            if !quiet { print(result.text, terminator: "") }
            if result.exitCode != 0 { throw ExitCode(result.exitCode) }
            return
        }
        let outcome = invocation.run()
        if !quiet { FileHandle.standardOutput.write(Data(outcome.standardOutput.utf8)) }
        FileHandle.standardError.write(Data(outcome.standardError.utf8))
        if outcome.exitCode != 0 { throw ExitCode(outcome.exitCode) }
    }
}
