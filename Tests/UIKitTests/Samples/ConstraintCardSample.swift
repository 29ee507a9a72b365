import UIKit

// A sample written as iOS code with Auto Layout: a "Today"-style card laid out by constraints (a header,
// and a stack view of a caption, a title and a wrapping body), expanded to fill the screen by changing
// four constants inside a spring property animator, the way such cards are written on iOS.

/// A screen with one card; `expand()` opens it, `collapse()` closes it.
final class ConstraintCardViewController: UIViewController {
    let card = UIView()
    let header = UIView()
    let caption = UILabel()
    let titleLabel = UILabel()
    let body = UILabel()
    private var top: NSLayoutConstraint!
    private var leading: NSLayoutConstraint!
    private var trailing: NSLayoutConstraint!
    private var height: NSLayoutConstraint!
    private var headerHeight: NSLayoutConstraint!

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemGroupedBackground
        card.backgroundColor = .systemBackground
        card.layer.cornerRadius = 12
        card.clipsToBounds = true
        card.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(card)

        header.backgroundColor = .systemIndigo
        header.translatesAutoresizingMaskIntoConstraints = false
        card.addSubview(header)

        caption.text = "TODAY"
        caption.font = .systemFont(ofSize: 9, weight: .semibold)
        caption.textColor = .secondaryLabel
        titleLabel.text = "Layout that moves"
        titleLabel.font = .systemFont(ofSize: 16, weight: .bold)
        body.text = "Every frame here comes from constraints: the card's four constants change inside one spring."
        body.font = .systemFont(ofSize: 11)
        body.numberOfLines = 0
        let text = UIStackView(arrangedSubviews: [caption, titleLabel, body])
        text.axis = .vertical
        text.spacing = 2
        text.setCustomSpacing(6, after: titleLabel)
        text.translatesAutoresizingMaskIntoConstraints = false
        card.addSubview(text)

        let guide = view.safeAreaLayoutGuide
        top = card.topAnchor.constraint(equalTo: guide.topAnchor, constant: 60)
        leading = card.leadingAnchor.constraint(equalTo: view.leadingAnchor, constant: 16)
        trailing = view.trailingAnchor.constraint(equalTo: card.trailingAnchor, constant: 16)
        height = card.heightAnchor.constraint(equalToConstant: 170)
        headerHeight = header.heightAnchor.constraint(equalToConstant: 80)
        NSLayoutConstraint.activate([
            top, leading, trailing, height,
            header.topAnchor.constraint(equalTo: card.topAnchor),
            header.leadingAnchor.constraint(equalTo: card.leadingAnchor),
            header.trailingAnchor.constraint(equalTo: card.trailingAnchor),
            headerHeight,
            text.topAnchor.constraint(equalTo: header.bottomAnchor, constant: 10),
            text.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 12),
            text.trailingAnchor.constraint(equalTo: card.trailingAnchor, constant: -12),
        ])
    }

    /// Opens the card to the whole screen.
    func expand() {
        let animator = UIViewPropertyAnimator(duration: 0.6, dampingRatio: 0.82) {
            self.top.constant = -self.view.safeAreaInsets.top
            self.leading.constant = 0
            self.trailing.constant = 0
            self.height.constant = self.view.bounds.height
            self.headerHeight.constant = 140
            self.card.layer.cornerRadius = 0
            self.view.layoutIfNeeded()
        }
        animator.startAnimation()
    }

    /// Closes it again.
    func collapse() {
        let animator = UIViewPropertyAnimator(duration: 0.5, dampingRatio: 0.9) {
            self.top.constant = 60
            self.leading.constant = 16
            self.trailing.constant = 16
            self.height.constant = 170
            self.headerHeight.constant = 80
            self.card.layer.cornerRadius = 12
            self.view.layoutIfNeeded()
        }
        animator.startAnimation()
    }
}
