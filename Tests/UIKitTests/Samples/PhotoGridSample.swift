import UIKit

// A sample written as iOS code is: a photo grid in a collection view controller inside a navigation
// controller; a tap zooms the photo out of its cell into the detail screen, and the pop zooms it back
// into the cell, through the navigation delegate's animator. Only UIKit.

/// A square photo: a colour with rounded corners.
final class PhotoCell: UICollectionViewCell {
    let photo = UIView()

    // On iOS `override init(frame:)`; here the initializer a collection view makes cells through is
    // `required` (the source pass of `smokescreen render` writes it for iOS files).
    required init(frame: CGRect) {
        super.init(frame: frame)
        photo.layer.cornerRadius = 8
        photo.clipsToBounds = true
        photo.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        photo.frame = contentView.bounds
        contentView.addSubview(photo)
    }

    required init?(coder: NSCoder) { nil }
}

/// The grid: three columns of photos.
final class PhotoGridViewController: UICollectionViewController, UICollectionViewDelegateFlowLayout, UINavigationControllerDelegate {
    let colors: [UIColor] = [.systemRed, .systemOrange, .systemYellow, .systemGreen, .systemMint, .systemTeal,
                             .systemCyan, .systemBlue, .systemIndigo, .systemPurple, .systemPink, .systemBrown]

    init() {
        let layout = UICollectionViewFlowLayout()
        layout.minimumLineSpacing = 6
        layout.minimumInteritemSpacing = 6
        layout.sectionInset = UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
        super.init(collectionViewLayout: layout)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Photos"
        collectionView.register(PhotoCell.self, forCellWithReuseIdentifier: "photo")
    }

    override func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { colors.count }

    override func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "photo", for: indexPath) as! PhotoCell
        cell.photo.backgroundColor = colors[indexPath.item]
        return cell
    }

    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        sizeForItemAt indexPath: IndexPath) -> CGSize {
        let side = ((collectionView.bounds.width - 16 - 12) / 3).rounded(.down)
        return CGSize(width: side, height: side)
    }

    override func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        navigationController?.delegate = self
        navigationController?.pushViewController(PhotoViewController(color: colors[indexPath.item]), animated: true)
    }

    /// The cell of the photo that is open, if it is on screen.
    var selectedCell: PhotoCell? {
        guard let indexPath = collectionView.indexPathsForSelectedItems?.first else { return nil }
        return collectionView.cellForItem(at: indexPath) as? PhotoCell
    }

    func navigationController(_ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation,
                              from fromVC: UIViewController, to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        guard let cell = selectedCell else { return nil }
        return PhotoZoomAnimator(cell: cell, isOpening: operation == .push)
    }
}

/// The photo full width under the bar.
final class PhotoViewController: UIViewController {
    let color: UIColor
    let photo = UIView()

    init(color: UIColor) {
        self.color = color
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Photo"
        view.backgroundColor = .systemBackground
        photo.backgroundColor = color
        view.addSubview(photo)
    }

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        photo.frame = CGRect(x: 0, y: view.safeAreaInsets.top, width: view.bounds.width, height: view.bounds.width)
    }
}

/// Zooms a snapshot of the cell's photo to the detail's photo (and back), the detail fading in (or out).
final class PhotoZoomAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    let cell: PhotoCell
    let isOpening: Bool

    init(cell: PhotoCell, isOpening: Bool) {
        self.cell = cell
        self.isOpening = isOpening
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.45 }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let container = transitionContext.containerView
        guard let toVC = transitionContext.viewController(forKey: .to), let fromVC = transitionContext.viewController(forKey: .from),
              let detail = (isOpening ? toVC : fromVC) as? PhotoViewController,
              let snapshot = cell.photo.snapshotView(afterScreenUpdates: false) else {
            transitionContext.completeTransition(false)
            return
        }
        let toView = transitionContext.view(forKey: .to)!
        toView.frame = transitionContext.finalFrame(for: toVC)
        if isOpening { container.addSubview(toView) } else { container.insertSubview(toView, at: 0) }
        detail.view.layoutIfNeeded()
        let cellFrame = cell.photo.convert(cell.photo.bounds, to: container)
        let photoFrame = detail.photo.convert(detail.photo.bounds, to: container)
        snapshot.frame = isOpening ? cellFrame : photoFrame
        snapshot.layer.cornerRadius = isOpening ? 8 : 0
        snapshot.clipsToBounds = true
        container.addSubview(snapshot)
        cell.isHidden = true
        detail.photo.isHidden = true
        detail.view.alpha = isOpening ? 0 : 1
        UIView.animate(withDuration: transitionDuration(using: transitionContext), delay: 0, usingSpringWithDamping: 0.9,
                       initialSpringVelocity: 0, options: [], animations: {
            snapshot.frame = self.isOpening ? photoFrame : cellFrame
            snapshot.layer.cornerRadius = self.isOpening ? 0 : 8
            detail.view.alpha = self.isOpening ? 1 : 0
        }, completion: { _ in
            self.cell.isHidden = false
            detail.photo.isHidden = false
            snapshot.removeFromSuperview()
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
}
