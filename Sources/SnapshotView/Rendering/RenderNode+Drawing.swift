import RasterCore

extension RenderNode {
    /// Draws the node into `painter`, whose user space is the parent's bounds coordinates (points).
    public func draw(in painter: Painter) {
        guard drawCount > 0, isDoubleSided else { return }
        if let projection {
            drawProjected(projection, in: painter)
            return
        }
        painter.save()
        defer { painter.restore() }
        painter.concatenate(transformToParent)
        if alpha < 1 && drawCount > 1 {
            // Group opacity: the subtree goes into one layer, blended once. The layer is bounded to
            // what the subtree can touch, so a small translucent view does not cost a full-size layer.
            if let box = PixelRect(enclosing: painter.transform.apply(to: visualBounds)), painter.transform.preservesAxisAlignment {
                painter.clip(toPixels: box)
            }
            // A backdrop blurs what is behind the group, so it is drawn before the group's layer begins
            // (with the node's alpha), not inside it, where nothing is behind yet.
            if backdrop.isVisible {
                painter.save()
                painter.alpha *= alpha
                drawMaskedBody(in: painter, part: .backdrop)
                painter.restore()
            }
            painter.beginLayer()
            drawMaskedBody(in: painter, part: .withoutBackdrop)
            painter.endLayer(opacity: alpha)
        } else {
            painter.alpha *= alpha
            drawMaskedBody(in: painter)
        }
    }

    /// ``drawShadowedBody(in:part:)`` through the node's ``mask`` (``throughMask(in:_:)``).
    func drawMaskedBody(in painter: Painter, part: BodyPart = .all) {
        throughMask(in: painter) { drawShadowedBody(in: painter, part: part) }
    }

    /// ``drawBody(in:)`` through the node's ``mask``, without its shadow: a snapshot of the view, which
    /// shows the view inside its bounds as it is seen, masked (a shadow falls outside them).
    func drawBodyThroughMask(in painter: Painter) {
        throughMask(in: painter) { drawBody(in: painter) }
    }

    /// `body` through the node's ``mask`` (when it has one): the mask tree is drawn alone over the pixels
    /// the node can reach within the clip, and its alpha becomes part of the clip while `body` draws.
    private func throughMask(in painter: Painter, _ body: () -> Void) {
        guard let mask else { body(); return }
        let device = painter.transform
        guard let box = PixelRect(enclosing: device.apply(to: visualBounds))?.intersection(painter.clipBoundingBox),
              let alpha = Self.drawnAlone(over: box, scale: painter.bitmap.scale, device: device, mask.draw(in:)) else { return }
        painter.save()
        defer { painter.restore() }
        painter.clip(toAlphaOf: alpha, atDevicePixel: (box.x, box.y))
        body()
    }

    /// The node's ``shadow`` (if any), then ``drawBody(in:)`` over it.
    func drawShadowedBody(in painter: Painter, part: BodyPart = .all) {
        // The shadow goes under the backdrop: with it, before a translucent group's layer (and not inside).
        if let shadow, part != .withoutBackdrop || !backdrop.isVisible { drawShadow(shadow, in: painter) }
        drawBody(in: painter, part: part)
    }

    /// Which part of a body to draw: a translucent group draws its shadow and backdrop before its layer and
    /// the rest in it.
    enum BodyPart { case all, backdrop, withoutBackdrop }

