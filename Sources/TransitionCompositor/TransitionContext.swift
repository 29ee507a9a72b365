import Dispatch
import Foundation
import Motion
import RasterCore
import SnapshotView
import Synchronization

/// Where a transition happens: a container showing the from-view, the to-view that replaces it, and the
/// smokescreen on top where the animations take place.
///
/// A transition builds its snapshots with `placeSnapshot(of:clearBackground:)`, swaps the real views
/// underneath with ``swapViews()``, and animates on ``engine``; each animation block brackets itself
/// with `beginBlock()` and `endBlock()` (the smokescreen's use count), so the smokescreen goes away
/// when the last block completes.
public final class TransitionContext {
    /// The view everything happens in (the window); its bounds are the canvas (points).
    public let container: View
    /// Shown at the start; removed by ``swapViews()``.
    public let fromView: View
    /// Shown at the end; added by ``swapViews()`` where `fromView` was.
    public let toView: View
    /// The animation layer on top of the container.
    public let smokescreen: Smokescreen
    /// The clock and the animations.
    public let engine: AnimationEngine
    /// Pixels per point of the snapshots.
    public let scale: Double
    /// Every snapshot taken, for the memory report.
    public private(set) var snapshots: [BitmapRecord] = []
    /// Labels of the blocks started with ``animateBlock(_:timing:options:animations:completion:)``, by
    /// engine record id, for the timeline.
    public private(set) var blockLabels: [Int: String] = [:]
    /// Numbers the transition reports of itself for `inspect --json` (an interactive transition's
    /// progress, whether a row is highlighted), read at the inspection time. Default nil.
    public var inspectionState: (() -> [String: Double])?
    /// The first error a completion ran into (completions cannot throw); the driver reports it.
    public internal(set) var deferredError: Error?

    /// A context with `fromView` filling `container`.
    public init(container: View, fromView: View, toView: View, engine: AnimationEngine, scale: Double) throws {
        self.container = container
        self.fromView = fromView
        self.toView = toView
        self.engine = engine
        self.scale = scale
        smokescreen = Smokescreen(container: container)
        if fromView.superview !== container { try container.addSubview(fromView) }
    }

    /// Keeps `error` (the first one only) for the driver to report: for code run from a completion or a
    /// scheduled action, which cannot throw.
    public func recordError(_ error: Error) {
        deferredError = deferredError ?? error
    }

    /// Replaces `fromView` with `toView` at the same place in the container, under the smokescreen.
    /// Done without animation: the smokescreen hides the swap.
    public func swapViews() throws {
        let index = container.subviews.firstIndex { $0 === fromView } ?? 0
        fromView.removeFromSuperview()
        try container.insertSubview(toView, at: index)
        if smokescreen.superview === container { container.bringSubviewToFront(smokescreen) }
    }

    /// Undoes ``swapViews()`` and takes the smokescreen away: what a cancelled interactive transition
    /// leaves, `fromView` where it was and nothing over it.
    public func restoreFromView() throws {
        let index = container.subviews.firstIndex { $0 === toView } ?? 0
        toView.removeFromSuperview()
        if fromView.superview !== container { try container.insertSubview(fromView, at: index) }
        smokescreen.removeFromSuperview()
    }

    /// `view`'s bounds converted into the smokescreen's coordinates (points), whether or not the
    /// smokescreen is in the container yet (it covers the container's bounds, scroll offset included).
    public func rect(of view: View) throws -> Rect {
        if smokescreen.superview === container { return try view.convert(view.bounds, to: smokescreen) }
        let inContainer = try view.convert(view.bounds, to: container)
        return inContainer.offsetBy(dx: -container.bounds.minX, dy: -container.bounds.minY)
    }

    /// Takes a snapshot view of `view` (optionally without its background) and places it in the
    /// smokescreen at `view`'s rect converted into the smokescreen's coordinates, on top of what is
    /// there. The view must be in the container's tree. Inside
    /// ``placeSnapshotsSideBySide(_:)`` the tree is frozen now and the image drawn when that returns.
    @discardableResult
    public func placeSnapshot(of view: View, clearBackground: Bool = false, name: String? = nil) throws -> ImageView {
        try placeSnapshot(of: view, clearBackground: clearBackground, name: name, backdrop: false)
    }

