import ArgumentParser
import Foundation
import SmokescreenScenes
import TransitionCompositor

/// `smokescreen memory NAME`: what a transition's bitmaps cost at @1x, @2x and @3x.
package struct Memory: ParsableCommand {
    /// Every option at its default, as ArgumentParser makes the command before it parses.
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "memory",
        abstract: "Print the decoded bytes of a transition's images, frame buffer and snapshots, and the peak bitmap bytes while rendering, at @1x, @2x and @3x.")

    @OptionGroup package var transitionOptions: TransitionOptions

    @Flag(help: "JSON on stdout, every figure with its unit.")
    var json = false

    @Flag(help: "No progress lines on stderr, only the report.")
    var quiet = false

    package func run() throws {
        if transitionOptions.name == PagesMemoryReport.name { return try runPagesReport() }
        let transition = try reportingErrors { try transitionOptions.resolveTransition() }
        let report = try reportingErrors {
            try MemoryReport.measure(transition, settings: { scale in
                // A line per scale as it is measured (each renders the whole transition): the run takes seconds.
                if !quiet { FileHandle.standardError.write(Data("memory: \(transition.name) at @\(scale)x…\n".utf8)) }
                return try transitionOptions.settings(scale: scale)
            })
        }
        if json {
            print(try jsonText(report))
            return
        }
        for s in report.scales {
            print("@\(s.scale)x")
            for b in [s.frameBuffer] + s.images + s.snapshots {
                let what = b.kind == "frame" ? b.name : "\(b.kind) \(b.name)"
                print(line(what, "\(b.width)x\(b.height)" + (b.kind == "frame" ? "" : "@\(Int(b.scale))x"), b.bytes))
            }
            print(line("images (decoded)", "", s.imageBytes))
            print(line("snapshots", "", s.snapshotBytes))
            print(line("peak bitmap bytes while rendering", "", s.peakBytes))
            print(line("per render thread: frame + PNG encoder", "", s.perThreadBytes))
            print(line("  of which the encoder", "", s.encoderBytes))
            let jobs = ProcessInfo.processInfo.activeProcessorCount
            print(line("peak of a render on \(jobs) threads", "", s.renderPeakBytes(jobs: jobs)))
            print("")
        }
        print("peak relative to @1x: " + report.scales.map { String(format: "@%dx %.2fx", $0.scale, $0.peakRelativeTo1x) }.joined(separator: ", "))
    }

    /// `memory inippon-pages`: seed 002's pages per scale and per way of keeping them.
    private func runPagesReport() throws {
        let report = try reportingErrors { () throws -> PagesMemoryReport in
            let folder = try AssetLocator.directory(given: transitionOptions.assets)
            return try PagesMemoryReport.measure(assetsDirectory: folder)
        }
        if json {
            print(try jsonText(report))
            return
        }
        print("\(report.pages) pages; peak: bitmap bytes while turning through all of them with the curl, a frame drawn every 1/20 s")
        for s in report.scales {
            print("")
            print("@\(s.scale)x  background \(s.width)x\(s.height): \(s.backgroundBytes) B; load one page (decode + first draw): "
                  + String(format: "%.2f ms median of %d, %.2f frame budgets at 60 fps", s.loadMilliseconds, s.loadsMeasured, s.frameBudgets))
            print("  " + "strategy".padding(toLength: 20, withPad: " ", startingAt: 0) + "held".leftPadded(6) + "peak B".leftPadded(14) + "peak MiB".leftPadded(10)
                  + "  loads: launch / in turns / after turns")
            for st in s.strategies {
                print("  " + st.name.padding(toLength: 20, withPad: " ", startingAt: 0) + String(st.pagesHeldAtPeak).leftPadded(6)
                      + String(st.peakBytes).leftPadded(14) + String(format: "%.2f", Double(st.peakBytes) / 1_048_576).leftPadded(10)
                      + "  \(st.loadsAtLaunch) / \(st.loadsDuringTurns) / \(st.loadsAfterTurns)")
            }
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
