import Containers
import Foundation
import RasterCore
import SnapshotView

/// What a frame of a full-screen perspective flip costs to draw: iNippon's page 0 (a full screen of
/// artwork and text) turned about its vertical axis with Core Animation's usual perspective
/// (`m34 = -1/500`), 24 angles from slight to nearly edge-on, each frozen and drawn as a frame is, against
/// the same page drawn flat. What it measures is the whole projected path: the page drawn into a layer at
/// the resolution its nearest corner needs, then resampled through the projection.
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
        let s = Double(scale)
        let store = try PageStore(strategy: .window, scale: s, assetsDirectory: assetsDirectory, engine: nil)
        guard let front = store.loaded[0] else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "iNippon's page 0 did not load"])
        }
        let size = INipponPagesTransition.pageSize
        let root = View(frame: Rect(origin: .zero, size: size), name: "screen")
        root.backgroundColor = .black
        let page = front.view
        page.removeFromSuperview()
        try root.addSubview(page)
        var frame = try Bitmap(width: Int((size.width * s).rounded()), height: Int((size.height * s).rounded()), scale: s)
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500
        func drawFrame() {
            guard let node = root.renderNode() else { return }
            ViewRenderer.draw(node, into: &frame)
        }
        var turned: [Double] = [], flat: [Double] = []
        for _ in 0..<runs {
            for i in 0..<Self.frames {
                let angle = Double(i + 1) / Double(Self.frames + 1) * (Double.pi / 2) * 0.95
                page.transform3D = Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0).concatenating(perspective)
                turned.append(ReferenceBenchmark.seconds { drawFrame() })
                page.transform3D = .identity
                flat.append(ReferenceBenchmark.seconds { drawFrame() })
            }
        }
        return Result(width: frame.width, height: frame.height, frames: Self.frames,
                      turnedSeconds: ReferenceBenchmark.median(turned), flatSeconds: ReferenceBenchmark.median(flat))
    }
}
