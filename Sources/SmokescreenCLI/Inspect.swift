import ArgumentParser
import BoundedInput
import Foundation
import PNGIO
import SnapshotView
import TransitionCompositor

/// `smokescreen inspect NAME`: the view tree and the animation timeline, as text or JSON.
package struct Inspect: ParsableCommand {
    /// Every option at its default, as ArgumentParser makes the command before it parses.
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a transition's view tree and its animation timeline; with --json, the presented tree at a time, or the timeline.")

    @OptionGroup package var transitionOptions: TransitionOptions

    @Option(parsing: .unconditional, help: ArgumentHelp(stringLiteral: scaleHelp))
    package var scale = defaultScale

    @Option(parsing: .unconditional, help: "With --json: the time to describe, in seconds from the start (default: the end).")
    var time: Double?

    @Flag(help: "With --json: the animation timeline instead of the view tree.")
    var timeline = false

    @Flag(help: "JSON on stdout: the view tree as presented at --time (or the end), or with --timeline the blocks.")
    var json = false

    @Option(name: .customLong("render-tree"), parsing: .unconditional,
            help: ArgumentHelp("With --json: also describe everything the frame at --time draws (the last frame at or before it), in pixels, under \"render\", and write its images into this folder (image-0.png, …, replacing files of those names).",
                               valueName: "folder"))
    var renderTree: String?

    package func validate() throws {
        try checkScale(scale)
        if let time, !(time.isFinite && time >= 0) { throw ValidationError("--time must be a number of seconds ≥ 0, got \(time)") }
        if (time != nil || timeline), !json { throw ValidationError("--time and --timeline go with --json") }
        if time != nil, timeline { throw ValidationError("--time describes the view tree; --timeline the blocks: choose one") }
        if renderTree != nil, !json || timeline { throw ValidationError("--render-tree goes with --json (and not --timeline)") }
    }

    package func run() throws {
        let transition = try reportingErrors { try transitionOptions.resolveTransition() }
        var settings = try transitionOptions.settings(scale: scale)
        if json, !timeline { settings.inspectionTime = time ?? .infinity }
        let rendered = try reportingErrors { try transition.render(settings) }
        let s = rendered.sequence
        if json {
            let end = s.times.last ?? 0
            var document: any Encodable = timeline
                ? TimelineDocument(name: transition.name, end: end, blocks: rendered.timeline.map(TimelineDocument.Block.init))
                : TreeDocument(name: transition.name, time: rendered.inspection?.time ?? end, end: end,
                               pointSize: [s.pointSize.width, s.pointSize.height], state: rendered.inspectionState,
                               tree: rendered.inspection?.tree)
            if let renderTree, var tree = document as? TreeDocument, !s.nodes.isEmpty {
                let index = s.times.lastIndex { $0 <= (time ?? .infinity) + 1e-9 } ?? 0
                let canvas = try reportingErrors { try s.makeCanvas() }
                let drawn = s.nodes[index].drawnDescription(width: canvas.width, height: canvas.height, scale: s.scale)
                try writeImages(of: drawn, to: renderTree)
                tree.render = TreeDocument.Render(frame: index, frameTime: s.times[index], folder: renderTree, tree: drawn)
                document = tree
            }
            print(try jsonText(document))
            return
        }
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

/// `inspect --json`: the window's tree as presented at `time` (seconds).
struct TreeDocument: Encodable {
    var name: String
    /// Seconds from the start.
    var time: Double
    /// When the transition ends (seconds).
    var end: Double
    /// The canvas, `[width, height]` in points.
    var pointSize: [Double]
    /// What the transition reports of itself at `time` (an interactive transition's progress, a row's
    /// highlight), by name; absent when it reports nothing.
    var state: [String: Double]?
    var tree: ViewDescription?
    /// With `--render-tree`: everything the frame drawn at `time` draws, in pixels.
    var render: Render?

    struct Render: Encodable {
        /// The frame's index and time (seconds): the last frame at or before `time`.
        var frame: Int
        var frameTime: Double
        /// Where the images are.
        var folder: String
        var tree: DrawnTree
    }
}

/// Writes every image of `tree` into `folder` (created when missing) as PNG files named as the tree
/// names them.
func writeImages(of tree: DrawnTree, to folder: String) throws {
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (i, image) in tree.images.enumerated() {
            try PNGCodec.write(image, to: folder + "/" + DrawnTree.imageFileName(i))
        }
    } catch {
        printError("\(folder): \(error)")
        throw ExitCode(ExitStatus.ioError)
    }
}

/// `inspect --timeline --json`: every animation block.
struct TimelineDocument: Encodable {
    struct Block: Encodable {
        var label: String
        /// Seconds from the start of the transition.
        var start: Double, end: Double
        var timing: String
        /// `view.property` for each animated property.
        var properties: [String]

        init(_ entry: TimelineEntry) {
            label = entry.label
            start = entry.start
            end = entry.end
            timing = entry.timing
            properties = entry.properties
        }
    }

    var name: String
    var end: Double
    var blocks: [Block]
}

/// Pretty-printed JSON with sorted keys.
func jsonText(_ value: any Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
