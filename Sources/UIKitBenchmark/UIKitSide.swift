import Foundation
import SmokescreenStage
import TransitionCompositor

/// The same transition written as iOS code: the same tree in UIKit's views (the thumbnail in a
/// `UIImageView`, the rows in a `UIScrollView`), shown on a stage and animated with `UIView.animate`.
enum UIKitSide {
    static func render(thumbnail: UIImage, scale: Double, fps: Double) throws -> FrameSequence {
        let device = Device(name: "benchmark", size: CGSize(width: 375, height: 667), scale: CGFloat(scale))
        let stage = try Stage(device: device, fps: fps, scale: CGFloat(scale))
        let controller = UIViewController()
        let (root, table, bar) = makeTree(thumbnail: thumbnail)
        controller.view = root
        stage.show(controller)
        let rows = table.subviews
        UIView.animate(withDuration: Pair.duration, delay: 0, options: [.curveEaseInOut]) {
            for (index, row) in rows.enumerated() {
                if index == Pair.selectedRow {
                    row.frame = CGRect(x: Pair.grownFrame.x, y: Pair.grownFrame.y, width: Pair.grownFrame.width, height: Pair.grownFrame.height)
                } else {
                    row.alpha = 0
                }
            }
            bar.subviews[0].alpha = 0
        }
        try stage.waitUntilIdle()
        return stage.frames(name: "pair-uikit")
    }

    /// `BenchmarkTree`'s views, one for one, in UIKit's names.
    static func makeTree(thumbnail: UIImage) -> (root: UIView, table: UIScrollView, bar: UIView) {
        func rgb(_ r: Int, _ g: Int, _ b: Int) -> UIColor { UIColor(red: CGFloat(r) / 255, green: CGFloat(g) / 255, blue: CGFloat(b) / 255, alpha: 1) }
        let rowHeight: CGFloat = 60, rowCount = 11
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 375, height: 667))
        root.backgroundColor = .white
        let table = UIScrollView(frame: CGRect(x: 0, y: 64, width: 375, height: 603))
        table.contentInsetAdjustmentBehavior = .never
        table.contentSize = CGSize(width: 375, height: rowHeight * CGFloat(rowCount))
        table.contentOffset = CGPoint(x: 0, y: 17)
        let separator = rgb(198, 198, 200), ink = rgb(28, 28, 30), secondary = rgb(142, 142, 147)
        for i in 0..<rowCount {
            let row = UIView(frame: CGRect(x: 0, y: CGFloat(i) * rowHeight, width: 375, height: rowHeight))
            row.backgroundColor = i == 3 ? rgb(209, 209, 214) : .white
            let thumb = UIImageView(image: thumbnail)
            thumb.frame = CGRect(x: 16, y: 8, width: 44, height: 44)
            thumb.contentMode = .scaleAspectFill
            thumb.clipsToBounds = true
            thumb.layer.cornerRadius = 6
            let title = UIView(frame: CGRect(x: 72, y: 14, width: 180 - CGFloat(i % 4) * 20, height: 12))
            title.backgroundColor = ink
            let subtitle = UIView(frame: CGRect(x: 72, y: 34, width: 240 - CGFloat(i % 3) * 30, height: 9))
            subtitle.backgroundColor = secondary
            let chevron = UIView(frame: CGRect(x: 347, y: 24, width: 8, height: 12))
            chevron.backgroundColor = secondary
            chevron.transform = CGAffineTransform(rotationAngle: .pi / 4)
            let line = UIView(frame: CGRect(x: 72, y: rowHeight - 0.5, width: 303, height: 0.5))
            line.backgroundColor = separator
            for v in [thumb, title, subtitle, chevron, line] { row.addSubview(v) }
            table.addSubview(row)
        }
        let bar = UIView(frame: CGRect(x: 0, y: 0, width: 375, height: 64))
        bar.backgroundColor = rgb(0, 122, 255)
        let title = UIView(frame: CGRect(x: 137, y: 32, width: 101, height: 18))
        title.backgroundColor = .white
        title.layer.cornerRadius = 4
        let back = UIView(frame: CGRect(x: 8, y: 30, width: 60, height: 22))
        back.layer.borderWidth = 1.5
        back.layer.borderColor = UIColor.white.cgColor
        back.layer.cornerRadius = 11
        bar.addSubview(title)
        bar.addSubview(back)
        root.addSubview(table)
        root.addSubview(bar)
        return (root, table, bar)
    }
}
