import Containers
import FrameStore
import SnapshotView
import TransitionCompositor

/// iOS's status bar over every frame of a built-in phone screen, as the status bar's own window lies
/// over the app's: above the smokescreen and everything a transition moves (``StatusBar``).
enum StatusBarOverlay {
    /// Adds a status bar in the style of `settings.appearance` (dark content on light screens), as wide as the frames, to the top of every frame of `rendered` when
    /// `settings.drawsStatusBar`; otherwise leaves the frames alone and marks the render's fingerprint,
    /// so that a partial render never keeps the digests of frames drawn with the other choice.
    /// A screen of fixed colours passes its own `style`.
    static func apply(to rendered: inout RenderedTransition, settings: RenderSettings, style: StatusBar.Style? = nil) {
        guard settings.drawsStatusBar else {
            rendered.sequence.fingerprint = Digest.sha256Hex(Array((rendered.sequence.fingerprint + " without the status bar").utf8))
            return
        }
        let bar = StatusBar(width: rendered.sequence.pointSize.width, style: style ?? SystemPalette.of(settings.appearance).statusBarStyle)
        guard let overlay = bar.renderNode() else { return }
        rendered.sequence.nodes = rendered.sequence.nodes.map { $0.addingFrontChild(overlay) }
    }
}
