import Containers
import Foundation
import RasterCore
import SnapshotView

/// What a frame of a full-screen perspective flip costs to draw: iNippon's page 0 (a full screen of
/// artwork and text) turned about its vertical axis with Core Animation's usual perspective
/// (`m34 = -1/500`), 24 angles from slight to nearly edge-on, each frozen and drawn as a frame is, against
/// the same page drawn flat. What it measures is the whole projected path as a render takes it: the page drawn
/// into a layer at the screen's scale (once: the layer is kept between frames while the page draws the same,
/// ``ProjectedLayerCache``), then resampled through the projection. The same angles about the horizontal axis
/// and about a tilted one (x and y alike) measure the other two resamplers: a turn about either of the
/// page's axes is resampled in two passes along them, any other turn by the general sampler (with the
/// halvings it needs).
public struct PerspectiveBenchmark {
    public var runs: Int
    public var scale: Int
    public var assetsDirectory: String

    public init(assetsDirectory: String, runs: Int = 5, scale: Int = 2) {
        self.assetsDirectory = assetsDirectory
        self.runs = max(1, runs)
        self.scale = scale
    }

    public struct Result: Sendable {
        /// The frame in pixels.
        public var width: Int, height: Int
        /// Frames per run.
        public var frames: Int
        /// Median seconds per frame turned about the vertical axis (the flip the target is for), about the
        /// horizontal axis, about a tilted axis, and flat.
        public var turnedSeconds: Double, horizontalSeconds: Double, tiltedSeconds: Double, flatSeconds: Double
    }

    public static let frames = 24

    public func run() throws -> Result {
        var screen = try BenchmarkPage(assetsDirectory: assetsDirectory, scale: scale)
        screen.root.backgroundColor = .black
        let page = screen.page
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500
        // About the vertical axis, the horizontal one, and a tilted one.
        let axes: [(x: Double, y: Double)] = [(0, 1), (1, 0), (1, 1)]
        var turned: [[Double]] = axes.map { _ in [] }, flat: [Double] = []
        for _ in 0..<runs {
            for i in 0..<Self.frames {
                let angle = Double(i + 1) / Double(Self.frames + 1) * (Double.pi / 2) * 0.95
                for (k, axis) in axes.enumerated() {
                    page.transform3D = Transform3D(rotationAngle: angle, x: axis.x, y: axis.y, z: 0).concatenating(perspective)
                    turned[k].append(ReferenceBenchmark.seconds { screen.draw() })
                }
                page.transform3D = .identity
                flat.append(ReferenceBenchmark.seconds { screen.draw() })
            }
        }
        return Result(width: screen.frame.width, height: screen.frame.height, frames: Self.frames,
                      turnedSeconds: ReferenceBenchmark.median(turned[0]), horizontalSeconds: ReferenceBenchmark.median(turned[1]),
                      tiltedSeconds: ReferenceBenchmark.median(turned[2]), flatSeconds: ReferenceBenchmark.median(flat))
    }
}
