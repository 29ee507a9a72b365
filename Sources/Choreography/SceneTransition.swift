import BoundedInput
import Motion
import PNGIO
import RasterCore
import SnapshotView
import Typesetting
import TransitionCompositor

/// A transition of a scene file, rendered like a built-in: `smokescreen render scene.json --transition NAME`.
public struct SceneTransition: Transition {
    /// The scene file's path.
    public let path: String
    /// The whole scene file, parsed.
    public let document: SceneDocument
    /// The transition of the file this one plays.
    public let spec: SceneDocument.TransitionSpec
    /// Whether this is the spec played backwards (its `reversedName`).
    public let isReversed: Bool

    /// `spec` of the scene file at `path`, forwards or reversed.
    public init(path: String, document: SceneDocument, spec: SceneDocument.TransitionSpec, reversed: Bool) {
        self.path = path
        self.document = document
        self.spec = spec
        isReversed = reversed
    }

    /// The transition named `name` in the scene file at `path`, or its first when `name` is nil.
    /// - Throws: the file's read or parse error, or ``ChoreographyError`` naming the transitions it has.
    public static func load(path: String, transition name: String?) throws -> SceneTransition {
        let document = try SceneDocument.read(from: path)
        let offered = document.offered
        guard let chosen = name.map({ n in offered.first { $0.name == n } }) ?? offered.first else {
            let names = offered.map(\.name)
            var reason = "no transition named '\(name ?? "")' (it has \(names.joined(separator: ", ")))"
            if let s = closestName(to: name ?? "", among: names) { reason += "; did you mean '\(s)'?" }
            throw ChoreographyError(transition: path, reason: reason, exitStatus: ExitStatus.usage)
        }
        return SceneTransition(path: path, document: document, spec: chosen.spec, reversed: chosen.reversed)
    }

    /// The spec's name, or its `reversedName` when reversed.
    public var name: String { isReversed ? (spec.reversedName ?? spec.name) : spec.name }
    /// The spec's summary, or its states and file.
    public var summary: String { spec.summary.isEmpty ? "\(spec.from) → \(spec.to) (\(path))" : spec.summary }
    /// The scene's canvas, points.
    public var pointSize: Size { document.size }
    /// Whether the file has colours for the dark appearance (``SceneDocument/hasDarkColors``).
    public var followsAppearance: Bool { document.hasDarkColors }
    /// Whether a label of the file has a `textStyle` (``SceneDocument/hasTextStyles``).
    public var followsTextSize: Bool { document.hasTextStyles }
    /// True: phases may take their timings from a durations plist (the scene's own, or `--durations`).
    public var readsDurationsFile: Bool { true }

    /// The spec's forward choreography with the timings a render uses: a durations plist (`file`, or the
    /// scene's own) overrides the phases it names. Returns it and the plist read, if any.
    /// `assetsDirectory`: the tool's assets folder, where the scene's own plist may also be.
    package func timedChoreography(durationsFile: String?, assetsDirectory: String?, warn: (@Sendable (String) -> Void)?) throws -> (Choreography, String?) {
        var choreography = spec.choreography
        guard let file = try durationsFile ?? ownDurationsFile(assetsDirectory: assetsDirectory) else { return (choreography, nil) }
        let known = choreography.phases.map(\.name)
        let bytes = try InputFile.read(file, limit: Limits.plistBytes, what: "durations file")
        let root = try PropertyListReader.parse(bytes, source: file)
        let present = known.filter { root[$0] != nil }
        let timings = try BlockTimings.parse(bytes, path: file, required: present, alsoKnown: known, blocks: known, warn: warn)
        for i in choreography.phases.indices {
            if let timing = timings[choreography.phases[i].name] { choreography.phases[i].timing = timing }
        }
        return (choreography, file)
    }