    /// Core Animation's layer shadow: the shadow path, or else the alpha of everything the body draws (drawn
    /// alone, moved by the offset), blurred by a Gaussian of standard deviation `radius` points
    /// (``Painter/fillBlurred(_:sigma:color:)``) in the shadow's colour; clipped by the bounds when the node
    /// clips to them, as `masksToBounds` clips a layer's shadow.
    func drawShadow(_ shadow: Shadow, in painter: Painter) {
        guard shadow.color.alpha > 0, shadow.radius.isFinite, shadow.radius >= 0,
              shadow.offset.width.isFinite, shadow.offset.height.isFinite else { return }
        painter.save()
        defer { painter.restore() }
        if clipsToBounds { clipToBounds(painter) }
        if let path = shadow.path {
            let covered = opaquelyCoveredPixels(under: painter)
            painter.translate(x: shadow.offset.width, y: shadow.offset.height)
            painter.fillBlurred(path, sigma: shadow.radius, color: shadow.color, excluding: covered)
            return
        }
        let device = painter.transform
        let sigmaPixels = min(shadow.radius * abs(device.determinant).squareRoot(), Painter.maxBlurSigma)
        guard sigmaPixels.isFinite else { return }
        let margin = Int((3 * sigmaPixels).rounded(.up)) + 1
        let moved = Transform2D(translationX: shadow.offset.width, y: shadow.offset.height).concatenating(device)
        let visible = painter.clipBoundingBox.grown(by: margin)
        let covered = opaquelyCoveredPixels(under: painter)
        // From Painter.minShiftedBlurSigma up, the shadow is blurred on the layer's own pixel grid (the
        // transform's translation left out) and moved to where it lands, whole pixels and a fraction
        // (BlurredAlpha.shifted): the same shadow wherever the layer moves, kept by a render while its body
        // draws the same. Whole of it, so only where most of it can be seen.
        let wx = moved.tx.rounded(.down), wy = moved.ty.rounded(.down)
        if sigmaPixels >= Painter.minShiftedBlurSigma, abs(wx) < 1e9, abs(wy) < 1e9 {
            var own = moved
            own.tx = 0; own.ty = 0
            if let reach = PixelRect(enclosing: own.apply(to: bodyBounds)), case let region = reach.grown(by: margin),
               case let (area, overflow) = region.width.multipliedReportingOverflow(by: region.height), !overflow, area <= Self.maxBackingStorePixels,
               case let seen = PixelRect(x: region.x + Int(wx), y: region.y + Int(wy), width: region.width, height: region.height).intersection(visible),
               2 * seen.width * seen.height >= area {
                let key = ContentShadowCache.Key(region: region, device: own, scale: painter.bitmap.scale, sigmaPixels: sigmaPixels)
                guard let blurred = blurredContent(over: region, device: own, scale: painter.bitmap.scale, sigmaPixels: sigmaPixels, key: key),
                      let placed = blurred.moved(x: Int(wx), y: Int(wy)) else { return }
                painter.fill(placed, shiftedBy: moved.tx - wx, moved.ty - wy, color: shadow.color, excluding: covered)
                return
            }
        }
        // Otherwise where it lands, over what can reach the clip (kept while the layer stays in place).
        guard let reach = PixelRect(enclosing: moved.apply(to: visualBounds)) else { return }
        let region = reach.grown(by: margin).intersection(visible)
        let key = ContentShadowCache.Key(region: region, device: moved, scale: painter.bitmap.scale, sigmaPixels: sigmaPixels)
        guard let blurred = blurredContent(over: region, device: moved, scale: painter.bitmap.scale, sigmaPixels: sigmaPixels, key: key) else { return }
        painter.fill(blurred, color: shadow.color, excluding: covered)
    }

    /// The alpha of the body drawn alone over `region` (device pixels) through `device`, blurred: the one an
    /// earlier frame of the render made for `key` when the body draws the same (``ContentShadowCache``).
    private func blurredContent(over region: PixelRect, device: Transform2D, scale: Double, sigmaPixels: Double,
                                key: ContentShadowCache.Key) -> BlurredAlpha? {
        let make = { () -> BlurredAlpha? in
            Self.drawnAlone(over: region, scale: scale, device: device, drawBody(in:))
                .flatMap { Painter.blurredAlpha(of: $0, atDevicePixel: (region.x, region.y), sigmaPixels: sigmaPixels) }
        }
        return ContentShadowCache.current.map { $0.cache.blurredAlpha(for: self, key: key, budget: $0.budgetBytes, make: make) } ?? make()
    }

