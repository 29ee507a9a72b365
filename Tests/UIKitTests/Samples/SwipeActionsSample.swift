import UIKit

// A sample written as iOS code is: a mailbox whose rows swipe. Swiped left, a row shows Flag and Delete
// (Delete outermost); swiped right, Unread. A full swipe left deletes. Only UIKit.

/// The mailbox: subjects, with a flag mark for flagged ones.
final class MailboxViewController: UITableViewController {
    var subjects = ["Quarterly report", "Lunch on Friday?", "Your receipt", "Team photos", "Flight changes"]
    var flagged: Set<String> = []
    var unread: Set<String> = []

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Inbox"
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "mail")
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { subjects.count }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "mail", for: indexPath)
        let subject = subjects[indexPath.row]
        cell.textLabel?.text = subject
        cell.textLabel?.font = unread.contains(subject) ? .boldSystemFont(ofSize: 17) : .systemFont(ofSize: 17)
        cell.accessoryType = flagged.contains(subject) ? .checkmark : .none
        return cell
    }

    override func tableView(_ tableView: UITableView, trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath) -> UISwipeActionsConfiguration? {
        let subject = subjects[indexPath.row]
        let delete = UIContextualAction(style: .destructive, title: "Delete") { [weak self] _, _, completion in
            guard let self, let row = self.subjects.firstIndex(of: subject) else { return completion(false) }
            self.subjects.remove(at: row)
            tableView.deleteRows(at: [IndexPath(row: row, section: 0)], with: .automatic)
            completion(true)
        }
        let flag = UIContextualAction(style: .normal, title: flagged.contains(subject) ? "Unflag" : "Flag") { [weak self] _, _, completion in
            guard let self else { return completion(false) }
            if self.flagged.contains(subject) { self.flagged.remove(subject) } else { self.flagged.insert(subject) }
            completion(true)
            tableView.reloadRows(at: [indexPath], with: .none)
        }
        flag.backgroundColor = .systemOrange
        return UISwipeActionsConfiguration(actions: [delete, flag])
    }

    override func tableView(_ tableView: UITableView, leadingSwipeActionsConfigurationForRowAt indexPath: IndexPath) -> UISwipeActionsConfiguration? {
        let subject = subjects[indexPath.row]
        let read = UIContextualAction(style: .normal, title: "Unread") { [weak self] _, _, completion in
            self?.unread.insert(subject)
            completion(true)
            tableView.reloadRows(at: [indexPath], with: .none)
        }
        read.backgroundColor = .systemBlue
        return UISwipeActionsConfiguration(actions: [read])
    }
}
