import BoundedInput
import CLibCrypto
import FrameDiff
import Foundation
import PNGIO
import RasterCore
import TransitionCompositor

extension PreviewLibrary {
    /// The render of `name` at `scale`: the one kept, or made now (within the memory budget).
    /// - Parameter isCancelled: the asker has gone; a render whose every asker has gone stops.
    /// - Throws: ``PreviewError`` with `isOverBudget` when the render would need more than the renders'
    ///   share of ``PreviewSettings/memoryLimit``; the render's own error when it fails.
    func rendered(_ name: String, scale: Int, version: Int? = nil,
                  isCancelled: @escaping @Sendable () -> Bool = { false }) throws -> RenderedTransition? {
        guard let entry = entry(name, version: version) else { return nil }
        return try rendered(of: entry, scale: scale, isCancelled: isCancelled)
    }

    func rendered(of entry: Entry, scale: Int, isCancelled: @escaping @Sendable () -> Bool) throws -> RenderedTransition? {
        let name = entry.transition.name
        let key = RenderCache.Key(entry: entry.id, scale: scale)
        if !renders.contains(key) {
            // Snapshots and images grow with the square of the scale, and the frame is drawn into a canvas
            // of its own: estimated before anything is drawn.
            let ratio = Double(scale) / Double(settings.scale)
            let canvas = entry.info.pointSize.width * entry.info.pointSize.height * Double(scale * scale) * 4
            let estimate = Double(entry.info.bytes) * ratio * ratio + canvas
            if estimate > Double(renders.limit) {
                throw PreviewError("'\(name)' at @\(scale)x needs about \(Self.mebibytes(estimate)) MiB of snapshots, images and canvas, over the "
                                   + "preview's budget of \(Self.mebibytes(Double(renders.limit))) MiB for renders (serve --memory-limit)",
                                   isOverBudget: true)
            }
        }
        return try renders.render(key, isCancelled: isCancelled) { stop in
            var s = renderSettings(scale: scale)
            s.isCancelled = stop
            return try entry.transition.render(s)
        }
    }

    static func mebibytes(_ bytes: Double) -> String { String(format: "%.0f", (bytes / 1_048_576).rounded(.up)) }

    /// Frame `index` of `name` at `scale` as PNG, with the digest of its pixels. Nil when there is no
    /// such transition or frame. A frame drawn before (or being drawn now) for the same reading of its
    /// file is not drawn again.
    /// - Parameter isShown: the frame is the one the page shows: after a reload changes `name`, the frame
    ///   at the same time is drawn at once, before the page asks for it (``drawAhead(_:version:)``).
    public func frame(_ name: String, index: Int, scale: Int, version: Int? = nil, isShown: Bool = false,
                      isCancelled: @escaping @Sendable () -> Bool = { false }) throws -> (png: [UInt8], digest: String)? {
        guard let entry = entry(name, version: version) else { return nil }
        if isShown, entry.info.times.indices.contains(index) { noteShown(name, scale: scale, time: entry.info.times[index]) }
        return try frame(of: entry, index: index, scale: scale, isCancelled: isCancelled)
    }

    /// Frame `index` of `entry` at `scale` as PNG and its digest: kept, waited for while another thread
    /// draws it, or drawn and encoded now.
    func frame(of entry: Entry, index: Int, scale: Int,
               isCancelled: @escaping @Sendable () -> Bool) throws -> (png: [UInt8], digest: String)? {
        let key = FrameKey(entry: entry.id, scale: scale, index: index)
        repeat {
            if let kept = keptFrame(key) { return kept }
        } while !claimFrame(key)
        defer { releaseFrame(key) }
        // Drawn by another thread between the look and the claim.
        if let kept = keptFrame(key) { return kept }
        waitWhileReloading()
        if isCancelled() { throw RenderError.cancelled(what: entry.transition.name) }
        if let same = try unchangedFrame(of: entry, index: index, scale: scale, isCancelled: isCancelled) {
            keepFrame(key, digest: same.digest, drawn: false)
            return same
        }
        guard let bitmap = try bitmap(of: entry, index: index, scale: scale, isCancelled: isCancelled) else { return nil }
        let digest = Self.digest(of: bitmap)
        let png: [UInt8]
        if let cached = cachedPNG(digest) { png = cached } else {
            png = try PNGCodec.encode(bitmap, compression: .fast)
            keepPNG(png, digest: digest)
        }
        keepFrame(key, digest: digest)
        return (png, digest)
    }