    /// The device pixels the body's background will paint opaquely, whatever was there: the two bars of the
    /// cross inside the bounds clear of the rounded corners, on whole pixels; none when the background is
    /// not opaque, the painter blends (alpha, a mask, a blend mode) or the bounds are turned. A shadow need
    /// not be filled there.
    func opaquelyCoveredPixels(under painter: Painter) -> [PixelRect] {
        guard let backgroundColor, backgroundColor.alpha >= 1, painter.drawsOpaqueSourcesOpaquely, backdrop == .none else { return [] }
        let t = painter.transform
        guard t.preservesAxisAlignment, t.isFinite else { return [] }
        // A corner's curve reaches its radius in (a continuous one 1.528665 radii) along both sides.
        let radius = radii.fitted(to: bounds.size)
        let reach = max(radius.topLeft, radius.topRight, radius.bottomRight, radius.bottomLeft) * (cornerCurve == .continuous ? CornerCurve.continuousExtent : 1)
        // The cross's two bars (wide and tall) that avoid the corners; whole pixels inside each.
        let wide = bounds.insetBy(dx: 0, dy: min(reach, bounds.height / 2)), tall = bounds.insetBy(dx: min(reach, bounds.width / 2), dy: 0)
        return [wide, tall].compactMap { bar in
            let device = t.apply(to: bar).standardized
            guard device.isFinite, abs(device.minX) < 1e12, abs(device.minY) < 1e12, abs(device.maxX) < 1e12, abs(device.maxY) < 1e12 else { return nil }
            let x0 = Int(device.minX.rounded(.up)), y0 = Int(device.minY.rounded(.up))
            let x1 = Int(device.maxX.rounded(.down)), y1 = Int(device.maxY.rounded(.down))
            return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
        }
    }

    /// The material behind the body (``backdrop``), inside the rounded bounds; nothing when it has none.
    func drawBackdrop(in painter: Painter) {
        guard backdrop.isVisible else { return }
        let shape = cornerRadius > 0 ? roundedBounds : Path(rect: bounds)
        painter.drawBackdrop(under: shape, sigma: backdrop.sigma, saturation: backdrop.saturation, tint: backdrop.tint)
    }

    /// Clips `painter` to the bounds, rounded as the background is.
    func clipToBounds(_ painter: Painter) {
        if cornerRadius > 0 { painter.clip(to: roundedBounds) } else { painter.clip(to: bounds) }
    }

    /// Whether `content` is clipped to ``roundedBounds`` on its own: content drawn as the background is (a
    /// gradient) is rounded as the background is, where `clipsToBounds` does not round everything already.
    func roundsContent(_ content: any ViewContent) -> Bool { content.roundsWithCorners && !clipsToBounds && cornerRadius > 0 }

    /// The bounds rounded as the background is (its radii and corner curve).
    var roundedBounds: Path { Path(roundedRect: bounds, cornerRadii: radii, curve: cornerCurve) }

    /// A transparent bitmap of the device pixels `region` at `scale` pixels per point, with `draw` run in it
    /// through `device` (its space to device pixels): something drawn alone where it lands in the frame (a
    /// mask, the alpha a shadow is made of, an export's raster). Nil when the region is empty or larger than
    /// ``maxBackingStorePixels``.
    static func drawnAlone(over region: PixelRect, scale: Double, device: Transform2D, _ draw: (Painter) -> Void) -> Bitmap? {
        let (area, overflow) = region.width.multipliedReportingOverflow(by: region.height)
        guard !region.isEmpty, !overflow, area <= maxBackingStorePixels,
              var bitmap = try? Bitmap(width: region.width, height: region.height, scale: scale) else { return nil }
        bitmap.draw { p in
            p.scale(x: 1 / scale, y: 1 / scale)
            p.translate(x: Double(-region.x), y: Double(-region.y))
            p.concatenate(device)
            draw(p)
        }
        return bitmap
    }

