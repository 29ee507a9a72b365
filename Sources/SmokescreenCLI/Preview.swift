import ArgumentParser
import BoundedInput
import Choreography
import Foundation
import FrameStore
import PNGIO
import Previews
import SmokescreenScenes
import TransitionCompositor

/// The kinds of preview.
enum PreviewKind: String, CaseIterable, ExpressibleByArgument {
    case sheet, apng, gif, mp4

    /// The file each kind is written to in the preview folder.
    var fileName: String {
        switch self {
        case .sheet: "sheet.png"
        case .apng: "animation.png"
        case .gif: "animation.gif"
        case .mp4: "animation.mp4"
        }
    }
}

/// Options of the previews, shared by `preview` and `render --preview`.
struct PreviewOptions: ParsableArguments {
    @Option(help: "The folder the previews go to (default: out/<name>-preview; for a transition rendered by `preview`, out/<name>-<scale>x-preview). It must be empty or hold only previews Smokescreen wrote (exit 73 otherwise).")
    var previewOut: String?

    @Option(parsing: .upToNextOption, help: "Only these previews: sheet, apng, gif, mp4 (default: all; mp4 only when ffmpeg is installed).")
    var only: [PreviewKind] = []

    @Option(parsing: .unconditional, help: "The contact sheet's width in pixels, 200…8000.")
    var sheetWidth = 1200

    @Option(parsing: .unconditional, help: "Each tile's width on the contact sheet in pixels, 40…2000.")
    var tileWidth = 180

    @Option(parsing: .unconditional, help: "At most this many rows of tiles on the contact sheet, 1…50 (every Nth frame is shown to fit).")
    var rows = 4

    func validate() throws {
        guard (200...8000).contains(sheetWidth) else { throw ValidationError("--sheet-width must be 200…8000, got \(sheetWidth)") }
        guard (40...2000).contains(tileWidth), tileWidth < sheetWidth else {
            throw ValidationError("--tile-width must be 40…2000 and less than --sheet-width, got \(tileWidth)")
        }
        guard (1...50).contains(rows) else { throw ValidationError("--rows must be 1…50, got \(rows)") }
    }

    /// The folder the previews of transition `name` go to.
    func folder(for name: String, renderedAt scale: Int?) throws -> String {
        try previewOut ?? defaultFolder("out", name, suffix: scale.map { "-\($0)x-preview" } ?? "-preview")
    }

    /// Refuses, before any work, a preview folder that exists and is not Smokescreen's (exit 73) or is a
    /// dangling link; `write` checks again, holding the folder's lock.
    func checkFolder(for name: String, renderedAt scale: Int? = nil) throws {
        let folder = try folder(for: name, renderedAt: scale)
        try checkOutputPath(folder, option: previewOut == nil ? "the preview folder" : "--preview-out")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else { return }
        try reportingErrors { try OutputFolder(path: folder, option: previewOut == nil ? "the preview folder" : "--preview-out").close() }
    }

