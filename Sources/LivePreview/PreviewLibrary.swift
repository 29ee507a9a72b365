import BoundedInput
import Choreography
import Foundation
import Synchronization
import RasterCore
import SnapshotView
import Typesetting
import SmokescreenScenes
import TransitionCompositor

/// What `smokescreen serve` shows: a built-in, a scene file (all its transitions) or a folder of scene
/// files.
public enum PreviewSource: Sendable, Equatable {
    /// A built-in transition, by name (`smokescreen list`); not watched (its inputs ship with the tool).
    case builtIn(String)
    /// A scene file: every transition it offers, reversed ones included.
    case sceneFile(String)
    /// Every `*.json` scene file directly in a folder, in name order.
    case folder(String)

    /// The source an argument names: a folder, a `.json` file, or a built-in's name.
    /// - Throws: ``PreviewError`` naming the argument when it is none of these.
    public static func resolve(_ argument: String) throws -> PreviewSource {
        if InputFile.isDirectory(argument) { return .folder(argument) }
        if argument.lowercased().hasSuffix(".json") {
            guard FileManager.default.fileExists(atPath: argument) else { throw PreviewError("\(argument): no such scene file") }
            return .sceneFile(argument)
        }
        guard TransitionCatalog.transition(named: argument) != nil else {
            throw PreviewError("'\(argument)' is neither a folder, a scene file (.json) nor a built-in transition (see `smokescreen list`)")
        }
        return .builtIn(argument)
    }
}

/// A problem with the preview's input or a request, as text.
public struct PreviewError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, naming the argument, file or request.
    public let description: String
    /// Set for a request that asks for more than the preview's memory budget allows (HTTP 413).
    public var isOverBudget = false
    public init(_ description: String, isOverBudget: Bool = false) {
        self.description = description
        self.isOverBudget = isOverBudget
    }
}

/// What the lint endpoint reports of one transition (see `smokescreen lint --json`).
public struct LintReport: Encodable, Sendable {
    /// One finding, with the frames it concerns.
    public struct Mark: Encodable, Sendable {
        /// `lint`'s kind (`flicker`, `jump`, …).
        public var kind: String
        /// The view (its path of names) or the region.
        public var subject: String
        /// Frame indices and their times (seconds).
        public var frames: [Int]
        public var times: [Double]
        /// What was measured.
        public var detail: String
        /// The documented reason a built-in shows this on purpose; nil for a counted finding.
        public var exception: String?
        public init(kind: String, subject: String, frames: [Int], times: [Double], detail: String, exception: String?) {
            self.kind = kind
            self.subject = subject
            self.frames = frames
            self.times = times
            self.detail = detail
            self.exception = exception
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(kind, forKey: .kind)
            try c.encode(subject, forKey: .subject)
            try c.encode(frames, forKey: .frames)
            try c.encode(times, forKey: .times)
            try c.encode(detail, forKey: .detail)
            try c.encode(exception, forKey: .exception)  // null, not left out, as the docs show it
        }
        private enum CodingKeys: String, CodingKey { case kind, subject, frames, times, detail, exception }
    }
    /// The transition.
    public var name: String
    /// The scale the pixel checks looked at (the render's, 2 unless asked otherwise).
    public var scale: Int
    /// Whether every finding is a documented exception (or there is none).
    public var clean: Bool
    /// Every finding, the excepted ones too.
    public var findings: [Mark]
    public init(name: String, scale: Int, findings: [Mark]) {
        self.name = name
        self.scale = scale
        self.findings = findings
        clean = findings.allSatisfy { $0.exception != nil }
    }
}

