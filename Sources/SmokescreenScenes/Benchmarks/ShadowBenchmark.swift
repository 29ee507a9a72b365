import Containers
import Foundation
import RasterCore
import SnapshotView

/// What a layer shadow costs a frame: iNippon's page 0 (a full screen of artwork and text) under a still
/// card (280x160 pt, rounded 16 pt) whose shadow has a `shadowPath` (radius 12 pt, offset 8 pt down, 30 %
/// black), frozen and drawn as frames are, against the same frame with no shadow. The shadow's blurred shape
/// is kept between frames (`BlurCache`), so after the first frame it costs its fill. The same card's shadow
/// without a path (the alpha of what the card draws: its rounded background) is measured too; a render keeps
/// it while the card draws the same (`ContentShadowCache`). Then both again with the card moving 0.31 pt right
/// each frame (a new place within a pixel every frame): each shadow is blurred on the card's own pixel grid once and moved to where it
/// lands (from `Painter.minShiftedBlurSigma` up; this one is 24 px at @2x).
public struct ShadowBenchmark {
    public var runs: Int
    public var scale: Int
    public var assetsDirectory: String

    public init(assetsDirectory: String, runs: Int = 5, scale: Int = 2) {
        self.assetsDirectory = assetsDirectory
        self.runs = max(1, runs)
        self.scale = scale
    }

    public struct Result: Sendable {
        public var width: Int, height: Int
        public var frames: Int
        /// Median seconds per frame with the shadow and without (alternating).
        public var shadowSeconds: Double, plainSeconds: Double
        /// Median seconds per frame with the shadow of the card's content (no path) and without (alternating,
        /// in runs of their own).
        public var contentShadowSeconds: Double, contentPlainSeconds: Double
        /// Median seconds per frame of the moving card with its path's shadow, with its content's shadow and
        /// without a shadow (alternating, in runs of their own).
        public var movingShadowSeconds: Double, movingContentShadowSeconds: Double, movingPlainSeconds: Double
    }

    public static let frames = 24

    public func run() throws -> Result {
        var screen = try BenchmarkPage(assetsDirectory: assetsDirectory, scale: scale)
        let size = INipponPagesTransition.pageSize
        let card = View(frame: Rect(x: (size.width - 280) / 2, y: 120, width: 280, height: 160), name: "card")
        card.backgroundColor = .white
        card.cornerRadius = 16
        try screen.root.addSubview(card)
        let shadow = Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: 0.3), offset: Size(width: 0, height: 8), radius: 12,
                            path: Path(roundedRect: card.bounds, cornerRadii: CornerRadii(all: 16)))
        var fromContent = shadow
        fromContent.path = nil
        let still = card.frame.origin
        // Each shadow alternates with the frame without, in runs of its own. A moving card goes (√5 − 1) / 4
        // pt further right each frame, run after run: a new place within a pixel every frame, as in a render,
        // where each frame is drawn once.
        let step = (5.0.squareRoot() - 1) / 4
        func alternate(_ shadows: [Shadow], moving: Bool = false) -> (shadowed: [Double], plain: Double) {
            var shadowed = [[Double]](repeating: [], count: shadows.count), plain: [Double] = []
            for run in 0..<runs {
                for frame in 0..<Self.frames {
                    card.frame.origin.x = still.x + (moving ? step * Double(run * Self.frames + frame) : 0)
                    for (k, shadow) in shadows.enumerated() {
                        card.shadow = shadow
                        shadowed[k].append(ReferenceBenchmark.seconds { screen.draw() })
                    }
                    card.shadow = nil
                    plain.append(ReferenceBenchmark.seconds { screen.draw() })
                }
            }
            card.frame.origin = still
            return (shadowed.map(ReferenceBenchmark.median), ReferenceBenchmark.median(plain))
        }
        let withPath = alternate([shadow]), withoutPath = alternate([fromContent]), moving = alternate([shadow, fromContent], moving: true)
        return Result(width: screen.frame.width, height: screen.frame.height, frames: Self.frames,
                      shadowSeconds: withPath.shadowed[0], plainSeconds: withPath.plain,
                      contentShadowSeconds: withoutPath.shadowed[0], contentPlainSeconds: withoutPath.plain,
                      movingShadowSeconds: moving.shadowed[0], movingContentShadowSeconds: moving.shadowed[1], movingPlainSeconds: moving.plain)
    }
}
