import RasterCore

/// A frozen tree as plain data in device pixels: everything a frame draws, for another engine to draw
/// the same frame (`smokescreen inspect --json --render-tree`, and the reference-renderer test).
///
/// Each node carries the affine from its bounds (points) to the frame's pixels, so a reader needs no
/// view geometry. Images (image views, snapshots) are listed once each in ``images`` and named by
/// ``imageFileName(_:)``; a node's content says which one and the affine from the image's pixels to the
/// frame's pixels. Labels are exported as their text box only (another engine lays text out and hints
/// it differently); ``textBoxes`` are those boxes in frame pixels, for masking. Custom drawings that are
/// ``OperationContent`` are exported as their shapes; any other content as a raster that Smokescreen
/// draws alone, through the node's own transform, into a transparent image placed at a whole-pixel
/// offset (`kind: "raster"`): the reference then checks its placement, clip and opacity, not its pixels.
public struct DrawnTree: Sendable, Encodable {
    /// The frame's size in pixels and its scale (pixels per point).
    public var width: Int, height: Int, scale: Double
    /// The tree; nil when nothing is drawn.
    public var root: DrawnNode?
    /// Every image the tree draws, once; content refers to them by ``imageFileName(_:)``.
    public var images: [Bitmap]
    /// Each label's text box in frame pixels (rounded out, one pixel more on every side, within the
    /// clips around it as far as they are rectangles): where another engine's text may differ.
    public var textBoxes: [PixelRect]

    /// The file name of image `index` (PNG, straight alpha).
    public static func imageFileName(_ index: Int) -> String { "image-\(index).png" }

    enum CodingKeys: String, CodingKey { case width, height, scale, root, images, textBoxes }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(scale, forKey: .scale)
        try c.encodeIfPresent(root, forKey: .root)
        try c.encode(images.indices.map(Self.imageFileName), forKey: .images)
        try c.encode(textBoxes.map { [$0.x, $0.y, $0.width, $0.height] }, forKey: .textBoxes)
    }
}

/// One node of a ``DrawnTree``, drawn as `RenderNode.draw(in:)` draws it: background (rounded), then,
/// clipped to the (rounded) bounds when ``clipsToBounds``, the content and the children (content rounded as
/// the background is, a gradient, comes as a raster already rounded), then the border on top; as one group
/// blended once with ``alpha`` when ``group`` is true, otherwise with ``alpha`` multiplied into everything it
/// draws.
public struct DrawnNode: Sendable, Encodable {
    public var name: String?
    /// `[a, b, c, d, tx, ty]` (CGAffineTransform's order): the node's bounds coordinates (points) to
    /// frame pixels.
    public var transform: [Double]
    /// `[x, y, width, height]`, points, in the node's own coordinates.
    public var bounds: [Double]
    /// The node's own alpha (0…1]; the root's is not applied (a frame draws the root's body).
    public var alpha: Double
    /// Whether the subtree is drawn into an offscreen layer blended once with ``alpha``.
    public var group: Bool
    /// For a group, the pixel box `[x, y, width, height]` its layer is clipped to (what it can touch).
    public var groupClip: [Int]?
    /// Straight `[r, g, b, a]` in sRGB-encoded 0…1, or nil.
    public var background: [Double]?
    /// Points; fitted to the bounds by the CSS rule (radii along a side scaled down to fit it).
    public var cornerRadius: Double
    public var clipsToBounds: Bool
    /// `{width (points), color}`, drawn inside the bounds; nil when none.
    public var border: DrawnBorder?
    public var content: DrawnContent?
    /// Back to front.
    public var children: [DrawnNode]
    /// The material drawn first over what is behind (`{sigma (points), saturation, tint}`), or nil: what
    /// is behind is the frame drawn so far, which the reference renderer does not blur (no built-in has
    /// one), so it is described for `inspect --render-tree` only.
    public var backdrop: DrawnBackdrop?
}