    /// Frame `index` as the reading before `entry` drew it, when that frame is still kept and `entry`'s tree
    /// there draws the same (``RenderNode/drawsTheSame(as:)``, on the same canvas): a reload that did not
    /// change a frame does not draw it again. Nil otherwise (or when the reading before is no longer kept).
    func unchangedFrame(of entry: Entry, index: Int, scale: Int,
                        isCancelled: @escaping @Sendable () -> Bool) throws -> (png: [UInt8], digest: String)? {
        // (The index first: past the end of a shorter reading nothing is rendered. The new render before the
        // old one is looked up, so that the old one is not held while the new one is made.)
        guard index >= 0, index < entry.info.frameCount, let before = retiredEntry(entry.transition.name), before.id != entry.id,
              let kept = keptFrame(FrameKey(entry: before.id, scale: scale, index: index)),
              let new = try rendered(of: entry, scale: scale, isCancelled: isCancelled),
              let old = renders.kept(RenderCache.Key(entry: before.id, scale: scale)) else { return nil }
        let a = old.sequence, b = new.sequence
        guard a.pointSize == b.pointSize, a.scale == b.scale, a.nodes.indices.contains(index), b.nodes.indices.contains(index),
              b.nodes[index].drawsTheSame(as: a.nodes[index]) else { return nil }
        return kept
    }

