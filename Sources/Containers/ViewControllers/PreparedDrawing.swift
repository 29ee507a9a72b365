import RasterCore
import SnapshotView

/// A drawing whose operations are made once, for the bounds its view has, and made again only for other
/// bounds: for shapes that cost more to build than to fill (stroke outlines: chevrons, checkmarks, the
/// status bar's icons) in a view that keeps its size, so that they are not outlined again at every frame.
struct PreparedDrawing<Source: OperationContent>: OperationContent {
    let source: Source
    /// The bounds (points) ``prepared`` was made for.
    let bounds: Rect
    let prepared: [DrawingOperation]

    /// `source`'s operations for `bounds`, made now.
    init(_ source: Source, for bounds: Rect) {
        self.source = source
        self.bounds = bounds
        prepared = source.operations(in: bounds)
    }

    func operations(in bounds: Rect) -> [DrawingOperation] { bounds == self.bounds ? prepared : source.operations(in: bounds) }
    func extent(in bounds: Rect) -> Rect { source.extent(in: bounds) }
    var isSingleShape: Bool { source.isSingleShape }
}