/// A view's backdrop material in a ``DrawnNode``.
public struct DrawnBackdrop: Sendable, Encodable {
    /// The blur's standard deviation, points.
    public var sigma: Double
    public var saturation: Double
    /// Straight `[r, g, b, a]` in sRGB-encoded 0…1.
    public var tint: [Double]
}

/// A border: a band `width` points wide inside the bounds, its inner corners `radius − width`.
public struct DrawnBorder: Sendable, Encodable {
    public var width: Double
    public var color: [Double]
}

/// What a node draws itself.
public struct DrawnContent: Sendable, Encodable {
    /// `image`, `text`, `operations` or `raster`.
    public var kind: String
    /// The Swift type that draws it (`ImageContent`, `TextContent`, `PaperDrawing`, …).
    public var type: String
    /// `image` and `raster`: the image's file name (``DrawnTree/imageFileName(_:)``).
    public var image: String?
    /// `image`: `[a, b, c, d, tx, ty]` from the image's pixels to frame pixels; the image covers its
    /// pixel rectangle, edges anti-aliased, sampled bilinearly at pixel centres, clamped at its edges.
    /// `raster`: a whole-pixel translation, drawn as is.
    public var imageTransform: [Double]?
    /// `image`, `raster`: how the image is sampled: `bilinear` (on premultiplied pixels, at pixel centres;
    /// at a whole-pixel translation that is an exact copy), Smokescreen's only filter.
    public var filter: String?
    /// `text`: the text box `[x, y, width, height]` in the node's bounds coordinates (the text is clipped
    /// to it).
    public var box: [Double]?
    /// `operations`: the shapes, back to front, in the node's bounds coordinates.
    public var operations: [DrawnOperation]?
    /// `raster`: why the content is pixels rather than geometry.
    public var note: String?
    /// `operations` drawn through a backing store (a ``DrawingView`` landing between device pixels, see
    /// ``View/drawsContentIntoBackingStore``): draw the operations with ``DrawnBackingStore/transform``
    /// into a transparent image of its size, then draw that image as an `image` content is drawn, with
    /// its ``DrawnBackingStore/imageTransform``. Nil when the operations are drawn straight.
    public var backingStore: DrawnBackingStore?
}

/// A backing store: an offscreen image on the node's own pixel grid.
public struct DrawnBackingStore: Sendable, Encodable {
    /// Its size in pixels.
    public var width: Int, height: Int
    /// `[a, b, c, d, tx, ty]`: the node's bounds coordinates (points) to the store's pixels.
    public var transform: [Double]
    /// `[a, b, c, d, tx, ty]`: the store's pixels to frame pixels.
    public var imageTransform: [Double]
}

/// A ``DrawingOperation`` as data.
public struct DrawnOperation: Sendable, Encodable {
    /// `rect`, `roundedRect`, `path`, `image`, `imageTransform`, `clipRect`, `clipPath`, `fade`,
    /// `transform` or `layer` (the operations inside drawn into one layer composited once, the clip
    /// around it applied to the layer only).
    public var op: String
    /// `rect`, `roundedRect`, `image` (where it is stretched to), `clipRect`: `[x, y, width, height]`.
    public var rect: [Double]?
    /// `roundedRect`: `[topLeft, topRight, bottomRight, bottomLeft]`, not yet fitted.
    public var radii: [Double]?
    /// `path`, `clipPath`: SVG-like path data: `M x y`, `L x y`, `Q cx cy x y`, `C c1x c1y c2x c2y x y`,
    /// `Z`; filled (or clipped to) under the non-zero rule, every subpath closed.
    public var path: String?
    /// Straight `[r, g, b, a]` of a fill.
    public var color: [Double]?
    /// `image`: its file name (``DrawnTree/imageFileName(_:)``); drawn stretched to `rect`, bilinear.
    public var image: String?
    /// `fade`: the factor the alpha is multiplied by (each operation blended on its own).
    public var alpha: Double?
    /// `imageTransform`: `[a, b, c, d, tx, ty]` from the image's pixels to the drawing's coordinates (the
    /// image covers its pixel rectangle, sampled bilinearly, clamped at its edges); `transform`: what the
    /// operations inside are moved by.
    public var transform: [Double]?
    /// `clipRect`, `clipPath`, `fade`, `transform`, `layer`: the operations inside.
    public var operations: [DrawnOperation]?

