import FrameDiff
import Foundation
import PNGIO
import RasterCore
import SmokescreenScenes
import SnapshotView
import TransitionCompositor
import XCTest

/// Every built-in, at @1x and @2x, drawn by Smokescreen and by an independent rasterizer (cairo, through
/// `render_reference.py` beside this file) from the same frozen tree (`RenderNode.drawnDescription`,
/// what `smokescreen inspect --json --render-tree` prints), compared with pixelmatch.
///
/// Frames: the first, the last, the quarters, and the three where the most pixels change from the frame
/// before (measured on the @1x trees drawn at a quarter of a pixel per point, to save time; the same indices are
/// used at @2x, as frame times do not depend on the scale).
/// Comparison: pixelmatch threshold 0.1 with anti-aliasing detection, at most 0.1 % of the pixels may
/// differ. Text is not compared: every label's text box (one pixel wider on each side) is masked, as
/// another engine lays out and hints text differently; the text inside snapshots is part of the snapshot
/// image, which both sides draw. A failure writes FrameDiff's comparison report (expected = cairo,
/// actual = Smokescreen) under `$SMOKESCREEN_FAILURES_DIR` (default `$TMPDIR/smokescreen-failures`)
/// `/ReferenceRendererTests/<scene>@<scale>x/`.
///
/// Needs `python3` with pycairo (`.ci/run` installs both; `SMOKESCREEN_PYTHON` names another
/// interpreter). Without them the test is skipped, except under `CI=true` or `SMOKESCREEN_REFERENCE_REQUIRED=1`
/// (which `.ci/run` sets), where it fails.
/// `SMOKESCREEN_REFERENCE_SCENES=a,b` limits it to some scenes, `SMOKESCREEN_REFERENCE_FRAMES=3,7` compares
/// those frames instead of the sample.
final class ReferenceRendererTests: XCTestCase {
    static let testFile = "\(#filePath)"
    static let folder = URL(fileURLWithPath: testFile).deletingLastPathComponent()
    static let script = folder.appendingPathComponent("render_reference.py").path
    static let assets = folder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("assets").path

    /// At most this share of a frame's pixels may differ.
    static let maxDifferentFraction = 0.001
    static let comparison = FrameComparison.perceptual(threshold: 0.1, includeAA: false, maxDifferentFraction: maxDifferentFraction)
    /// For the log only: a per-channel test far stricter than pixelmatch's 0.1.
    static let strictTolerance = 8
    static let strict: FrameComparison = {
        var c = FrameComparison.tolerance(strictTolerance, maxDifferentFraction: 0)
        c.diffImage = nil
        return c
    }()
    /// The same test counting every differing pixel, without a diff image: how far each frame is.
    static let measure: FrameComparison = {
        var c = FrameComparison.perceptual(threshold: 0.1, includeAA: false, maxDifferentFraction: 0)
        c.diffImage = nil
        return c
    }()

    /// Scenes where the two renderers see something different by design, with the reason; such a scene is
    /// still compared and reported, its failure message carrying the reason. None today: every built-in
    /// agrees within the tolerance. What each scene's comparison leaves to Smokescreen:
    /// - every scene: label text (masked, above); images are taken as given, including snapshots, whose
    ///   pixels Smokescreen drew (the snapshot's placement, filter and opacity are compared, not its content);
    /// - `inippon-pages-curl`, `-curl-back`, `-curl-interactive`, `-fast-flicks`: the curl view's drawing
    ///   (PageCurlDrawing) is exported as Smokescreen's raster of it (`kind: "raster"`), so only where and how
    ///   it is placed is compared, not the mesh: its cast shadow is a coverage mask computed per device
    ///   pixel and its cylinder is cut once at the outer line in a layer, which the drawing-operation
    ///   vocabulary does not carry. The pages around it, the flat page and the bar are compared as usual.
    /// - any scene whose content is neither an image, a label nor `OperationContent`: that content is
    ///   Smokescreen's raster (`kind: "raster"`, listed in the log as "raster content"). No built-in has any.
    static let byDesign: [String: String] = [:]

