import Containers
import Foundation
import RasterCore
import SnapshotView

/// iNippon's page 0 (a full screen of artwork and text) alone on a screen of its size, and a frame to draw
/// it into: what the perspective and shadow benchmarks draw.
struct BenchmarkPage {
    /// The screen, the page's superview.
    let root: View
    let page: View
    var frame: Bitmap
    /// Projected layers kept between frames, as a render keeps them.
    let layers = ProjectedLayerCache()
    /// Shadows of layers' content kept between frames, as a render keeps them.
    let shadows = ContentShadowCache()

    init(assetsDirectory: String, scale: Int) throws {
        let s = Double(scale)
        let store = try PageStore(strategy: .window, scale: s, assetsDirectory: assetsDirectory, engine: nil)
        guard let front = store.loaded[0] else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "iNippon's page 0 did not load"])
        }
        let size = INipponPagesTransition.pageSize
        root = View(frame: Rect(origin: .zero, size: size), name: "screen")
        page = front.view
        page.removeFromSuperview()
        try root.addSubview(page)
        frame = try Bitmap(width: Int((size.width * s).rounded()), height: Int((size.height * s).rounded()), scale: s)
    }

    /// Freezes the screen and draws it into the frame, as a frame of an animation is drawn.
    mutating func draw() {
        guard let node = root.renderNode() else { return }
        ViewRenderer.draw(node, into: &frame, layers: layers, shadows: shadows)
    }
}
