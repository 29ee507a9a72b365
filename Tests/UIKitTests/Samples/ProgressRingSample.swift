import UIKit

// A sample written as iOS code: a download button whose progress ring strokes round from the top
// (CAShapeLayer.strokeEnd animated, round caps over a faint track), then a checkmark drawn stroke by
// stroke, while a dashed selection border marches round the card (lineDashPhase animated).

/// A card with a download ring; `download()` fills the ring and ticks it.
final class ProgressRingViewController: UIViewController {
    let card = UIView(frame: CGRect(x: 20, y: 60, width: 140, height: 140))
    let track = CAShapeLayer()
    let progress = CAShapeLayer()
    let check = CAShapeLayer()
    let border = CAShapeLayer()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemGroupedBackground
        card.backgroundColor = .systemBackground
        card.layer.cornerRadius = 16
        view.addSubview(card)

        // A ring 36 pt across in the card's middle, starting at twelve o'clock and running clockwise.
        let centre = CGPoint(x: card.bounds.midX, y: card.bounds.midY)
        let ring = UIBezierPath(arcCenter: centre, radius: 36, startAngle: -.pi / 2, endAngle: 3 * .pi / 2, clockwise: true)
        for layer in [track, progress] {
            layer.path = ring.cgPath
            layer.fillColor = nil
            layer.lineWidth = 8
            card.layer.addSublayer(layer)
        }
        track.strokeColor = UIColor.systemBlue.withAlphaComponent(0.15).cgColor
        progress.strokeColor = UIColor.systemBlue.cgColor
        progress.lineCap = .round
        progress.strokeEnd = 0

        let tick = UIBezierPath()
        tick.move(to: CGPoint(x: centre.x - 14, y: centre.y + 1))
        tick.addLine(to: CGPoint(x: centre.x - 4, y: centre.y + 11))
        tick.addLine(to: CGPoint(x: centre.x + 15, y: centre.y - 10))
        check.path = tick.cgPath
        check.fillColor = UIColor.clear.cgColor
        check.strokeColor = UIColor.systemGreen.cgColor
        check.lineWidth = 6
        check.lineCap = .round
        check.lineJoin = .round
        check.strokeEnd = 0
        card.layer.addSublayer(check)

        border.path = UIBezierPath(roundedRect: card.bounds.insetBy(dx: 4, dy: 4), cornerRadius: 12).cgPath
        border.fillColor = nil
        border.strokeColor = UIColor.systemBlue.cgColor
        border.lineWidth = 2
        border.lineDashPattern = [6, 4]
        card.layer.addSublayer(border)
    }

    /// The ring fills in 0.6 s (ease in-out), then the tick draws in 0.25 s; the border's dashes march
    /// one pattern length (10 pt) every 0.5 s meanwhile.
    func download(completion: (() -> Void)? = nil) {
        let march = CABasicAnimation(keyPath: "lineDashPhase")
        march.fromValue = 0
        march.toValue = -10
        march.duration = 0.5
        march.repeatCount = 2
        border.add(march, forKey: "march")

        CATransaction.begin()
        CATransaction.setCompletionBlock { [self] in
            CATransaction.begin()
            CATransaction.setCompletionBlock { completion?() }
            let draw = CABasicAnimation(keyPath: "strokeEnd")
            draw.fromValue = 0
            draw.toValue = 1
            draw.duration = 0.25
            draw.timingFunction = CAMediaTimingFunction(name: .easeOut)
            check.strokeEnd = 1
            check.add(draw, forKey: "tick")
            CATransaction.commit()
        }
        let fill = CABasicAnimation(keyPath: "strokeEnd")
        fill.fromValue = 0
        fill.toValue = 1
        fill.duration = 0.6
        fill.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        progress.strokeEnd = 1
        progress.add(fill, forKey: "progress")
        CATransaction.commit()
    }
}