    // What this comparison cannot see: a defect in the geometry a view draws, which any area-coverage
    // renderer reproduces. The History scrolls' stripes were such a defect while their rolls were drawn
    // straight at fractional device offsets: the roll (RollDrawing) is 48 bands 1 pt high, each filled
    // on its own, and every band's edge pixel, covered partly by two bands blended one after the other,
    // let the dark backdrop through (cairo drew the same rows as Smokescreen, 236, 200, 236, 200, …).
    // A DrawingView's drawing now goes through a backing store on its own pixel grid wherever it lands
    // between device pixels; the exported tree says so (`backingStore`) and cairo draws the shapes into
    // an offscreen surface of that grid and places it, so a store placed or filtered wrongly would show
    // here. The motion-compensated lint check (`shimmer`) is what flags a drawing whose look changes as
    // it moves.

    struct Result {
        var scene: String, scale: Int, frames: [Int], worst: Double, worstFrame: Int
        /// For information, not asserted: the largest share of pixels (outside text boxes) where a channel
        /// differs by more than ``strictTolerance``, and the largest channel difference seen (0 when none
        /// is over the tolerance).
        var strictWorst = 0.0, maxDelta = 0
        var rasters: Set<String>
    }

    // MARK: The interpreter

    /// The interpreter `.ci/run` installs pycairo into: `python3` on PATH (or `SMOKESCREEN_PYTHON`).
    static var python: String { ProcessInfo.processInfo.environment["SMOKESCREEN_PYTHON"].flatMap { $0.isEmpty ? nil : $0 } ?? "python3" }

    /// `CI=true` (as CI services set it), or `SMOKESCREEN_REFERENCE_REQUIRED=1` (as `.ci/run` sets it).
    static var inCI: Bool {
        let environment = ProcessInfo.processInfo.environment
        let ci = environment["CI"]?.lowercased() ?? ""
        return ci == "true" || ci == "1" || environment["SMOKESCREEN_REFERENCE_REQUIRED"] == "1"
    }

    /// Runs `python` with `arguments`; the exit status and what it wrote on stderr.
    static func runPython(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Whether pycairo can be imported; skips when it cannot, or under CI records a failure and returns
    /// false.
    func requireCairo() throws -> Bool {
        let problem: String?
        do {
            let (status, stderr) = try Self.runPython(["-c", "import cairo"])
            problem = status == 0 ? nil : stderr.split(separator: "\n").last.map(String.init) ?? "exit \(status)"
        } catch {
            problem = "\(error)"
        }
        guard let problem else { return true }
        let message = "the reference renderer needs \(Self.python) with pycairo (apt-get install libcairo2-dev pkg-config; "
            + "\(Self.python) -m pip install pycairo; .ci/run does both): \(problem)"
        if Self.inCI {
            XCTFail(message + " (CI: failing instead of skipping)")
            return false
        }
        throw XCTSkip(message)
    }

    /// `SMOKESCREEN_REFERENCE_FRAMES=3,7`: these frames instead of the sample (for looking into a failure).
    static var requestedFrames: [Int]? {
        let list = (ProcessInfo.processInfo.environment["SMOKESCREEN_REFERENCE_FRAMES"] ?? "").split(separator: ",").compactMap { Int($0) }
        return list.isEmpty ? nil : list
    }

    // MARK: The test

    func testEveryBuiltInAgreesWithTheReferenceRenderer() throws {
        guard try requireCairo() else { return }
        let only = (ProcessInfo.processInfo.environment["SMOKESCREEN_REFERENCE_SCENES"] ?? "")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let scenes = TransitionCatalog.all.filter { only.isEmpty || only.contains($0.name) }
        XCTAssertFalse(scenes.isEmpty, "no built-in called \(only)")
        let started = Date()
        // Scenes in parallel, one per core (at most 4: each holds its frames and images): cairo runs in a
        // process of its own for each, and XCTest runs one test at a time.
        let workers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
        let shared = Shared(count: scenes.count)
        Self.current = shared
        defer { Self.current = nil }
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let i = shared.take() {
                let outcome: Outcome
                do { outcome = try Self.check(scenes[i]) } catch { outcome = Outcome(results: [], failures: ["\(scenes[i].name): \(error)"]) }
                shared.put(outcome, at: i)
            }
        }
        let outcomes = shared.outcomes.compactMap { $0 }
        for failure in outcomes.flatMap(\.failures) { XCTFail(failure) }
        let results = outcomes.flatMap(\.results)
        let elapsed = Date().timeIntervalSince(started)
        var lines = ["reference renderer: \(results.count) scene × scale runs in \(String(format: "%.1f", elapsed)) s on \(workers) threads"]
        for r in results {
            var line = String(format: "  %@ @%dx: frames %@, worst %.4f %% (frame %d); channel Δ > %d: %.3f %%, max Δ %@",
                              r.scene as NSString, r.scale, r.frames.map(String.init).joined(separator: ",") as NSString,
                              r.worst * 100, r.worstFrame, Self.strictTolerance, r.strictWorst * 100,
                              (r.maxDelta > 0 ? "\(r.maxDelta)" : "≤ \(Self.strictTolerance)") as NSString)
            if !r.rasters.isEmpty { line += "; raster content: " + r.rasters.sorted().joined(separator: ", ") }
            if Self.byDesign[r.scene] != nil { line += " (by design: see byDesign)" }
            lines.append(line)
        }
        lines.append("time per phase, summed over threads: " + shared.phases.sorted { $0.key < $1.key }
            .map { "\($0.key) \(String(format: "%.1f", $0.value)) s" }.joined(separator: ", "))
        print(lines.joined(separator: "\n"))
    }