    var folder: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    /// Builds both states (decoding their images at `settings.scale`) and plays the choreography.
    public func render(_ settings: RenderSettings) throws -> RenderedTransition {
        // The limits `check` runs, here too, with the same file:line:column: before any image is decoded.
        try document.checkCanvas(scales: [settings.scale], path: path, forRender: true)
        var inputs = [path]
        var durations: [String: Double] = [:]
        let (choreography, durationsFile) = try timedChoreography(durationsFile: settings.durationsFile, assetsDirectory: settings.assetsDirectory,
                                                                  warn: settings.warn)
        if let durationsFile { inputs.append(durationsFile) }
        for phase in choreography.phases {
            durations["\(phase.name).duration"] = phase.timing.duration
            durations["\(phase.name).delay"] = phase.timing.delay
        }
        let assetsFolder = try self.assetsFolder(explicit: settings.assetsDirectoryIsExplicit ? settings.assetsDirectory : nil,
                                                 assetsDirectory: settings.assetsDirectory)
        var loader = TreeBuilder(assetsFolder: assetsFolder, scale: settings.scale, canvas: document.size, scene: path,
                                 imageLocations: document.locations.images)
        let from = try loader.build(document.states[spec.from]!.resolved(for: settings.appearance, textSize: settings.textSize), state: spec.from)
        let to = try loader.build(document.states[spec.to]!.resolved(for: settings.appearance, textSize: settings.textSize), state: spec.to)
        inputs += loader.files.sorted()
        try document.checkLength(of: spec, choreography: choreography, from: from, to: to, path: path, scales: [settings.scale], forRender: true)
        let played = isReversed ? choreography.reversed() : choreography
        var rendered = try spec.gesture.map {
            try ChoreographyRenderer.renderInteractive(name: name, choreography: played, from: from, to: to, settings: settings,
                                                       background: document.background(in: settings.appearance), durations: durations, assets: loader.records,
                                                       gesture: $0, startTime: spec.gestureStart)
        } ?? ChoreographyRenderer.render(name: name, choreography: played, from: from, to: to, settings: settings,
                                         background: document.background(in: settings.appearance), durations: durations, assets: loader.records)
        rendered.sequence.fingerprint = fingerprint(ofFiles: inputs)
        rendered.markTraits(of: self, settings: settings)
        return rendered
    }
}

/// Makes views from a scene file's specs, decoding each image once.
package struct TreeBuilder {
    let assetsFolder: String
    /// `assetsFolder` as the one folder images may come from (links followed).
    let confinement: SceneInputFolders
    let scale: Double
    let canvas: Size
    /// The scene file, for messages.
    let scene: String
    var images: [String: Bitmap] = [:]
    var files: Set<String> = []
    var records: [BitmapRecord] = []
    private var currentState = ""

    /// Where each state names each image (``SceneDocument/Locations/images``), for messages.
    var imageLocations: [String: [String: DocumentError]] = [:]

    package init(assetsFolder: String, scale: Double, canvas: Size, scene: String, imageLocations: [String: [String: DocumentError]] = [:]) {
        self.imageLocations = imageLocations
        self.assetsFolder = assetsFolder
        confinement = SceneInputFolders(only: assetsFolder)
        self.scale = scale
        self.canvas = canvas
        self.scene = scene
    }

    /// The root of a state: it fills the canvas whatever its own frame says.
    package mutating func build(_ spec: SceneDocument.ViewSpec, state: String) throws -> View {
        var root = spec
        root.frame = Rect(origin: .zero, size: canvas)
        currentState = state
        let view = try make(root)
        if view.name == nil { view.name = state }
        return view
    }

    private mutating func make(_ spec: SceneDocument.ViewSpec) throws -> View {
        let view: View
        switch spec.kind {
        case .view:
            if let gradient = spec.gradient {
                let gradientView = GradientView(frame: spec.frame, name: spec.name)
                gradientView.gradient = gradient
                view = gradientView
            } else if let shape = spec.shape {
                view = DrawingView(frame: spec.frame, drawing: shape.content, name: spec.name)
            } else {
                view = View(frame: spec.frame, name: spec.name)
            }
        case .label:
            let label = Label(text: spec.text, style: TextStyle(font: spec.font, color: spec.textColor, alignment: spec.alignment,
                                                                numberOfLines: spec.lines, lineSpacing: spec.lineSpacing),
                              frame: spec.frame, name: spec.name)
            _ = try label.layout()  // surface a missing font here, not as a blank label
            view = label
        case .image:
            var bitmap: Bitmap?
            if let name = spec.image {
                if let cached = images[name] { bitmap = cached } else {
                    let (file, variantScale) = ImageAsset.variant(of: name, scale: scale, in: assetsFolder)
                    let path = "\(assetsFolder)/\(file)"
                    // Checked before the file is opened: a name with `..` or a link that leads out reads nothing.
                    if confinement.place(of: path) == .outside {
                        throw SceneDocument.Locations.error(imageLocations[currentState]?[name], source: scene,
                                                            keyPath: KeyPath([.key("states"), .key(currentState)]),
                                                            "view '\(spec.name ?? "?")' names the image '\(name)', which leads outside the assets folder \(assetsFolder)")
                    }
                    let decoded: Bitmap
                    let result: Result<Bitmap, PNGError> = Result { () throws(PNGError) in try PNGCodec.read(contentsOf: path, scale: variantScale) }
                    switch result {
                    case .success(let bitmap): decoded = bitmap
                    case .failure(let error) where error.kind == .fileNotFound:
                        // A name in the scene that no file answers is the scene's error: say where it is.
                        throw SceneDocument.Locations.error(imageLocations[currentState]?[name], source: scene,
                                                            keyPath: KeyPath([.key("states"), .key(currentState)]),
                                                            "view '\(spec.name ?? "?")' names the image '\(name)', but there is no \(path)")
                    case .failure(let error): throw error
                    }
                    images[name] = decoded
                    files.insert(path)
                    records.append(BitmapRecord(kind: .asset, name: file, bitmap: decoded))
                    bitmap = decoded
                }
            }
            view = ImageView(image: bitmap, frame: spec.frame, contentMode: spec.contentMode, name: spec.name)
        case .scroll:
            let scroll = ScrollView(frame: spec.frame, name: spec.name)
            scroll.contentSize = spec.contentSize ?? spec.frame.size
            scroll.contentOffset = spec.contentOffset
            view = scroll
        }
        view.backgroundColor = spec.backgroundColor
        view.alpha = spec.alpha
        view.cornerRadius = spec.cornerRadius
        view.clipsToBounds = spec.clipsToBounds || spec.kind == .scroll
        view.isHidden = spec.hidden
        view.borderWidth = spec.borderWidth
        view.borderColor = spec.borderColor
        view.cornerCurve = spec.cornerCurve
        view.shadow = spec.shadow
        view.backdrop = spec.material ?? .none
        view.transformAnchor = Point(x: (spec.transformAnchor.x - 0.5) * spec.frame.width, y: (spec.transformAnchor.y - 0.5) * spec.frame.height)
        view.transform3D = spec.transform3D
        if let mask = spec.mask {
            // Fixed to the view as it is seen: a scroll view's bounds start at its content offset.
            let origin = spec.kind == .scroll ? spec.contentOffset : Point(x: 0, y: 0)
            view.mask = DrawingView(frame: Rect(origin: origin, size: spec.frame.size),
                                    drawing: ShapeContent(path: mask.path, fill: .black, rule: mask.fillRule, stroke: nil), name: "mask")
        }
        if spec.backgroundColor == nil { view.isOpaque = false }
        for child in spec.subviews { try view.addSubview(try make(child)) }
        return view
    }
}

