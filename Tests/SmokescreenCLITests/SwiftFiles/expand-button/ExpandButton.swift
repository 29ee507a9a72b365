// A button that pulses, expands to cover the screen with Core Animation, and then presents the next
// screen with a fade (the "transition button" pattern), written for iOS.
import UIKit

class ButtonViewController: UIViewController, CAAnimationDelegate {
    let button = UIView(frame: CGRect(x: 87, y: 500, width: 200, height: 50))

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        button.backgroundColor = .systemIndigo
        button.layer.cornerRadius = 25
        view.addSubview(button)
    }

    func expand() {
        let pulse = CAKeyframeAnimation(keyPath: "transform.scale")
        pulse.values = [1, 0.9, 1]
        pulse.keyTimes = [0, 0.5, 1]
        pulse.duration = 0.2
        button.layer.add(pulse, forKey: "pulse")

        CATransaction.begin()
        CATransaction.setCompletionBlock {
            let next = UIViewController()
            next.view.backgroundColor = .systemIndigo
            next.modalPresentationStyle = .fullScreen
            next.modalTransitionStyle = .crossDissolve
            self.present(next, animated: true, completion: nil)
        }
        let grow = CABasicAnimation(keyPath: "transform.scale")
        grow.fromValue = 1
        grow.toValue = 20
        grow.beginTime = CACurrentMediaTime() + 0.2
        grow.duration = 0.4
        grow.timingFunction = CAMediaTimingFunction(name: .easeIn)
        grow.fillMode = .forwards
        grow.isRemovedOnCompletion = false
        grow.delegate = self
        button.layer.add(grow, forKey: "grow")
        CATransaction.commit()
    }
}
