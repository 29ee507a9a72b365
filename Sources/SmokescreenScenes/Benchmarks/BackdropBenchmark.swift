import Containers
import Foundation
import RasterCore
import SnapshotView

/// What a blurred bar costs a frame: iNippon's page 0 (a full screen of artwork and text) moving up a
/// point a frame under a 64-pt bar with the system material (what is behind blurred by σ 10 pt, saturation
/// 1.8, white at 65 % over it), frozen and drawn as frames are, against the same frames with the bar a
/// plain translucent white. The page moves, so nothing under the bar can be kept between frames.
public struct BackdropBenchmark {
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
        /// Median seconds per frame with the blurred bar and with the plain one.
        public var blurredSeconds: Double, plainSeconds: Double
    }

    public static let frames = 24

    /// The material: `UIBlurEffect(style: .systemMaterialLight)`'s.
    static let material = Backdrop(sigma: 10, saturation: 1.8, tint: Color(white: 1, alpha: 0.65))

    public func run() throws -> Result {
        var screen = try BenchmarkPage(assetsDirectory: assetsDirectory, scale: scale)
        let size = INipponPagesTransition.pageSize
        let bar = View(frame: Rect(x: 0, y: 0, width: size.width, height: 64), name: "bar")
        try screen.root.addSubview(bar)
        var blurred: [Double] = [], plain: [Double] = []
        for _ in 0..<runs {
            for k in 0..<Self.frames {
                screen.page.center = Point(x: size.width / 2, y: size.height / 2 - Double(k))
                bar.backdrop = Self.material
                bar.backgroundColor = nil
                blurred.append(ReferenceBenchmark.seconds { screen.draw() })
                bar.backdrop = .none
                bar.backgroundColor = Self.material.tint
                plain.append(ReferenceBenchmark.seconds { screen.draw() })
            }
        }
        return Result(width: screen.frame.width, height: screen.frame.height, frames: Self.frames,
                      blurredSeconds: ReferenceBenchmark.median(blurred), plainSeconds: ReferenceBenchmark.median(plain))
    }
}
