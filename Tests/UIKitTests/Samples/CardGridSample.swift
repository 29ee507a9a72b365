import UIKit

// A sample written as iOS code is: only UIKit, a view controller with a grid of cards, and an expansion
// animated with UIView.animate — a spring for the card, a fade for the others, a keyframe pulse for the
// title. The test beside it runs it on a stage.

/// A grid of coloured cards; `expand(at:)` opens one to fill the screen.
final class CardGridViewController: UIViewController {
    private let colors: [UIColor] = [.systemRed, .systemOrange, .systemGreen, .systemTeal, .systemIndigo, .systemPink]
    private(set) var cards: [UIView] = []
    private let titleLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemGroupedBackground
        titleLabel.text = "Cards"
        titleLabel.font = .preferredFont(forTextStyle: .headline)
        titleLabel.textColor = .label
        view.addSubview(titleLabel)
        for (index, color) in colors.enumerated() {
            let card = UIView()
            card.backgroundColor = color
            card.layer.cornerRadius = 8
            card.clipsToBounds = true
            card.tag = index + 1
            let stripe = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 6))
            stripe.backgroundColor = UIColor.white.withAlphaComponent(0.6)
            stripe.autoresizingMask = [.flexibleWidth]
            card.addSubview(stripe)
            view.addSubview(card)
            cards.append(card)
        }
    }

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let insets = view.safeAreaInsets
        titleLabel.frame = CGRect(x: 12, y: insets.top + 4, width: view.bounds.width - 24, height: 20)
        let spacing: CGFloat = 8
        let width = (view.bounds.width - 3 * spacing) / 2
        for (index, card) in cards.enumerated() where card.transform.isIdentity && card.tag > 0 {
            let row = CGFloat(index / 2), column = CGFloat(index % 2)
            card.frame = CGRect(x: spacing + column * (width + spacing), y: insets.top + 32 + row * (width * 0.75 + spacing),
                                width: width, height: width * 0.75)
            card.subviews.first?.frame.size.width = width
        }
    }

    /// Opens card `index` over the screen: a spring for the card, the others fading and shrinking, and
    /// the title pulsing once.
    func expand(at index: Int, completion: @escaping () -> Void = {}) {
        let card = cards[index]
        card.tag = 0  // no longer laid out in the grid
        view.bringSubviewToFront(card)
        UIView.animate(withDuration: 0.6, delay: 0, usingSpringWithDamping: 0.8, initialSpringVelocity: 0, options: [], animations: {
            card.frame = self.view.bounds
            card.layer.cornerRadius = 0
        }, completion: { _ in completion() })
        UIView.animate(withDuration: 0.3, delay: 0, options: [.curveEaseOut], animations: {
            for other in self.cards where other !== card {
                other.alpha = 0
                other.transform = CGAffineTransform(scaleX: 0.8, y: 0.8)
            }
        })
        UIView.animateKeyframes(withDuration: 0.4, delay: 0.1, options: [], animations: {
            UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) { self.titleLabel.alpha = 0.2 }
            UIView.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { self.titleLabel.alpha = 1 }
        })
    }
}