    /// Whether ``draw(in:)`` with `parent` as the painter's transform (the parent's bounds coordinates to
    /// device pixels) leaves every pixel of `region` (device pixels) opaque whatever was there, drawn by a
    /// painter that draws opaque sources opaquely: the node is opaque (alpha 1) and its body covers the
    /// region (``bodyCoversOpaquely(_:under:)``). False when unsure.
    func coversOpaquely(_ region: PixelRect, under parent: Transform2D) -> Bool {
        guard alpha >= 1, drawCount > 0, isDoubleSided, projection == nil, mask == nil, shadow == nil else { return false }
        return bodyCoversOpaquely(region, under: transformToParent.concatenating(parent))
    }

    /// Whether ``drawBody(in:)`` with `transform` as the painter's transform (bounds coordinates to device
    /// pixels) leaves every pixel of `region` opaque whatever was there: the transform keeps axes, the
    /// bounds cover the region, and its opaque square background, its content (``ViewContent``'s
    /// `paintsOpaquely(over:)`, drawn straight) or one of its children covers it. False when unsure.
    func bodyCoversOpaquely(_ region: PixelRect, under transform: Transform2D) -> Bool {
        let m = transform
        guard m.b == 0, m.c == 0, m.a > 0, m.d > 0, m.isFinite else { return false }
        let box = m.apply(to: bounds)
        guard box.isFinite, box.minX <= Double(region.minX), box.minY <= Double(region.minY),
              box.maxX >= Double(region.maxX), box.maxY >= Double(region.maxY) else { return false }
        if let backgroundColor, backgroundColor.alpha >= 1, radii.fitted(to: bounds.size).isZero { return true }
        // (Content and children are drawn through a rounded clip: its corners leave pixels uncovered.)
        if clipsToBounds && cornerRadius > 0 { return false }
        if let content, !contentHasBackingStore, content.paintsOpaquely(over: bounds) { return true }
        return vibrancy == nil && children.contains { $0.coversOpaquely(region, under: m) }
    }

    /// Whether ``drawBody(in:)``, with the bounds' origin at `bitmap`'s top-left (as a frame is drawn),
    /// leaves every pixel of `bitmap` opaque whatever was there: then the bitmap need not be cleared first.
    func paintsEveryPixel(of bitmap: Bitmap) -> Bool {
        paintsEveryPixel(of: bitmap.bounds, scale: bitmap.scale)
    }

    /// ``paintsEveryPixel(of:)`` for a bitmap of `pixels` at `scale`, before it exists.
    func paintsEveryPixel(of pixels: PixelRect, scale: Double) -> Bool {
        let toDevice = Transform2D(translationX: -bounds.minX, y: -bounds.minY).concatenating(Transform2D(scaleX: scale, y: scale))
        return bodyCoversOpaquely(pixels, under: toDevice)
    }

    /// Draws the node in its own bounds coordinates, without its own transform and alpha: background,
    /// content, subviews (clipped to the rounded bounds when `clipsToBounds`), then the border on top.
    public func drawBody(in painter: Painter) { drawBody(in: painter, part: .all) }

