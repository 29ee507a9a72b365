import Containers
import Foundation
import RasterCore
import SnapshotView

/// What a frame of a full-screen perspective flip costs to draw: iNippon's page 0 (a full screen of
/// artwork and text) turned about its vertical axis with Core Animation's usual perspective
/// (`m34 = -1/500`), 24 angles from slight to nearly edge-on, each frozen and drawn as a frame is, against
/// the same page drawn flat. What it measures is the whole projected path: the page drawn into a layer at
/// the screen's scale, then resampled through the projection (with the halvings a turn needs).
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
        /// Median seconds per turned frame and per flat frame.
        public var turnedSeconds: Double, flatSeconds: Double
    }

    public static let frames = 24

    public func run() throws -> Result {
        var screen = try BenchmarkPage(assetsDirectory: assetsDirectory, scale: scale)
        screen.root.backgroundColor = .black
        let page = screen.page
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500
        var turned: [Double] = [], flat: [Double] = []
        for _ in 0..<runs {
            for i in 0..<Self.frames {
                let angle = Double(i + 1) / Double(Self.frames + 1) * (Double.pi / 2) * 0.95
                page.transform3D = Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0).concatenating(perspective)
                turned.append(ReferenceBenchmark.seconds { screen.draw() })
                page.transform3D = .identity
                flat.append(ReferenceBenchmark.seconds { screen.draw() })
            }
        }
        return Result(width: screen.frame.width, height: screen.frame.height, frames: Self.frames,
                      turnedSeconds: ReferenceBenchmark.median(turned), flatSeconds: ReferenceBenchmark.median(flat))
    }
}
