import BoundedInput
import CLibCrypto
import Choreography
import FrameDiff
import Foundation
import PNGIO
import RasterCore
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
    public init(_ description: String) { self.description = description }
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
    /// The assets folder for built-ins, and for scene files when `assetsDirectoryIsExplicit`.
    public var assetsDirectory: String
    public var assetsDirectoryIsExplicit = false
    /// A folder of golden frames, `DIR/NAME/frame_0000.png`…, as `render` and the golden tests write them.
    public var goldenDirectory: String?
    /// Lints a transition (the CLI's checks, with its documented exceptions): `lint`'s findings at @1x.
    public var lint: (@Sendable (any Transition, RenderSettings) throws -> LintReport)?

    public init(scale: Int = 2, fps: Double? = nil, assetsDirectory: String, assetsDirectoryIsExplicit: Bool = false,
                goldenDirectory: String? = nil, lint: (@Sendable (any Transition, RenderSettings) throws -> LintReport)? = nil) {
        self.scale = scale
        self.fps = fps
        self.assetsDirectory = assetsDirectory
        self.assetsDirectoryIsExplicit = assetsDirectoryIsExplicit
        self.goldenDirectory = goldenDirectory
        self.lint = lint
    }
}

/// The transitions a preview serves, re-read on every change of their files, and their frames drawn on
/// demand and kept as PNG by the digest of their pixels (a frame whose pixels did not change across a
/// reload is not encoded again). Thread-safe: requests draw frames concurrently while a reload reads.
public final class PreviewLibrary: @unchecked Sendable {
    /// One served transition as of one reload.
    struct Entry: @unchecked Sendable {
        var transition: any Transition
        /// The scene file it comes from; nil for a built-in.
        var file: String?
        /// Its render at each scale asked for so far (the start scale is rendered by the reload).
        var renders: [Int: RenderedTransition]
        var lint: LintReport?
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
    /// The transitions of the version before, so that frames a page asked for just before a reload
    /// (`?v=N`) are still served, not refused because the new version has fewer frames.
    private var retired: (version: Int, entries: [String: Entry])?
    /// Encoded frames by the SHA-256 of their pixels (and size), at most `pngCacheLimit` bytes.
    private var pngs: [String: [UInt8]] = [:]
    private var pngBytes = 0
    /// The bytes of PNG kept before the cache is emptied (every frame of a long @3x render is ~100 MiB).
    public var pngCacheLimit = 256 << 20
    /// How many frames were encoded (not taken from the cache); for tests and the docs' figures.
    public private(set) var encodedFrames = 0
    private var listeners: [UUID: @Sendable (Int) -> Void] = [:]

    public init(source: PreviewSource, settings: PreviewSettings) {
        self.source = source
        self.settings = settings
    }

    /// The scene files the source reads now (a folder's are listed again on each reload).
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
        for file in sceneFiles {
            add(file)
            guard let document = try? SceneDocument.read(from: file) else { continue }
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
            if let durations = document.durations { add("\(folder)/\(durations)") }
            let assets = settings.assetsDirectoryIsExplicit ? settings.assetsDirectory : document.assets.map { "\(folder)/\($0)" } ?? folder
            var images: Set<String> = []
            func walk(_ spec: SceneDocument.ViewSpec) {
                if let image = spec.image { images.insert(image) }
                spec.subviews.forEach(walk)
            }
            document.states.values.forEach(walk)
            // Every variant ImageAsset may pick (name.png, name@2x.png, name@3x.png), present or not: one
            // added later is picked up.
            for image in images {
                let stem = image.hasSuffix(".png") ? String(image.dropLast(4)) : image
                for file in ["\(stem).png", "\(stem)@2x.png", "\(stem)@3x.png"] { add("\(assets)/\(file)") }
            }
        }
        return byFolder
    }

