import Foundation
import SnapshotView

/// Supplies a table's sections, rows and cells, as `UITableViewDataSource`. Only the row count and the
/// cell are required; the rest default as UIKit's do.
public protocol TableViewDataSource: AnyObject {
    /// Default 1.
    func numberOfSections(in tableView: TableView) -> Int
    /// The number of rows in `section`.
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int
    /// The cell for the row at `indexPath`: usually `tableView.dequeueReusableCell(withIdentifier:for:)`,
    /// configured. Asked only for rows that are on screen (or animating onto it).
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell
    /// The header title of `section`; default nil (no title).
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String?
    /// The footer title of `section`; default nil (no title).
    func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String?
}

extension TableViewDataSource {
    /// 1.
    public func numberOfSections(in tableView: TableView) -> Int { 1 }
    /// nil.
    public func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { nil }
    /// nil.
    public func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String? { nil }
}

/// Sizes a table's rows and headers, supplies custom header and footer views, and hears of selection and
/// scrolling, as `UITableViewDelegate`. Every method has UIKit's default.
public protocol TableViewDelegate: ScrollViewDelegate {
    /// The row's height in points; default ``TableView/automaticDimension``: the table's `rowHeight`.
    func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Double
    /// The header's height in points; default ``TableView/automaticDimension``: the height the style
    /// gives a title (or no title).
    func tableView(_ tableView: TableView, heightForHeaderInSection section: Int) -> Double
    /// The footer's height in points; default ``TableView/automaticDimension``.
    func tableView(_ tableView: TableView, heightForFooterInSection section: Int) -> Double
    /// A custom header view (sized by the table); default nil: the title, if any, drawn in the style's way.
    func tableView(_ tableView: TableView, viewForHeaderInSection section: Int) -> View?
    /// A custom footer view; default nil.
    func tableView(_ tableView: TableView, viewForFooterInSection section: Int) -> View?
    /// The row about to be selected by a tap: return it, another index path to select instead, or nil to
    /// select nothing (a row that cannot be selected). Default: `indexPath`.
    func tableView(_ tableView: TableView, willSelectRowAt indexPath: IndexPath) -> IndexPath?
    /// A tap selected the row.
    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath)
    /// The row about to be deselected by a tap (multiple selection) or by another row's selection:
    /// return nil to keep it selected. Default: `indexPath`.
    func tableView(_ tableView: TableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath?
    /// A tap deselected the row.
    func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath)
}

extension TableViewDelegate {
    /// ``TableView/automaticDimension``.
    public func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Double { TableView.automaticDimension }
    /// ``TableView/automaticDimension``.
    public func tableView(_ tableView: TableView, heightForHeaderInSection section: Int) -> Double { TableView.automaticDimension }
    /// ``TableView/automaticDimension``.
    public func tableView(_ tableView: TableView, heightForFooterInSection section: Int) -> Double { TableView.automaticDimension }
    /// nil.
    public func tableView(_ tableView: TableView, viewForHeaderInSection section: Int) -> View? { nil }
    /// nil.
    public func tableView(_ tableView: TableView, viewForFooterInSection section: Int) -> View? { nil }
    /// `indexPath`.
    public func tableView(_ tableView: TableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    /// Nothing.
    public func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {}
    /// `indexPath`.
    public func tableView(_ tableView: TableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    /// Nothing.
    public func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath) {}
}