    /// Writes the previews of `frames` and prints where (unless `quiet`); returns the folder and the files
    /// written. `renderedAt` is the scale of a transition `preview` rendered itself (its default folder
    /// says so, apart from a render folder's).
    @discardableResult
    func write(_ frames: PreviewFrames, quiet: Bool, renderedAt scale: Int? = nil) throws -> (folder: String, files: [String]) {
        let asked = only.isEmpty ? PreviewKind.allCases : only
        var layout = ContactSheet.Layout()
        layout.width = sheetWidth
        layout.tileWidth = tileWidth
        layout.rows = rows
        // The sheet's size is checked before anything is drawn or written.
        if asked.contains(.sheet) {
            do { try ContactSheet.checkSize(of: frames, layout: layout) } catch {
                printError("\(error.description): choose a smaller sheet with --sheet-width, --tile-width or --rows")
                throw ExitCode(ExitStatus.usage)
            }
        }
        let folder = try folder(for: frames.name, renderedAt: scale)
        try checkOutputPath(folder, option: previewOut == nil ? "the preview folder" : "--preview-out")
        let output = try OutputFolder(path: folder, option: previewOut == nil ? "the preview folder" : "--preview-out")
        defer { output.close() }
        var kinds = asked
        if Video.ffmpegPath() == nil, only.isEmpty, let mp4 = kinds.firstIndex(of: .mp4) {
            printWarning("no MP4: the ffmpeg executable is not installed (Debian: apt-get install ffmpeg)")
            kinds.remove(at: mp4)
        }
        try output.claim(kinds.map(\.fileName))
        let failures = Slots<Error>(count: kinds.count)
        func make(_ index: Int) {
            let kind = kinds[index]
            // A line per file as it is started (a GIF of a long render takes seconds), unless quiet.
            if !quiet { FileHandle.standardError.write(Data("preview: \(kind.fileName)…\n".utf8)) }
            let path = "\(folder)/\(kind.fileName)"
            do {
                switch kind {
                case .sheet: try save(PNGCodec.encode(ContactSheet.make(frames, layout: layout), compression: .small), to: path)
                case .apng: try save(AnimatedPNG.encode(frames), to: path)
                case .gif: try save(AnimatedGIF.encode(frames), to: path)
                case .mp4: try Video.writeMP4(frames, to: path)
                }
            } catch {
                failures.set(index, error)
            }
        }
        // The GIF (the longest: its quantizing and dithering run in this process) on a core of its own while
        // the others are made one after another on this thread (the MP4's encoder is a process of its own).
        // Each reads the frames one at a time; the files are the same as made one by one.
        if let gif = kinds.firstIndex(of: .gif), kinds.count > 1, ProcessInfo.processInfo.activeProcessorCount > 1 {
            // The frames are read, and the drawings made, from two threads as `render --jobs` does.
            nonisolated(unsafe) let makeOne: (Int) -> Void = make
            let others = kinds.indices.filter { $0 != gif }
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 { makeOne(gif) } else { for index in others { makeOne(index) } }
            }
        } else {
            for index in kinds.indices { make(index) }
        }
        // The first failure in the order asked.
        if let error = failures.values.first { throw error }
        let written = kinds.map(\.fileName)
        if !quiet { print("\(frames.name): \(written.joined(separator: ", ")) → \(folder)") }
        return (folder, written)
    }

    private func save(_ bytes: [UInt8], to path: String) throws {
        do { try AtomicFile.write(bytes, to: path) } catch {
            throw PreviewWriteError(description: "\(error)", exitStatus: ExitStatus.cannotCreate)
        }
    }
}

struct PreviewWriteError: ExitStatusError {
    let description: String
    let exitStatus: Int32
}