    /// Reads every source again and renders each transition at the start scale. A scene file that fails
    /// (`check`'s error: file:line:column: key path: reason) keeps its last good transitions and reports
    /// the error; one that is fixed clears it. The version goes up on every reload.
    /// - Returns: the new version.
    @discardableResult
    public func reload() -> Int {
        reloading.lock()
        defer { reloading.unlock() }
        var loaded: [(String, Entry)] = []
        var newErrors: [String: String] = [:]
        let previous = lock.withLock { (entries, order) }
        switch source {
        case .builtIn(let name):
            if let transition = TransitionCatalog.transition(named: name) {
                do { loaded.append((name, try makeEntry(transition, file: nil))) } catch { newErrors[name] = describe(error) }
            }
        case .sceneFile, .folder:
            for file in sceneFiles {
                do {
                    let scales = [Double(settings.scale)]
                    let names = try SceneDocument.check(path: file, scales: scales)
                    var fromFile: [(String, Entry)] = []
                    for name in names {
                        let transition = try SceneTransition.load(path: file, transition: name)
                        fromFile.append((name, try makeEntry(transition, file: file)))
                    }
                    loaded += fromFile
                } catch {
                    newErrors[file] = describe(error)
                    // The last good frames stay.
                    for name in previous.1 where previous.0[name]?.file == file { loaded.append((name, previous.0[name]!)) }
                }
            }
        }
        let (newVersion, listeners) = lock.withLock { () -> (Int, [@Sendable (Int) -> Void]) in
            var names: [String] = []
            retired = (version, entries)
            entries = [:]
            for (name, entry) in loaded where entries[name] == nil {
                entries[name] = entry
                names.append(name)
            }
            order = names
            errors = newErrors
            version += 1
            return (version, Array(self.listeners.values))
        }
        for listener in listeners { listener(newVersion) }
        return newVersion
    }

    private func makeEntry(_ transition: any Transition, file: String?) throws -> Entry {
        let rendered = try transition.render(renderSettings(scale: settings.scale))
        return Entry(transition: transition, file: file, renders: [settings.scale: rendered], lint: nil)
    }

    func renderSettings(scale: Int) -> RenderSettings {
        var s = RenderSettings(scale: Double(scale), fps: settings.fps, assetsDirectory: settings.assetsDirectory, warn: { _ in })
        s.assetsDirectoryIsExplicit = settings.assetsDirectoryIsExplicit
        return s
    }