    func drawBody(in painter: Painter, part: BodyPart) {
        if part == .backdrop {
            drawBackdrop(in: painter)
            return
        }
        // Children from the last one that covers every pixel the painter can change with opaque pixels:
        // nothing drawn before it (this node's background and content, earlier children) can show. The
        // children are drawn inside this node's clip, so that is the region; a clip that does not fall on
        // whole device pixels (rounded, or a rectangle at a fraction of a pixel) leaves its edge pixels
        // partly covered, showing what is under them: no skipping then.
        var cover: Int?
        if !children.isEmpty, vibrancy == nil, !(clipsToBounds && cornerRadius > 0), painter.drawsOpaqueSourcesOpaquely {
            var region: PixelRect? = painter.clipBoundingBox
            let transform = painter.transform
            if clipsToBounds {
                let device = transform.apply(to: bounds)
                if transform.preservesAxisAlignment, device.isFinite, device.integral == device.standardized,
                   let box = PixelRect(enclosing: device), let r = region {
                    region = r.intersection(box)
                } else {
                    region = nil
                }
            }
            if let region, !region.isEmpty { cover = children.lastIndex { $0.coversOpaquely(region, under: transform) } }
        }
        let covered = cover != nil, first = cover ?? 0
        if part == .all, !covered { drawBackdrop(in: painter) }
        if let backgroundColor, !covered {
            painter.fill(roundedRect: bounds, cornerRadii: radii, curve: cornerCurve, color: backgroundColor)
        }
        if content != nil || !children.isEmpty {
            painter.save()
            if clipsToBounds { clipToBounds(painter) }
            if !covered, let content {
                let rounds = roundsContent(content)
                if rounds { painter.save(); painter.clip(to: roundedBounds) }
                if !(contentHasBackingStore && drawThroughBackingStore(content, in: painter)) {
                    content.draw(in: painter, bounds: bounds)
                }
                if rounds { painter.restore() }
            }
            if let vibrancy, !children.isEmpty {
                drawChildren(in: vibrancy, painter: painter)
            } else {
                for child in children[first...] { child.draw(in: painter) }
            }
            painter.restore()
        }
        if drawsBorder {
            painter.strokeBorder(of: bounds, width: borderWidth, cornerRadii: radii, curve: cornerCurve, color: borderColor)
        }
    }

    /// The children drawn alone, then `color` through their alpha (vibrancy: only the alpha of what they
    /// draw is used), within what the painter can change.
    private func drawChildren(in color: Color, painter: Painter) {
        let device = painter.transform
        let reach = children.reduce(Rect.null) { $0.union($1.extentInParent) }
        guard color.alpha > 0, !reach.isNull, !reach.isEmpty,
              let box = PixelRect(enclosing: device.apply(to: reach))?.intersection(painter.clipBoundingBox),
              let alpha = Self.drawnAlone(over: box, scale: painter.bitmap.scale, device: device, { p in
                  for child in children { child.draw(in: p) }
              }) else { return }
        painter.save()
        defer { painter.restore() }
        painter.clip(toAlphaOf: alpha, atDevicePixel: (box.x, box.y))
        painter.fill(reach.insetBy(dx: -1, dy: -1), color: color)
    }

    /// The most pixels per point a projected node's layer is drawn at, as a multiple of the target's
    /// scale: where perspective magnifies its near side more than this, it is magnified from the layer.
    static let maxProjectedMagnification = 3.0

