import Motion
import RasterCore
import SmokescreenScenes
import SnapshotView
import TransitionCompositor

/// The benchmark's transition written with Smokescreen's own API: `BenchmarkTree` (a navigation bar over
/// a scrolled table of 11 rows) on a virtual clock, where row 3 grows to fill the table's visible bounds
/// while the other rows and the bar's title fade out, over 0.5 s ease-in-out.
enum NativeSide {
    static func render(thumbnail: Bitmap, scale: Double, fps: Double) throws -> FrameSequence {
        let settings = RenderSettings(scale: scale, fps: fps, assetsDirectory: "")
        let rendered = try TransitionDriver.render(name: "pair-native", settings: settings, durations: ["expand": Pair.duration],
                                                   assets: []) { engine in
            let container = View(frame: Rect(origin: .zero, size: BenchmarkTree.pointSize), name: "container")
            let tree = try BenchmarkTree.make(thumbnail: thumbnail)
            let context = try TransitionContext(container: container, fromView: tree, toView: View(frame: tree.frame), engine: engine, scale: scale)
            let table = tree.subviews[0], bar = tree.subviews[1]
            let rows = table.subviews
            engine.animate(duration: Pair.duration, curve: .easeInEaseOut) {
                for (index, row) in rows.enumerated() {
                    if index == Pair.selectedRow {
                        row.frame = Rect(x: Pair.grownFrame.x, y: Pair.grownFrame.y, width: Pair.grownFrame.width, height: Pair.grownFrame.height)
                    } else {
                        row.alpha = 0
                    }
                }
                bar.subviews[0].alpha = 0
            }
            return context
        }
        return rendered.sequence
    }
}