    init(_ operation: DrawingOperation, images: (Bitmap) -> String) {
        func rect(_ r: Rect) -> [Double] { let s = r.standardized; return [s.minX, s.minY, s.width, s.height] }
        func inner(_ ops: [DrawingOperation]) -> [DrawnOperation] { ops.map { DrawnOperation($0, images: images) } }
        switch operation {
        case .rect(let r, let c):
            op = "rect"; self.rect = rect(r); color = DrawnOperation.rgba(c)
        case .roundedRect(let r, let radii, let c):
            op = "roundedRect"; self.rect = rect(r); color = DrawnOperation.rgba(c)
            self.radii = [radii.topLeft, radii.topRight, radii.bottomRight, radii.bottomLeft]
        case .path(let p, let c):
            op = "path"; color = DrawnOperation.rgba(c); path = DrawnOperation.data(p)
        case .image(let bitmap, let r):
            op = "image"; self.rect = [r.minX, r.minY, r.width, r.height]; image = images(bitmap)
        case .clippedToRect(let r, let ops):
            op = "clipRect"; self.rect = rect(r); operations = inner(ops)
        case .clippedToPath(let p, let ops):
            op = "clipPath"; path = DrawnOperation.data(p); operations = inner(ops)
        case .faded(let factor, let ops):
            op = "fade"; alpha = factor; operations = inner(ops)
        case .imageOnce(let bitmap, let placement):
            op = "imageTransform"; image = images(bitmap)
            transform = DrawnOperation.array(Transform2D(scaleX: 1 / bitmap.scale, y: 1 / bitmap.scale).concatenating(placement))
        case .transformed(let t, let ops):
            op = "transform"; transform = DrawnOperation.array(t); operations = inner(ops)
        case .layer(let ops):
            op = "layer"; operations = inner(ops)
        }
    }

    static func data(_ p: Path) -> String {
        p.elements.map { e -> String in
            func n(_ v: Double) -> String { "\(v)" }
            switch e {
            case .move(let p): return "M \(n(p.x)) \(n(p.y))"
            case .line(let p): return "L \(n(p.x)) \(n(p.y))"
            case .quadCurve(let p, let c): return "Q \(n(c.x)) \(n(c.y)) \(n(p.x)) \(n(p.y))"
            case .curve(let p, let c1, let c2): return "C \(n(c1.x)) \(n(c1.y)) \(n(c2.x)) \(n(c2.y)) \(n(p.x)) \(n(p.y))"
            case .close: return "Z"
            }
        }.joined(separator: " ")
    }

    static func rgba(_ c: Color) -> [Double] { [c.red, c.green, c.blue, c.alpha] }
    static func array(_ t: Transform2D) -> [Double] { [t.a, t.b, t.c, t.d, t.tx, t.ty] }
}

extension RenderNode {
    /// This tree as a frame of `width`×`height` pixels at `scale` draws it (as `ViewRenderer.draw`
    /// does: the node's body with its bounds at the top-left), as data. See ``DrawnTree``.
    ///
    /// `images` are those of earlier frames written to the same folder: the tree's ``DrawnTree/images``
    /// start with them, so that an image drawn again keeps its name and only the new ones, from index
    /// `images.count` on, need writing.
    public func drawnDescription(width: Int, height: Int, scale: Double, sharing images: [Bitmap] = []) -> DrawnTree {
        var tree = DrawnTree(width: width, height: height, scale: scale, root: nil, images: images, textBoxes: [])
        let device = Transform2D(translationX: -bounds.minX, y: -bounds.minY).concatenating(Transform2D(scaleX: scale, y: scale))
        let canvas = PixelRect(x: 0, y: 0, width: width, height: height)
        tree.root = describe(device: device, isRoot: true, clip: canvas, tree: &tree)
        return tree
    }