    struct Outcome {
        var results: [Result]
        /// Failure messages, reported on the test's thread.
        var failures: [String]
    }

    /// What the worker threads share: the next scene, the outcomes, the time per phase.
    final class Shared: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private let count: Int
        private(set) var outcomes: [Outcome?]
        private(set) var phases: [String: Double] = [:]

        init(count: Int) {
            self.count = count
            outcomes = Array(repeating: nil, count: count)
        }

        func take() -> Int? {
            lock.lock(); defer { lock.unlock() }
            guard next < count else { return nil }
            next += 1
            return next - 1
        }

        func put(_ outcome: Outcome, at index: Int) {
            lock.lock(); defer { lock.unlock() }
            outcomes[index] = outcome
        }

        func add(_ seconds: Double, to phase: String) {
            lock.lock(); defer { lock.unlock() }
            phases[phase, default: 0] += seconds
        }
    }

    nonisolated(unsafe) static var current: Shared?

    /// One scene at @1x and @2x.
    static func check(_ transition: any Transition) throws -> Outcome {
        var outcome = Outcome(results: [], failures: [])
        var clock = Date()
        func lap(_ phase: String) {
            current?.add(Date().timeIntervalSince(clock), to: phase)
            clock = Date()
        }
        let low = try transition.render(RenderSettings(scale: 1, assetsDirectory: assets))
        lap("render")
        let frames = try requestedFrames ?? sample(low.sequence)
        lap("sample")
        for scale in [1, 2] {
            let rendered = scale == 1 ? low : try transition.render(RenderSettings(scale: Double(scale), assetsDirectory: assets))
            lap("render")
            if rendered.sequence.count != low.sequence.count {
                outcome.failures.append("\(transition.name): \(rendered.sequence.count) frames at @\(scale)x, \(low.sequence.count) at @1x")
            }
            let (result, failure) = try compare(transition.name, rendered.sequence, scale: scale,
                                                frames: frames.filter { $0 < rendered.sequence.count }, lap: lap)
            outcome.results.append(result)
            if let failure { outcome.failures.append(failure) }
        }
        return outcome
    }

    /// Pixels per point of the frames drawn to find where the most pixels change.
    static let sampleScale = 0.25

    /// Every frame of the History scrolls opening, at rest and moving (the frames that were striped),
    /// agrees with cairo at @1x and @2x.
    func testTheHistoryScrollsAgreeWithTheReferenceAtEveryFrame() throws {
        guard try requireCairo() else { return }
        let transition = try XCTUnwrap(TransitionCatalog.transition(named: "inippon-history-open"))
        for scale in [1, 2] {
            let sequence = try transition.render(RenderSettings(scale: Double(scale), assetsDirectory: Self.assets)).sequence
            let (result, failure) = try Self.compare(transition.name, sequence, scale: scale, frames: Array(0..<sequence.count), lap: { _ in })
            XCTAssertNil(failure, failure ?? "")
            print("inippon-history-open @\(scale)x, every frame (\(sequence.count)): worst \(String(format: "%.4f", result.worst * 100)) % (frame \(result.worstFrame))")
        }
    }

    /// The comparison catches combed rows: the History paper at rest (frame 12 of
    /// `inippon-history-open` at @2x) agrees with cairo, and the same frame with every other device row of
    /// one scroll's paper darkened as the striped frames were (R 236 → 199) does not.
    func testTheComparisonCatchesCombedRows() throws {
        guard try requireCairo() else { return }
        let transition = try XCTUnwrap(TransitionCatalog.transition(named: "inippon-history-open"))
        let sequence = try transition.render(RenderSettings(scale: 2, assetsDirectory: Self.assets)).sequence
        let frame = 12
        var canvas = try sequence.makeCanvas()
        sequence.draw(frame: frame, into: &canvas)
        let (cairo, tree) = try Self.reference(of: sequence, frame: frame, width: canvas.width, height: canvas.height)
        var reference = cairo
        Self.mask(tree.textBoxes, of: &reference, from: canvas)
        XCTAssertNil(Self.comparison.compare(reference, canvas), "the frame at rest agrees with cairo")

        // Scroll 4's roll (Nara): comb every other row of its body (y 593…687 px, x 28…612 px); its
        // labels' boxes are masked with the combed pixels, as the test masks them with the frame's.
        var combed = canvas
        combed.withUnsafeMutablePixels { pixels in
            for y in stride(from: 593, to: 688, by: 2) {
                for x in 28..<612 {
                    var p = PremultipliedRGBA8(packed: pixels[y * canvas.width + x])
                    p.r = UInt8(Double(p.r) * 199 / 236); p.g = UInt8(Double(p.g) * 199 / 236); p.b = UInt8(Double(p.b) * 199 / 236)
                    pixels[y * canvas.width + x] = p.packed
                }
            }
        }
        reference = cairo
        Self.mask(tree.textBoxes, of: &reference, from: combed)
        let difference = try XCTUnwrap(Self.comparison.compare(reference, combed), "combed rows must fail the comparison")
        XCTAssertGreaterThan(difference.differentFraction, Self.maxDifferentFraction)
        print("combed rows of one scroll: \(difference.differentPixels) px differ (\(String(format: "%.3f", difference.differentFraction * 100)) %)")
    }

    /// Cairo's drawing of one frame (text boxes not masked) and the tree it drew.
    static func reference(of sequence: FrameSequence, frame index: Int, width: Int, height: Int) throws -> (Bitmap, DrawnTree) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smokescreen-reference-\(getpid())-one").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tree = sequence.nodes[index].drawnDescription(width: width, height: height, scale: sequence.scale)
        for (i, image) in tree.images.enumerated() { try PNGCodec.write(image, to: folder + "/" + DrawnTree.imageFileName(i)) }
        try JSONEncoder().encode(tree).write(to: URL(fileURLWithPath: folder + "/tree.json"))
        let (status, stderr) = try runPython([script, folder + "/tree.json", folder, folder + "/reference.png"])
        guard status == 0 else { throw NSError(domain: "render_reference.py", code: Int(status), userInfo: [NSLocalizedDescriptionKey: stderr]) }
        return (try PNGCodec.read(contentsOf: folder + "/reference.png", scale: sequence.scale), tree)
    }

    /// A cairo surface as `render_reference.py` writes it to a `.rgba` file: premultiplied ARGB32 words in
    /// the machine's (little-endian) byte order, B, G, R, A, rows without padding.
    static func readSurface(_ path: String, width: Int, height: Int, scale: Double) throws -> Bitmap {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard data.count == width * height * 4 else {
            throw NSError(domain: "render_reference.py", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(path): \(data.count) bytes, not \(width)x\(height)x4"])
        }
        var bitmap = try Bitmap(width: width, height: height, scale: scale)
        data.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            bitmap.withUnsafeMutablePixels { pixels in
                for i in 0..<pixels.count {
                    // 0xAARRGGBB to packed RGBA (R in the low byte): swap R and B.
                    let w = words[i]
                    pixels[i] = (w & 0xFF00FF00) | (w >> 16 & 0xFF) | (w & 0xFF) << 16
                }
            }
        }
        return bitmap
    }

    /// The frames compared: first, last, the quarters, and the three with the most changed pixels from the
    /// frame before (ties: the earlier; measured at ``sampleScale``), in order.
    static func sample(_ sequence: FrameSequence) throws -> [Int] {
        let n = sequence.count
        guard n > 2 else { return Array(0..<n) }
        // Measured at a quarter of a pixel per point (a sixteenth of @1x's pixels): every frame is drawn
        // (slowly in a plain debug build; script/test's is a release build). Half a pixel
        // took twice as long and picked the same moments, a frame or two apart.
        var previous = try Bitmap(pointSize: sequence.pointSize, scale: sampleScale), current = previous
        ViewRenderer.draw(sequence.nodes[0], into: &previous)
        var changes: [(index: Int, pixels: Int)] = []
        for i in 1..<n {
            ViewRenderer.draw(sequence.nodes[i], into: &current)
            let changed = previous.withUnsafePixels { a in current.withUnsafePixels { b in Self.changedPixels(a.baseAddress!, b.baseAddress!, a.count) } }
            changes.append((i, changed))
            swap(&previous, &current)
        }
        let most = changes.sorted { $0.pixels != $1.pixels ? $0.pixels > $1.pixels : $0.index < $1.index }.prefix(3).map(\.index)
        // The quarters too: motion that changes few pixels (a slow scroll) is sampled all the same.
        return Set([0, n - 1, n / 4, n / 2, 3 * n / 4] + most).sorted()
    }

    /// How many of `count` pixels differ: whole rows of 8-byte words compared first (debug builds run
    /// this unoptimized, so it looks at as little as it can).
    static func changedPixels(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, _ count: Int) -> Int {
        let block = 64
        var changed = 0
        var i = 0
        while i < count {
            let n = min(block, count - i)
            if memcmp(a + i, b + i, n * 4) != 0 {
                for j in i..<(i + n) where a[j] != b[j] { changed += 1 }
            }
            i += n
        }
        return changed
    }

    /// Draws `frames` of `sequence` with Smokescreen and with the reference, and compares them: the
    /// result, and the failure message when a frame differs too much.
    static func compare(_ scene: String, _ sequence: FrameSequence, scale: Int, frames: [Int],
                        lap: (String) -> Void) throws -> (Result, String?) {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("smokescreen-reference-\(getpid())/\(scene)@\(scale)x").path
        try? FileManager.default.removeItem(atPath: work)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }

        var canvas = try sequence.makeCanvas()
        var arguments = [Self.script]
        var trees: [Int: DrawnTree] = [:]
        var rasters: Set<String> = []
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // One folder of images for the scene: an image drawn in several frames (a snapshot) is written
        // and decoded once.
        var images: [Bitmap] = []
        for frame in frames {
            let tree = sequence.nodes[frame].drawnDescription(width: canvas.width, height: canvas.height, scale: sequence.scale,
                                                              sharing: images)
            for i in images.count..<tree.images.count { try PNGCodec.write(tree.images[i], to: work + "/" + DrawnTree.imageFileName(i)) }
            images = tree.images
            let folder = work + "/frame_\(frame)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try encoder.encode(tree).write(to: URL(fileURLWithPath: folder + "/tree.json"))
            arguments += [folder + "/tree.json", work, folder + "/reference.rgba"]
            trees[frame] = tree
            Self.collectRasters(tree.root, into: &rasters)
        }
        lap("export")
        let (status, stderr) = try Self.runPython(arguments)
        lap("python")
        guard status == 0 else {
            return (Result(scene: scene, scale: scale, frames: frames, worst: 1, worstFrame: frames.first ?? 0, rasters: rasters),
                    "\(scene) @\(scale)x: render_reference.py exited \(status): \(stderr)")
        }

        var artifacts: FailureArtifacts?
        var worst = 0.0, worstFrame = frames.first ?? 0, strictWorst = 0.0, maxDelta = 0
        var failures: [String] = []
        for frame in frames {
            sequence.draw(frame: frame, into: &canvas)
            lap("draw")
            var reference = try Self.readSurface(work + "/frame_\(frame)/reference.rgba", width: canvas.width, height: canvas.height,
                                                 scale: sequence.scale)
            lap("decode")
            Self.mask(trees[frame]!.textBoxes, of: &reference, from: canvas)
            lap("mask")
            let name = String(format: "frame_%04d.png", frame)
            let measured = Self.measure.compare(reference, canvas)
            lap("pixelmatch")
            if let d = Self.strict.compare(reference, canvas) {
                strictWorst = max(strictWorst, d.reason != nil ? 1 : d.differentFraction)
                maxDelta = max(maxDelta, d.maxChannelDelta)
            }
            lap("strict")
            let fraction = measured.map { $0.reason != nil ? 1 : $0.differentFraction } ?? 0
            if fraction > worst { worst = fraction; worstFrame = frame }
            // Only a failing frame is compared again, for its diff image.
            if fraction > Self.maxDifferentFraction, let difference = Self.comparison.compare(reference, canvas) {
                failures.append("\(name) \(String(format: "%.4f", fraction * 100)) % (\(difference.differentPixels) px\(difference.reason.map { ", " + $0 } ?? ""))")
                if artifacts == nil { artifacts = try Self.artifacts(for: "\(scene)@\(scale)x") }
                try artifacts!.add(name: name, expected: reference, actual: canvas, difference: difference)
            } else {
                artifacts?.recordMatch(name: name)
            }
        }
        var failure: String?
        if var artifacts {
            _ = try artifacts.finish()
            let note = Self.byDesign[scene].map { " (by design: \($0))" } ?? ""
            failure = ("\(scene) @\(scale)x differs from the reference renderer (pixelmatch 0.1, AA detected, text boxes masked, "
                    + "over \(Self.maxDifferentFraction * 100) % of pixels) in \(failures.count) of \(frames.count) frames: "
                    + failures.joined(separator: "; ") + "; report: \(artifacts.directory)/\(FailureArtifacts.reportFileName)\(note)")
        }
        return (Result(scene: scene, scale: scale, frames: frames, worst: worst, worstFrame: worstFrame, strictWorst: strictWorst,
                       maxDelta: maxDelta, rasters: rasters), failure)
    }

    /// Copies Smokescreen's pixels into the reference inside every text box.
    static func mask(_ boxes: [PixelRect], of reference: inout Bitmap, from frame: Bitmap) {
        let width = frame.width
        frame.withUnsafePixels { source in
            reference.withUnsafeMutablePixels { target in
                for box in boxes {
                    let clipped = box.intersection(PixelRect(x: 0, y: 0, width: frame.width, height: frame.height))
                    guard !clipped.isEmpty else { continue }
                    for y in clipped.minY..<clipped.maxY {
                        for x in clipped.minX..<clipped.maxX { target[y * width + x] = source[y * width + x] }
                    }
                }
            }
        }
    }

    static func collectRasters(_ node: DrawnNode?, into set: inout Set<String>) {
        guard let node else { return }
        if let content = node.content, content.kind == "raster" { set.insert(content.type) }
        for child in node.children { collectRasters(child, into: &set) }
    }

    static func artifacts(for name: String) throws -> FailureArtifacts {
        let environment = ProcessInfo.processInfo.environment
        var root = environment["SMOKESCREEN_FAILURES_DIR"] ?? ""
        if root.isEmpty { root = (environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp") + "/smokescreen-failures" }
        var artifacts = try FailureArtifacts(directory: root + "/ReferenceRendererTests/" + name, includeInputs: true)
        artifacts.title = "\(name): cairo reference (expected) vs Smokescreen (actual)"
        artifacts.comparisonDescription = "pixelmatch threshold 0.1, anti-aliased pixels not counted, at most \(maxDifferentFraction * 100) % of pixels, label text boxes masked"
        return artifacts
    }
}
