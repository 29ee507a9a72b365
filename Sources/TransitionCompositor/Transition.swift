import BoundedInput
import Foundation
import FrameStore
import PNGIO
import RasterCore
import SnapshotView
import Typesetting

/// Settings every render takes.
public struct RenderSettings: Sendable {
    /// Pixels per point (1, 2 or 3). Default 2.
    public var scale: Double
    /// Frames per second; nil: the transition's ``Transition/defaultFPS``.
    public var fps: Double?
    /// The `assets/` folder the transition reads its images and plists from.
    public var assetsDirectory: String
    /// A durations plist to use instead of the transition's own (`--durations`). Default nil.
    public var durationsFile: String?
    /// Frames repeated after the end (at end + k/fps). Default 0.
    public var holdFrames: Int
    /// Told of things in the inputs that are ignored (unknown plist keys, blocks the transition does
    /// not use), one message each; they never change the output. Default nil: not reported.
    public var warn: (@Sendable (String) -> Void)?
    /// When to describe the whole view tree as presented (seconds from the start; clamped to the end),
    /// for `inspect --json`. Default nil: not described.
    public var inspectionTime: Double?
    /// Describe the presented tree at every frame too (``RenderedTransition/frameDescriptions``), for
    /// `smokescreen lint`. Default false.
    public var describesFrames = false
    /// Whether ``assetsDirectory`` was named by the user (`--assets`, `$SMOKESCREEN_ASSETS`): a scene
    /// file then reads its images from it, over the folder its own `assets` key names (the command line
    /// wins over the file). Default false: a scene file reads from its `assets` folder, or its own folder.
    public var assetsDirectoryIsExplicit = false
    /// Threads that may draw the transition's snapshots before its frames (`--jobs`): 1 draws them one
    /// after another on the calling thread. Default nil: every core.
    public var jobs: Int?
    /// Whether a built-in transition of a phone screen draws iOS's status bar (time, signal, Wi-Fi,
    /// battery) over every frame, as the status bar's window lies over an app's (`--no-status-bar`: no).
    /// Scene files and the reference scene draw screens of their own and never get one (Swift files get
    /// their stage's, `Stage.showsStatusBar`).
    /// Default true.
    public var drawsStatusBar = true
    /// The appearance system colours resolve for (`--appearance`): the table and navigation built-ins
    /// and their status bar draw iOS's dark values with `.dark`; scene files resolve their light/dark
    /// colours with it. Screens with colours of their own design (Vesper, iNippon, the reference scene)
    /// draw them in either. Default `.light`.
    public var appearance = Appearance.light
    /// The Dynamic Type text size (`--text-size`): the table and navigation built-ins draw their rows'
    /// text at it and grow their rows with it; scene files' labels with a `textStyle` take its size.
    /// Default `.large`.
    public var textSize = Font.ContentSize.large
    /// Asked before each frame is frozen: when it answers true the render stops with
    /// ``RenderError/cancelled(what:)`` (a live preview whose page went away). Default nil: never.
    public var isCancelled: (@Sendable () -> Bool)?

    /// Settings; defaults: @2x, the transition's frame rate, its own durations, no hold frames, warnings ignored.
    public init(scale: Double = 2, fps: Double? = nil, assetsDirectory: String, durationsFile: String? = nil, holdFrames: Int = 0,
                warn: (@Sendable (String) -> Void)? = nil) {
        self.scale = scale
        self.fps = fps
        self.assetsDirectory = assetsDirectory
        self.durationsFile = durationsFile
        self.holdFrames = holdFrames
        self.warn = warn
    }
}

/// A bitmap a render holds, for the memory report.
public struct BitmapRecord: Sendable, Equatable {
    /// A decoded image asset, or a snapshot taken during the transition.
    public enum Kind: String, Sendable {
        /// A decoded image file.
        case asset
        /// A snapshot of a view.
        case snapshot
    }
    /// Asset or snapshot.
    public var kind: Kind
    /// The asset's file (relative to the assets folder) or the snapshot's view name.
    public var name: String
    /// Pixels.
    public var width: Int, height: Int
    /// Pixels per point.
    public var scale: Double
    /// Decoded bytes: width × height × 4.
    public var bytes: Int { width * height * 4 }

    /// The record of `bitmap` (its size is read, not kept).
    public init(kind: Kind, name: String, bitmap: Bitmap) {
        self.kind = kind
        self.name = name
        width = bitmap.width
        height = bitmap.height
        scale = bitmap.scale
    }
}

/// One block of the animation timeline, for `inspect`.
public struct TimelineEntry: Sendable, Equatable {
    /// The block's label (a phase name for choreographies).
    public var label: String
    /// Seconds from the start of the transition.
    public var start: Double, end: Double
    /// The curve or spring, described.
    public var timing: String
    /// `view.property` for each animated property.
    public var properties: [String]

