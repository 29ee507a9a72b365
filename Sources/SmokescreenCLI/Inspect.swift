import ArgumentParser
import Foundation
import TransitionCompositor

/// `smokescreen inspect NAME`: the view tree and the animation timeline.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a transition's view tree and its animation timeline.")

    @OptionGroup var transitionOptions: TransitionOptions

    @Option(parsing: .unconditional, help: "Pixels per point: 1, 2 or 3.")
    var scale = 2

    func validate() throws { try checkScale(scale) }

    func run() throws {
        let transition = try reportingErrors { try transitionOptions.resolveTransition() }
        let rendered = try reportingErrors { try transition.render(try transitionOptions.settings(scale: scale)) }
        let s = rendered.sequence
        print("\(transition.name): \(s.pointSize.width)x\(s.pointSize.height) pt at @\(Int(s.scale))x, \(s.count) frames at \(s.fps) fps, ends at \(String(format: "%.4f", s.times.last ?? 0)) s")
        print("\nview tree once the transition has started (model values: where each animation ends):")
        print(rendered.initialTree.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        print("\ntimeline:")
        for e in rendered.timeline {
            print(String(format: "  %-16@ %7.4f → %7.4f s  %@", e.label as NSString, e.start, e.end, e.timing as NSString))
            for p in e.properties { print("      \(p)") }
        }
        if !s.durations.isEmpty {
            print("\ndurations: " + s.durations.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value) s" }.joined(separator: ", "))
        }
    }
}
