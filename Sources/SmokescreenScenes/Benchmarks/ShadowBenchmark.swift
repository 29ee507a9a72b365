import Containers
import Foundation
import RasterCore
import SnapshotView

/// What a layer shadow costs a frame: iNippon's page 0 (a full screen of artwork and text) under a still
/// card (280x160 pt, rounded 16 pt) whose shadow has a `shadowPath` (radius 12 pt, offset 8 pt down, 30 %
/// black), frozen and drawn as frames are, against the same frame with no shadow. The shadow's blurred shape
/// is kept between frames (`BlurCache`), so after the first frame it costs its fill. The same card's shadow
/// without a path (the alpha of what the card draws: its rounded background) is measured too;
/// it is kept between frames while the card stays as it is (`ContentShadowCache`).
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
        // Each shadow alternates with the frame without, in runs of its own.
        func alternate(_ shadow: Shadow) -> (shadowed: Double, plain: Double) {
            var shadowed: [Double] = [], plain: [Double] = []
            for _ in 0..<runs {
                for _ in 0..<Self.frames {
                    card.shadow = shadow
                    shadowed.append(ReferenceBenchmark.seconds { screen.draw() })
                    card.shadow = nil
                    plain.append(ReferenceBenchmark.seconds { screen.draw() })
                }
            }
            return (ReferenceBenchmark.median(shadowed), ReferenceBenchmark.median(plain))
        }
        let withPath = alternate(shadow), withoutPath = alternate(fromContent)
        return Result(width: screen.frame.width, height: screen.frame.height, frames: Self.frames,
                      shadowSeconds: withPath.shadowed, plainSeconds: withPath.plain,
                      contentShadowSeconds: withoutPath.shadowed, contentPlainSeconds: withoutPath.plain)
    }
}
