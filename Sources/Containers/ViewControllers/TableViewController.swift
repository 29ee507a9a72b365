import Foundation
import Motion
import RasterCore
import SnapshotView
import Typesetting

/// A controller whose view is a table it is the data source and delegate of, as
/// `UITableViewController`. Subclasses override the data source and delegate methods.
///
/// With ``clearsSelectionOnViewWillAppear`` (the default) it deselects the selected rows when its view
/// is about to appear, as seed 003 describes UIKit's: in an animated, non-interactive transition the
/// highlight fades with the transition; in an interactive one it waits until the transition finishes,
/// then fades, and after a cancelled one it stays (the row is "stuck" highlighted).
open class TableViewController: ViewController, TableViewDataSource, TableViewDelegate {
    /// The table's style. Fixed at creation.
    public let style: TableViewStyle
    /// The engine the table animates on.
    public weak var engine: AnimationEngine?
    /// Deselect the selected rows when the view is about to appear. Default true.
    public var clearsSelectionOnViewWillAppear = true

    /// A controller of a `style` table animating on `engine`.
    public init(style: TableViewStyle = .plain, engine: AnimationEngine?) {
        self.style = style
        self.engine = engine
        super.init()
    }

    /// The table: the controller's view unless a subclass's `loadView` returns another.
    public private(set) lazy var tableView: TableView = {
        let table = TableView(frame: Rect(x: 0, y: 0, width: 375, height: 603), style: style, engine: engine, name: title ?? "table",
                              appearance: appearance, textSize: textSize)
        table.dataSource = self
        table.delegate = self
        return table
    }()

    /// Returns the table, sized to the screen, with this controller as its data source and delegate.
    /// The table, with the controller's appearance and text size (also when it was made earlier).
    open override func loadView() -> View {
        tableView.appearance = appearance
        tableView.textSize = textSize
        return tableView
    }

    /// The table takes the new text size; rows laid out keep their heights until the next `reloadData()`.
    open override func textSizeDidChange(from old: Font.ContentSize) {
        tableView.textSize = textSize
    }

    /// The table takes the new appearance (its background, cells and titles).
    open override func appearanceDidChange(from old: Appearance) {
        tableView.appearance = appearance
    }

    /// Loads the table's rows the first time.
    open override func viewDidLoad() {
        try? tableView.reloadData()
    }

    /// Clears the selection as ``clearsSelectionOnViewWillAppear`` says.
    open override func viewWillAppear(_ animated: Bool) {
        guard clearsSelectionOnViewWillAppear, let selected = tableView.indexPathsForSelectedRows else { return }
        if let coordinator = transitionCoordinator, coordinator.isInteractive {
            coordinator.animate(alongsideTransition: nil) { [weak self] context in
                guard let self, !context.isCancelled else { return }
                for ip in selected { self.tableView.deselectRow(at: ip, animated: context.isAnimated) }
            }
        } else {
            for ip in selected { tableView.deselectRow(at: ip, animated: animated) }
        }
    }

    // Data source and delegate: none by default.
    /// 0; override.
    open func numberOfSections(in tableView: TableView) -> Int { 1 }
    /// 0; override.
    open func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 0 }
    /// A default cell; override.
    open func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        tableView.dequeueReusableCell(withIdentifier: "cell", for: indexPath)
    }
    /// nil; override.
    open func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { nil }
    /// nil; override.
    open func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String? { nil }
    /// ``TableView/automaticDimension``; override.
    open func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Double { TableView.automaticDimension }
    /// ``TableView/automaticDimension``; override.
    open func tableView(_ tableView: TableView, heightForHeaderInSection section: Int) -> Double { TableView.automaticDimension }
    /// ``TableView/automaticDimension``; override.
    open func tableView(_ tableView: TableView, heightForFooterInSection section: Int) -> Double { TableView.automaticDimension }
    /// nil; override.
    open func tableView(_ tableView: TableView, viewForHeaderInSection section: Int) -> View? { nil }
    /// nil; override.
    open func tableView(_ tableView: TableView, viewForFooterInSection section: Int) -> View? { nil }
    /// `indexPath`; override.
    open func tableView(_ tableView: TableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    /// Nothing; override.
    open func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {}
    /// `indexPath`; override.
    open func tableView(_ tableView: TableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    /// Nothing; override.
    open func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath) {}
    /// Nothing; override.
    open func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {}
    /// Shows the navigation bar's standard appearance while the table's content is scrolled under it
    /// (when this controller is the top of a navigation stack); subclasses call `super`.
    open func scrollViewDidScroll(_ scrollView: ScrollView) {
        // The bar shows its standard appearance once the table's content has scrolled under it.
        if let bar = navigationController?.navigationBar, navigationController?.topViewController === self {
            bar.isAtScrollEdge = tableView.contentOffset.y <= 0
        }
    }
}
