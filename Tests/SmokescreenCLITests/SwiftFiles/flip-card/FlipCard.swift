// A card that flips to its back with UIView.transition, and a second card that turns with keyframes
// and a perspective transform (m34), written for iOS.
import UIKit

class FlipViewController: UIViewController {
    // UIView.transition(from:to:) turns the views' superview: the card's own container.
    let card = UIView(frame: CGRect(x: 40, y: 120, width: 140, height: 200))
    let front = UIView(frame: CGRect(x: 0, y: 0, width: 140, height: 200))
    let back = UIView(frame: CGRect(x: 0, y: 0, width: 140, height: 200))
    let spinner = UIView(frame: CGRect(x: 210, y: 120, width: 120, height: 200))

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemGray6
        for (card, color) in [(front, UIColor.systemBlue), (back, UIColor.systemPink), (spinner, UIColor.systemYellow)] {
            card.backgroundColor = color
            card.layer.cornerRadius = 12
        }
        back.isHidden = true
        card.addSubview(back)
        card.addSubview(front)
        view.addSubview(card)
        view.addSubview(spinner)
    }

    func flip() {
        UIView.transition(from: front, to: back, duration: 0.6, options: [.transitionFlipFromRight, .showHideTransitionViews])
    }

    func turn() {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 500
        UIView.animateKeyframes(withDuration: 0.8, delay: 0, options: [], animations: {
            UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) {
                self.spinner.layer.transform = CATransform3DRotate(perspective, .pi / 2, 0, 1, 0)
            }
            UIView.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) {
                self.spinner.layer.transform = CATransform3DRotate(perspective, .pi, 0, 1, 0)
            }
        }, completion: nil)
    }
}
