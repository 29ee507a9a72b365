import UIKit

// A sample written as iOS code is: a grid of tiles in a navigation controller, and a detail screen that
// opens by zooming the tapped tile into place, through the navigation delegate's animator. Only UIKit.

/// A grid of coloured tiles; `open(at:)` pushes the detail of one.
final class TileGridViewController: UIViewController, UINavigationControllerDelegate {
    let colors: [UIColor] = [.systemRed, .systemOrange, .systemYellow, .systemGreen, .systemTeal, .systemBlue, .systemIndigo, .systemPurple, .systemPink]
    private(set) var tiles: [UIView] = []
    private(set) var selectedTile: UIView?

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Tiles"
        view.backgroundColor = .systemBackground
        for color in colors {
            let tile = UIView()
            tile.backgroundColor = color
            tile.layer.cornerRadius = 6
            view.addSubview(tile)
            tiles.append(tile)
        }
    }

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let area = view.bounds.inset(by: view.safeAreaInsets).insetBy(dx: 8, dy: 8)
        let side = (area.width - 2 * 6) / 3
        for (index, tile) in tiles.enumerated() {
            tile.frame = CGRect(x: area.minX + CGFloat(index % 3) * (side + 6), y: area.minY + CGFloat(index / 3) * (side + 6),
                                width: side, height: side)
        }
    }

    func open(at index: Int) {
        selectedTile = tiles[index]
        let detail = TileDetailViewController(color: colors[index])
        navigationController?.delegate = self
        navigationController?.pushViewController(detail, animated: true)
    }

    func navigationController(_ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation,
                              from fromVC: UIViewController, to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        guard let tile = selectedTile else { return nil }
        return ZoomAnimator(tile: tile, isOpening: operation == .push)
    }
}

/// The detail: the tile's colour as a large header and a caption below.
final class TileDetailViewController: UIViewController {
    let color: UIColor
    let header = UIView()
    let caption = UILabel()

    init(color: UIColor) {
        self.color = color
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Detail"
        view.backgroundColor = .systemBackground
        header.backgroundColor = color
        view.addSubview(header)
        caption.text = "A tile"
        caption.font = .preferredFont(forTextStyle: .body)
        view.addSubview(caption)
    }

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let top = view.safeAreaInsets.top
        header.frame = CGRect(x: 0, y: top, width: view.bounds.width, height: view.bounds.width * 0.75)
        caption.frame = CGRect(x: 12, y: header.frame.maxY + 8, width: view.bounds.width - 24, height: 22)
    }
}

/// Zooms a snapshot of the tile from its place in the grid to the detail's header (and back), fading
/// the detail's other content in (or out).
final class ZoomAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    let tile: UIView
    let isOpening: Bool

    init(tile: UIView, isOpening: Bool) {
        self.tile = tile
        self.isOpening = isOpening
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.5 }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let container = transitionContext.containerView
        guard let fromVC = transitionContext.viewController(forKey: .from), let toVC = transitionContext.viewController(forKey: .to),
              let detail = (isOpening ? toVC : fromVC) as? TileDetailViewController,
              let snapshot = tile.snapshotView(afterScreenUpdates: false) else {
            transitionContext.completeTransition(false)
            return
        }
        let toView = transitionContext.view(forKey: .to)!
        toView.frame = transitionContext.finalFrame(for: toVC)
        if isOpening { container.addSubview(toView) } else { container.insertSubview(toView, at: 0) }
        detail.view.layoutIfNeeded()
        let tileFrame = tile.convert(tile.bounds, to: container)
        let headerFrame = detail.header.convert(detail.header.bounds, to: container)
        snapshot.frame = isOpening ? tileFrame : headerFrame
        container.addSubview(snapshot)
        tile.isHidden = true
        detail.header.isHidden = true
        detail.view.alpha = isOpening ? 0 : 1
        UIView.animate(withDuration: transitionDuration(using: transitionContext), delay: 0, usingSpringWithDamping: 0.85,
                       initialSpringVelocity: 0, options: [], animations: {
            snapshot.frame = self.isOpening ? headerFrame : tileFrame
            detail.view.alpha = self.isOpening ? 1 : 0
        }, completion: { _ in
            self.tile.isHidden = false
            detail.header.isHidden = false
            snapshot.removeFromSuperview()
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
}