    /// Draws the node as Core Animation draws a layer with a 3-D transform: its body (background, content,
    /// children, border) flattened into a layer in its own plane, at the target's pixels per point (more
    /// under an enlarging affine transform, never more than the projection needs where it magnifies most
    /// nor ``maxProjectedMagnification`` times the target's scale; within ``maxBackingStorePixels``), then
    /// that layer drawn through the projection with its opacity
    /// (``Painter/draw(_:projection:opacity:)``).
    func drawProjected(_ projection: Projective2D, in painter: Painter) {
        let device = projection.concatenating(painter.transform)
        let box = visualBounds
        guard box.isFinite, !box.isEmpty else { return }
        // The layer is drawn at the target's scale, as Core Animation draws a layer's contents at its
        // contentsScale (the screen's) and magnifies them where perspective brings them nearer; an affine
        // scale above the node (a zoomed parent) raises it, as far as the projection magnifies at most.
        let scale = painter.bitmap.scale
        guard let stretch = device.largestStretch(over: box), stretch > 0 else { return }
        let t = painter.transform
        let affineScale = max(abs(t.determinant).squareRoot(), scale)
        var pixelsPerPoint = min(min(stretch, affineScale), scale * Self.maxProjectedMagnification)
        let area = box.width * box.height
        if area * pixelsPerPoint * pixelsPerPoint > Double(Self.maxBackingStorePixels) {
            pixelsPerPoint = (Double(Self.maxBackingStorePixels) / area).squareRoot()
        }
        let width = Int((box.width * pixelsPerPoint).rounded(.up)), height = Int((box.height * pixelsPerPoint).rounded(.up))
        guard width >= 1, height >= 1, width <= Bitmap.maxDimension, height <= Bitmap.maxDimension else { return }
        // The layer's whole pixels span the box exactly (a little more than `pixelsPerPoint` along each
        // side), so that its outline is the box's and its edges are anti-aliased by coverage.
        let sx = Double(width) / box.width, sy = Double(height) / box.height
        let drawLayer = { () -> Bitmap? in
            guard let layer = try? Bitmap(width: width, height: height, scale: pixelsPerPoint) else { return nil }
            let layerPainter = Painter(bitmap: layer)
            layerPainter.scale(x: sx / pixelsPerPoint, y: sy / pixelsPerPoint)
            layerPainter.translate(x: -box.minX, y: -box.minY)
            drawMaskedBody(in: layerPainter)
            return layerPainter.finish()
        }
        // Within a render, the layer its body drew in an earlier frame when it draws the same.
        let key = ProjectedLayerCache.Key(width: width, height: height, pixelsPerPoint: pixelsPerPoint, scaleX: sx, scaleY: sy, box: box)
        let drawn = ProjectedLayerCache.current.map { $0.cache.layer(for: self, key: key, budget: $0.budgetPixels, draw: drawLayer) } ?? drawLayer()
        guard let layer = drawn else { return }
        let placement = Projective2D(Transform2D(scaleX: pixelsPerPoint / sx, y: pixelsPerPoint / sy)
            .concatenating(Transform2D(translationX: box.minX, y: box.minY))).concatenating(projection)
        painter.draw(layer, projection: placement, opacity: alpha)
    }

    /// The most pixels a backing store may have: 16 Mi (64 MiB); content larger than that on screen is
    /// drawn directly.
    static let maxBackingStorePixels = 16 << 20

    /// False only in tests: content is drawn straight at its place on screen, as before backing stores,
    /// to show what the checks that guard against its seams find.
    package nonisolated(unsafe) static var drawsBackingStores = true

    /// Where a backing store goes: its size in pixels, where its first pixel is on the node's pixel grid,
    /// and how its pixels map to device pixels.
    struct BackingStorePlacement {
        /// Store pixel (i, j) is bounds point (minX + (x0 + i) / scale, minY + (y0 + j) / scale).
        var x0: Double, y0: Double
        var width: Int, height: Int
        var scale: Double
        /// Store pixels (the store's own grid, from its first pixel) to device pixels.
        var storeToDevice: Transform2D
        /// The node's bounds coordinates (points) to store pixels.
        func boundsToStore(_ bounds: Rect) -> Transform2D {
            Transform2D(translationX: -bounds.minX - x0 / scale, y: -bounds.minY - y0 / scale)
                .concatenating(Transform2D(scaleX: scale, y: scale))
        }
        /// Where the store is drawn, in the node's bounds coordinates: its first pixel's corner.
        func origin(in bounds: Rect) -> Point { Point(x: bounds.minX + x0 / scale, y: bounds.minY + y0 / scale) }
    }

    enum BackingStoreDecision {
        /// Drawn straight: on whole device pixels unscaled, or too large for a store.
        case direct
        /// Nothing of it can be seen.
        case nothing
        case store(BackingStorePlacement)
    }

