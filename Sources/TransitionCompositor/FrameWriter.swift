import Dispatch
import Foundation
import PNGIO
import RasterCore
import SnapshotView
import Synchronization

/// The frames of one animation, frozen: what the writer renders and encodes.
public struct FrameSequence: Sendable {
    /// The transition's name; also the output folder's name by default.
    public var name: String
    /// Canvas size in points.
    public var pointSize: Size
    /// Pixels per point.
    public var scale: Double
    public var fps: Double
    /// Seconds, one per frame.
    public var times: [Double]
    /// The presentation tree of each frame; drawn with its bounds at the canvas's top-left.
    public var nodes: [RenderNode]
    /// The durations the transition used, by name (seconds), for the manifest.
    public var durations: [String: Double]
    /// A digest of every other input of the render (plists, assets), so that a partial render never
    /// keeps the digests of frames another render wrote. Empty when unknown.
    public var fingerprint: String = ""

    public init(name: String, pointSize: Size, scale: Double, fps: Double, times: [Double], nodes: [RenderNode], durations: [String: Double]) {
        precondition(times.count == nodes.count, "one node per frame time")
        self.name = name
        self.pointSize = pointSize
        self.scale = scale
        self.fps = fps
        self.times = times
        self.nodes = nodes
        self.durations = durations
    }

    public var count: Int { times.count }

    /// Renders frame `index` into `canvas` (which must be the canvas size), clearing it first.
    public func draw(frame index: Int, into canvas: inout Bitmap) {
        ViewRenderer.draw(nodes[index], into: &canvas)
    }

    /// A new canvas for this sequence.
    public func makeCanvas() throws -> Bitmap {
        do { return try Bitmap(pointSize: pointSize, scale: scale) } catch {
            throw RenderError.failed(what: name, reason: "cannot make a \(pointSize) pt canvas at @\(scale)x: \(error)")
        }
    }
}

/// What a write did.
public struct WriteReport: Sendable, Equatable {
    /// Frame indices written, ascending.
    public var written: [Int]
    /// Bytes of PNG written.
    public var bytes: Int
    /// Frames whose pixels equalled the previous frame's, so their compressed data and digest were reused.
    public var reusedEncodings: Int
    /// Files of an earlier render that this render no longer has, removed.
    public var removedStaleFiles: [String]
    /// The manifest written.
    public var manifest: Manifest
}

/// Renders and encodes frames on several threads and writes them, with a manifest, into a folder.
///
/// - Files are written to a temporary name and renamed: an interrupted run never leaves a truncated PNG.
/// - Results are byte-identical for any number of jobs: each file depends only on its frame.
/// - Frames are handed out in runs of consecutive indices that shrink towards the end (at most
///   ``maxRunLength``, then about a `2 × jobs`th of what is left, down to one frame), so that the threads
///   finish together however unequal the frames' costs.
/// - A frame whose pixels equal the frame its thread encoded before is not compressed or hashed again:
///   each thread's `PNGEncoder` recognises it. Within a run that is the previous frame; across runs a
///   thread's previous frame is usually a few indices back, which still catches held frames.
/// - Only files this tool wrote are ever replaced or removed: frames listed in the folder's previous
///   manifest that a full re-render no longer has are deleted; nothing else is touched.
public struct FrameWriter: Sendable {
    /// The output folder; created when missing.
    public var directory: String
    /// Default `.fast`.
    public var compression: PNGCompression
    /// Threads rendering and encoding; default: the number of cores.
    public var jobs: Int
    /// The most consecutive frames one job takes at a time.
    static let maxRunLength = 8

    /// The runs `frames` are handed out in: consecutive frames, at most ``maxRunLength`` a run, then
    /// about `1 / (2 × jobs)` of what is left, down to one frame (guided self-scheduling).
    static func runs(of frames: [Int], jobs: Int) -> [ArraySlice<Int>] {
        var runs: [ArraySlice<Int>] = [], start = 0
        while start < frames.count {
            let left = frames.count - start
            let length = min(maxRunLength, max(1, (left + 2 * jobs - 1) / (2 * jobs)))
            runs.append(frames[start..<start + length])
            start += length
        }
        return runs
    }

    public init(directory: String, compression: PNGCompression = .fast, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.directory = directory
        self.compression = compression
        self.jobs = max(1, jobs)
    }

