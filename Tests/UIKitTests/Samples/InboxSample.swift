import UIKit

// A sample written as iOS code is: an inbox in a table view controller inside a navigation controller.
// A tap on a message pushes it; archiving it pops back, and the list deletes the row once the pop has
// ended (the selection fades alongside the pop first). Only UIKit.

struct InboxMessage {
    var sender: String
    var subject: String
    var isUnread: Bool
}

/// A cell with an unread dot, laid out by constraints: the dot, the sender over the subject.
final class InboxCell: UITableViewCell {
    let dot = UIView()
    let sender = UILabel()
    let subject = UILabel()

    required init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        super.init(style: style, reuseIdentifier: reuseIdentifier)
        dot.backgroundColor = .systemBlue
        dot.layer.cornerRadius = 4
        sender.font = .systemFont(ofSize: 15, weight: .semibold)
        subject.font = .systemFont(ofSize: 13)
        subject.textColor = .secondaryLabel
        subject.numberOfLines = 0
        for view in [dot, sender, subject] {
            view.translatesAutoresizingMaskIntoConstraints = false
            contentView.addSubview(view)
        }
        NSLayoutConstraint.activate([
            dot.widthAnchor.constraint(equalToConstant: 8),
            dot.heightAnchor.constraint(equalToConstant: 8),
            dot.leadingAnchor.constraint(equalTo: contentView.leadingAnchor, constant: 8),
            dot.centerYAnchor.constraint(equalTo: sender.centerYAnchor),
            sender.leadingAnchor.constraint(equalTo: contentView.leadingAnchor, constant: 22),
            sender.trailingAnchor.constraint(equalTo: contentView.trailingAnchor, constant: -8),
            sender.topAnchor.constraint(equalTo: contentView.topAnchor, constant: 8),
            subject.leadingAnchor.constraint(equalTo: sender.leadingAnchor),
            subject.trailingAnchor.constraint(equalTo: sender.trailingAnchor),
            subject.topAnchor.constraint(equalTo: sender.bottomAnchor, constant: 2),
            subject.bottomAnchor.constraint(equalTo: contentView.bottomAnchor, constant: -8),
        ])
        accessoryType = .disclosureIndicator
        separatorInset = UIEdgeInsets(top: 0, left: 22, bottom: 0, right: 0)
    }

    required init?(coder: NSCoder) { nil }

    func show(_ message: InboxMessage) {
        sender.text = message.sender
        subject.text = message.subject
        dot.isHidden = !message.isUnread
    }
}

/// The list of messages.
final class InboxViewController: UITableViewController {
    var messages = [
        InboxMessage(sender: "Aiko", subject: "Lunch on Friday?", isUnread: true),
        InboxMessage(sender: "Build bot", subject: "All 1,124 tests passed on main, in 18 minutes", isUnread: true),
        InboxMessage(sender: "Mei", subject: "Photos from the trip", isUnread: false),
        InboxMessage(sender: "Kenji", subject: "Re: the page curl", isUnread: false),
        InboxMessage(sender: "Sora", subject: "Tickets", isUnread: true),
        InboxMessage(sender: "Yuki", subject: "Notes", isUnread: false),
    ]
    /// The row being read, archived when the reader says so.
    private var reading: IndexPath?

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Inbox"
        tableView.register(InboxCell.self, forCellReuseIdentifier: "message")
        tableView.estimatedRowHeight = 52
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { messages.count }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "message", for: indexPath) as! InboxCell
        cell.show(messages[indexPath.row])
        return cell
    }

    override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        reading = indexPath
        messages[indexPath.row].isUnread = false
        let reader = MessageViewController(message: messages[indexPath.row])
        reader.onArchive = { [weak self] in self?.archiveOpenMessage() }
        navigationController?.pushViewController(reader, animated: true)
    }

    /// Pops back to the list, then deletes the row that was open once the pop has ended.
    private func archiveOpenMessage() {
        guard let row = reading, let navigationController else { return }
        navigationController.popViewController(animated: true)
        navigationController.transitionCoordinator?.animate(alongsideTransition: nil) { [weak self] context in
            guard let self, !context.isCancelled else { return }
            self.messages.remove(at: row.row)
            self.reading = nil
            self.tableView.deleteRows(at: [row], with: .left)
        }
    }
}

/// One message, with its subject as the body.
final class MessageViewController: UIViewController {
    let message: InboxMessage
    var onArchive: (() -> Void)?
    private let body = UILabel()

    init(message: InboxMessage) {
        self.message = message
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = message.sender
        view.backgroundColor = .systemBackground
        body.text = message.subject
        body.numberOfLines = 0
        body.font = .preferredFont(forTextStyle: .body)
        body.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(body)
        NSLayoutConstraint.activate([
            body.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 16),
            body.leadingAnchor.constraint(equalTo: view.leadingAnchor, constant: 16),
            body.trailingAnchor.constraint(equalTo: view.trailingAnchor, constant: -16),
        ])
    }

    func archive() { onArchive?() }
}