    private func describe(_ error: any Error) -> String {
        "\(error)"
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
            let rendered = entry.renders[settings.scale] ?? entry.renders.values.first!
            let s = rendered.sequence
            return Listing.Item(
                name: name, summary: entry.transition.summary, file: entry.file, frameCount: s.count, fps: s.fps,
                pointSize: [s.pointSize.width, s.pointSize.height], times: s.times, duration: s.times.last ?? 0,
                blocks: rendered.timeline.map { Listing.Block(label: $0.label, delay: $0.start, duration: $0.end - $0.start, timing: $0.timing, properties: $0.properties) },
                goldenFrames: goldenCount(name), goldenPixelSize: goldenSize(name))
        }
        return Listing(version: version, scale: settings.scale, scales: [1, 2, 3], golden: settings.goldenDirectory != nil, errors: errors, transitions: transitions)
    }

    /// The entry of `name` in `version` when that is the one before the current, else the current one.
    private func entry(_ name: String, version asked: Int?) -> Entry? {
        lock.withLock {
            if let asked, asked != version, let retired, retired.version == asked { return retired.entries[name] }
            return entries[name]
        }
    }

    /// Whether a transition of that name is served now (or in `version`, the one before, while it is kept).
    public func has(_ name: String, version: Int? = nil) -> Bool { entry(name, version: version) != nil }

    /// The number of frames of `name` (nil when there is no such transition).
    public func frameCount(_ name: String, version: Int? = nil) -> Int? {
        entry(name, version: version).map { ($0.renders[settings.scale] ?? $0.renders.values.first!).sequence.count }
    }

    /// The render of `name` at `scale`, made now when this reload has none yet.
    func rendered(_ name: String, scale: Int, version: Int? = nil) throws -> RenderedTransition? {
        guard let entry = entry(name, version: version) else { return nil }
        if let done = entry.renders[scale] { return done }
        let rendered = try entry.transition.render(renderSettings(scale: scale))
        lock.withLock {
            // Only into the same reload's entry: a reload in between made a new one.
            if entries[name]?.renders[settings.scale]?.sequence.fingerprint == entry.renders[settings.scale]?.sequence.fingerprint,
               entries[name]?.renders[scale] == nil {
                entries[name]?.renders[scale] = rendered
            }
        }
        return rendered
    }

    /// Frame `index` of `name` at `scale` as PNG, with the digest of its pixels. Nil when there is no
    /// such transition or frame.
    public func frame(_ name: String, index: Int, scale: Int, version: Int? = nil) throws -> (png: [UInt8], digest: String)? {
        guard let bitmap = try bitmap(name, index: index, scale: scale, version: version) else { return nil }
        let digest = Self.digest(of: bitmap)
        if let cached = lock.withLock({ pngs[digest] }) { return (cached, digest) }
        let png = try PNGCodec.encode(bitmap, compression: .fast)
        lock.withLock {
            encodedFrames += 1
            if pngBytes + png.count > pngCacheLimit {
                pngs = [:]
                pngBytes = 0
            }
            if pngs.updateValue(png, forKey: digest) == nil { pngBytes += png.count }
        }
        return (png, digest)
    }

    /// Frame `index` of `name` drawn at `scale`; nil when there is no such transition or frame.
    public func bitmap(_ name: String, index: Int, scale: Int, version: Int? = nil) throws -> Bitmap? {
        guard let rendered = try rendered(name, scale: scale, version: version) else { return nil }
        let s = rendered.sequence
        guard s.times.indices.contains(index) else { return nil }
        var canvas = try s.makeCanvas()
        s.draw(frame: index, into: &canvas)
        return canvas
    }

    /// The SHA-256 of a bitmap's size and pixels, hex.
    static func digest(of bitmap: Bitmap) -> String {
        var bytes = [UInt8]("\(bitmap.width)x\(bitmap.height)@\(bitmap.scale):".utf8)
        bitmap.withUnsafeBytes { bytes.append(contentsOf: $0) }
        var digest = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBufferPointer { b in digest.withUnsafeMutableBufferPointer { clibcrypto_sha256(b.baseAddress, b.count, $0.baseAddress) } }
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The lint report of `name` (rendered at @1x and checked once per reload); nil for no such transition.
    public func lint(_ name: String) throws -> LintReport? {
        guard let entry = lock.withLock({ entries[name] }) else { return nil }
        if let report = entry.lint { return report }
        guard let lint = settings.lint else { return LintReport(name: name, scale: 1, findings: []) }
        var s = renderSettings(scale: 1)
        s.describesFrames = true
        let report = try lint(entry.transition, s)
        lock.withLock { if entries[name]?.renders[settings.scale]?.sequence.fingerprint == entry.renders[settings.scale]?.sequence.fingerprint { entries[name]?.lint = report } }
        return report
    }

    // MARK: - Golden frames

    /// The golden frame file `index` of `name`, when `--golden` has one that stays inside its folder
    /// (a link that leads out of it is refused).
    func goldenPath(_ name: String, index: Int) -> String? {
        guard let root = settings.goldenDirectory, TransitionName.problem(with: name) == nil, index >= 0, index <= 99_999 else { return nil }
        let path = "\(root)/\(name)/frame_\(String(format: "%04d", index)).png"
        guard let real = realPath(path), let realRoot = realPath(root), real.hasPrefix(realRoot + "/") else { return nil }
        return real
    }

    private func goldenCount(_ name: String) -> Int? {
        guard settings.goldenDirectory != nil else { return nil }
        var n = 0
        while goldenPath(name, index: n) != nil { n += 1 }
        return n == 0 ? nil : n
    }

    private func goldenSize(_ name: String) -> [Int]? {
        // Width and height are the big-endian words at bytes 16 and 20 of a PNG (its IHDR chunk).
        guard let path = goldenPath(name, index: 0), let bytes = try? InputFile.read(path, limit: Limits.pngFileBytes, what: "golden frame"),
              bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        let word = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return [word(16), word(20)]
    }

    /// The golden frame's PNG bytes as stored.
    public func goldenPNG(_ name: String, index: Int) throws -> [UInt8]? {
        guard has(name), let path = goldenPath(name, index: index) else { return nil }
        return try InputFile.read(path, limit: Limits.pngFileBytes, what: "golden frame")
    }

    /// The pixel difference of frame `index` at `scale` against its golden frame, as FrameDiff draws it
    /// (differing pixels red over a faded copy), with the count of differing pixels; nil when either is
    /// missing. A golden frame of another size is an error naming both sizes.
    public func diffPNG(_ name: String, index: Int, scale: Int) throws -> (png: [UInt8], differentPixels: Int)? {
        guard let path = goldenPath(name, index: index), let actual = try bitmap(name, index: index, scale: scale) else { return nil }
        let golden = try PNGCodec.read(contentsOf: path)
        guard golden.width == actual.width, golden.height == actual.height else {
            throw PreviewError("\(path): the golden frame is \(golden.width)x\(golden.height) px, the frame at @\(scale)x is \(actual.width)x\(actual.height) px")
        }
        let difference = FrameComparison(mode: .exact).compare(golden, actual)
        let image = try difference?.diffImage ?? Bitmap(width: actual.width, height: actual.height, scale: actual.scale)
        return (try PNGCodec.encode(image), difference?.differentPixels ?? 0)
    }
}

/// The path with every link resolved; nil when it does not exist.
func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}
