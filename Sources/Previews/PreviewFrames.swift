import BoundedInput
import FrameStore
import PNGIO
import RasterCore
import TransitionCompositor

/// The frames a preview is made of, drawn one at a time (a long render is never all in memory), with
/// their times and, when known, the transition's animation blocks.
public struct PreviewFrames {
    /// The transition's name.
    public let name: String
    /// Seconds from the start, one per frame.
    public let times: [Double]
    /// Frames per second of the render.
    public let fps: Double
    /// The animation blocks (for the contact sheet's timeline); empty when unknown (a render folder).
    public let timeline: [TimelineEntry]
    /// Width and height of every frame (pixels).
    public let pixelWidth: Int, pixelHeight: Int
    private let draw: (Int) throws -> Bitmap
    private let repeats: (Int) throws -> Bool

    /// Frame `index`, drawn or read now.
    public func frame(_ index: Int) throws -> Bitmap { try draw(index) }

    /// Whether frame `index` is known to have the pixels of the frame before it without drawing or
    /// decoding either: in a render folder, when its file holds the same bytes as the previous frame's
    /// (the writer encodes a repeated frame once and writes those bytes again). False when it is not
    /// known (frames drawn from a render in memory, and frame 0). Throws what ``frame(_:)`` throws for a
    /// file that cannot be read.
    public func repeatsPrevious(_ index: Int) throws -> Bool { index > 0 ? try repeats(index) : false }

    /// The frames of a render made in memory.
    public init(rendered: RenderedTransition) throws {
        let sequence = rendered.sequence
        name = sequence.name
        times = sequence.times
        fps = sequence.fps
        timeline = rendered.timeline
        let canvas = try sequence.makeCanvas()
        pixelWidth = canvas.width
        pixelHeight = canvas.height
        draw = { index in
            var canvas = try sequence.makeCanvas()
            sequence.draw(frame: index, into: &canvas)
            return canvas
        }
        repeats = { _ in false }
    }

    /// The frames of a render folder, as its manifest lists them (frames read when asked for, bounded
    /// as every PNG input is). Throws when the folder has no manifest or its frames differ in size.
    public init(folder: String) throws {
        let manifestPath = "\(folder)/\(Manifest.fileName)"
        guard let manifest = try Manifest.read(from: manifestPath) else {
            throw PreviewError.input(path: folder, reason: "not a render folder: it has no manifest.json (render into it first)")
        }
        // The name names the previews' default folder: the one rule for names that reach a path.
        if let problem = TransitionName.problem(with: manifest.name) {
            throw DocumentError(source: manifestPath, position: nil, keyPath: KeyPath([.key("name")]), reason: problem)
        }
        guard !manifest.frames.isEmpty else { throw PreviewError.input(path: folder, reason: "the manifest lists no frames") }
        name = manifest.name
        times = manifest.frames.map(\.time)
        fps = manifest.fps
        timeline = []
        let files = manifest.frames.map { "\(folder)/\($0.file)" }
        let first = try PNGCodec.read(contentsOf: files[0])
        pixelWidth = first.width
        pixelHeight = first.height
        let (width, height) = (first.width, first.height)
        draw = { index in
            let bitmap = try PNGCodec.read(contentsOf: files[index])
            guard bitmap.width == width, bitmap.height == height else {
                throw PreviewError.input(path: files[index], reason: "\(bitmap.width)x\(bitmap.height) px, but the first frame is \(width)x\(height)")
            }
            return bitmap
        }
        // The files' bytes, read with the PNG reader's checks (a regular file within its size limit).
        repeats = { index in try PNGCodec.readBytes(contentsOf: files[index]) == PNGCodec.readBytes(contentsOf: files[index - 1]) }
    }

    /// The time each frame shows for (seconds): to the next frame's time, and one frame interval for the
    /// last.
    public var displayDurations: [Double] {
        times.indices.map { i in i + 1 < times.count ? max(0, times[i + 1] - times[i]) : 1 / fps }
    }
}

/// Why a preview could not be made; names the file or tool and the reason.
public struct PreviewError: Error, CustomStringConvertible, ExitStatusError {
    /// What went wrong, with the path or tool it concerns.
    public let description: String
    /// `ExitStatus.dataError` for unusable input, `ExitStatus.cannotCreate` for output that cannot be
    /// written, `ExitStatus.failure` for a tool that is missing or fails.
    public let exitStatus: Int32

    static func input(path: String, reason: String) -> PreviewError { PreviewError(description: "\(path): \(reason)", exitStatus: ExitStatus.dataError) }
    static func output(path: String, reason: String) -> PreviewError { PreviewError(description: "\(path): \(reason)", exitStatus: ExitStatus.cannotCreate) }
    static func failed(_ reason: String) -> PreviewError { PreviewError(description: reason, exitStatus: ExitStatus.failure) }
}