    private func placeSnapshot(of view: View, clearBackground: Bool, name: String?, backdrop: Bool) throws -> ImageView {
        let (snap, snapshot) = try view.pendingSnapshotView(scale: scale, clearBackground: clearBackground)
        if let name { snap.name = name }
        let rect = try self.rect(of: view)
        ViewChangeObservation.withoutObserver {
            snap.transform = .identity
            snap.frame = rect
        }
        try smokescreen.addSubview(snap)
        if backdrop, let color = snapshot.fill {
            // Known from the tree: nothing to draw, nothing kept.
            ViewChangeObservation.withoutObserver { snap.backgroundColor = color }
            return snap
        }
        if pending != nil {
            pending!.append(Pending(view: snap, snapshot: snapshot, backdrop: backdrop))
        } else {
            try finish(Pending(view: snap, snapshot: snapshot, backdrop: backdrop), image: snapshot.draw())
        }
        return snap
    }

    /// A snapshot placed but not drawn yet; a backdrop becomes its colour if it has only one.
    private struct Pending {
        var view: ImageView
        var snapshot: PendingSnapshot
        var backdrop: Bool
    }

    /// Snapshots placed inside ``placeSnapshotsSideBySide(_:)``, in order; nil outside it.
    private var pending: [Pending]?

    /// Gives a placed snapshot its image, or for a backdrop of one opaque colour that colour instead,
    /// and records what it holds.
    private func finish(_ piece: Pending, image: Bitmap) {
        if piece.backdrop, let pixel = image.uniformPixel, pixel.a == 255 {
            ViewChangeObservation.withoutObserver { piece.view.backgroundColor = Color(pixel) }
            return
        }
        piece.view.setSnapshot(image, opaque: piece.snapshot.opaque)
        snapshots.append(BitmapRecord(kind: .snapshot, name: piece.view.name ?? "snapshot", bitmap: image))
    }

    /// Threads that draw the snapshots placed inside ``placeSnapshotsSideBySide(_:)``: 1 draws them one
    /// after another on the calling thread, in order. Default nil: every core.
    public var snapshotJobs: Int?

    /// Runs `body`, whose snapshots (``placeSnapshot(of:clearBackground:name:)``,
    /// ``placeBackdrop(of:name:)``) are frozen where they are placed and drawn when it returns, side by
    /// side on up to ``snapshotJobs`` threads; until then their image views have no image (and keep none
    /// if `body` throws). Choreographies take their pieces this way: a dozen cells, bars and texts
    /// drawn one after another were most of the work before the first frame. Inside another call it
    /// only runs `body`.
    public func placeSnapshotsSideBySide<R>(_ body: () throws -> R) throws -> R {
        guard pending == nil else { return try body() }
        pending = []
        defer { pending = nil }
        let result = try body()
        let pieces = pending ?? []
        let threads = min(pieces.count, max(1, snapshotJobs ?? ProcessInfo.processInfo.activeProcessorCount))
        guard threads > 1 else {
            for piece in pieces { finish(piece, image: try piece.snapshot.draw()) }
            return result
        }
        // Bitmaps the workers allocate are charged to the ledger current here; the first failure in
        // placement order is the one reported.
        let images = Mutex([Result<Bitmap, any Error>?](repeating: nil, count: pieces.count))
        let ledger = MemoryLedger.active
        let snapshots = pieces.map(\.snapshot)
        DispatchQueue.concurrentPerform(iterations: threads) { worker in
            for i in stride(from: worker, to: snapshots.count, by: threads) {
                let image = Result { try ledger.charging { try snapshots[i].draw() } }
                images.withLock { $0[i] = image }
            }
        }
        for (piece, image) in zip(pieces, images.withLock { $0 }) { finish(piece, image: try image!.get()) }
        return result
    }

