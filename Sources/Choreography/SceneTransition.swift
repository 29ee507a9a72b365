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
            throw ChoreographyError(transition: path, reason: reason)
        }
        return SceneTransition(path: path, document: document, spec: chosen.spec, reversed: chosen.reversed)
    }

    /// The spec's name, or its `reversedName` when reversed.
    public var name: String { isReversed ? (spec.reversedName ?? spec.name) : spec.name }
    /// The spec's summary, or its states and file.
    public var summary: String { spec.summary.isEmpty ? "\(spec.from) → \(spec.to) (\(path))" : spec.summary }
    /// The scene's canvas, points.
    public var pointSize: Size { document.size }
    /// True: phases may take their timings from a durations plist (the scene's own, or `--durations`).
    public var readsDurationsFile: Bool { true }

    var folder: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    /// Builds both states (decoding their images at `settings.scale`) and plays the choreography.
    public func render(_ settings: RenderSettings) throws -> RenderedTransition {
        var choreography = spec.choreography
        var inputs = [path]
        var durations: [String: Double] = [:]
        // A durations plist (the scene's own, or --durations) overrides the phases it names.
        if let file = settings.durationsFile ?? document.durations.map({ "\(folder)/\($0)" }) {
            inputs.append(file)
            let known = choreography.phases.map(\.name)
            let bytes = try InputFile.read(file, limit: Limits.plistBytes, what: "durations file")
            let root = try PropertyListReader.parse(bytes, source: file)
            let present = known.filter { root[$0] != nil }
            let timings = try BlockTimings.parse(bytes, path: file, required: present, alsoKnown: known, warn: settings.warn)
            for i in choreography.phases.indices {
                if let timing = timings[choreography.phases[i].name] { choreography.phases[i].timing = timing }
            }
        }
        for phase in choreography.phases {
            durations["\(phase.name).duration"] = phase.timing.duration
            durations["\(phase.name).delay"] = phase.timing.delay
        }
        let assetsFolder = document.assets.map { "\(folder)/\($0)" } ?? folder
        var loader = TreeBuilder(assetsFolder: assetsFolder, scale: settings.scale, canvas: document.size, scene: path)
        let from = try loader.build(document.states[spec.from]!, state: spec.from)
        let to = try loader.build(document.states[spec.to]!, state: spec.to)
        inputs += loader.files.sorted()
        let played = isReversed ? choreography.reversed() : choreography
        var rendered = try spec.gesture.map {
            try ChoreographyRenderer.renderInteractive(name: name, choreography: played, from: from, to: to, settings: settings,
                                                       background: document.background, durations: durations, assets: loader.records,
                                                       gesture: $0, startTime: spec.gestureStart)
        } ?? ChoreographyRenderer.render(name: name, choreography: played, from: from, to: to, settings: settings,
                                         background: document.background, durations: durations, assets: loader.records)
        rendered.sequence.fingerprint = fingerprint(ofFiles: inputs)
        return rendered
    }
}

/// Makes views from a scene file's specs, decoding each image once.
struct TreeBuilder {
    let assetsFolder: String
    let scale: Double
    let canvas: Size
    /// The scene file, for messages.
    let scene: String
    var images: [String: Bitmap] = [:]
    var files: Set<String> = []
    var records: [BitmapRecord] = []
    private var currentState = ""

    init(assetsFolder: String, scale: Double, canvas: Size, scene: String) {
        self.assetsFolder = assetsFolder
        self.scale = scale
        self.canvas = canvas
        self.scene = scene
    }

    /// The root of a state: it fills the canvas whatever its own frame says.
    mutating func build(_ spec: SceneDocument.ViewSpec, state: String) throws -> View {
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
        case .view: view = View(frame: spec.frame, name: spec.name)
        case .label:
            let font = spec.bold ? Font.boldSystem(size: spec.fontSize) : Font.system(size: spec.fontSize)
            let label = Label(text: spec.text, style: TextStyle(font: font, color: spec.textColor, alignment: spec.alignment,
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
                    let decoded: Bitmap
                    let result: Result<Bitmap, PNGError> = Result { () throws(PNGError) in try PNGCodec.read(contentsOf: path, scale: variantScale) }
                    switch result {
                    case .success(let bitmap): decoded = bitmap
                    case .failure(let error) where error.kind == .fileNotFound:
                        // A name in the scene that no file answers is the scene's error: say where it is.
                        throw DocumentError(source: scene, position: nil, keyPath: KeyPath([.key("states"), .key(currentState)]),
                                            reason: "view '\(spec.name ?? "?")' names the image '\(name)', but there is no \(path)")
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
        if spec.backgroundColor == nil { view.isOpaque = false }
        for child in spec.subviews { try view.addSubview(try make(child)) }
        return view
    }
}

extension SceneDocument {
    /// Checks the scene file at `path` as a render would, without drawing frames: reads and parses it,
    /// builds every state (decoding its images, laying out its labels) and sets up every transition and
    /// its reverse on its trees, so that every name, phase and view kind is checked.
    /// - Returns: the names of the transitions it offers.
    /// - Throws: the first problem, naming the file and where.
    public static func check(path: String, assetsScale: Double = 1) throws -> [String] {
        var names: [String] = []
        for transition in try SceneDocument.read(from: path).offered {
            let scene = try SceneTransition.load(path: path, transition: transition.name)
            var builder = TreeBuilder(assetsFolder: scene.document.assets.map { "\(scene.folder)/\($0)" } ?? scene.folder,
                                      scale: assetsScale, canvas: scene.document.size, scene: path)
            let from = try builder.build(scene.document.states[scene.spec.from]!, state: scene.spec.from)
            let to = try builder.build(scene.document.states[scene.spec.to]!, state: scene.spec.to)
            let choreography = scene.isReversed ? scene.spec.choreography.reversed() : scene.spec.choreography
            _ = try ChoreographyRenderer.perform(name: scene.name, choreography: choreography, from: from, to: to,
                                                 engine: AnimationEngine(fps: 60), scale: assetsScale)
            names.append(scene.name)
        }
        return names
    }
}