/// `smokescreen preview`: a contact sheet, an animated PNG, a GIF and an MP4 of a transition (rendered
/// now) or of a render folder.
package struct Preview: ParsableCommand {
    /// Every option at its default, as ArgumentParser makes the command before it parses.
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Make a contact sheet, an animated PNG, a GIF and an MP4 of a transition or of a render folder.")

    @Argument(help: "A built-in transition, a scene file (.json), or a render folder (one with manifest.json).")
    var source: String = TransitionCatalog.defaultName

    @Option(help: "With a scene file: which of its transitions (default: its first).")
    var transition: String?

    @Option(parsing: .unconditional, help: "Pixels per point when rendering a transition: 1, 2 or 3 (2 for every command; 1 for smaller files to share). A render folder keeps its own.")
    package var scale = defaultScale

    @Option(parsing: .unconditional, help: "Frames per second when rendering a transition (default: its own).")
    var fps: Double?

    @Option(help: "The assets folder (default: $SMOKESCREEN_ASSETS, ./assets, or the one beside the executable).")
    var assets: String?

    @Option(help: "A durations plist to use instead of the transition's own (only for transitions that read one): new timings, previewed without editing the shipped file.")
    var durations: String?

    @Flag(name: .customLong("no-status-bar"), help: "Leave out iOS's status bar, which built-in phone screens draw over every frame.")
    package var noStatusBar = false

    @OptionGroup package var appearance: AppearanceOption

    @OptionGroup package var textSize: TextSizeOption

    @OptionGroup var options: PreviewOptions

    @Option(help: "The folder the previews go to, as --out names the output folder of every command (--preview-out is the same option; default: out/<name>-<scale>x-preview for a transition, out/<name>-preview for a render folder).")
    var out: String?

    @Flag(help: "No summary line.")
    var quiet = false

    @Flag(help: "Print one JSON object (name, folder, files written) instead of the summary line.")
    var json = false

    var isFolder: Bool { SourceArgument.isFolder(source) }

    package func validate() throws {
        try checkScale(scale)
        try checkFPS(fps)
        try SourceArgument.validate(source)
        if durations != nil, isFolder { throw ValidationError("--durations: '\(source)' is a render folder; its timings were fixed when it was rendered") }
        if appearance.value != .light, isFolder { throw ValidationError("--appearance: '\(source)' is a render folder; its colours were fixed when it was rendered") }
        if textSize.value != .large, isFolder { throw ValidationError("--text-size: '\(source)' is a render folder; its text was fixed when it was rendered") }
        if textSize.systemFonts != nil, isFolder { throw ValidationError("--system-fonts: '\(source)' is a render folder; its text was fixed when it was rendered") }
        if let durations, durations.isEmpty { throw ValidationError("--durations: the path is empty") }
        try checkTransitionName(transition)
    }

    package func run() throws {
        var options = self.options
        if let out {
            guard options.previewOut == nil || options.previewOut == out else { throw ValidationError("--out and --preview-out name the same folder: give one") }
            options.previewOut = out
        }
        if let folder = options.previewOut { try checkOutputPath(folder, option: out != nil ? "--out" : "--preview-out") }
        try reportingErrors {
            let frames: PreviewFrames
            if isFolder {
                frames = try PreviewFrames(folder: source)
            } else {
                let chosen = try SourceArgument.transition(source, scene: transition)
                try options.checkFolder(for: chosen.name, renderedAt: scale)
                let folder = try AssetLocator.directory(given: assets)
                try checkDurations(durations, for: chosen)
                var settings = RenderSettings(scale: Double(scale), fps: fps, assetsDirectory: folder, durationsFile: durations, warn: { printWarning($0) })
                settings.assetsDirectoryIsExplicit = assetsNamed(assets)
                settings.drawsStatusBar = !noStatusBar
                appearance.apply(to: &settings, for: chosen)
                settings.textSize = textSize.value
                textSize.warnIfFixed(chosen)
                frames = try PreviewFrames(rendered: chosen.render(settings))
            }
            let (folder, files) = try options.write(frames, quiet: quiet || json, renderedAt: isFolder ? nil : scale)
            if json {
                struct Written: Encodable { var name: String; var folder: String; var files: [String] }
                print(try jsonText(Written(name: frames.name, folder: folder, files: files)))
            }
        }
    }
}

/// The argument of `preview` and `lint`: a render folder, a scene file or a built-in transition.
enum SourceArgument {
    /// Whether `source` is a folder (a render folder, read through its manifest).
    static func isFolder(_ source: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Refuses a name that is none of the three, suggesting the closest built-in.
    static func validate(_ source: String) throws {
        if isFolder(source) || source.lowercased().hasSuffix(".json") { return }
        guard TransitionCatalog.transition(named: source) != nil else {
            var message = "'\(source)' is not a render folder, a scene file or a built-in transition"
            if let suggestion = closestName(to: source, among: TransitionCatalog.all.map(\.name)) { message += "; did you mean '\(suggestion)'?" }
            throw ValidationError(message)
        }
    }

    /// The scene file's transition (`scene`: which, default its first) or the built-in.
    static func transition(_ source: String, scene: String?) throws -> any Transition {
        if source.lowercased().hasSuffix(".json") { return try SceneTransition.load(path: source, transition: scene) }
        // validate() has checked the name.
        return TransitionCatalog.transition(named: source) ?? TransitionCatalog.all[0]
    }
}