/// How a preview renders: the settings `serve` was given.
public struct PreviewSettings: Sendable {
    /// Pixels per point the page starts at (1, 2 or 3; default 2). The page may ask for any of the three.
    public var scale: Int = 2
    /// Frames per second; nil for each transition's own.
    public var fps: Double?
    /// The tool's assets folder: built-ins read from it, and a scene file's inputs may be inside it
    /// besides the scene's own folder; a scene file reads its images from it when
    /// `assetsDirectoryIsExplicit`.
    public var assetsDirectory: String
    public var assetsDirectoryIsExplicit = false
    /// A folder of golden frames, `DIR/NAME/frame_0000.png`…, as `render` and the golden tests write them.
    public var goldenDirectory: String?
    /// Lints a transition (the CLI's checks, with its documented exceptions): `lint`'s findings at @1x.
    public var lint: (@Sendable (any Transition, RenderSettings) throws -> LintReport)?
    /// The most memory, in bytes, the preview keeps for what it draws (default 1 GiB, `serve
    /// --memory-limit`): three quarters for renders (a transition's snapshots and images at one scale,
    /// least recently used dropped first), one quarter for encoded frames. A request whose render alone
    /// would need more than the renders' share is refused (HTTP 413), not drawn.
    public var memoryLimit = PreviewSettings.defaultMemoryLimit
    /// 1 GiB.
    public static let defaultMemoryLimit = 1 << 30
    /// The appearance every served transition renders in (`serve --appearance`). Default `.light`.
    public var appearance = Appearance.light
    /// The Dynamic Type text size every served transition renders at (`serve --text-size`). Default `.large`.
    public var textSize = Font.ContentSize.large

    public init(scale: Int = 2, fps: Double? = nil, assetsDirectory: String, assetsDirectoryIsExplicit: Bool = false,
                goldenDirectory: String? = nil, memoryLimit: Int = PreviewSettings.defaultMemoryLimit,
                lint: (@Sendable (any Transition, RenderSettings) throws -> LintReport)? = nil) {
        self.scale = scale
        self.fps = fps
        self.assetsDirectory = assetsDirectory
        self.assetsDirectoryIsExplicit = assetsDirectoryIsExplicit
        self.goldenDirectory = goldenDirectory
        self.memoryLimit = memoryLimit
        self.lint = lint
    }
}

/// The transitions a preview serves, re-read when their files change, and their frames drawn on demand.
///
/// Memory does not grow with the number of transitions: a reload keeps only what the page lists of each
/// (frame times, blocks, size), renders go into a ``RenderCache`` within ``PreviewSettings/memoryLimit``
/// and encoded frames into a cache of their own, by the digest of their pixels (a frame whose pixels did
/// not change across a reload is not encoded again). A reload reads again only the scene files whose
/// inputs changed (the file, its durations plist, the images it names). Thread-safe: requests draw
/// frames concurrently while a reload reads.
public final class PreviewLibrary: @unchecked Sendable {
    /// One served transition as of one reload.
    struct Entry: @unchecked Sendable {
        /// New for every reading of its file: renders are kept by it.
        var id: Int
        var transition: any Transition
        /// The scene file it comes from; nil for a built-in.
        var file: String?
        var info: Info
        var lint: LintReport?
    }

    /// What the page lists of a transition, from its render at the start scale.
    struct Info: Sendable {
        var frameCount: Int
        var fps: Double
        var pointSize: Size
        var times: [Double]
        var blocks: [Listing.Block]
        /// The render's bytes at ``PreviewSettings/scale`` (``RenderCache/bytes(of:)``): what a render at
        /// another scale is estimated from, before it is made.
        var bytes: Int
    }

    /// What the last reading of a scene file gave, and the state of every file it read then.
    struct FileState {
        /// `stat` of the scene file and of each input, in order: equal means nothing to read again.
        var signature: [String]
        /// The scene's durations plist and every image variant it may pick, present or not.
        var inputs: [String]
        /// Its transitions, in the file's order (the last good ones, when `error` is set).
        var entries: [(String, Entry)]
        var error: String?
    }

    /// What is served.
    public let source: PreviewSource
    /// How it is rendered.
    public let settings: PreviewSettings
    private let lock = NSLock()
    /// One reload at a time (the watcher's and any other caller's).
    private let reloading = NSLock()
    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private var errors: [String: String] = [:]  // by scene file
    private var version = 0
    private var files: [String: FileState] = [:]
    private var nextID = 0
    /// The transitions of the version before, so that frames a page asked for just before a reload
    /// (`?v=N`) are still served, not refused because the new version has fewer frames.
    private var retired: (version: Int, entries: [String: Entry])?
    /// Renders by entry and scale, within three quarters of the memory limit.
    let renders: RenderCache

