import BoundedInput
import Motion
import RasterCore
import SnapshotView
import TransitionCompositor

/// The benchmark scene of `shared/bench/SCENE.md` as a transition, so it can be rendered and timed from
/// outside like any other: 1 s, 30 frames at its default 29 fps (t = i/29).
public struct ReferenceTransition: Transition {
    /// The reference scene.
    public init() {}
    /// `reference`.
    public var name: String { "reference" }
    /// One line for `smokescreen list`.
    public var summary: String { "the benchmark scene: 12 rows fade while the selected row grows, under a 30% smokescreen (1 s)" }
    /// 375x667 points.
    public var pointSize: Size { ReferenceScene.pointSize }
    /// 29: the scene's 30 frames are t = i/29 over its second.
    public var defaultFPS: Double { Double(ReferenceScene.frameCount - 1) }
    static let duration = 1.0

    /// Draws the scene as one display list per frame, at the settings' scale and frame rate.
    public func render(_ settings: RenderSettings) throws -> RenderedTransition {
        let scene: ReferenceScene
        do { scene = try ReferenceScene(assetsDirectory: settings.assetsDirectory) } catch let error as any ExitStatusError {
            throw error  // a PNGError names its file and reason itself
        } catch {
            throw RenderError.badInput(path: settings.assetsDirectory + "/" + ReferenceScene.thumbnailAsset, reason: "\(error)")
        }
        let fps = settings.fps ?? defaultFPS
        let times = try FrameTimes(endTime: ReferenceTransition.duration, fps: fps, holdFrames: settings.holdFrames)
        let canvas = DrawingView(frame: Rect(origin: .zero, size: pointSize), drawing: nil, name: "reference scene")
        let nodes = times.times.map { t -> RenderNode in
            canvas.drawing = ReferenceFrame(scene: scene, progress: TimingCurve.easeInEaseOut.progress(at: t / ReferenceTransition.duration))
            return canvas.renderNode()!
        }
        var sequence = FrameSequence(name: name, pointSize: pointSize, scale: settings.scale, fps: fps,
                                     times: times.times, nodes: nodes, durations: ["progress": ReferenceTransition.duration])
        sequence.fingerprint = fingerprint(ofFiles: [settings.assetsDirectory + "/" + ReferenceScene.thumbnailAsset])
        var rendered = RenderedTransition(
            sequence: sequence,
            bitmaps: [BitmapRecord(kind: .asset, name: ReferenceScene.thumbnailAsset, bitmap: scene.thumbnail)],
            initialTree: canvas.treeDescription() + " (draws the scene as one display list)",
            timeline: [TimelineEntry(label: "progress", start: 0, end: ReferenceTransition.duration,
                                     timing: TimingCurve.easeInEaseOut.description,
                                     properties: ["rows.alpha", "selectedRow.frame"])])
        // One view that draws the whole scene: its description is the same at every time.
        if let asked = settings.inspectionTime { rendered.inspection = (min(max(0, asked), ReferenceTransition.duration), canvas.presentationDescription()) }
        return rendered
    }
}

/// One frame of the reference scene, drawn as a view's content.
struct ReferenceFrame: OperationContent {
    let scene: ReferenceScene
    let progress: Double
    func operations(in bounds: Rect) -> [DrawingOperation] { scene.operations(progress: progress) }
}
