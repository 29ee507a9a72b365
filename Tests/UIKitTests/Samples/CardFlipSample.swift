import UIKit

// A sample written as iOS code: a card that flips about its vertical axis in perspective, the way such
// flips are written on iOS: a container whose sublayerTransform holds the perspective (m34 = -1/500), a
// front and a back that are not double-sided, and a keyframe animation that turns the front away for
// the first half and the back in for the second.

/// A card with two faces; `flip()` turns it over, `flipBack()` turns it back.
final class CardFlipViewController: UIViewController {
    let container = UIView()
    let front = UIView()
    let back = UIView()
    private(set) var showsBack = false

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemGroupedBackground
        container.frame = CGRect(x: 30, y: 70, width: 120, height: 170)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 500
        container.layer.sublayerTransform = perspective
        view.addSubview(container)

        for (face, color, title) in [(back, UIColor.systemOrange, "BACK"), (front, UIColor.systemIndigo, "FRONT")] {
            face.frame = container.bounds
            face.backgroundColor = color
            face.layer.cornerRadius = 12
            face.layer.isDoubleSided = false
            let label = UILabel(frame: CGRect(x: 12, y: 12, width: 96, height: 20))
            label.text = title
            label.font = .systemFont(ofSize: 15, weight: .bold)
            label.textColor = .white
            face.addSubview(label)
            let stripe = UIView(frame: CGRect(x: 12, y: 120, width: 96, height: 8))
            stripe.backgroundColor = UIColor.white.withAlphaComponent(0.7)
            stripe.layer.cornerRadius = 4
            face.addSubview(stripe)
            container.addSubview(face)
        }
        back.layer.transform = CATransform3DMakeRotation(-.pi / 2, 0, 1, 0)
    }

    /// Turns the shown face away about the y axis, then the other one in: 0.6 s.
    func flip(completion: (() -> Void)? = nil) {
        let (from, to) = showsBack ? (back, front) : (front, back)
        showsBack.toggle()
        UIView.animateKeyframes(withDuration: 0.6, delay: 0, options: [], animations: {
            UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) {
                from.layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
            }
            UIView.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) {
                to.layer.transform = CATransform3DIdentity
            }
        }, completion: { _ in
            from.layer.transform = CATransform3DMakeRotation(-.pi / 2, 0, 1, 0)
            completion?()
        })
    }
}