    /// What the render cache holds and has done: renders kept and their bytes, made, stopped early.
    public var renderSummary: (kept: Int, bytes: Int, made: Int, cancelled: Int) { renders.summary }
    /// The most bytes of renders kept (three quarters of ``PreviewSettings/memoryLimit``).
    public var renderLimit: Int { renders.limit }
    /// Encoded frames by the SHA-256 of their pixels (and size), at most `pngCacheLimit` bytes.
    private var pngs: [String: [UInt8]] = [:]
    private var pngBytes = 0
    /// The bytes of PNG kept before the cache is emptied: a quarter of the memory limit.
    public var pngCacheLimit: Int
    /// How many frames were encoded (not taken from the cache); for tests and the docs' figures.
    public private(set) var encodedFrames = 0
    /// How many frames were drawn (not taken from the frames drawn before); for tests.
    public var drawnFrameCount: Int { lock.withLock { framesDrawn } }
    private var framesDrawn = 0
    /// How many frames of a new reading were served as the reading before drew them, their trees drawing
    /// the same (``RenderNode/drawsTheSame(as:)``); for tests.
    public var unchangedFrameCount: Int { lock.withLock { framesUnchanged } }
    private var framesUnchanged = 0
    /// How many transitions were rendered to be read (a reload's work); for tests and the docs' figures.
    public private(set) var readings = 0
    private var listeners: [UUID: @Sendable (Int) -> Void] = [:]
    /// Atomic, not under `lock`: render cancellation checks read it while the render cache holds its own
    /// lock, and a reload takes `lock` before that one.
    private let stopped = Atomic(false)
    /// The version the last reload published (atomic for the same reason): a frame drawn ahead for an
    /// older one is not wanted any more.
    private let publishedVersion = Atomic(0)
    /// The digest of each frame drawn, by reading, scale and index (its PNG is in `pngs`), for the readings
    /// served now: a frame asked for again, or drawn ahead after a reload, is not drawn twice.
    private var drawnFrames: [FrameKey: String] = [:]
    /// Frames being drawn now (under `drawing`), so that two askers of one frame draw it once.
    private let drawing = NSCondition()
    private var framesInFlight: Set<FrameKey> = []
    /// The frames pages showed last (asked for with `isShown`): name, scale and time, newest last, at most
    /// ``shownFramesKept`` (name, scale) pairs.
    private var shownFrames: [(name: String, scale: Int, time: Double)] = []
    static let shownFramesKept = 4
    /// More drawn frames than this are forgotten at once (their PNGs stay in `pngs`).
    static let drawnFramesKept = 100_000

    /// Scene files a served folder may hold; more are reported, not read.
    public static let maximumSceneFiles = 10_000

    public init(source: PreviewSource, settings: PreviewSettings) {
        self.source = source
        self.settings = settings
        renders = RenderCache(limit: settings.memoryLimit / 4 * 3)
        pngCacheLimit = settings.memoryLimit / 4
    }

    /// The scene files the source reads now (a folder's are listed again on each reload), in name order.
    public var sceneFiles: [String] {
        switch source {
        case .builtIn: return []
        case .sceneFile(let path): return [path]
        case .folder(let folder):
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return names.filter { $0.lowercased().hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().map { "\(folder)/\($0)" }
        }
    }

    /// Every file a render of the scene files reads, by folder: the files themselves, their durations
    /// plists and every image variant they name (so that adding `photo@2x.png` is seen too).
    public func watchedFiles() -> [String: Set<String>] {
        var byFolder: [String: Set<String>] = [:]
        func add(_ path: String) {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            byFolder[url.deletingLastPathComponent().path, default: []].insert(url.lastPathComponent)
        }
        if case .folder(let folder) = source { byFolder[URL(fileURLWithPath: folder).standardizedFileURL.path, default: []].insert("*.json") }
        let known = lock.withLock { files }
        for file in sceneFiles {
            add(file)
            for input in known[file]?.inputs ?? Self.inputs(of: file, settings: settings) { add(input) }
        }
        return byFolder
    }

    /// The files a scene file's render reads besides itself: its durations plist and every variant of
    /// every image it names (`name.png`, `name@2x.png`, `name@3x.png`, present or not), where they stay
    /// inside the folders a scene may read (`SceneTransition` refuses the others before reading them).
    static func inputs(of file: String, settings: PreviewSettings) -> [String] {
        guard let document = try? SceneDocument.read(from: file) else { return [] }
        let assetsDirectory = settings.assetsDirectory
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
        var result: [String] = []
        if let durations = document.durations { result.append(durations.hasPrefix("/") ? durations : "\(folder)/\(durations)") }
        let assets = settings.assetsDirectoryIsExplicit ? assetsDirectory
            : document.assets.map { $0.hasPrefix("/") ? $0 : "\(folder)/\($0)" } ?? folder
        var images: Set<String> = []
        func walk(_ spec: SceneDocument.ViewSpec) {
            if let image = spec.image { images.insert(image) }
            spec.subviews.forEach(walk)
        }
        document.states.values.forEach(walk)
        for image in images.sorted() {
            let stem = image.hasSuffix(".png") ? String(image.dropLast(4)) : image
            for variant in ["\(stem).png", "\(stem)@2x.png", "\(stem)@3x.png"] { result.append("\(assets)/\(variant)") }
        }
        return result
    }

    /// What a file is now, for telling whether it changed: device, inode, size, modification and change
    /// times (an editor that saves by renaming a new file over the old one changes the inode).
    static func stamp(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "missing" }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }

