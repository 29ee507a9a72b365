import RasterCore

extension View {
    /// Renders the view's bounds and its subtree (not its superview) into a new bitmap of
    /// `bounds.size × scale` pixels (rounded up), transparent where nothing is drawn; through the view's
    /// `mask`, when it has one (as a snapshot of a masked view shows it).
    ///
    /// The view's own alpha, `isHidden`, transform and position are how it is placed in its superview,
    /// so they do not affect its snapshot (as with `renderInContext`); those of its subviews do.
    ///
    /// - Parameters:
    ///   - scale: pixels per point (1, 2, 3…).
    ///   - clearBackground: when true, `backgroundColor` and `isOpaque` are set to clear and not opaque
    ///     while rendering and restored afterwards, also when rendering throws. Default false.
    ///   - presentation: where animated values come from; default the model values.
    /// - Throws: ``ViewTreeError/unrenderable(view:reason:)`` when the bounds are empty, not finite, or
    ///   too large for a bitmap.
    public func snapshot(scale: Double, clearBackground: Bool = false,
                         presentation: some PresentationSource = ModelPresentation()) throws -> Bitmap {
        try snapshotWithOpacity(scale: scale, clearBackground: clearBackground, presentation: presentation).bitmap
    }

    /// ``snapshot(scale:clearBackground:presentation:)``, and whether the tree was known to paint every
    /// pixel opaquely (then the snapshot is opaque without looking at its pixels).
    func snapshotWithOpacity(scale: Double, clearBackground: Bool,
                             presentation: some PresentationSource) throws -> (bitmap: Bitmap, opaque: Bool) {
        let pending = try pendingSnapshot(scale: scale, clearBackground: clearBackground, presentation: presentation)
        return (try pending.draw(), pending.opaque)
    }

    /// A snapshot in two steps: the tree frozen now, on the thread that owns the views, with its size
    /// checked; the pixels drawn later, on any thread (``PendingSnapshot/draw()``).
    /// - Throws: ``ViewTreeError/unrenderable(view:reason:)`` as ``snapshot(scale:clearBackground:presentation:)``.
    package func pendingSnapshot(scale: Double, clearBackground: Bool,
                                 presentation: some PresentationSource = ModelPresentation()) throws -> PendingSnapshot {
        let savedColor = backgroundColor, savedOpaque = isOpaque
        if clearBackground {
            // Not an animatable change: nothing observing must see it.
            ViewChangeObservation.withoutObserver { backgroundColor = nil }
            isOpaque = false
        }
        defer {
            if clearBackground {
                ViewChangeObservation.withoutObserver { backgroundColor = savedColor }
                isOpaque = savedOpaque
            }
        }
        let node = snapshotNode(presentation: presentation, clearBackground: clearBackground)
        let size: (width: Int, height: Int)
        do {
            size = try Bitmap.pixelSize(of: node.bounds.size, scale: scale)
        } catch {
            throw ViewTreeError.unrenderable(view: label, reason: "\(error)")
        }
        return PendingSnapshot(node: node, width: size.width, height: size.height, scale: scale, label: label,
                               opaque: node.paintsEveryPixel(of: PixelRect(x: 0, y: 0, width: size.width, height: size.height), scale: scale))
    }

    /// The one colour every pixel of ``snapshot(scale:clearBackground:presentation:)`` would hold, when the
    /// tree shows it without drawing (``PendingSnapshot/fill``); nil otherwise, though the pixels may
    /// still be one colour, and nil for a tree too large to snapshot.
    package func snapshotFill(scale: Double, presentation: some PresentationSource = ModelPresentation()) -> Color? {
        (try? pendingSnapshot(scale: scale, clearBackground: false, presentation: presentation))?.fill
    }

    /// An image view showing ``snapshot(scale:clearBackground:presentation:)``, with this view's centre,
    /// bounds size and transform, so that in this view's superview it covers exactly what the view
    /// covers. Not yet in any tree: place it elsewhere (in a smokescreen) at a converted rect.
    public func snapshotView(scale: Double, clearBackground: Bool = false,
                             presentation: some PresentationSource = ModelPresentation()) throws -> ImageView {
        let (view, pending) = try pendingSnapshotView(scale: scale, clearBackground: clearBackground, presentation: presentation)
        view.setSnapshot(try pending.draw(), opaque: pending.opaque)
        return view
    }

