import RasterCore
import SnapshotView

/// A 375x667 pt view tree of about 60 views, for measuring how fast a whole tree renders: a navigation
/// bar with a title and a back button, and a scrolled table of rows, each with a rounded thumbnail,
/// title and subtitle bars, a disclosure indicator and a separator.
public enum BenchmarkTree {
    /// The canvas, points (an iPhone of the time).
    public static let pointSize = Size(width: 375, height: 667)
    static let rowHeight = 60.0, rowCount = 11

    /// Builds the tree; `thumbnail` is shown in every row at 44x44 pt (aspect fill, clipped, rounded).
    public static func make(thumbnail: Bitmap) throws -> View {
        let root = View(frame: Rect(origin: .zero, size: pointSize), name: "window")
        root.backgroundColor = .white
        let table = ScrollView(frame: Rect(x: 0, y: 64, width: 375, height: 603), name: "table")
        table.contentSize = Size(width: 375, height: rowHeight * Double(rowCount))
        table.contentOffset = Point(x: 0, y: 17)
        let separator = Color(red8: 198, green8: 198, blue8: 200)
        let ink = Color(red8: 28, green8: 28, blue8: 30), secondary = Color(red8: 142, green8: 142, blue8: 147)
        for i in 0..<rowCount {
            let row = View(frame: Rect(x: 0, y: Double(i) * rowHeight, width: 375, height: rowHeight), name: "row \(i)")
            row.backgroundColor = i == 3 ? Color(red8: 209, green8: 209, blue8: 214) : .white
            let thumb = ImageView(image: thumbnail, frame: Rect(x: 16, y: 8, width: 44, height: 44), contentMode: .scaleAspectFill)
            thumb.clipsToBounds = true
            thumb.cornerRadius = 6
            let title = View(frame: Rect(x: 72, y: 14, width: 180 - Double(i % 4) * 20, height: 12))
            title.backgroundColor = ink
            let subtitle = View(frame: Rect(x: 72, y: 34, width: 240 - Double(i % 3) * 30, height: 9))
            subtitle.backgroundColor = secondary
            let chevron = View(frame: Rect(x: 347, y: 24, width: 8, height: 12))
            chevron.backgroundColor = secondary
            chevron.transform = Transform2D(rotationAngle: .pi / 4)
            let line = View(frame: Rect(x: 72, y: rowHeight - 0.5, width: 303, height: 0.5))
            line.backgroundColor = separator
            for v in [thumb, title, subtitle, chevron, line] { try row.addSubview(v) }
            try table.addSubview(row)
        }
        let bar = View(frame: Rect(x: 0, y: 0, width: 375, height: 64), name: "navigation bar")
        bar.backgroundColor = Color(red8: 0, green8: 122, blue8: 255)
        let title = View(frame: Rect(x: 137, y: 32, width: 101, height: 18), name: "title")
        title.backgroundColor = .white
        title.cornerRadius = 4
        let back = View(frame: Rect(x: 8, y: 30, width: 60, height: 22), name: "back")
        back.borderWidth = 1.5
        back.borderColor = .white
        back.cornerRadius = 11
        try bar.addSubview(title); try bar.addSubview(back)
        try root.addSubview(table)
        try root.addSubview(bar)
        return root
    }
}
