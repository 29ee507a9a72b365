import BoundedInput
import Dispatch
import Foundation
import PNGIO
import RasterCore
import Synchronization

/// What a write did.
public struct WriteReport: Sendable, Equatable {
    /// Frame indices written, ascending.
    public var written: [Int]
    /// Bytes of PNG written.
    public var bytes: Int
    /// Frames whose pixels equalled the previous frame's, so their compressed data and digest were reused.
    public var reusedEncodings: Int
    /// Frame files of an earlier render that no longer belong to the folder's render, removed.
    public var removedStaleFiles: [String]
    /// Temporary files of an earlier, killed run that were removed.
    public var removedLeftovers: [String]
    /// The manifest written.
    public var manifest: Manifest
}

/// Renders and encodes frames on several threads and writes them, with a manifest, into a folder
/// (a ``RenderFolder``: locked for the whole write, and never touching files Smokescreen did not write).
///
/// - Every file is written to a temporary name and renamed: an interrupted run never leaves a truncated PNG.
/// - **The manifest always describes the folder.** Before any frame is written, the manifest is
///   rewritten for the new render with a null digest for each frame about to be written; frames of an
///   earlier, different render that this one does not rewrite are removed. After the frames, the
///   manifest gets their digests. A run killed between the two leaves null digests for exactly the
///   frames it may have touched, which the next run rewrites.
/// - Results are byte-identical for any number of jobs: each file depends only on its frame.
/// - Frames are handed out in runs of consecutive indices that shrink towards the end (at most
///   `maxRunLength`, then about a `2 × jobs`th of what is left, down to one frame), so that the threads
///   finish together however unequal the frames' costs.
/// - A frame whose pixels equal the frame its thread encoded before is not compressed or hashed again.
public struct FrameWriter: Sendable {
    /// The output folder; created when missing.
    public var directory: String
    /// Default `.fast`.
    public var compression: PNGCompression
    /// Threads rendering and encoding; default: the number of cores.
    public var jobs: Int
    /// Render beside files Smokescreen did not write (never over them). Default false: such a folder is
    /// refused.
    public var force: Bool
    /// Called once when another render holds the folder and this one waits (the CLI prints it).
    public var onWait: (@Sendable (String) -> Void)?
    /// The most consecutive frames one job takes at a time.
    static let maxRunLength = 8

    /// The runs `frames` are handed out in: consecutive frames, at most ``maxRunLength`` a run, then
    /// about `1 / (2 × jobs)` of what is left, down to one frame (guided self-scheduling).
    package static func runs(of frames: [Int], jobs: Int) -> [ArraySlice<Int>] {
        var runs: [ArraySlice<Int>] = [], start = 0
        while start < frames.count {
            let left = frames.count - start
            let length = min(maxRunLength, max(1, (left + 2 * jobs - 1) / (2 * jobs)))
            runs.append(frames[start..<start + length])
            start += length
        }
        return runs
    }

    /// A writer into `directory`; defaults: the `fast` preset, one job per core, no force, no wait message.
    public init(directory: String, compression: PNGCompression = .fast, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                force: Bool = false, onWait: (@Sendable (String) -> Void)? = nil) {
        self.directory = directory
        self.compression = compression
        self.jobs = max(1, jobs)
        self.force = force
        self.onWait = onWait
    }

