import Containers
import Foundation
import RasterCore
import SnapshotView

/// What a page-curl frame costs to draw: the 24 frames of a 0.4 s curl at 60 fps (iNippon's page 0
/// curling over page 1, straight and with the axis tilted), each drawn into a page-sized frame that
/// already holds the page below, against the simplest frame of the same size: the page below copied in
/// and the page drawn flat over it.
public struct CurlBenchmark {
    /// Repetitions; medians are over every frame of every run.
    public var runs: Int
    /// Pixels per point.
    public var scale: Int
    /// The assets folder (iNippon's backgrounds).
    public var assetsDirectory: String

    /// A benchmark of `runs` runs at `scale`.
    public init(assetsDirectory: String, runs: Int = 5, scale: Int = 2) {
        self.assetsDirectory = assetsDirectory
        self.runs = max(1, runs)
        self.scale = scale
    }

    /// The figures.
    public struct Result: Sendable {
        /// The frame in pixels.
        public var width: Int, height: Int
        /// Frames per run.
        public var frames: Int
        /// Median seconds per curl frame: straight, and tilted by 0.3 rad.
        public var straightSeconds: Double, tiltedSeconds: Double
        /// Median seconds per flat frame (the page below copied, the page drawn over it).
        public var flatSeconds: Double
    }

    /// Frames of one run.
    public static let frames = 24

    public func run() throws -> Result {
        let s = Double(scale)
        let store = try PageStore(strategy: .window, scale: s, assetsDirectory: assetsDirectory, engine: nil)
        guard let front = store.loaded[0], let below = store.loaded[1] else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "iNippon's pages 0 and 1 did not load"])
        }
        let size = INipponPagesTransition.pageSize
        let page = try ViewRenderer.render(front.view, scale: s)
        let under = try ViewRenderer.render(below.view, scale: s)
        // Made once per turn, as PageViewController does.
        let back = PageCurlDrawing.washedBack(of: page)
        var frame = under
        var straight: [Double] = [], tilted: [Double] = [], flat: [Double] = []
        for _ in 0..<runs {
            for i in 0..<Self.frames {
                let p = Double(i + 1) / Double(Self.frames + 1)
                for (angle, into) in [(0.0, 0), (0.3, 1)] {
                    let drawing = PageCurlDrawing(page: page, back: back, geometry: PageCurlGeometry(progress: p, pageSize: size, angle: angle))
                    let t = ReferenceBenchmark.seconds {
                        frame.copy(from: under, to: (0, 0))
                        frame.draw { drawing.draw(in: $0, bounds: Rect(origin: .zero, size: size)) }
                    }
                    if into == 0 { straight.append(t) } else { tilted.append(t) }
                }
                flat.append(ReferenceBenchmark.seconds {
                    frame.copy(from: under, to: (0, 0))
                    frame.draw { $0.draw(page, in: Rect(origin: .zero, size: size)) }
                })
            }
        }
        return Result(width: frame.width, height: frame.height, frames: Self.frames, straightSeconds: ReferenceBenchmark.median(straight),
                      tiltedSeconds: ReferenceBenchmark.median(tilted), flatSeconds: ReferenceBenchmark.median(flat))
    }
}