    private func describe(device: Transform2D, isRoot: Bool, clip outer: PixelRect, tree: inout DrawnTree) -> DrawnNode {
        let group = !isRoot && alpha < 1 && drawCount > 1
        var clip = outer
        var groupClip: [Int]?
        if group, device.preservesAxisAlignment, let box = PixelRect(enclosing: device.apply(to: visualBounds)) {
            groupClip = [box.x, box.y, box.width, box.height]
            clip = clip.intersection(box)
        }
        var inner = clip
        if clipsToBounds, let box = PixelRect(enclosing: device.apply(to: bounds)) { inner = inner.intersection(box) }

        var drawn: DrawnContent?
        if let content {
            drawn = describe(content, device: device, clip: inner, tree: &tree)
        }
        let children = self.children.filter { $0.drawCount > 0 && $0.isDoubleSided }.compactMap { child -> DrawnNode? in
            if child.projection != nil || child.mask != nil || child.shadow != nil || child.vibrancy != nil || (child.cornerRadius > 0 && (child.roundedCorners != .all || child.cornerCurve != .circular)) { return child.describeAlone(parentDevice: device, clip: inner, tree: &tree) }
            return child.describe(device: child.transformToParent.concatenating(device), isRoot: false, clip: inner, tree: &tree)
        }
        return DrawnNode(
            name: name,
            transform: [device.a, device.b, device.c, device.d, device.tx, device.ty],
            bounds: [bounds.minX, bounds.minY, bounds.width, bounds.height],
            alpha: isRoot ? 1 : alpha, group: group, groupClip: groupClip,
            background: backgroundColor.map(DrawnOperation.rgba),
            cornerRadius: cornerRadius, clipsToBounds: clipsToBounds,
            border: drawsBorder ? DrawnBorder(width: borderWidth, color: DrawnOperation.rgba(borderColor)) : nil,
            content: drawn, children: children,
            backdrop: backdrop.isVisible ? DrawnBackdrop(sigma: backdrop.sigma, saturation: backdrop.saturation, tint: DrawnOperation.rgba(backdrop.tint)) : nil)
    }

    /// A node drawn through a perspective projection, a mask or with a shadow, as Smokescreen's pixels of it alone (a
    /// `raster` content at a whole-pixel offset, with its opacity applied): the reference checks its
    /// placement and clip; the projection is checked against another renderer on its own, and a mask is
    /// the clip machinery the reference checks elsewhere.
    private func describeAlone(parentDevice: Transform2D, clip: PixelRect, tree: inout DrawnTree) -> DrawnNode? {
        let window = Rect(x: Double(clip.x), y: Double(clip.y), width: Double(clip.width), height: Double(clip.height))
        let reach = projection.map { $0.concatenating(parentDevice).boundingBox(of: visualBounds, within: window) }
            ?? transformToParent.concatenating(parentDevice).apply(to: visualBounds)
        guard let box = PixelRect(enclosing: reach)?.intersection(clip),
              let raster = Self.drawnAlone(over: box, scale: tree.scale, device: parentDevice, draw(in:)) else { return nil }
        let type = projection != nil ? "projected layer" : mask != nil ? "masked layer" : shadow != nil ? "shadowed layer"
            : vibrancy != nil ? "vibrant layer" : "layer with continuous corners or rounded at some"
        return DrawnNode(
            name: name, transform: [1, 0, 0, 1, 0, 0],
            bounds: [Double(box.x), Double(box.y), Double(box.width), Double(box.height)],
            alpha: 1, group: false, groupClip: nil, background: nil, cornerRadius: 0, clipsToBounds: false, border: nil,
            content: DrawnContent(kind: "raster", type: type, image: Self.add(raster, to: &tree),
                                  imageTransform: [1, 0, 0, 1, Double(box.x), Double(box.y)], filter: "bilinear",
                                  note: "a \(type) (perspective, a mask, a shadow, vibrancy or some corners rounded): Smokescreen's pixels of it alone"),
            children: [])
    }

