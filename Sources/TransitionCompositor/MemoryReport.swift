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
            let settings = try settings(scale)
            let (rendered, usage) = try MemoryLedger.measure("memory @\(scale)x") { () throws -> RenderedTransition in
                let rendered = try transition.render(settings)
                var canvas = try rendered.sequence.makeCanvas()
                for i in 0..<rendered.sequence.count { rendered.sequence.draw(frame: i, into: &canvas) }
                return rendered
            }
            let canvas = try rendered.sequence.makeCanvas()
            func entry(_ r: BitmapRecord) -> Bitmap {
                Bitmap(kind: r.kind.rawValue, name: r.name, width: r.width, height: r.height, scale: r.scale, bytes: r.bytes)
            }
            let images = rendered.bitmaps.filter { $0.kind == .asset }.map(entry)
            let snapshots = rendered.bitmaps.filter { $0.kind == .snapshot }.map(entry)
            scales.append(AtScale(
                scale: scale,
                frameBuffer: Bitmap(kind: "frame", name: "frame buffer", width: canvas.width, height: canvas.height, scale: canvas.scale,
                                    bytes: canvas.width * canvas.height * 4),
                images: images, snapshots: snapshots,
                imageBytes: images.reduce(0) { $0 + $1.bytes }, snapshotBytes: snapshots.reduce(0) { $0 + $1.bytes },
                peakBytes: usage.peakBytes, peakRelativeTo1x: 1))
        }
        if let one = scales.first?.peakBytes, one > 0 {
            for i in scales.indices { scales[i].peakRelativeTo1x = Double(scales[i].peakBytes) / Double(one) }
        }
        return MemoryReport(name: transition.name, scales: scales)
    }
}
