import ArgumentParser
import Foundation
import RasterCore
import TransitionCompositor

/// `smokescreen memory NAME`: what a transition's bitmaps cost at @1x, @2x and @3x.
struct Memory: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the decoded bytes of a transition's images, frame buffer and snapshots, and the peak bitmap bytes while rendering, at @1x, @2x and @3x.")

    @OptionGroup var transitionOptions: TransitionOptions

    func run() throws {
        let transition = try reportingErrors { try transitionOptions.resolveTransition() }
        var peaks: [(Int, Int)] = []
        for scale in 1...3 {
            let settings = try transitionOptions.settings(scale: scale)
            // Everything allocated while building the trees, taking snapshots and drawing every frame.
            let (rendered, usage) = try reportingErrors {
                try MemoryLedger.measure("memory @\(scale)x") { () throws -> RenderedTransition in
                    let rendered = try transition.render(settings)
                    var canvas = try rendered.sequence.makeCanvas()
                    for i in 0..<rendered.sequence.count { rendered.sequence.draw(frame: i, into: &canvas) }
                    return rendered
                }
            }
            let canvas = try rendered.sequence.makeCanvas()
            print("@\(scale)x")
            print(line("frame buffer", "\(canvas.width)x\(canvas.height)", canvas.width * canvas.height * 4))
            for record in rendered.bitmaps {
                print(line("\(record.kind.rawValue) \(record.name)", "\(record.width)x\(record.height)@\(Int(record.scale))x", record.bytes))
            }
            let snapshots = rendered.bitmaps.filter { $0.kind == .snapshot }.reduce(0) { $0 + $1.bytes }
            let assets = rendered.bitmaps.filter { $0.kind == .asset }.reduce(0) { $0 + $1.bytes }
            print(line("images (decoded)", "", assets))
            print(line("snapshots", "", snapshots))
            print(line("peak bitmap bytes while rendering", "", usage.peakBytes))
            print("")
            peaks.append((scale, usage.peakBytes))
        }
        if let one = peaks.first?.1, one > 0 {
            print("peak relative to @1x: " + peaks.map { String(format: "@%dx %.2fx", $0.0, Double($0.1) / Double(one)) }.joined(separator: ", "))
        }
    }

    private func line(_ what: String, _ size: String, _ bytes: Int) -> String {
        let mib = String(format: "%.2f MiB", Double(bytes) / 1_048_576)
        return "  \(what.padding(toLength: 44, withPad: " ", startingAt: 0)) \(size.padding(toLength: 14, withPad: " ", startingAt: 0)) \(String(bytes).leftPadded(12)) B  \(mib.leftPadded(11))"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
