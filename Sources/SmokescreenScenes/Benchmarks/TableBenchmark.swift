import Containers
import Foundation
import Motion
import RasterCore
import SnapshotView
import TransitionCompositor

/// How a table's cost grows with its data: a 10,000-row table given one batch of 100 updates (four of
/// them on screen, the rest spread over the whole table), rendered for 30 frames, against a 20-row table
/// given the same four on-screen updates. Only the rows on screen have cells, so the two should cost
/// about the same: the target is the big table within 2x of the small one.
public struct TableBenchmark {
    /// Repetitions of each case; the median is reported.
    public var runs: Int
    /// Pixels per point of the frames drawn.
    public var scale: Int
    /// Told what is being measured.
    public var progress: ((String) -> Void)?

    /// A benchmark of `runs` runs per case at `scale`.
    public init(runs: Int = 5, scale: Int = 2, progress: ((String) -> Void)? = nil) {
        self.runs = runs
        self.scale = scale
        self.progress = progress
    }

    /// One case's figures.
    public struct Case: Sendable {
        /// Rows in the table before the update.
        public var rows: Int
        /// Row inserts and deletes in the one batch.
        public var updates: Int
        /// Frames rendered (frozen and drawn).
        public var frames: Int
        /// Seconds for the whole case (load, update, 30 frames frozen and drawn): median and minimum.
        public var medianSeconds: Double, minSeconds: Double
        /// Cells the table made (reuse keeps this near the rows on screen).
        public var cellsCreated: Int
    }

    /// The frames of one run: the 0.3 s update sampled at 29/0.3 fps gives frames 0…29.
    public static let frames = 30

    /// Runs both cases: the 20-row table, then the 10,000-row one.
    public func run() throws -> (small: Case, large: Case) {
        progress?("a 20-row table, 4 updates")
        let small = try measure(rows: 20, offScreenUpdates: 0)
        progress?("a 10,000-row table, 100 updates")
        let large = try measure(rows: 10_000, offScreenUpdates: 96)
        return (small, large)
    }

    func measure(rows: Int, offScreenUpdates: Int) throws -> Case {
        var times: [Double] = []
        var frames = 0, cells = 0, updates = 0
        for _ in 0..<runs {
            var result: (frames: Int, cells: Int, updates: Int) = (0, 0, 0)
            times.append(try ReferenceBenchmark.seconds { result = try renderOnce(rows: rows, offScreenUpdates: offScreenUpdates) })
            (frames, cells, updates) = result
        }
        return Case(rows: rows, updates: updates, frames: frames, medianSeconds: ReferenceBenchmark.median(times),
                    minSeconds: times.min() ?? .nan, cellsCreated: cells)
    }

    private func renderOnce(rows count: Int, offScreenUpdates: Int) throws -> (frames: Int, cells: Int, updates: Int) {
        let engine = AnimationEngine(fps: Double(Self.frames - 1) / 0.3)
        let window = View(frame: Rect(x: 0, y: 0, width: 375, height: 667), name: "window")
        let table = TableView(frame: window.bounds, style: .plain, engine: engine, name: "table")
        try window.addSubview(table)
        let source = BenchSource(rows: (0..<count).map { "Row \($0)" })
        table.dataSource = source
        try table.reloadData()
        // On screen: delete rows 3 and 7, insert at 2 and 9. Off screen: half deletes, half inserts,
        // spread evenly below the first screenful.
        var deletes = [3, 7], inserts = [2, 9]
        let spread = max(1, (count - 40) / max(1, offScreenUpdates / 2 + 1))
        for k in 0..<(offScreenUpdates / 2) {
            deletes.append(30 + k * spread)
            inserts.append(31 + k * spread)
        }
        var model = source.rows
        for row in deletes.sorted(by: >) { model.remove(at: row) }
        for row in inserts.sorted() { model.insert("New \(row)", at: row) }
        source.rows = model
        try table.performBatchUpdates({
            try table.deleteRows(at: deletes.map { IndexPath(row: $0, section: 0) }, with: .fade)
            try table.insertRows(at: inserts.map { IndexPath(row: $0, section: 0) }, with: .fade)
        })
        var canvas = try Bitmap(pointSize: window.bounds.size, scale: Double(scale))
        for frame in 0..<Self.frames {
            engine.advance(toFrame: frame)
            if let node = window.renderNode(presentation: engine) { ViewRenderer.draw(node, into: &canvas) }
        }
        return (Self.frames, table.numberOfCellsCreated, deletes.count + inserts.count)
    }
}

/// Rows of text, one section.
private final class BenchSource: TableViewDataSource {
    var rows: [String]
    init(rows: [String]) { self.rows = rows }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { rows.count }
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
        cell.textLabel.text = rows[indexPath.row]
        return cell
    }
}
