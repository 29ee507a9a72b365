import Motion
import PNGIO
import RasterCore
import SnapshotView

/// The reference benchmark scene (`shared/bench/SCENE.md`) as a painter-level display list: the same
/// pixels any renderer must produce, with no view tree in between, so that drawing speed can be
/// measured against the physical limit and against other renderers.
///
/// 375x667 points, 30 frames; frame i has t = i/29 and progress p = easeInEaseOut(t). A table of 12 rows
/// fades out while the selected row (row 3) grows into the whole table area, under a black smokescreen
/// at alpha 0.3.
public struct ReferenceScene: Sendable {
    /// Canvas size in points.
    public static let pointSize = Size(width: 375, height: 667)
    /// Frames in the animation; the first is t = 0, the last t = 1.
    public static let frameCount = 30
    /// The asset, relative to the assets folder.
    public static let thumbnailAsset = "reference/thumb_200.png"

    static let navigationBar = Rect(x: 0, y: 0, width: 375, height: 64)
    static let tableFrame = Rect(x: 0, y: 64, width: 375, height: 603)
    static let rowHeight = 60.0, rowCount = 12, selectedRow = 3
    static let navigationBarColor = Color(red8: 0, green8: 122, blue8: 255)
    static let separatorColor = Color(red8: 198, green8: 198, blue8: 200)
    static let highlightColor = Color(red8: 209, green8: 209, blue8: 214)
    static let smokescreenColor = Color(white: 0, alpha: 0.3)

    /// The row thumbnail (200x200 pixels in the shipped asset).
    public let thumbnail: Bitmap

    /// A scene drawing `thumbnail` in every row.
    public init(thumbnail: Bitmap) { self.thumbnail = thumbnail }

    /// Loads the scene's asset from an assets folder.
    public init(assetsDirectory: String) throws {
        thumbnail = try PNGCodec.read(contentsOf: assetsDirectory + "/" + ReferenceScene.thumbnailAsset)
    }

    /// Progress of frame `index`: easeInEaseOut at t = index / 29.
    public static func progress(frame index: Int) -> Double {
        TimingCurve.easeInEaseOut.progress(at: Double(index) / Double(frameCount - 1))
    }

    /// Renders one frame into a new opaque bitmap at `scale` (pixels per point).
    public func render(frame index: Int, scale: Double) throws -> Bitmap {
        var bitmap = try Bitmap(pointSize: ReferenceScene.pointSize, scale: scale)
        bitmap.draw { draw(frame: index, with: $0) }
        return bitmap
    }

    /// Draws frame `index` with `painter`, whose user space is the scene's points.
    public func draw(frame index: Int, with painter: Painter) {
        draw(progress: ReferenceScene.progress(frame: index), with: painter)
    }

    /// Draws the scene at progress `p` (0…1, after the curve) with `painter`: ``operations(progress:)``,
    /// in order, without what later ones cover opaquely (`DrawingOperation.draw(_:in:)`).
    public func draw(progress p: Double, with painter: Painter) {
        DrawingOperation.draw(operations(progress: p), in: painter)
    }

    /// The scene at progress `p` (0…1, after the curve) as its display list, in the scene's points: what
    /// ``draw(progress:with:)`` draws, and what the reference renderer of the tests draws again.
    public func operations(progress p: Double) -> [DrawingOperation] {
        let start = Rect(x: 0, y: ReferenceScene.tableFrame.minY + ReferenceScene.rowHeight * Double(ReferenceScene.selectedRow),
                         width: 375, height: ReferenceScene.rowHeight)
        let end = ReferenceScene.tableFrame
        let frame = Rect(x: start.minX + (end.minX - start.minX) * p, y: start.minY + (end.minY - start.minY) * p,
                         width: start.width + (end.width - start.width) * p, height: start.height + (end.height - start.height) * p)
        // The rows' two children never overlap, so per-child alpha gives exactly what group opacity
        // would, without an offscreen layer.
        let rows = (0..<ReferenceScene.rowCount).filter { $0 != ReferenceScene.selectedRow }.flatMap { row in
            rowContent(in: Rect(x: 0, y: ReferenceScene.tableFrame.minY + ReferenceScene.rowHeight * Double(row), width: 375,
                                height: ReferenceScene.rowHeight))
        }
        return [
            .rect(Rect(origin: .zero, size: ReferenceScene.pointSize), .white),
            .rect(ReferenceScene.navigationBar, ReferenceScene.navigationBarColor),
            .clippedToRect(ReferenceScene.tableFrame,
                           [.faded(1 - p, rows), .rect(frame, ReferenceScene.highlightColor)] + rowContent(in: frame)),
            .rect(Rect(origin: .zero, size: ReferenceScene.pointSize), ReferenceScene.smokescreenColor),
        ]
    }

    /// A row's separator (its bottom point, from x = 16 to the right edge) and its 44x44 thumbnail at
    /// (16, 8) with corner radius 8.
    private func rowContent(in row: Rect) -> [DrawingOperation] {
        let thumb = Rect(x: row.minX + 16, y: row.minY + 8, width: 44, height: 44)
        return [
            .rect(Rect(x: row.minX + 16, y: row.maxY - 1, width: row.width - 16, height: 1), ReferenceScene.separatorColor),
            .clippedToPath(Path(roundedRect: thumb, cornerRadius: 8), [.image(thumbnail, thumb)]),
        ]
    }
}