    /// How ``content`` is drawn at `device` (bounds coordinates to device pixels) within `clip` (device
    /// pixels) on a target of `scale` pixels per point: the rule of ``drawThroughBackingStore(_:in:)``,
    /// shared with the description tools export (``drawnDescription(width:height:scale:sharing:)``).
    func backingStoreDecision(for content: any ViewContent, device: Transform2D, scale: Double, clip: PixelRect) -> BackingStoreDecision {
        guard Self.drawsBackingStores, contentHasBackingStore, scale > 0, scale.isFinite else { return .direct }
        // Backing-store pixels to device pixels.
        let storeToDevice = Transform2D(scaleX: 1 / scale, y: 1 / scale)
            .concatenating(Transform2D(translationX: bounds.minX, y: bounds.minY))
            .concatenating(device)
        guard storeToDevice.isFinite else { return .direct }
        func isWhole(_ v: Double) -> Bool { abs(v - v.rounded()) < 1e-6 }
        if abs(storeToDevice.a - 1) < 1e-9, abs(storeToDevice.d - 1) < 1e-9, storeToDevice.b == 0, storeToDevice.c == 0,
           isWhole(storeToDevice.tx), isWhole(storeToDevice.ty) {
            return .direct
        }
        // What the content covers, in store pixels, cut to what can reach the clip (one pixel more on
        // every side for the bilinear filter).
        let extent = content.extent(in: bounds)
        guard extent.isFinite, !extent.isEmpty, let deviceToStore = storeToDevice.inverted() else { return .nothing }
        var wanted = Rect(x: (extent.minX - bounds.minX) * scale, y: (extent.minY - bounds.minY) * scale,
                          width: extent.width * scale, height: extent.height * scale)
        let reachable = deviceToStore.apply(to: Rect(x: Double(clip.x), y: Double(clip.y), width: Double(clip.width), height: Double(clip.height)))
            .insetBy(dx: -1, dy: -1)
        wanted = wanted.intersection(reachable)
        guard !wanted.isEmpty, wanted.isFinite else { return .nothing }
        let x0 = wanted.minX.rounded(.down), y0 = wanted.minY.rounded(.down)
        let x1 = wanted.maxX.rounded(.up), y1 = wanted.maxY.rounded(.up)
        guard x1 - x0 >= 1, y1 - y0 >= 1, (x1 - x0) * (y1 - y0) <= Double(Self.maxBackingStorePixels),
              x1 - x0 <= Double(Bitmap.maxDimension), y1 - y0 <= Double(Bitmap.maxDimension) else { return .direct }
        let toDevice = Transform2D(translationX: x0, y: y0).concatenating(storeToDevice)
        return .store(BackingStorePlacement(x0: x0, y0: y0, width: Int(x1 - x0), height: Int(y1 - y0), scale: scale, storeToDevice: toDevice))
    }

    /// Draws `content` as a UIKit layer with a backing store shows it: rasterized on the node's own pixel
    /// grid (bounds origin on a pixel corner, the target's pixels per point) and that bitmap placed
    /// through the current transform with bilinear filtering. Abutting anti-aliased shapes then meet on
    /// whole pixels of the backing store, so a view moving by fractions of a device pixel keeps its look
    /// instead of showing seams whose darkness changes with the offset.
    ///
    /// Returns false, having drawn nothing, when the store would land on whole device pixels unscaled
    /// (drawing directly gives the same pixels without the copy), or when the store would be too large.
    /// Only the part of the store that can reach the clip is rasterized.
    func drawThroughBackingStore(_ content: any ViewContent, in painter: Painter) -> Bool {
        switch backingStoreDecision(for: content, device: painter.transform, scale: painter.bitmap.scale, clip: painter.clipBoundingBox) {
        case .direct: return false
        case .nothing: return true
        case .store(let placement):
            guard let store = try? Bitmap(width: placement.width, height: placement.height, scale: placement.scale) else { return false }
            let storePainter = Painter(bitmap: store)
            storePainter.translate(x: -bounds.minX - placement.x0 / placement.scale, y: -bounds.minY - placement.y0 / placement.scale)
            content.draw(in: storePainter, bounds: bounds)
            let origin = placement.origin(in: bounds)
            painter.draw(storePainter.finish(), transform: Transform2D(translationX: origin.x, y: origin.y))
            return true
        }
    }
}