extension SceneDocument {
    /// The scales `render` accepts (`--scale`): 1, 2 and 3.
    public static let renderScales: [Double] = [1, 2, 3]
    /// The frame rate a scene renders at when none is given: 60.
    public static let defaultFPS = 60.0

    /// Checks the scene file at `path` as a render would, without drawing frames: reads and parses it,
    /// builds every state (decoding its images, laying out its labels) and sets up every transition and
    /// its reverse on its trees, so that every name, phase and view kind is checked; and runs every limit
    /// a render enforces, so that a render of a file that passes is not refused for its size or length:
    /// the canvas within the bitmap limits at each of `scales` (default: every scale render accepts), each
    /// transition within `Limits/maxSeconds`, and its frames at the default 60 fps times its views within
    /// `Limits/viewFramesPerRender`.
    /// - Parameter durationsFile: a durations plist to check and use instead of the scene's own (as
    ///   `render --durations` reads it); default nil: the scene's own, when it names one.
    /// - Parameter warn: told of keys in the durations plist that are ignored, once. Default: ignored.
    /// - Returns: the names of the transitions it offers.
    /// - Throws: the first problem, naming the file, line:column and key path where it has them.
    /// - Parameter assetsDirectory: the tool's assets folder (`--assets` and the others `render` finds),
    ///   where a scene's inputs may be besides its own folder; `assetsDirectoryIsExplicit`: the user named
    ///   it, so images are read from it (as `render --assets` does). Default nil: the scene's folder only.
    public static func check(path: String, assetsScale: Double = 1, scales: [Double] = renderScales,
                             durationsFile: String? = nil, assetsDirectory: String? = nil, assetsDirectoryIsExplicit: Bool = false,
                             warn: (@Sendable (String) -> Void)? = nil) throws -> [String] {
        var names: [String] = []
        let document = try SceneDocument.read(from: path)
        try document.checkCanvas(scales: scales, path: path, forRender: false)
        for transition in document.offered {
            let scene = try SceneTransition.load(path: path, transition: transition.name)
            let assetsFolder = try scene.assetsFolder(explicit: assetsDirectoryIsExplicit ? assetsDirectory : nil, assetsDirectory: assetsDirectory)
            var builder = TreeBuilder(assetsFolder: assetsFolder,
                                      scale: assetsScale, canvas: scene.document.size, scene: path,
                                      imageLocations: scene.document.locations.images)
            let from = try builder.build(scene.document.states[scene.spec.from]!, state: scene.spec.from)
            let to = try builder.build(scene.document.states[scene.spec.to]!, state: scene.spec.to)
            // The timings a render uses: --durations, or the scene's own plist when it names one. Warnings
            // once, not for every transition that reads the same file.
            let (timed, _) = try scene.timedChoreography(durationsFile: durationsFile, assetsDirectory: assetsDirectory, warn: names.isEmpty ? warn : { @Sendable _ in })
            let end = try document.checkLength(of: scene.spec, choreography: timed, from: from, to: to, path: path,
                                               scales: scales, forRender: false)
            let choreography = scene.isReversed ? timed.reversed() : timed
            let engine = AnimationEngine(fps: defaultFPS)
            let context = try ChoreographyRenderer.perform(name: scene.name, choreography: choreography, from: from, to: to,
                                                           engine: engine, scale: assetsScale)
            // Views drawn: every frame keeps its tree until the render is written.
            if let node = context.container.renderNode(presentation: engine) {
                let views = TransitionDriver.viewCount(node)
                let frames = ((engine.scheduledEndTime ?? end) * defaultFPS).rounded(.up) + 1
                if frames * Double(views) > Double(Limits.viewFramesPerRender) {
                    throw document.error(at: scene.spec, path: path, """
                        '\(scene.name)' is about \(Int(frames)) frames at \(Int(defaultFPS)) fps × \(views) views, which is more than the limit of \
                        \(Limits.viewFramesPerRender) views drawn in one render (render would refuse it at \(Int(defaultFPS)) fps): \
                        shorten the cascade, use fewer views, or render with a lower --fps
                        """)
                }
            }
            names.append(scene.name)
        }
        return names
    }