    /// Reads the sources again. A built-in is read once; a scene file is read again only when it or one
    /// of its inputs changed since the last reading, and then each of its transitions is rendered at the
    /// start scale (the render is kept for the page's first frames). A scene file that fails keeps its
    /// last good transitions and reports `check`'s error (file:line:column: key path: reason); one that
    /// is fixed clears it. Two files that define the same name: the first in name order is served, the
    /// second's is reported. The version goes up on every reload.
    /// - Returns: the new version.
    @discardableResult
    public func reload() -> Int {
        reloading.lock()
        defer { reloading.unlock() }
        let (previousFiles, previousEntries) = lock.withLock { (files, entries) }
        var newFiles: [String: FileState] = [:]
        var loaded: [(name: String, entry: Entry)] = []
        var newErrors: [String: String] = [:]
        switch source {
        case .builtIn(let name):
            if let kept = previousEntries[name] {
                loaded.append((name, kept))
            } else if let transition = TransitionCatalog.transition(named: name) {
                do { loaded.append((name, try makeEntry(transition, file: nil))) } catch { newErrors[name] = "\(error)" }
            }
        case .sceneFile, .folder:
            var list = sceneFiles
            if list.count > Self.maximumSceneFiles, case .folder(let folder) = source {
                newErrors[folder] = "\(folder): \(list.count) scene files, over the limit of \(Self.maximumSceneFiles) a served folder may hold; "
                    + "the first \(Self.maximumSceneFiles) by name are served"
                list = Array(list.prefix(Self.maximumSceneFiles))
            }
            // Files are read side by side (each on its own: its parse, check and first render).
            let files = list
            let states = Mutex([FileState?](repeating: nil, count: files.count))
            DispatchQueue.concurrentPerform(iterations: files.count) { index in
                let state = read(files[index], previous: previousFiles[files[index]])
                states.withLock { $0[index] = state }
            }
            for (file, state) in zip(list, states.withLock { $0 }) {
                guard let state else { continue }
                newFiles[file] = state
                if let error = state.error { newErrors[file] = error }
                loaded += state.entries
            }
        }
        let (newVersion, listeners) = lock.withLock { () -> (Int, [@Sendable (Int) -> Void]) in
            retired = (version, entries)
            entries = [:]
            order = []
            var firstFile: [String: String] = [:]
            for (name, entry) in loaded {
                if let first = firstFile[name] {
                    let file = entry.file ?? name
                    let line = "\(file): transition '\(name)' is also defined in \(first); only the one in \(first) is served"
                    newErrors[file] = newErrors[file].map { $0 + "; " + line } ?? line
                    continue
                }
                firstFile[name] = entry.file ?? name
                entries[name] = entry
                order.append(name)
            }
            files = newFiles
            errors = newErrors
            version += 1
            let live = Set(entries.values.map(\.id)).union(retired?.entries.values.map(\.id) ?? [])
            renders.keepOnly(entries: live)
            drawnFrames = drawnFrames.filter { live.contains($0.key.entry) }
            return (version, Array(self.listeners.values))
        }
        publishedVersion.store(newVersion, ordering: .relaxed)
        // The frames pages show, in the new readings, are drawn while the pages hear of the reload and ask
        // (only while a page listens: a closed page asks for nothing).
        if !listeners.isEmpty { drawAhead(changedShownFrames(since: previousEntries), version: newVersion) }
        for listener in listeners { listener(newVersion) }
        return newVersion
    }

