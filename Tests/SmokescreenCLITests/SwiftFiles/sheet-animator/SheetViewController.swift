// A bottom sheet that follows the finger with a property animator and, released, finishes with a
// spring carrying the finger's velocity (the "fluid interfaces" pattern), written for iOS.
import UIKit

class SheetViewController: UIViewController {
    private let sheet = UIView()
    private let dimming = UIView()
    private var animator: UIViewPropertyAnimator?
    private var isOpen = false
    private let closedHeight: CGFloat = 80

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemTeal
        dimming.backgroundColor = UIColor.black.withAlphaComponent(0.5)
        dimming.alpha = 0
        view.addSubview(dimming)
        sheet.backgroundColor = .systemBackground
        sheet.layer.cornerRadius = 16
        view.addSubview(sheet)
        let pan = UIPanGestureRecognizer(target: self, action: #selector(handlePan(_:)))
        sheet.addGestureRecognizer(pan)
    }

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        dimming.frame = view.bounds
        guard animator == nil else { return }
        sheet.frame = frame(open: isOpen)
    }

    private func frame(open: Bool) -> CGRect {
        let height = view.bounds.height * 0.7
        let top = open ? view.bounds.height - height : view.bounds.height - closedHeight
        return CGRect(x: 0, y: top, width: view.bounds.width, height: height + 20)
    }

    private var travel: CGFloat { view.bounds.height * 0.7 - closedHeight }

    @objc private func handlePan(_ recognizer: UIPanGestureRecognizer) {
        switch recognizer.state {
        case .began:
            let target = !isOpen
            animator = UIViewPropertyAnimator(duration: 0.5, dampingRatio: 1) {
                self.sheet.frame = self.frame(open: target)
                self.dimming.alpha = target ? 1 : 0
            }
            animator?.addCompletion { position in
                if position == .end { self.isOpen = target }
                self.animator = nil
            }
            animator?.pauseAnimation()
        case .changed:
            let dy = recognizer.translation(in: view).y
            animator?.fractionComplete = (isOpen ? dy : -dy) / travel
        case .ended:
            let velocity = recognizer.velocity(in: view).y
            let towardsEnd = isOpen ? velocity > 0 : velocity < 0
            if !towardsEnd, (animator?.fractionComplete ?? 0) < 0.5 { animator?.isReversed = true }
            let relative = abs(velocity) / travel
            let timing = UISpringTimingParameters(dampingRatio: 0.85, initialVelocity: CGVector(dx: 0, dy: relative))
            animator?.continueAnimation(withTimingParameters: timing, durationFactor: 0)
        default:
            animator?.isReversed = true
            animator?.continueAnimation(withTimingParameters: nil, durationFactor: 0)
        }
    }
}