    /// Places a backdrop of `view` in the smokescreen, as ``placeSnapshot(of:clearBackground:name:)``
    /// does, for a piece that stays where it is placed (its alpha may animate; its frame and transform
    /// must not): when the snapshot is one opaque colour and its rect falls on whole device pixels, the
    /// image view shows no image, only that colour as its background, and no bitmap is kept. A screen's
    /// empty background is 4 MB at @2x; filling it draws the same pixels as copying it, at any alpha,
    /// and reads no memory. The colour is known from the tree when it draws nothing else, or else from
    /// the drawn pixels.
    @discardableResult
    public func placeBackdrop(of view: View, name: String? = nil) throws -> ImageView {
        let rect = try self.rect(of: view)
        // Unscaled (the snapshot's pixels would be resampled otherwise) and on whole device pixels.
        let fits = try isOnWholePixels(rect) && rect.size == view.bounds.size && view.transform == .identity
        return try placeSnapshot(of: view, clearBackground: false, name: name, backdrop: fits)
    }

    /// Whether `rect` (smokescreen points) lands with every edge on a device pixel of the frame, with no
    /// anti-aliased clip above it: the smokescreen (or, before it is added, the container it will cover)
    /// is only moved (not scaled or turned) in the root, the moved edges times the scale are whole
    /// numbers, and every ancestor that clips does so with square corners on whole pixels. (Under an
    /// anti-aliased clip edge, a fill at an alpha below 1 rounds differently from an image.)
    private func isOnWholePixels(_ rect: Rect) throws -> Bool {
        let attached = smokescreen.superview === container
        func toRoot(_ p: Point) throws -> Point {
            if attached { return try smokescreen.convert(p, to: nil) }
            return try container.convert(Point(x: p.x + container.bounds.minX, y: p.y + container.bounds.minY), to: nil)
        }
        let root = container.root
        let o = try toRoot(Point(x: 0, y: 0)), x = try toRoot(Point(x: 1, y: 0)), y = try toRoot(Point(x: 0, y: 1))
        guard x.x - o.x == 1, x.y == o.y, y.y - o.y == 1, y.x == o.x else { return false }
        func whole(_ v: Double) -> Bool { (v * scale).isFinite && (v * scale).rounded() == v * scale }
        guard [rect.minX + o.x - root.bounds.minX, rect.maxX + o.x - root.bounds.minX,
               rect.minY + o.y - root.bounds.minY, rect.maxY + o.y - root.bounds.minY].allSatisfy(whole) else { return false }
        var clipping: View? = attached ? smokescreen : container
        while let view = clipping {
            if view.clipsToBounds {
                let box = try view.convert(view.bounds, to: nil)
                guard view.cornerRadius == 0, [box.minX - root.bounds.minX, box.maxX - root.bounds.minX,
                                               box.minY - root.bounds.minY, box.maxY - root.bounds.minY].allSatisfy(whole) else { return false }
            }
            clipping = view.superview
        }
        return true
    }

    /// Moves `piece` (a view in the smokescreen) so that it covers `destination`'s rect converted into
    /// the smokescreen's coordinates. Call it inside an animation block to tween from where the piece
    /// is to there.
    public func move(_ piece: View, to destination: View) throws {
        piece.frame = try rect(of: destination)
    }

    /// Adds a view to the smokescreen at `rect` (smokescreen coordinates), without animation.
    public func addToSmokescreen(_ view: View, at rect: Rect? = nil) throws {
        if let rect { ViewChangeObservation.withoutObserver { view.frame = rect } }
        try smokescreen.addSubview(view)
    }

    /// Runs an animation block that holds the smokescreen: the use count goes up before it starts and
    /// down in its completion (at the exact time it ends), as Vesper does.
    public func animateBlock(_ label: String, timing: BlockTiming, options: AnimationOptions = [],
                             animations: @escaping () throws -> Void, completion: (() throws -> Void)? = nil) throws {
        try smokescreen.incrementUseCount()
        var failure: Error?
        let recordID = engine.records.count
        engine.animate(duration: timing.duration, delay: timing.delay, timing: timing.animationTiming, options: options, animations: {
            do { try animations() } catch { failure = failure ?? error }
        }, completion: { [weak self] _ in
            guard let self else { return }
            do {
                try completion?()
                try self.smokescreen.decrementUseCount()
            } catch {
                self.deferredError = self.deferredError ?? error
            }
        })
        blockLabels[recordID] = label
        if let failure { throw failure }
    }
}
