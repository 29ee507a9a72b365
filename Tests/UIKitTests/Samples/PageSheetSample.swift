import UIKit

// A sample written as iOS code is: iOS 15's page sheet, with no presentation code of its own — the
// sheet's detents and grabber set on `sheetPresentationController`, then `present`. Only UIKit.

/// The screen underneath: rows of notes; `compose()` presents the sheet at its medium detent.
final class NotesListViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        let title = UILabel(frame: CGRect(x: 12, y: 24, width: 150, height: 28))
        title.text = "Notes"
        title.font = .systemFont(ofSize: 22, weight: .bold)
        view.addSubview(title)
        for index in 0..<6 {
            let row = UIView(frame: CGRect(x: 12, y: 64 + CGFloat(index) * 40, width: 156, height: 32))
            row.backgroundColor = .secondarySystemBackground
            row.layer.cornerRadius = 8
            row.layer.cornerCurve = .continuous
            let bar = UIView(frame: CGRect(x: 10, y: 12, width: CGFloat(60 + 12 * index), height: 8))
            bar.backgroundColor = index.isMultiple(of: 2) ? .systemOrange : .systemTeal
            bar.layer.cornerRadius = 4
            row.addSubview(bar)
            view.addSubview(row)
        }
    }

    func compose() {
        let editor = NoteEditorViewController()
        if let sheet = editor.sheetPresentationController {
            sheet.detents = [.medium(), .large()]
            sheet.prefersGrabberVisible = true
        }
        present(editor, animated: true)
    }
}

/// The sheet's content: a title and lines of text.
final class NoteEditorViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        let title = UILabel(frame: CGRect(x: 12, y: 18, width: 156, height: 22))
        title.text = "New Note"
        title.font = .systemFont(ofSize: 17, weight: .semibold)
        view.addSubview(title)
        for index in 0..<4 {
            let line = UIView(frame: CGRect(x: 12, y: 52 + CGFloat(index) * 16, width: index == 3 ? 90 : 150, height: 6))
            line.backgroundColor = .tertiarySystemFill
            line.layer.cornerRadius = 3
            view.addSubview(line)
        }
    }
}