    private func describe(_ content: any ViewContent, device: Transform2D, clip: PixelRect, tree: inout DrawnTree) -> DrawnContent? {
        let type = String(describing: Swift.type(of: content))
        // Content rounded on its own (a gradient) is rounded as drawBody rounds it: in its pixels.
        let rounds = roundsContent(content)
        if let image = content as? ImageContent {
            let rect = image.contentMode.placement(of: ImageView.pointSize(of: image.image), in: bounds)
            guard rect.isFinite, !rect.isEmpty else { return nil }
            let toDevice = Transform2D(scaleX: rect.width / Double(image.image.width), y: rect.height / Double(image.image.height))
                .concatenating(Transform2D(translationX: rect.minX, y: rect.minY)).concatenating(device)
            return DrawnContent(kind: "image", type: type, image: Self.add(image.image, to: &tree),
                                imageTransform: [toDevice.a, toDevice.b, toDevice.c, toDevice.d, toDevice.tx, toDevice.ty], filter: "bilinear")
        }
        if content is TextContent {
            if let box = PixelRect(enclosing: device.apply(to: bounds)) {
                let grown = PixelRect(x: box.x - 1, y: box.y - 1, width: box.width + 2, height: box.height + 2).intersection(clip)
                if !grown.isEmpty { tree.textBoxes.append(grown) }
            }
            return DrawnContent(kind: "text", type: type, box: [bounds.minX, bounds.minY, bounds.width, bounds.height])
        }
        // Content drawn through a backing store (a DrawingView between device pixels): its shapes on the
        // store's grid, and the store placed as an image.
        var store: BackingStorePlacement?
        switch backingStoreDecision(for: content, device: device, scale: tree.scale, clip: clip) {
        case .nothing: return nil
        case .direct: break
        case .store(let placement): store = placement
        }
        if let shapes = content as? any OperationContent {
            let onto = store.map { $0.boundsToStore(bounds) } ?? device
            let operations = shapes.operations(in: bounds, device: onto).map { DrawnOperation($0) { Self.add($0, to: &tree) } }
            var drawn = DrawnContent(kind: "operations", type: type, operations: operations)
            if let store {
                drawn.backingStore = DrawnBackingStore(width: store.width, height: store.height, transform: DrawnOperation.array(onto),
                                                       imageTransform: DrawnOperation.array(store.storeToDevice))
            }
            return drawn
        }
        if let store, var raster = try? Bitmap(width: store.width, height: store.height, scale: store.scale) {
            raster.draw { painter in
                painter.translate(x: -bounds.minX - store.x0 / store.scale, y: -bounds.minY - store.y0 / store.scale)
                if rounds { painter.clip(to: roundedBounds) }
                content.draw(in: painter, bounds: bounds)
            }
            return DrawnContent(kind: "raster", type: type, image: Self.add(raster, to: &tree),
                                imageTransform: DrawnOperation.array(store.storeToDevice), filter: "bilinear",
                                note: "\(type) draws with more than filled shapes (no OperationContent): Smokescreen's backing store of it alone")
        }
        // Anything else: Smokescreen's own pixels of the content alone, where they land in the frame.
        guard let box = PixelRect(enclosing: device.apply(to: content.extent(in: bounds)))?.intersection(clip), !box.isEmpty,
              var raster = try? Bitmap(width: box.width, height: box.height, scale: 1) else { return nil }
        raster.draw { painter in
            painter.translate(x: Double(-box.x), y: Double(-box.y))
            painter.concatenate(device)
            if rounds { painter.clip(to: roundedBounds) }
            content.draw(in: painter, bounds: bounds)
        }
        return DrawnContent(kind: "raster", type: type, image: Self.add(raster, to: &tree),
                            imageTransform: [1, 0, 0, 1, Double(box.x), Double(box.y)], filter: "bilinear",
                            note: "\(type) draws with more than filled shapes (no OperationContent): Smokescreen's pixels of it alone")
    }

    private static func add(_ image: Bitmap, to tree: inout DrawnTree) -> String {
        if let i = tree.images.firstIndex(where: { $0 == image }) { return DrawnTree.imageFileName(i) }
        tree.images.append(image)
        return DrawnTree.imageFileName(tree.images.count - 1)
    }
}