    /// Whether a canvas of `size` points fits the bitmap limits at `scale`, and its pixel size.
    static func canvasPixels(_ size: Size, scale: Double) -> (width: Double, height: Double, fits: Bool) {
        let width = (size.width * scale - 1e-9).rounded(.up), height = (size.height * scale - 1e-9).rounded(.up)
        let fits = width <= Double(Limits.bitmapMaxSide) && height <= Double(Limits.bitmapMaxSide) && width * height <= Double(Limits.bitmapMaxPixels)
        return (width, height, fits)
    }

    /// Refuses a canvas over the bitmap limits at any of `scales`, at the file's `size` key.
    func checkCanvas(scales: [Double], path: String, forRender: Bool) throws(DocumentError) {
        for scale in scales.sorted() {
            let (width, height, fits) = Self.canvasPixels(size, scale: scale)
            guard width >= 1, height >= 1 else {
                throw Locations.error(locations.size, source: path, keyPath: KeyPath([.key("size")]),
                                      "at @\(Int(scale))x the canvas is \(Int(width))x\(Int(height)) px: it needs at least a pixel a side")
            }
            guard !fits else { continue }
            let fitting = Self.renderScales.filter { Self.canvasPixels(size, scale: $0).fits }.map { String(Int($0)) }
            let consequence = fitting.isEmpty ? "render would refuse it at every scale"
                : forRender ? "it fits at --scale \(fitting.joined(separator: " or "))"
                : "render --scale \(Int(scale)) would refuse it (it fits at --scale \(fitting.joined(separator: " or ")): check --scale N checks one scale)"
            throw Locations.error(locations.size, source: path, keyPath: KeyPath([.key("size")]), """
                at @\(Int(scale))x the canvas is \(Int(width))x\(Int(height)) px, over the bitmap limits \
                (\(Limits.bitmapMaxSide) px a side, \(Limits.bitmapMaxPixels) pixels): \(consequence)
                """)
        }
    }

    /// The error at transition `spec`'s name in the file.
    func error(at spec: TransitionSpec, path: String, _ reason: String) -> DocumentError {
        let index = transitions.firstIndex { $0.name == spec.name } ?? 0
        return Locations.error(index < locations.transitions.count ? locations.transitions[index] : nil, source: path,
                               keyPath: KeyPath([.key("transitions"), .index(index), .key("name")]), reason)
    }

