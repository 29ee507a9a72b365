import Containers
import Foundation
import Motion
import RasterCore
import SnapshotView

/// The History page as the sectioned table the seed tried first, after Apple's "Table View Animations
/// and Gestures" sample: one section per period with the scroll as its header view, the events as rows
/// of the open section. Opening a section closes the open one in the same batch update, with the
/// sample's row animations (opening a section below the open one: its rows come in `.bottom`, the
/// closed section's go `.top`; above it, the other way round). A pinch made rows taller in the sample;
/// here ``setRowHeight(_:forRowAt:)`` does it, with the same height-only update.
///
/// The table's background is clear: where no header or row covers the screen, the page's backdrop
/// shows, as it would through a table over a window.
final class SectionedHistory: TableViewDataSource, TableViewDelegate {
    let engine: AnimationEngine
    let window: View
    let table: TableView
    let periods: [HistoryPeriod]
    private(set) var openSection: Int?
    /// Row heights set by a pinch, by index path (points).
    private var pinchedHeights: [IndexPath: Double] = [:]
    /// Errors from taps (reported by the scene).
    var onError: ((any Error) -> Void)?

    init(engine: AnimationEngine, periods: [HistoryPeriod] = HistoryPeriod.all, openSection: Int? = 0) throws {
        self.engine = engine
        self.periods = periods
        self.openSection = openSection
        let size = HistoryMetrics.screen
        window = View(frame: Rect(origin: .zero, size: size), name: "window")
        window.backgroundColor = HistoryMetrics.backdrop
        table = TableView(frame: Rect(x: 0, y: HistoryMetrics.barHeight, width: size.width, height: HistoryMetrics.viewportHeight),
                          style: .plain, engine: engine, name: "table")
        table.backgroundColor = nil
        table.register(EventCell.self, forCellReuseIdentifier: "event")
        table.dataSource = self
        table.delegate = self
        try window.addSubview(table)
        try window.addSubview(HistoryPage.navigationBar(title: "History", subtitle: "歴史"))
        try table.reloadData()
    }

    // MARK: Gestures

    /// A pinch that leaves row `indexPath` `height` points tall, applied with the table's height-only
    /// update (as the sample's pinch recognizer did, row by row).
    func setRowHeight(_ height: Double, forRowAt indexPath: IndexPath) throws {
        pinchedHeights[indexPath] = height
        try table.performBatchUpdates(nil)
    }

    /// A tap on section `section`'s header: opens it and closes the open one in one batch update, or
    /// closes it when it is the open one.
    func tapHeader(_ section: Int) throws {
        guard periods.indices.contains(section) else { return }
        let previous = openSection
        let rows = { (s: Int) in (0..<self.periods[s].events.count).map { IndexPath(row: $0, section: s) } }
        let (insertAnimation, deleteAnimation): (TableViewRowAnimation, TableViewRowAnimation) =
            previous.map { section < $0 } ?? true ? (.top, .bottom) : (.bottom, .top)
        openSection = previous == section ? nil : section
        try table.performBatchUpdates({
            if let previous { try self.table.deleteRows(at: rows(previous), with: deleteAnimation) }
            if previous != section { try self.table.insertRows(at: rows(section), with: insertAnimation) }
        })
        // The sample forgot a closed section's pinched heights.
        if let previous { pinchedHeights = pinchedHeights.filter { $0.key.section != previous } }
    }

    // MARK: Data source and delegate

    func numberOfSections(in tableView: TableView) -> Int { periods.count }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        section == openSection ? periods[section].events.count : 0
    }
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "event", for: indexPath)
        cell.textLabel.text = periods[indexPath.section].events[indexPath.row].english
        cell.name = "event-\(indexPath.section)-\(indexPath.row)"
        cell.layoutSubviews()
        return cell
    }
    func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Double {
        pinchedHeights[indexPath] ?? ((try? EventCell.height(of: periods[indexPath.section].events[indexPath.row].english,
                                                               rowWidth: HistoryMetrics.screen.width)) ?? 44)
    }
    func tableView(_ tableView: TableView, heightForHeaderInSection section: Int) -> Double { HistoryMetrics.scrollHeight }
    func tableView(_ tableView: TableView, viewForHeaderInSection section: Int) -> View? {
        ScrollHeaderView(period: periods[section], index: section)
    }
}