    /// An entry; times in seconds from the start.
    public init(label: String, start: Double, end: Double, timing: String, properties: [String]) {
        self.label = label
        self.start = start
        self.end = end
        self.timing = timing
        self.properties = properties
    }
}

/// A transition rendered to frozen frames, ready for the writer.
public struct RenderedTransition: Sendable {
    /// The frames, ready for a `FrameWriter` or a golden check.
    public var sequence: FrameSequence
    /// Image assets decoded and snapshots taken.
    public var bitmaps: [BitmapRecord]
    /// The view tree at the start, one view a line.
    public var initialTree: String
    /// Every animation block, in the order they started.
    public var timeline: [TimelineEntry]
    /// The window's tree as presented at ``RenderSettings/inspectionTime`` (or the end, when that is
    /// later), and that time in seconds; nil when no inspection was asked for.
    public var inspection: (time: Double, tree: ViewDescription)?
    /// What the transition reported of itself at the inspection time (``TransitionContext/inspectionState``),
    /// or nil.
    public var inspectionState: [String: Double]?
    /// The presented tree at each frame (with ``RenderSettings/describesFrames``), else empty; frames that
    /// repeat the last (hold frames) are not described again.
    public var frameDescriptions: [ViewDescription] = []
    /// Whether everything had ended by the last frame (false for a render of fixed length that cut an
    /// animation short: one that repeats forever). Default true.
    public var endsComplete = true

    /// A rendered transition (``inspection`` defaults to nil).
    public init(sequence: FrameSequence, bitmaps: [BitmapRecord], initialTree: String, timeline: [TimelineEntry]) {
        self.sequence = sequence
        self.bitmaps = bitmaps
        self.initialTree = initialTree
        self.timeline = timeline
    }
}

/// The SHA-256 of the files a render reads (plists, images), in order: a render's fingerprint, so a
/// partial render can tell whether the frames already in a folder came from the same inputs. Each file
/// counts by its name (the last component of its path: `harbor@2x.png` is not `harbor@3x.png`) and its
/// bytes, not by the folder it is in, so the same inputs restored elsewhere (a CI cache at another path,
/// another checkout) are the same render. Files that cannot be read count as empty (reading them for
/// real reports the error).
public func fingerprint(ofFiles paths: [String]) -> String {
    var bytes: [UInt8] = []
    for path in paths {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        bytes += Array(name.utf8) + [0]
        // Bounded and regular files only: a FIFO named as an input must not hang the fingerprint.
        if let data = try? InputFile.read(path, limit: Limits.pngFileBytes, what: "input") { bytes += data }
        bytes.append(0)
    }
    return Digest.sha256Hex(bytes)
}

/// A built-in transition: a name, a line of description, and a way to render it.
public protocol Transition: Sendable {
    /// Lowercase with dashes; also the output folder's name.
    var name: String { get }
    /// One line for `smokescreen list`.
    var summary: String { get }
    /// Canvas size in points.
    var pointSize: Size { get }
    /// Frames per second when none is asked for.
    var defaultFPS: Double { get }
    /// Whether the transition's timings come from a durations plist that `--durations` may replace.
    /// Default false.
    var readsDurationsFile: Bool { get }
    /// Builds the transition's trees, runs it on a virtual clock and freezes every frame.
    func render(_ settings: RenderSettings) throws -> RenderedTransition
    /// Whether ``RenderSettings/appearance`` changes what the transition draws (system colours, or a
    /// scene file's light/dark colours). Default false: its colours are its own design.
    var followsAppearance: Bool { get }
    /// Whether ``RenderSettings/textSize`` changes what the transition draws (Dynamic Type). Default
    /// false: its fonts are its own design.
    var followsTextSize: Bool { get }
}

extension Transition {
    /// 60, as iOS animates.
    public var defaultFPS: Double { 60 }
    /// False: most transitions have fixed timings.
    public var readsDurationsFile: Bool { false }
    /// False: colours of the transition's own design.
    public var followsAppearance: Bool { false }
    /// False: fonts of the transition's own design.
    public var followsTextSize: Bool { false }
}

extension RenderedTransition {
    /// Marks the fingerprint of a render drawn in the dark appearance or at another text size than Large,
    /// so that a partial render never keeps the digests of frames drawn with other traits. The defaults
    /// (light, Large) leave it as it is.
    public mutating func markTraits(appearance: Appearance, textSize: Font.ContentSize) {
        var traits = ""
        if appearance != .light { traits += " in the \(appearance.rawValue) appearance" }
        if textSize != .large { traits += " at text size \(textSize)" }
        guard !traits.isEmpty else { return }
        sequence.fingerprint = Digest.sha256Hex(Array((sequence.fingerprint + traits).utf8))
    }

    /// ``markTraits(appearance:textSize:)`` with what `settings` asks for of what `transition` follows.
    public mutating func markTraits(of transition: any Transition, settings: RenderSettings) {
        markTraits(appearance: transition.followsAppearance ? settings.appearance : .light,
                   textSize: transition.followsTextSize ? settings.textSize : .large)
    }
}
