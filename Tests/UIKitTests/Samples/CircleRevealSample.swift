import UIKit

// A sample written as iOS code: a detail screen revealed by a circle growing from the button that opens
// it, the circular-reveal pattern: a CAShapeLayer as the screen's layer mask, its path animated with a
// CABasicAnimation from a circle over the button to one that covers the screen.

/// A list screen with a round button; `reveal()` grows the detail screen out of the button.
final class CircleRevealViewController: UIViewController {
    let button = UIView(frame: CGRect(x: 124, y: 250, width: 40, height: 40))
    let detail = UIView()
    let circle = CAShapeLayer()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemGroupedBackground
        for row in 0..<4 {
            let line = UIView(frame: CGRect(x: 16, y: 40 + CGFloat(row) * 44, width: 148, height: 32))
            line.backgroundColor = .systemBackground
            line.layer.cornerRadius = 8
            view.addSubview(line)
        }
        button.backgroundColor = .systemTeal
        button.layer.cornerRadius = 20
        view.addSubview(button)

        detail.frame = view.bounds
        detail.backgroundColor = .systemTeal
        let title = UILabel(frame: CGRect(x: 16, y: 48, width: 148, height: 24))
        title.text = "Revealed"
        title.font = .systemFont(ofSize: 20, weight: .bold)
        title.textColor = .white
        detail.addSubview(title)
        circle.frame = detail.bounds
        circle.path = UIBezierPath(ovalIn: button.frame).cgPath
        detail.layer.mask = circle
        detail.isHidden = true
        view.addSubview(detail)
    }

    /// Grows the circle from the button to past the screen's farthest corner: 0.5 s, ease in-out.
    func reveal(completion: (() -> Void)? = nil) {
        detail.isHidden = false
        let centre = CGPoint(x: button.frame.midX, y: button.frame.midY)
        let corners = [CGPoint.zero, CGPoint(x: view.bounds.maxX, y: 0), CGPoint(x: 0, y: view.bounds.maxY), CGPoint(x: view.bounds.maxX, y: view.bounds.maxY)]
        let radius = corners.map { hypot($0.x - centre.x, $0.y - centre.y) }.max() ?? 0
        let end = UIBezierPath(ovalIn: CGRect(x: centre.x - radius, y: centre.y - radius, width: 2 * radius, height: 2 * radius)).cgPath
        CATransaction.begin()
        CATransaction.setCompletionBlock { completion?() }
        let grow = CABasicAnimation(keyPath: "path")
        grow.fromValue = circle.path
        grow.toValue = end
        grow.duration = 0.5
        grow.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        circle.path = end
        circle.add(grow, forKey: "reveal")
        CATransaction.commit()
    }
}
