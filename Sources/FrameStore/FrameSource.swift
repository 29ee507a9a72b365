import RasterCore

/// What a render is, as the manifest records it: everything that determines the bytes of its frames,
/// except the compression, which the writer chooses.
public struct RenderDescription: Sendable, Equatable {
    /// The transition's name.
    public var name: String
    /// Canvas size in points.
    public var pointSize: Size
    /// Pixels per point.
    public var scale: Double
    /// Frames per second.
    public var fps: Double
    /// Seconds from the start of the animation, one per frame.
    public var times: [Double]
    /// Every duration the transition used, by name (seconds).
    public var durations: [String: Double]
    /// A digest of the render's other inputs (plists, assets); empty when unknown.
    public var fingerprint: String

    /// A description; `fingerprint` default empty (unknown).
    public init(name: String, pointSize: Size, scale: Double, fps: Double, times: [Double], durations: [String: Double], fingerprint: String = "") {
        self.name = name
        self.pointSize = pointSize
        self.scale = scale
        self.fps = fps
        self.times = times
        self.durations = durations
        self.fingerprint = fingerprint
    }
}

/// Frames that can be drawn one at a time, from any thread: what ``FrameWriter`` writes. The
/// compositor's `FrameSequence` is one.
public protocol FrameSource: Sendable {
    /// The render the frames belong to; `description.times.count` is the number of frames.
    var render: RenderDescription { get }
    /// A new canvas of the render's size in pixels.
    func makeCanvas() throws -> Bitmap
    /// Draws frame `index` into `canvas` (a canvas from ``makeCanvas()``), replacing what it held.
    func draw(frame index: Int, into canvas: inout Bitmap)
}