    /// ``snapshotView(scale:clearBackground:presentation:)`` without its image yet: the image view, placed
    /// as that one is, and the snapshot to draw and give it (``ImageView/setSnapshot(_:opaque:)``).
    package func pendingSnapshotView(scale: Double, clearBackground: Bool = false,
                                     presentation: some PresentationSource = ModelPresentation()) throws -> (ImageView, PendingSnapshot) {
        let pending = try pendingSnapshot(scale: scale, clearBackground: clearBackground, presentation: presentation)
        // Geometry from the same presentation as the pixels, so the image is never stretched.
        func value(_ p: ViewProperty) -> AnimatableValue { presentation.presentationValue(of: p, of: self, model: modelValue(of: p)) }
        let size = value(.bounds).rectValue?.size ?? bounds.size
        let view = ImageView(image: nil, frame: Rect(origin: .zero, size: size), contentMode: .scaleToFill,
                             name: name.map { "snapshot of \($0)" })
        ViewChangeObservation.withoutObserver {
            view.center = value(.center).pointValue ?? center
            view.transform = value(.transform).transformValue ?? transform
        }
        return (view, pending)
    }
}

/// A view tree frozen for a snapshot, drawn when asked, on any thread
/// (``View/pendingSnapshot(scale:clearBackground:presentation:)``).
package struct PendingSnapshot: Sendable {
    let node: RenderNode
    /// The snapshot's size in pixels, checked against the bitmap limits.
    package let width: Int, height: Int
    /// Pixels per point.
    package let scale: Double
    let label: String
    /// Whether the tree paints every pixel opaquely: then the snapshot is opaque without reading it.
    package let opaque: Bool

    /// The one colour every pixel of the snapshot would hold, when the tree shows it without drawing: an
    /// opaque background with square corners over bounds of whole pixels, and nothing else drawn (no
    /// content, no border, no subview that draws). Nil otherwise, though the pixels may still be one colour.
    package var fill: Color? {
        let size = node.bounds.size
        guard let color = node.backgroundColor, color.alpha >= 1, node.radii.fitted(to: size).isZero,
              node.content == nil, !node.drawsBorder, node.children.allSatisfy({ $0.drawCount == 0 }),
              Double(width) == size.width * scale, Double(height) == size.height * scale else { return nil }
        return color
    }

    /// Draws the snapshot into a new bitmap, charged to the current ledger.
    /// - Throws: ``ViewTreeError/unrenderable(view:reason:)`` if the bitmap cannot be made (its size was
    ///   checked when the tree was frozen, so only a change of the limits in between could do it).
    package func draw() throws -> Bitmap {
        var bitmap: Bitmap
        do {
            bitmap = try Bitmap(width: width, height: height, scale: scale)
        } catch {
            throw ViewTreeError.unrenderable(view: label, reason: "\(error)")
        }
        bitmap.draw { painter in
            painter.translate(x: -node.bounds.minX, y: -node.bounds.minY)
            node.drawBodyThroughMask(in: painter)
        }
        return bitmap
    }
}

extension ImageView {
    /// Gives a snapshot view its drawn image; `opaque` when the tree was known to paint every pixel
    /// opaquely (a full-screen stage is 4 MB at @2x: not read again to learn what drawing it already told).
    package func setSnapshot(_ image: Bitmap, opaque: Bool) {
        self.image = image
        if opaque { imageIsOpaque = true }
    }
}

/// Renders whole trees.
public enum ViewRenderer {
    /// Renders `root`'s bounds with its subtree into a new bitmap, as a window shows it: the same as
    /// `root.snapshot(scale:presentation:)`.
    public static func render(_ root: View, scale: Double,
                              presentation: some PresentationSource = ModelPresentation()) throws -> Bitmap {
        try root.snapshot(scale: scale, presentation: presentation)
    }

    /// Draws a frozen tree into `bitmap` (cleared first when `clear` is true), with the node's bounds at
    /// the bitmap's top-left: what a frame of an animation is drawn with. With `layers` (default nil), the
    /// layers of nodes turned in 3-D are kept there and used again by later frames whose nodes draw the
    /// same (at most twice as many pixels as `bitmap` has: ``ProjectedLayerCache``). With `shadows` (default
    /// nil), the shadows of layers' content are kept there and used again by later frames whose nodes draw
    /// the same in the same place (at most two bytes per pixel of `bitmap`: ``ContentShadowCache``).
    public static func draw(_ node: RenderNode, into bitmap: inout Bitmap, clear: Bool = true, layers: ProjectedLayerCache? = nil,
                            shadows: ContentShadowCache? = nil) {
        // (A node that paints every pixel opaquely first leaves nothing of the clear: skip a pass over the frame.)
        if clear && !node.paintsEveryPixel(of: bitmap) { bitmap.clear() }
        let pixels = bitmap.width * bitmap.height
        ProjectedLayerCache.$current.withValue(layers.map { (cache: $0, budgetPixels: 2 * pixels) }) {
            ContentShadowCache.$current.withValue(shadows.map { (cache: $0, budgetBytes: 2 * pixels) }) {
                bitmap.draw { painter in
                    painter.translate(x: -node.bounds.minX, y: -node.bounds.minY)
                    node.drawBody(in: painter)
                }
            }
        }
    }
}