    /// How long `choreography` (the forward one of `spec`, with its timings as the render uses them) runs
    /// on the trees `from` and `to`, in seconds; refused at the cascade that runs it past
    /// `Limits/maxSeconds`, as a render would refuse it. Also refuses, at the view's `frame`, a view the
    /// render snapshots whose snapshot would be over the bitmap limits at one of `scales`.
    @discardableResult
    func checkLength(of spec: TransitionSpec, choreography: Choreography, from: View, to: View, path: String,
                     scales: [Double], forRender: Bool) throws -> Double {
        let plan = try Plan(name: spec.name, choreography: choreography, from: from, to: to)
        // Snapshots: every unmatched view, and both views of a match that is not a live image.
        var snapshotted: [(view: View, state: String)] = []
        for match in choreography.matches where match.style != .liveImage {
            if let a = from.view(named: match.from) { snapshotted.append((a, spec.from)) }
            if let b = to.view(named: match.to) { snapshotted.append((b, spec.to)) }
        }
        for side in [Plan.Side.from, .to] {
            for (view, _, _) in plan.unmatchedViews[side] ?? [] { snapshotted.append((view, side == .from ? spec.from : spec.to)) }
        }
        for (view, state) in snapshotted {
            for scale in scales.sorted() {
                let (width, height, fits) = Self.canvasPixels(view.bounds.size, scale: scale)
                guard !fits else { continue }
                let fitting = Self.renderScales.filter { Self.canvasPixels(view.bounds.size, scale: $0).fits }.map { String(Int($0)) }
                let consequence = fitting.isEmpty ? "render would refuse it at every scale"
                    : forRender ? "it fits at --scale \(fitting.joined(separator: " or "))"
                    : "render --scale \(Int(scale)) would refuse it (it fits at --scale \(fitting.joined(separator: " or ")): check --scale N checks one scale)"
                let template = view.name.flatMap { locations.viewFrames[state]?[$0] }
                throw Locations.error(template, source: path, keyPath: KeyPath([.key("states"), .key(state)]), """
                    view '\(view.name ?? "(unnamed)")' is \(String(format: "%g", view.bounds.width))x\(String(format: "%g", view.bounds.height)) pt: \
                    its snapshot at @\(Int(scale))x would be \(Int(width))x\(Int(height)) px, over the bitmap limits \
                    (\(Limits.bitmapMaxSide) px a side, \(Limits.bitmapMaxPixels) pixels): \(consequence)
                    """)
            }
        }
        var end = 0.0
        for match in choreography.matches {
            if let t = choreography.phase(named: match.phase)?.timing { end = max(end, t.delay + t.duration) }
        }
        var lastOrder: [Int: Int] = [:]
        for side in [Plan.Side.from, .to] {
            for (_, entry, order) in plan.unmatchedViews[side] ?? [] { lastOrder[entry] = max(lastOrder[entry] ?? 0, order) }
        }
        var worst: (entry: Int, end: Double)?
        for (entry, order) in lastOrder.sorted(by: { $0.key < $1.key }) {
            let unmatched = choreography.unmatched[entry]
            guard let t = choreography.phase(named: unmatched.phase)?.timing else { continue }
            let ends = t.delay + Double(order) * unmatched.cascade + t.duration
            end = max(end, ends)
            if ends > (worst?.end ?? 0), unmatched.cascade > 0 { worst = (entry, ends) }
        }
        guard end > Limits.maxSeconds + 1e-9 else { return end }
        let shown = String(format: "%.6g", end)
        let index = transitions.firstIndex { $0.name == spec.name } ?? 0
        if let worst, worst.end == end {
            let count = (lastOrder[worst.entry] ?? 0) + 1
            let cascade = choreography.unmatched[worst.entry].cascade
            let template = index < locations.cascades.count ? locations.cascades[index][worst.entry] : nil
            throw Locations.error(template, source: path,
                                  keyPath: KeyPath([.key("transitions"), .index(index), .key("unmatched"), .index(worst.entry), .key("cascade")]), """
                \(count) views \(String(format: "%g", cascade)) s apart: '\(spec.name)' runs until \(shown) s, past the limit of \
                \(Int(Limits.maxSeconds)) s (render would refuse it)
                """)
        }
        throw error(at: spec, path: path, "'\(spec.name)' runs until \(shown) s, past the limit of \(Int(Limits.maxSeconds)) s (render would refuse it)")
    }
}