    /// Reads `file` again unless nothing it reads changed since `previous`.
    private func read(_ file: String, previous: FileState?) -> FileState {
        if let previous, previous.signature == [Self.stamp(file)] + previous.inputs.map(Self.stamp) { return previous }
        let inputs = Self.inputs(of: file, settings: settings)
        let signature = [Self.stamp(file)] + inputs.map(Self.stamp)
        var state = FileState(signature: signature, inputs: inputs, entries: previous?.entries ?? [], error: nil)
        if let refusal = folderRefusal(of: file) {
            state.error = refusal
            state.entries = []
            return state
        }
        do {
            let document = try SceneDocument.read(from: file)
            // A file's transitions (forward and reversed) are rendered side by side.
            let offered = document.offered
            let made = Mutex([Result<Entry, any Error>?](repeating: nil, count: offered.count))
            DispatchQueue.concurrentPerform(iterations: offered.count) { index in
                let transition = SceneTransition(path: file, document: document, spec: offered[index].spec, reversed: offered[index].reversed)
                let result = Result { try makeEntry(transition, file: file) }
                made.withLock { $0[index] = result }
            }
            state.entries = try zip(offered, made.withLock { $0 }).map { ($0.name, try $1!.get()) }
        } catch {
            // `check`'s words for what is wrong, where it finds it; the render's when only the render fails.
            state.error = "\(error)"
            do { _ = try SceneDocument.check(path: file, scales: [Double(settings.scale)], assetsDirectory: settings.assetsDirectory,
                                             assetsDirectoryIsExplicit: settings.assetsDirectoryIsExplicit) } catch {
                state.error = "\(error)"
            }
        }
        return state
    }

    /// A served folder's scene files are read only when they stay in it: a link that leads out is refused
    /// before it is opened (so no error quotes a foreign file). The reason, or nil.
    private func folderRefusal(of file: String) -> String? {
        guard case .folder(let folder) = source, let root = realPath(folder), let real = realPath(file) else { return nil }
        return real.hasPrefix(root + "/") ? nil : "\(file): a link to a file outside the served folder \(folder); not read"
    }

    private func makeEntry(_ transition: any Transition, file: String?) throws -> Entry {
        let id = lock.withLock { () -> Int in
            nextID += 1
            readings += 1
            return nextID
        }
        // Kept for the page's first frames while renders fill less than a quarter of the budget: a folder of
        // thousands of files does not fill it with renders nobody has asked for.
        let rendered = try renders.render(RenderCache.Key(entry: id, scale: settings.scale), keepUpTo: renders.limit / 4,
                                          isCancelled: { false }) { stop in
            var s = renderSettings(scale: settings.scale)
            s.isCancelled = stop
            return try transition.render(s)
        }
        let s = rendered.sequence
        let info = Info(frameCount: s.count, fps: s.fps, pointSize: s.pointSize, times: s.times,
                        blocks: rendered.timeline.map { Listing.Block(label: $0.label, delay: $0.start, duration: $0.end - $0.start,
                                                                      timing: $0.timing, properties: $0.properties) },
                        bytes: RenderCache.bytes(of: rendered))
        return Entry(id: id, transition: transition, file: file, info: info, lint: nil)
    }

    func renderSettings(scale: Int) -> RenderSettings {
        var s = RenderSettings(scale: Double(scale), fps: settings.fps, assetsDirectory: settings.assetsDirectory, warn: { _ in })
        s.assetsDirectoryIsExplicit = settings.assetsDirectoryIsExplicit
        s.appearance = settings.appearance
        s.textSize = settings.textSize
        return s
    }

