// A box that turns blue after a timer and fades after a delay on the main queue, written for iOS: the
// delays run on the stage's clock.
import UIKit

final class DelayedFade: UIViewController {
    let box = UIView(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .white
        box.backgroundColor = .systemRed
        view.addSubview(box)
    }
    func start() {
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.3) {
            UIView.animate(withDuration: 0.2) { self.box.alpha = 0 }
        }
        Timer.scheduledTimer(withTimeInterval: 0.1, repeats: false) { _ in self.box.backgroundColor = .systemBlue }
    }
}
