import RasterCore
import SnapshotView
import TransitionCompositor

/// A tiny transition for the tests: a translucent red box slides right across a 12x4 pt white canvas,
/// 0.75 pt a frame, for `frameCount` frames at the settings' fps (default 10), then stands still for the
/// hold frames. `failure` makes `render` throw it.
struct SlideTransition: Transition {
    var frameCount = 5
    var failure: RenderError?

    var name: String { "slide" }
    var summary: String { "a box slides right" }
    var pointSize: Size { Size(width: 12, height: 4) }
    var defaultFPS: Double { 10 }

    func render(_ settings: RenderSettings) throws -> RenderedTransition {
        if let failure { throw failure }
        let fps = settings.fps ?? defaultFPS
        let canvas = View(frame: Rect(origin: .zero, size: pointSize), name: "canvas")
        canvas.backgroundColor = .white
        let box = View(frame: Rect(x: 0, y: 0, width: 3, height: 4), name: "box")
        box.backgroundColor = Color(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.8)
        try canvas.addSubview(box)
        var nodes: [RenderNode] = []
        for i in 0..<frameCount {
            box.frame = Rect(x: Double(i) * 0.75, y: 0, width: 3, height: 4)
            nodes.append(canvas.renderNode()!)
        }
        nodes += Array(repeating: nodes[nodes.count - 1], count: settings.holdFrames)
        let sequence = FrameSequence(name: name, pointSize: pointSize, scale: settings.scale, fps: fps,
                                     times: nodes.indices.map { Double($0) / fps }, nodes: nodes,
                                     durations: ["slide": Double(frameCount - 1) / fps])
        return RenderedTransition(sequence: sequence, bitmaps: [], initialTree: canvas.treeDescription(), timeline: [])
    }

    /// The frames `render` gives, drawn.
    func bitmaps(_ settings: RenderSettings) throws -> [Bitmap] {
        let sequence = try render(settings).sequence
        var canvas = try sequence.makeCanvas()
        return (0..<sequence.count).map { i in
            sequence.draw(frame: i, into: &canvas)
            return canvas
        }
    }
}