    /// Calls `listener` with the new version after every reload, until ``removeListener(_:)``.
    public func addListener(_ listener: @escaping @Sendable (Int) -> Void) -> UUID {
        let id = UUID()
        lock.withLock { listeners[id] = listener }
        return id
    }

    public func removeListener(_ id: UUID) { _ = lock.withLock { listeners.removeValue(forKey: id) } }

    /// The current version (0 before the first reload).
    public var currentVersion: Int { lock.withLock { version } }

    /// The errors of the last reload, one line each (file:line:column: key path: reason).
    public var currentErrors: [String] { lock.withLock { errors.keys.sorted().map { errors[$0]! } } }

    /// Stops every render under way at its next frame (the server is stopping).
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        renders.stop()
    }

    // MARK: - What the API serves

    /// `GET /api/transitions`.
    public struct Listing: Encodable, Sendable {
        /// One animation block, as `inspect --json --timeline` lists it.
        public struct Block: Encodable, Sendable {
            public var label: String
            /// Seconds from the start: when the block starts (its delay) and its length.
            public var delay: Double, duration: Double
            /// The curve (`easeOut`, a spring, …).
            public var timing: String
            /// `view.property` for each property it animates.
            public var properties: [String]
        }
        /// One served transition.
        public struct Item: Encodable, Sendable {
            public var name: String
            public var summary: String
            public var file: String?
            public var frameCount: Int
            public var fps: Double
            /// Width and height in points.
            public var pointSize: [Double]
            /// Each frame's time, seconds.
            public var times: [Double]
            public var duration: Double
            public var blocks: [Block]
            /// How many golden frames `--golden` has for it; nil without `--golden` or when it has none.
            public var goldenFrames: Int?
            /// The size of its first golden frame, `[width, height]` in pixels (from the PNG header), so
            /// the page compares only at the scale that matches.
            public var goldenPixelSize: [Int]?

            // Optional values are written as null, not left out, as the docs show them.
            public func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(name, forKey: .name)
                try c.encode(summary, forKey: .summary)
                try c.encode(file, forKey: .file)
                try c.encode(frameCount, forKey: .frameCount)
                try c.encode(fps, forKey: .fps)
                try c.encode(pointSize, forKey: .pointSize)
                try c.encode(times, forKey: .times)
                try c.encode(duration, forKey: .duration)
                try c.encode(blocks, forKey: .blocks)
                try c.encode(goldenFrames, forKey: .goldenFrames)
                try c.encode(goldenPixelSize, forKey: .goldenPixelSize)
            }
            private enum CodingKeys: String, CodingKey {
                case name, summary, file, frameCount, fps, pointSize, times, duration, blocks, goldenFrames, goldenPixelSize
            }
        }
        /// Goes up by one on every reload.
        public var version: Int
        /// The scale the page starts at, and the scales it may ask for (pixels per point).
        public var scale: Int
        public var scales: [Int]
        /// Whether `--golden` was given.
        public var golden: Bool
        /// One line per scene file that fails now, as `check` prints it.
        public var errors: [String]
        public var transitions: [Item]
    }

    /// What `GET /api/transitions` answers, as of the last reload.
    public func listing() -> Listing {
        let (version, errors, items) = lock.withLock { () -> (Int, [String], [(String, Entry)]) in
            (self.version, self.errors.keys.sorted().map { self.errors[$0]! }, order.map { ($0, entries[$0]!) })
        }
        let transitions = items.map { name, entry -> Listing.Item in
            let info = entry.info
            return Listing.Item(
                name: name, summary: entry.transition.summary, file: entry.file, frameCount: info.frameCount, fps: info.fps,
                pointSize: [info.pointSize.width, info.pointSize.height], times: info.times, duration: info.times.last ?? 0,
                blocks: info.blocks, goldenFrames: goldenCount(name), goldenPixelSize: goldenSize(name))
        }
        return Listing(version: version, scale: settings.scale, scales: [1, 2, 3], golden: settings.goldenDirectory != nil, errors: errors, transitions: transitions)
    }

    /// The entry of `name` in `version` when that is the one before the current, else the current one.
    func entry(_ name: String, version asked: Int?) -> Entry? {
        lock.withLock {
            if let asked, asked != version, let retired, retired.version == asked { return retired.entries[name] }
            return entries[name]
        }
    }

    /// The current entry of `name`, and whether it is still current (for keeping a lint report).
    func currentEntryID(_ name: String) -> Int? { lock.withLock { entries[name]?.id } }

    /// The reading of `name` the last reload replaced, if there was one.
    func retiredEntry(_ name: String) -> Entry? { lock.withLock { retired?.entries[name] } }

    func setLint(_ report: LintReport, forEntry id: Int, name: String) {
        lock.withLock { if entries[name]?.id == id { entries[name]?.lint = report } }
    }

    func cachedPNG(_ digest: String) -> [UInt8]? { lock.withLock { pngs[digest] } }

    func keepPNG(_ png: [UInt8], digest: String) {
        lock.withLock {
            encodedFrames += 1
            if pngBytes + png.count > pngCacheLimit {
                pngs = [:]
                pngBytes = 0
            }
            if pngs.updateValue(png, forKey: digest) == nil { pngBytes += png.count }
        }
    }

    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Whether a reload has published a version after `version`.
    func isSuperseded(_ version: Int) -> Bool { publishedVersion.load(ordering: .relaxed) > version }

    // MARK: - Frames drawn

    /// A frame of one reading of a transition at one scale.
    struct FrameKey: Hashable, Sendable {
        var entry: Int
        var scale: Int
        var index: Int
    }

    /// The frame's PNG and digest when it was drawn and its PNG is still kept.
    func keptFrame(_ key: FrameKey) -> (png: [UInt8], digest: String)? {
        lock.withLock { drawnFrames[key].flatMap { digest in pngs[digest].map { ($0, digest) } } }
    }

    func keepFrame(_ key: FrameKey, digest: String, drawn: Bool = true) {
        lock.withLock {
            if drawn { framesDrawn += 1 } else { framesUnchanged += 1 }
            if drawnFrames.count >= Self.drawnFramesKept { drawnFrames = [:] }
            drawnFrames[key] = digest
        }
    }

    /// Claims the drawing of `key` (release it with ``releaseFrame(_:)``) when no thread draws it; when one
    /// does, waits until it is done and returns false (its frame is kept now, unless it failed).
    func claimFrame(_ key: FrameKey) -> Bool {
        drawing.lock()
        defer { drawing.unlock() }
        guard framesInFlight.contains(key) else {
            framesInFlight.insert(key)
            return true
        }
        while framesInFlight.contains(key) { drawing.wait() }
        return false
    }

    func releaseFrame(_ key: FrameKey) {
        drawing.lock()
        framesInFlight.remove(key)
        drawing.broadcast()
        drawing.unlock()
    }

    /// Returns once no reload is under way: a frame asked for during one is most likely of the reading it
    /// replaces, which the page will not want (it cancels it when it hears of the reload), so it does not
    /// take the cores the reload needs.
    func waitWhileReloading() {
        reloading.lock()
        reloading.unlock()
    }

    /// Remembers the frame a page shows.
    func noteShown(_ name: String, scale: Int, time: Double) {
        lock.withLock {
            shownFrames.removeAll { $0.name == name && $0.scale == scale }
            shownFrames.append((name, scale, time))
            if shownFrames.count > Self.shownFramesKept { shownFrames.removeFirst() }
        }
    }

    /// The frames pages showed of transitions whose reading changed since `previous`, in the new readings,
    /// newest first.
    private func changedShownFrames(since previous: [String: Entry]) -> [(entry: Entry, index: Int, scale: Int)] {
        lock.withLock {
            shownFrames.reversed().compactMap { shown in
                guard let entry = entries[shown.name], previous[shown.name]?.id != entry.id, !entry.info.times.isEmpty else { return nil }
                return (entry, Self.frameIndex(at: shown.time, in: entry.info.times), shown.scale)
            }
        }
    }

    /// Whether a transition of that name is served now (or in `version`, the one before, while it is kept).
    public func has(_ name: String, version: Int? = nil) -> Bool { entry(name, version: version) != nil }

    /// The number of frames of `name` (nil when there is no such transition).
    public func frameCount(_ name: String, version: Int? = nil) -> Int? {
        entry(name, version: version)?.info.frameCount
    }
}

/// The path with every link resolved; nil when it does not exist.
func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}
