import FrameStore
import Foundation
import RasterCore
import SnapshotView
import Typesetting

/// The frames of one animation, frozen: what the writer renders and encodes.
public struct FrameSequence: FrameSource {
    /// The transition's name; also the output folder's name by default.
    public var name: String
    /// Canvas size in points.
    public var pointSize: Size
    /// Pixels per point.
    public var scale: Double
    /// Frames per second.
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
    /// The layers of nodes turned in 3-D, kept between this render's frames (``ProjectedLayerCache``): at
    /// most as many pixels as two canvases (``projectedLayerBytes``).
    public let projectedLayers = ProjectedLayerCache()
    /// The shadows of layers' content, kept between this render's frames while a layer stays as it is
    /// (``ContentShadowCache``): at most two bytes per canvas pixel (``contentShadowBytes``).
    public let contentShadows = ContentShadowCache()

    /// Frames at `times` (seconds), one presentation tree each; `times` and `nodes` have the same count.
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

    /// The number of frames.
    public var count: Int { times.count }

    /// The render these frames make, for the manifest.
    public var render: RenderDescription {
        // Text drawn with SF Pro from a user's folder (Typesetting's system fonts) marks the render, so
        // that frames drawn with Inter are not kept or merged with it, whichever transition drew them.
        let marked = Font.systemFontsFingerprint.map { Digest.sha256Hex(Array((fingerprint + " " + $0).utf8)) } ?? fingerprint
        return RenderDescription(name: name, pointSize: pointSize, scale: scale, fps: fps, times: times, durations: durations, fingerprint: marked)
    }

    /// Renders frame `index` into `canvas` (which must be the canvas size), clearing it first.
    public func draw(frame index: Int, into canvas: inout Bitmap) {
        ViewRenderer.draw(nodes[index], into: &canvas, layers: projectedLayers, shadows: contentShadows)
    }

    /// The most bytes ``projectedLayers`` can come to hold: two canvases' when a frame draws a node through
    /// a projection, else none.
    public var projectedLayerBytes: Int {
        guard nodes.contains(where: \.drawsProjectedLayers) else { return 0 }
        return (try? Bitmap.pixelSize(of: pointSize, scale: scale)).map { 2 * $0.width * $0.height * 4 } ?? 0
    }

    /// The most bytes ``contentShadows`` can come to hold: two per canvas pixel when a frame casts a shadow
    /// of a layer's content, else none.
    public var contentShadowBytes: Int {
        guard nodes.contains(where: \.castsContentShadows) else { return 0 }
        return (try? Bitmap.pixelSize(of: pointSize, scale: scale)).map { 2 * $0.width * $0.height } ?? 0
    }

    /// A new canvas for this sequence.
    public func makeCanvas() throws -> Bitmap {
        do { return try Bitmap(pointSize: pointSize, scale: scale) } catch {
            throw RenderError.failed(what: name, reason: "cannot make a \(pointSize) pt canvas at @\(scale)x: \(error)")
        }
    }
}