    /// Writes the selected frames of `source` and the manifest. `progress` is called (from any thread,
    /// serialized) with the number of frames done and the number selected.
    /// - Throws: ``FrameStoreError``.
    @discardableResult
    public func write(_ source: some FrameSource, selection: FrameSelection = .all,
                      progress: (@Sendable (Int, Int) -> Void)? = nil) throws(FrameStoreError) -> WriteReport {
        let render = source.render
        let folder = try RenderFolder(path: directory, force: force, onWait: onWait)
        defer { folder.close() }

        let names = render.times.indices.map(FrameFileName.name)
        try folder.checkWritable(names + [Manifest.fileName])
        let selected = render.times.indices.filter(selection.contains)
        let selectedSet = Set(selected)

        var manifest = Manifest(
            name: render.name, pointSize: [render.pointSize.width, render.pointSize.height], scale: render.scale, fps: render.fps,
            compression: compression.presetName ?? compression.description, compressor: compression.compressorDescription,
            frames: zip(names, render.times).map { Manifest.Frame(file: $0, time: $1, sha256: nil) },
            durations: render.durations, fingerprint: render.fingerprint.isEmpty ? nil : render.fingerprint)

        // 1. Publish the render about to happen: digests kept only for frames of the same render that are
        //    not rewritten; every other frame of an earlier render goes.
        let previous = folder.manifest
        let sameRender = previous.map { manifest.describesSameRender(as: $0) } ?? false
        if let previous, sameRender {
            for i in manifest.frames.indices where !selectedSet.contains(i) { manifest.frames[i].sha256 = previous.frames[i].sha256 }
        }
        // A part of a different render would replace the whole of the one in the folder: refused without
        // --force (what is there is not the user's file, but it may be hours of frames), said with it.
        if let previous, !sameRender, selected.count < names.count, previous.frames.contains(where: { $0.sha256 != nil }) {
            let present = previous.frames.filter { $0.sha256 != nil }.count
            let what = manifest.differences(from: previous).joined(separator: ", ")
            let message = "\(directory) holds \(present) frames of another render (\(what)): writing only \(selected.count) of \(names.count) frames "
                + "(--frames or --shard) would remove them"
            guard force else {
                throw .otherRender(folder: directory, reason: message + "; pass --force to replace that render, or render into another folder")
            }
            onWait?(message + "; replacing it (--force)")
        }
        var stale: [String] = []
        if let previous {
            let kept = sameRender ? Set(names) : Set(selected.map { names[$0] })
            stale = previous.frames.map(\.file).filter { !kept.contains($0) }
        }
        try folder.write(try encodedManifest(manifest), named: Manifest.fileName)
        let removed = folder.removeFrames(stale)

        // 2. Draw, encode and write the frames.
        let (digests, bytes, reused) = try writeFrames(source, selected: selected, names: names, progress: progress)

        // 3. The finished manifest.
        for (index, digest) in digests { manifest.frames[index].sha256 = digest }
        try folder.write(try encodedManifest(manifest), named: Manifest.fileName)
        return WriteReport(written: selected, bytes: bytes, reusedEncodings: reused, removedStaleFiles: removed,
                           removedLeftovers: folder.removedLeftovers, manifest: manifest)
    }

    private func encodedManifest(_ manifest: Manifest) throws(FrameStoreError) -> [UInt8] {
        do { return try manifest.encoded() } catch {
            throw .io(path: directory + "/" + Manifest.fileName, reason: "cannot encode the manifest: \(error)")
        }
    }

    private func writeFrames(_ source: some FrameSource, selected: [Int], names: [String],
                             progress: (@Sendable (Int, Int) -> Void)?) throws(FrameStoreError) -> (digests: [Int: String], bytes: Int, reused: Int) {
        let runs = FrameWriter.runs(of: selected, jobs: jobs)
        let shared = Mutex(WriterProgress())
        let directory = self.directory, compression = self.compression
        let workers = min(jobs, max(1, runs.count))

        // Bitmaps the workers allocate are charged to the ledger current here, as if drawn on this thread.
        let ledger = MemoryLedger.active
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            ledger.charging {
                var canvas: Bitmap
                do { canvas = try source.makeCanvas() } catch {
                    shared.withLock { $0.failure = $0.failure ?? FrameStoreError.frameFailed(path: directory, reason: "cannot allocate the frame canvas: \(error)") }
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
                        source.draw(frame: index, into: &canvas)
                        let path = directory + "/" + names[index]
                        do {
                            // The file is written from the encoder's buffer: no copy of it per frame.
                            let written = try encoder.withEncodedFile(canvas) { png, digest in
                                Result { () throws(AtomicFileError) in
                                    try AtomicFile.write(png, to: path)
                                    return (size: png.count, digest: digest)
                                }
                            }
                            let reused = encoder.lastImageRepeated
                            let (size, digest) = try written.mapError { FrameStoreError.io(path: path, reason: "cannot write: \($0.reason)") }.get()
                            shared.withLock { s in
                                s.digests[index] = digest
                                s.bytes += size
                                if reused { s.reused += 1 }
                                s.done += 1
                                progress?(s.done, selected.count)  // inside the lock: calls never overlap
                            }
                        } catch let error as FrameStoreError {
                            shared.withLock { $0.failure = $0.failure ?? error }
                            return
                        } catch let error as PNGError {
                            shared.withLock { $0.failure = $0.failure ?? .frameFailed(path: path, reason: "cannot encode: \(error.kind): \(error.reason)") }
                            return
                        } catch {
                            shared.withLock { $0.failure = $0.failure ?? .frameFailed(path: path, reason: "\(error)") }
                            return
                        }
                    }
                }
            }
        }
        let result = shared.withLock { $0 }
        if let failure = result.failure { throw failure }
        return (result.digests, result.bytes, result.reused)
    }
}

/// What the writer's threads share, under a lock.
private struct WriterProgress {
    var nextRun = 0
    var digests: [Int: String] = [:]
    var bytes = 0
    var reused = 0
    var done = 0
    var failure: FrameStoreError?
}
