import UIKit

// A sample written as iOS code is: a shopping list in a table view controller inside a navigation
// controller, with the controller's Edit button. In editing mode the items show the delete control and the
// reorder control, and the last row the insert control, which adds an item; a tap on an item's delete
// control shows the Delete confirmation, which removes it; an item dragged by its reorder control moves.
// Only UIKit.

/// The list: items that can be deleted and moved, then an "Add Item" row that inserts.
final class ShoppingListViewController: UITableViewController {
    var items = ["Apples", "Bread", "Coffee", "Eggs"]

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Shopping"
        navigationItem.rightBarButtonItem = editButtonItem
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "item")
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        items.count + 1
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "item", for: indexPath)
        let isAddRow = indexPath.row == items.count
        cell.textLabel?.text = isAddRow ? "Add Item" : items[indexPath.row]
        cell.textLabel?.textColor = isAddRow ? .secondaryLabel : .label
        cell.accessoryType = isAddRow ? .none : .disclosureIndicator
        return cell
    }

    override func tableView(_ tableView: UITableView, editingStyleForRowAt indexPath: IndexPath) -> UITableViewCell.EditingStyle {
        indexPath.row == items.count ? .insert : .delete
    }

    override func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool {
        indexPath.row < items.count
    }

    override func tableView(_ tableView: UITableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        items.insert(items.remove(at: sourceIndexPath.row), at: destinationIndexPath.row)
    }

    override func tableView(_ tableView: UITableView, commit editingStyle: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        switch editingStyle {
        case .delete:
            items.remove(at: indexPath.row)
            tableView.deleteRows(at: [indexPath], with: .automatic)
        case .insert:
            items.append("Milk")
            tableView.insertRows(at: [IndexPath(row: items.count - 1, section: 0)], with: .automatic)
        default:
            break
        }
    }
}
