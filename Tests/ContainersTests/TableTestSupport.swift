import Foundation
import Containers
import Motion
import RasterCore
import SnapshotView

/// A data source and delegate over plain arrays: sections of row titles, optional per-row heights.
final class ListModel: TableViewDataSource, TableViewDelegate {
    var sections: [[String]]
    var headerTitles: [String?] = []
    var heights: [String: Double] = [:]
    var cellRequests = 0
    var log: [String] = []
    var scrolls: [Double] = []
    var willSelect: ((IndexPath) -> IndexPath?)?

    init(_ sections: [[String]]) { self.sections = sections }

    func numberOfSections(in tableView: TableView) -> Int { sections.count }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { sections[section].count }
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        cellRequests += 1
        let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
        cell.name = sections[indexPath.section][indexPath.row]
        cell.textLabel.text = sections[indexPath.section][indexPath.row]
        return cell
    }
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        headerTitles.indices.contains(section) ? headerTitles[section] : nil
    }
    func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Double {
        heights[sections[indexPath.section][indexPath.row]] ?? TableView.automaticDimension
    }
    func tableView(_ tableView: TableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
        log.append("willSelect \(indexPath)")
        return willSelect.map { $0(indexPath) } ?? indexPath
    }
    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) { log.append("didSelect \(indexPath)") }
    func tableView(_ tableView: TableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? {
        log.append("willDeselect \(indexPath)")
        return indexPath
    }
    func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath) { log.append("didDeselect \(indexPath)") }
    func scrollViewDidScroll(_ scrollView: ScrollView) { scrolls.append(scrollView.contentOffset.y) }
}

/// A table of `rows` rows named r0, r1, … in one section, 320x440 pt (ten 44-pt rows on screen).
func makeTable(_ model: ListModel, style: TableViewStyle = .plain, engine: AnimationEngine? = nil,
               size: Size = Size(width: 320, height: 440)) throws -> TableView {
    let table = TableView(frame: Rect(origin: .zero, size: size), style: style, engine: engine)
    table.dataSource = model
    table.delegate = model
    try table.reloadData()
    return table
}

func names(_ count: Int, prefix: String = "r") -> [String] { (0..<count).map { "\(prefix)\($0)" } }

extension AnimationEngine {
    /// The frame a view shows now (points, in its superview's coordinates).
    func presentedFrame(_ view: View) -> Rect {
        let center = presentationValue(of: .center, of: view).pointValue!
        let size = presentationValue(of: .bounds, of: view).rectValue!.size
        return Rect(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height)
    }
    func presentedAlpha(_ view: View) -> Double { presentationValue(of: .alpha, of: view).doubleValue! }
}

extension TableView {
    /// The cell (on screen or leaving) showing `name`.
    func cell(named name: String) -> TableViewCell? {
        subviews.compactMap { $0 as? TableViewCell }.first { $0.name == name }
    }
}