    /// Writes the selected frames of `sequence` and the manifest. `progress` is called (from any thread,
    /// serialized) with the number of frames done and the number selected.
    @discardableResult
    public func write(_ sequence: FrameSequence, selection: FrameSelection = .all,
                      progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> WriteReport {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw RenderError.io(path: directory, reason: "cannot create the output folder: \(error.localizedDescription)")
        }
        let manifestPath = directory + "/" + Manifest.fileName

        let selected = (0..<sequence.count).filter(selection.contains)
        let runs = FrameWriter.runs(of: selected, jobs: jobs)
        struct Shared {
            var nextRun = 0
            var digests: [Int: String] = [:]
            var bytes = 0
            var reused = 0
            var done = 0
            var failure: RenderError?
        }
        let shared = Mutex(Shared())
        let directory = self.directory, compression = self.compression
        let workers = min(jobs, max(1, runs.count))

        // Bitmaps the workers allocate are charged to the ledger current here, as if drawn on this thread.
        let ledger = MemoryLedger.active
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            ledger.charging {
                guard var canvas = try? sequence.makeCanvas() else {
                    shared.withLock { $0.failure = $0.failure ?? .failed(what: sequence.name, reason: "cannot allocate the frame canvas") }
                    return
                }
                // One encoder per thread: its buffers and zlib stream serve every frame this thread encodes,
                // and it recognises a frame equal to the one it encoded before.
                let encoder = PNGEncoder(compression: compression)
                while true {
                    let runIndex: Int? = shared.withLock { s in
                        guard s.failure == nil, s.nextRun < runs.count else { return nil }
                        defer { s.nextRun += 1 }
                        return s.nextRun
                    }
                    guard let runIndex else { return }
                    for index in runs[runIndex] {
                        sequence.draw(frame: index, into: &canvas)
                        let path = directory + "/" + Manifest.frameFileName(index)
                        do {
                            // The digest comes from the encoder (hardware SHA-256 where there is one), and a
                            // repeated frame reuses the previous one's.
                            let (bytes, digest) = try encoder.encodeWithDigest(canvas)
                            let reused = encoder.lastImageRepeated
                            try PNGCodec.writeAtomically(bytes, to: path)
                            shared.withLock { s in
                                s.digests[index] = digest
                                s.bytes += bytes.count
                                if reused { s.reused += 1 }
                                s.done += 1
                                progress?(s.done, selected.count)  // inside the lock: calls never overlap
                            }
                        } catch let error as PNGError {
                            shared.withLock { $0.failure = $0.failure ?? .io(path: path, reason: error.description) }
                            return
                        } catch {
                            shared.withLock { $0.failure = $0.failure ?? .failed(what: path, reason: "\(error)") }
                            return
                        }
                    }
                }
        
            }
        }
        let result = shared.withLock { $0 }
        if let failure = result.failure { throw failure }

        // Shards may finish at the same time in one folder: merge with the manifest on disk as it is
        // now, under a lock on the folder, so no shard's digests are lost.
        let lock = open(directory, O_RDONLY | O_CLOEXEC)
        if lock >= 0 { flock(lock, LOCK_EX) }
        defer { if lock >= 0 { flock(lock, LOCK_UN); close(lock) } }
        let previous = try? Manifest.read(from: manifestPath)

        var manifest = Manifest(
            name: sequence.name, pointSize: [sequence.pointSize.width, sequence.pointSize.height], scale: sequence.scale,
            fps: sequence.fps, frameCount: sequence.count,
            frames: sequence.times.enumerated().map { Manifest.Frame(file: Manifest.frameFileName($0.offset), time: $0.element, sha256: nil) },
            durations: sequence.durations, fingerprint: sequence.fingerprint.isEmpty ? nil : sequence.fingerprint)
        // A partial render keeps the digests of frames an earlier run of the same render wrote.
        let keepOld = previous.map { manifest.describesSameRender(as: $0) } ?? false
        for i in manifest.frames.indices {
            manifest.frames[i].sha256 = result.digests[i] ?? (keepOld ? previous?.frames[i].sha256 : nil)
        }

        var removed: [String] = []
        // Frames of an earlier render that this one no longer has go, after a full render or when the
        // earlier render was a different one (its frames beyond this render's count would linger).
        if let previous, selection.coversAll(of: sequence.count) || !keepOld {
            let current = Set(manifest.frames.map(\.file))
            for file in previous.frames.map(\.file) where !current.contains(file) && isPlainFrameName(file) {
                if (try? FileManager.default.removeItem(atPath: directory + "/" + file)) != nil { removed.append(file) }
            }
        }
        do {
            try PNGCodec.writeAtomically(try manifest.encoded(), to: manifestPath)
        } catch {
            throw RenderError.io(path: manifestPath, reason: "\(error)")
        }
        return WriteReport(written: selected, bytes: result.bytes, reusedEncodings: result.reused,
                           removedStaleFiles: removed.sorted(), manifest: manifest)
    }

    /// Only names this tool gives frames may be deleted, whatever an (edited) manifest lists.
    private func isPlainFrameName(_ file: String) -> Bool {
        file.hasPrefix("frame_") && file.hasSuffix(".png") && !file.contains("/")
            && file.dropFirst(6).dropLast(4).allSatisfy(\.isNumber)
    }
}

