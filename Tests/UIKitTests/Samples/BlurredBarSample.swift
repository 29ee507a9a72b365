import UIKit

// A sample written as iOS code: a list of coloured rows scrolls up under a bar made of a
// UIVisualEffectView (the system material), the way a navigation bar blurs what passes under it; the
// bar's title sits in the effect view's contentView.

/// A list under a material bar; `scroll()` moves the list up by 140 pt.
final class BlurredBarViewController: UIViewController {
    let list = UIView()
    let bar = UIVisualEffectView(effect: UIBlurEffect(style: .systemMaterial))

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        let colors: [UIColor] = [.systemRed, .systemOrange, .systemYellow, .systemGreen, .systemTeal, .systemBlue, .systemIndigo, .systemPurple, .systemPink]
        list.frame = CGRect(x: 0, y: 64, width: view.bounds.width, height: CGFloat(colors.count) * 52)
        for (row, color) in colors.enumerated() {
            let cell = UIView(frame: CGRect(x: 12, y: CGFloat(row) * 52 + 6, width: view.bounds.width - 24, height: 40))
            cell.backgroundColor = color
            cell.layer.cornerRadius = 10
            let label = UILabel(frame: CGRect(x: 12, y: 10, width: 120, height: 20))
            label.text = "Row \(row + 1)"
            label.font = .systemFont(ofSize: 15, weight: .semibold)
            label.textColor = .white
            cell.addSubview(label)
            list.addSubview(cell)
        }
        view.addSubview(list)

        bar.frame = CGRect(x: 0, y: 0, width: view.bounds.width, height: 64)
        let title = UILabel(frame: CGRect(x: 0, y: 32, width: view.bounds.width, height: 22))
        title.text = "Library"
        title.textAlignment = .center
        title.font = .systemFont(ofSize: 17, weight: .semibold)
        bar.contentView.addSubview(title)
        view.addSubview(bar)
    }

    /// The list slides up under the bar: 0.6 s, ease in-out.
    func scroll(completion: ((Bool) -> Void)? = nil) {
        UIView.animate(withDuration: 0.6, delay: 0, options: .curveEaseInOut, animations: {
            self.list.frame.origin.y -= 140
        }, completion: completion)
    }
}
