import PNGIO
import RasterCore

/// What a transition's bitmaps cost at @1x, @2x and @3x: `smokescreen memory`.
public struct MemoryReport: Codable, Sendable, Equatable {
    /// One bitmap.
    public struct Bitmap: Codable, Sendable, Equatable {
        /// `frame`, `asset` or `snapshot`.
        public var kind: String
        /// A description, e.g. `vesper/coffee.png` or `note 1 title (from)`.
        public var name: String
        /// Pixels.
        public var width: Int, height: Int
        /// Pixels per point.
        public var scale: Double
        /// Decoded bytes: width × height × 4.
        public var bytes: Int
    }

    /// The figures at one scale.
    public struct AtScale: Codable, Sendable, Equatable {
        /// Pixels per point: 1, 2 or 3.
        public var scale: Int
        /// The frame every frame is drawn into.
        public var frameBuffer: Bitmap
        /// Decoded image assets, in the variant for this scale.
        public var images: [Bitmap]
        /// Snapshots taken for the transition.
        public var snapshots: [Bitmap]
        /// Bytes of all decoded images.
        public var imageBytes: Int
        /// Bytes of all snapshots.
        public var snapshotBytes: Int
        /// The most bitmap bytes alive at once while building the transition and drawing every frame.
        public var peakBytes: Int
        /// ``peakBytes`` divided by the @1x peak.
        public var peakRelativeTo1x: Double
        /// What one thread of a render into a folder holds besides the shared images and snapshots: its
        /// frame canvas and its PNG encoder's working memory (`fast` preset, measured after encoding every
        /// frame: the filtered image, compressed stream, zero-row runs, ISA-L's level buffer and stream
        /// record, and zlib's state for the zero runs).
        public var perThreadBytes: Int
        /// The encoder's part of ``perThreadBytes``.
        public var encoderBytes: Int
        /// The peak a render on `jobs` threads holds, by cause: ``peakBytes`` (everything drawn on one
        /// thread, one frame buffer included), that thread's encoder, and for each further thread another
        /// ``perThreadBytes``. Fonts, code and the runtime are the rest of a process's resident
        /// memory (`smokescreen bench --summary` measures a whole process).
        public func renderPeakBytes(jobs: Int) -> Int {
            peakBytes + encoderBytes + max(0, jobs - 1) * perThreadBytes
        }
    }

    /// The transition's name.
    public var name: String
    /// What each kind of figure is measured in.
    public var units: [String: String] = ["bytes": "bytes", "width": "pixels", "height": "pixels", "scale": "pixels per point"]
    /// The figures at each scale: @1x, @2x and @3x.
    public var scales: [AtScale]

    /// Renders `transition` at @1x, @2x and @3x with `settings(scale)`, drawing every frame, and measures
    /// every bitmap allocated on the way (`MemoryLedger`).
    public static func measure(_ transition: any Transition, settings: (Int) throws -> RenderSettings) throws -> MemoryReport {
        var scales: [AtScale] = []
        for scale in 1...3 {
            var settings = try settings(scale)
            settings.jobs = 1  // everything drawn on one thread, so the peak is the same on every run
            let ((rendered, encoderBytes), usage) = try MemoryLedger.measure("memory @\(scale)x") { () throws -> (RenderedTransition, Int) in
                let rendered = try transition.render(settings)
                var canvas = try rendered.sequence.makeCanvas()
                // One thread's encoder after every frame, as the frame writer keeps one per thread.
                let encoder = PNGEncoder(compression: .fast)
                for i in 0..<rendered.sequence.count {
                    rendered.sequence.draw(frame: i, into: &canvas)
                    do { _ = try encoder.encode(canvas) } catch { throw RenderError.failed(what: "frame \(i)", reason: "cannot encode: \(error)") }
                }
                return (rendered, encoder.workingBytes)
            }
            let canvas = try rendered.sequence.makeCanvas()
            let frameBytes = canvas.width * canvas.height * 4
            func entry(_ r: BitmapRecord) -> Bitmap {
                Bitmap(kind: r.kind.rawValue, name: r.name, width: r.width, height: r.height, scale: r.scale, bytes: r.bytes)
            }
            let images = rendered.bitmaps.filter { $0.kind == .asset }.map(entry)
            let snapshots = rendered.bitmaps.filter { $0.kind == .snapshot }.map(entry)
            scales.append(AtScale(
                scale: scale,
                frameBuffer: Bitmap(kind: "frame", name: "frame buffer", width: canvas.width, height: canvas.height, scale: canvas.scale,
                                    bytes: frameBytes),
                images: images, snapshots: snapshots,
                imageBytes: images.reduce(0) { $0 + $1.bytes }, snapshotBytes: snapshots.reduce(0) { $0 + $1.bytes },
                peakBytes: usage.peakBytes, peakRelativeTo1x: 1,
                perThreadBytes: frameBytes + encoderBytes, encoderBytes: encoderBytes))
        }
        if let one = scales.first?.peakBytes, one > 0 {
            for i in scales.indices { scales[i].peakRelativeTo1x = Double(scales[i].peakBytes) / Double(one) }
        }
        return MemoryReport(name: transition.name, scales: scales)
    }
}