    /// Draws, one after the other on a thread of its own, the frames a reload changed that pages show
    /// (``frame(_:index:scale:version:isShown:isCancelled:)``'s `isShown`): the frame at the same time in
    /// the new reading, the one a page keeping its scrubber's time asks for first; then the rest of those
    /// transitions, nearest the scrubber first (``aheadOrder(_:)``), so that scrubbing after a save finds
    /// its frames drawn.
    /// Stops when the server stops or another reload publishes a newer version than `version`.
    func drawAhead(_ frames: [(entry: Entry, index: Int, scale: Int)], version: Int) {
        guard !frames.isEmpty else { return }
        let isStale: @Sendable () -> Bool = { [self] in isStopped || isSuperseded(version) }
        let order = Self.aheadOrder(frames)
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            for frame in order where !isStale() {
                _ = try? self.frame(of: frame.entry, index: frame.index, scale: frame.scale, isCancelled: isStale)
            }
        }
    }

    /// The most frames of one transition drawn ahead after a reload, besides the shown one.
    static let framesDrawnAhead = 240

    /// The order frames are drawn ahead in: every shown frame first, then the other frames of their
    /// transitions, nearest a shown frame first (one before, one after, two before…), each once. A frame
    /// the reload did not change costs a comparison, not a drawing (``unchangedFrame(of:index:scale:isCancelled:)``).
    static func aheadOrder(_ shown: [(entry: Entry, index: Int, scale: Int)]) -> [(entry: Entry, index: Int, scale: Int)] {
        var order = shown
        var seen = Set(shown.map { FrameKey(entry: $0.entry.id, scale: $0.scale, index: $0.index) })
        for frame in shown {
            let count = frame.entry.info.frameCount
            var added = 0
            for distance in 1..<max(1, count) where added < framesDrawnAhead {
                for index in [frame.index - distance, frame.index + distance] where index >= 0 && index < count && added < framesDrawnAhead {
                    guard seen.insert(FrameKey(entry: frame.entry.id, scale: frame.scale, index: index)).inserted else { continue }
                    order.append((frame.entry, index, frame.scale))
                    added += 1
                }
            }
        }
        return order
    }

    /// The last frame whose time is at or before `time` (the page's rule for keeping its place).
    static func frameIndex(at time: Double, in times: [Double]) -> Int {
        var (low, high) = (0, times.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if times[middle] <= time + 1e-9 { low = middle } else { high = middle - 1 }
        }
        return max(0, low)
    }

    /// Frame `index` of `name` drawn at `scale`; nil when there is no such transition or frame.
    public func bitmap(_ name: String, index: Int, scale: Int, version: Int? = nil,
                       isCancelled: @escaping @Sendable () -> Bool = { false }) throws -> Bitmap? {
        guard let entry = entry(name, version: version) else { return nil }
        return try bitmap(of: entry, index: index, scale: scale, isCancelled: isCancelled)
    }

    func bitmap(of entry: Entry, index: Int, scale: Int, isCancelled: @escaping @Sendable () -> Bool) throws -> Bitmap? {
        guard index >= 0, index < entry.info.frameCount else { return nil }
        guard let rendered = try rendered(of: entry, scale: scale, isCancelled: isCancelled) else { return nil }
        let s = rendered.sequence
        guard s.times.indices.contains(index) else { return nil }
        var canvas = try s.makeCanvas()
        s.draw(frame: index, into: &canvas)
        return canvas
    }

    /// The SHA-256 of a bitmap's size and pixels, hex.
    static func digest(of bitmap: Bitmap) -> String {
        var bytes = [UInt8]("\(bitmap.width)x\(bitmap.height)@\(bitmap.scale):".utf8)
        bitmap.withUnsafeBytes { bytes.append(contentsOf: $0) }
        var digest = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBufferPointer { b in digest.withUnsafeMutableBufferPointer { clibcrypto_sha256(b.baseAddress, b.count, $0.baseAddress) } }
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The lint report of `name` (rendered at @1x and checked once per reading of its file); nil for no
    /// such transition.
    public func lint(_ name: String, isCancelled: @escaping @Sendable () -> Bool = { false }) throws -> LintReport? {
        guard let entry = entry(name, version: nil) else { return nil }
        if let report = entry.lint { return report }
        guard let lint = settings.lint else { return LintReport(name: name, scale: 1, findings: []) }
        // Lint keeps every frame's tree and description: about the render's own size at @1x, and more.
        let ratio = 1 / Double(settings.scale)
        if Double(entry.info.bytes) * ratio * ratio > Double(renders.limit) {
            throw PreviewError("'\(name)' is too large to lint within the preview's budget of \(Self.mebibytes(Double(renders.limit))) MiB "
                               + "(serve --memory-limit); run `smokescreen lint` on it", isOverBudget: true)
        }
        var s = renderSettings(scale: 1)
        s.describesFrames = true
        s.isCancelled = { isCancelled() || self.isStopped }
        let report = try lint(entry.transition, s)
        setLint(report, forEntry: entry.id, name: name)
        return report
    }

    // MARK: - Golden frames

    /// The golden frame file `index` of `name`, when `--golden` has one that is a regular file and stays
    /// inside its folder (a link that leads out of it is refused).
    func goldenPath(_ name: String, index: Int) -> String? {
        guard let root = settings.goldenDirectory, TransitionName.problem(with: name) == nil, index >= 0, index <= 99_999 else { return nil }
        let path = "\(root)/\(name)/frame_\(String(format: "%04d", index)).png"
        guard let real = realPath(path), let realRoot = realPath(root), real.hasPrefix(realRoot + "/"), InputFile.isRegularFile(real) else {
            return nil
        }
        return real
    }

    func goldenCount(_ name: String) -> Int? {
        guard settings.goldenDirectory != nil else { return nil }
        var n = 0
        while goldenPath(name, index: n) != nil { n += 1 }
        return n == 0 ? nil : n
    }

    /// The first golden frame's size, from its header alone.
    func goldenSize(_ name: String) -> [Int]? {
        goldenPath(name, index: 0).flatMap(Self.pngSize)
    }

    /// A PNG file's `[width, height]` in pixels from its first 24 bytes (the IHDR chunk's big-endian
    /// words at bytes 16 and 20), however large the file; nil when it is not a PNG header.
    static func pngSize(_ path: String) -> [Int]? {
        guard let bytes = try? InputFile.readPrefix(path, count: 24, what: "golden frame"), bytes.count == 24,
              bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        let word = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return [word(16), word(20)]
    }

    /// The golden frame's PNG bytes as stored.
    public func goldenPNG(_ name: String, index: Int) throws -> [UInt8]? {
        guard has(name), let path = goldenPath(name, index: index) else { return nil }
        return try InputFile.read(path, limit: Limits.pngFileBytes, what: "golden frame")
    }

    /// The pixel difference of frame `index` at `scale` against its golden frame, as FrameDiff draws it
    /// (differing pixels red over a faded copy), with the count of differing pixels; nil when either is
    /// missing. A golden frame of another size is an error naming both sizes.
    public func diffPNG(_ name: String, index: Int, scale: Int,
                        isCancelled: @escaping @Sendable () -> Bool = { false }) throws -> (png: [UInt8], differentPixels: Int)? {
        guard let path = goldenPath(name, index: index),
              let actual = try bitmap(name, index: index, scale: scale, isCancelled: isCancelled) else { return nil }
        // Another size is told from the header, before the whole golden frame is decoded.
        if let size = Self.pngSize(path), size != [actual.width, actual.height] {
            throw PreviewError("\(path): the golden frame is \(size[0])x\(size[1]) px, the frame at @\(scale)x is \(actual.width)x\(actual.height) px")
        }
        let golden = try PNGCodec.read(contentsOf: path)
        guard golden.width == actual.width, golden.height == actual.height else {
            throw PreviewError("\(path): the golden frame is \(golden.width)x\(golden.height) px, the frame at @\(scale)x is \(actual.width)x\(actual.height) px")
        }
        let difference = FrameComparison(mode: .exact).compare(golden, actual)
        let image = try difference?.diffImage ?? Bitmap(width: actual.width, height: actual.height, scale: actual.scale)
        return (try PNGCodec.encode(image), difference?.differentPixels ?? 0)
    }
}
