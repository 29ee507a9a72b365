import BoundedInput
import Motion
import RasterCore
import SnapshotView
import Typesetting
import TransitionCompositor

/// A scene file: view trees (named states) and transitions between them, described in JSON so that a
/// designer can write one without Swift. The format is documented in docs/scene-files.md and in its JSON
/// Schema (``schema``, which `smokescreen schema` prints and `docs/scene.schema.json` copies).
///
/// Reading is strict and bounded: at most `Limits/sceneBytes` bytes, `Limits/sceneViews` views,
/// `Limits/sceneDepth` levels; every error names the file, the line:column and the JSON path
/// (`transitions[1].phases[0].duration`); unknown keys are errors that suggest the closest known key.
public struct SceneDocument: Sendable, Equatable {
    /// One view of a state, as written.
    public struct ViewSpec: Sendable, Equatable {
        /// The view's class in a scene file's `type`.
        public enum Kind: String, Sendable, CaseIterable {
            /// A plain `View`.
            case view
            /// A `Label`.
            case label
            /// An `ImageView`.
            case image
            /// A `ScrollView`.
            case scroll
        }
        /// Default `.view`.
        public var kind: Kind = .view
        /// How transitions find the view; unique in a state. Default nil.
        public var name: String?
        /// In the parent's coordinates, points. Default zero.
        public var frame = Rect(x: 0, y: 0, width: 0, height: 0)
        /// Default nil: no background.
        public var backgroundColor: Color?
        /// 0…1. Default 1.
        public var alpha = 1.0
        /// Points. Default 0.
        public var cornerRadius = 0.0
        /// Default false (scroll views always clip).
        public var clipsToBounds = false
        /// Default false.
        public var hidden = false
        /// Points, drawn inside the bounds. Default 0.
        public var borderWidth = 0.0
        /// Default black.
        public var borderColor = Color.black
        /// A label's text. Default empty.
        public var text = ""
        /// A label's font size in points. Default 17.
        public var fontSize = 17.0
        /// A label's weight. Default false (regular).
        public var bold = false
        /// A label's Dynamic Type text style (`UIFont.TextStyle`'s names: `body`, `headline`, `title1`…):
        /// its size at the render's text size (`--text-size`) replaces ``fontSize``, and `headline` is
        /// semibold. Default nil: ``fontSize``, whatever the text size.
        public var textStyle: Font.TextStyle?
        /// Points added after each glyph of a label, as `NSAttributedString.Key.tracking`; nil (the
        /// default) for the system font's own tracking at the size (SF's table). 0 places glyphs exactly
        /// where HarfBuzz (and `hb-view` with the same font file and size) places them.
        public var tracking: Double?
        /// A label's colour. Default black.
        public var textColor = Color.black
        /// A label's line limit; 0 for none. Default 1.
        public var lines = 1
        /// A label's alignment. Default natural: left, or right when the text's first strong character
        /// is right to left (Hebrew, Arabic).
        public var alignment = TextAlignment.natural
        /// Points added between a label's lines. Default 0.
        public var lineSpacing = 0.0
        /// An image view's image: a PNG in the assets folder (`name.png`, with `@2x`/`@3x` variants).
        /// Default nil.
        public var image: String?
        /// An image view's content mode. Default scale to fill.
        public var contentMode = ContentMode.scaleToFill
        /// A scroll view's content size in points. Default: its frame's size.
        public var contentSize: Size?
        /// A scroll view's offset in points. Default zero.
        public var contentOffset = Point(x: 0, y: 0)
        /// The corners' shape: `circular` (default) or `continuous` (iOS's).
        public var cornerCurve = CornerCurve.circular
        /// A layer shadow under the view. Default nil.
        public var shadow: Shadow?
        /// A blurred material behind the view (a `UIVisualEffectView`'s). Default nil.
        public var material: Backdrop?
        /// A 3-D turn of the view about its anchor, in perspective. Default identity.
        public var transform3D = Transform3D.identity
        /// Where the 3-D turn is about, in units of the bounds (Core Animation's `anchorPoint`). Default
        /// (0.5, 0.5), the centre.
        public var transformAnchor = Point(x: 0.5, y: 0.5)
        /// A gradient over the view (views of type view only). Default nil.
        public var gradient: Gradient?
        /// A filled and stroked path over the background (views of type view only), as a
        /// `CAShapeLayer` filling the view. Default nil.
        public var shape: Shape?
        /// A path the view shows only inside (background, content, subviews), as a layer `mask` that
        /// is a filled `CAShapeLayer`. Default nil.
        public var mask: Mask?
        /// The colours this view has in the dark appearance, where the file gave `{"light": …, "dark": …}`
        /// (and its system material's dark version). Default none: the same in both.
        public var dark = DarkColors()
        /// Back to front. Default none.
        public var subviews: [ViewSpec] = []
        /// Constraints on this view's subviews (at any depth) and itself (`self`), solved when the file is
        /// read: a subview named in one that has no `frame` gets the frame they solve to. Default none.
        public var constraints: [ConstraintSpec] = []
        /// The file gave the view a `frame` (a view without one can be laid out by constraints).
        var frameWritten = false
    }

    /// A view's `shape`: a path (SVG path data, in the view's bounds coordinates, points) filled and
    /// stroked as a `CAShapeLayer` with the same properties (and defaults) draws it.
    public struct Shape: Sendable, Equatable {
        /// The path, in the view's coordinates (points). Required in a file.
        public var path = Path()
        /// Default opaque black, as `CAShapeLayer.fillColor`; a transparent colour fills nothing.
        public var fillColor: Color = .black
        /// Default non-zero.
        public var fillRule = FillRule.nonZero
        /// Default none.
        public var strokeColor: Color?
        /// Width, caps, joins, miter limit, dashes and `strokeStart`/`strokeEnd` (defaults 1, butt,
        /// miter, 10, none, 0 and 1).
        public var stroke = StrokeStyle()

        /// The drawing.
        public var content: ShapeContent {
            ShapeContent(path: path, fill: fillColor.alpha > 0 ? fillColor : nil, rule: fillRule,
                         stroke: strokeColor.flatMap { $0.alpha > 0 && stroke.width > 0 ? ($0, stroke) : nil })
        }
    }

    /// Whether a label of the file has a `textStyle`: then `--text-size` changes what it draws.
    public var hasTextStyles: Bool {
        func any(_ spec: ViewSpec) -> Bool { spec.textStyle != nil || spec.subviews.contains(where: any) }
        return states.values.contains(where: any)
    }

    /// Whether any colour of the file differs in the dark appearance (a `{"light", "dark"}` colour, or a
    /// system material): then `--appearance dark` changes what it draws.
    public var hasDarkColors: Bool {
        func any(_ spec: ViewSpec) -> Bool { !spec.dark.isEmpty || spec.subviews.contains(where: any) }
        return darkBackground != nil || states.values.contains(where: any)
    }

    /// The window's colour in `appearance`.
    public func background(in appearance: Appearance) -> Color {
        appearance == .dark ? darkBackground ?? background : background
    }

    /// A view's colours in the dark appearance, each replacing its light value when the scene renders
    /// dark (`--appearance dark`); nil: the same as in light.
    public struct DarkColors: Sendable, Equatable {
        public var backgroundColor: Color?
        public var borderColor: Color?
        public var textColor: Color?
        public var shadowColor: Color?
        /// The gradient with its dark colours, when any differs.
        public var gradient: Gradient?
        public var fillColor: Color?
        public var strokeColor: Color?
        /// A system material's dark version (`regular`, `chrome`…; not `…Dark` or the pre-iOS 13 styles).
        public var material: Backdrop?

        /// Whether any colour differs in the dark appearance.
        public var isEmpty: Bool { self == DarkColors() }
    }


    /// A view's `mask`: the view shows only inside `path` (SVG path data in its bounds coordinates).
    public struct Mask: Sendable, Equatable {
        /// The path, in the view's coordinates (points). Required in a file.
        public var path = Path()
        /// Default non-zero.
        public var fillRule = FillRule.nonZero
    }

    /// A transition between two states.
    public struct TransitionSpec: Sendable, Equatable {
        /// Letters, digits, `-` and `_`; also the output folder's name.
        public var name: String
        /// One line for people; may be empty.
        public var summary: String
        /// The state it starts from.
        public var from: String
        /// The state it ends in.
        public var to: String
        /// Also offered reversed under this name.
        public var reversedName: String?
        /// What moves and when.
        public var choreography: Choreography
        /// A back swipe that drives the transition instead of the clock (both directions), or nil.
        public var gesture: EdgePanGesture?
        /// When the swipe starts (seconds). Default 0.2.
        public var gestureStart: Double = 0.2
    }

    /// The canvas, in points.
    public var size: Size
    /// The window's colour behind both states. Default white.
    public var background: Color
    /// States by name: each a root view filling the canvas.
    public var states: [String: ViewSpec]
    /// In file order; at least one.
    public var transitions: [TransitionSpec]
    /// A durations plist (relative to the scene file) whose blocks override the phases' timings by name.
    public var durations: String?
    /// The folder image names are relative to, relative to the scene file. Default: the file's folder.
    public var assets: String?
    /// The window's colour in the dark appearance, when the file gave one. Default nil: ``background``.
    public var darkBackground: Color?

    /// Where the file says what `SceneDocument.check` and a render check only once the states are built
    /// (the canvas's size, each transition, each cascade), so that those errors name line and column too.
    /// Not part of the document's value: two documents that say the same are equal wherever they say it.
    struct Locations: Sendable, Equatable {
        /// `size`.
        var size: DocumentError?
        /// Each transition's `name`, by transition index.
        var transitions: [DocumentError] = []
        /// Each transition's unmatched entries' `cascade`, by transition index, then entry index.
        var cascades: [[Int: DocumentError]] = []
        /// Each named view's `frame`, by state, then view name.
        var viewFrames: [String: [String: DocumentError]] = [:]
        /// Where each state first names each image, by state, then image name.
        var images: [String: [String: DocumentError]] = [:]
        /// The top-level `durations` and `assets` values.
        var durations: DocumentError?
        var assets: DocumentError?

        static func == (_: Locations, _: Locations) -> Bool { true }

        /// The error at `template` (or at the top of `source` when unknown) with `reason`.
        static func error(_ template: DocumentError?, source: String, keyPath: KeyPath, _ reason: String) -> DocumentError {
            var error = template ?? DocumentError(source: source, position: nil, keyPath: keyPath, reason: "")
            error.reason = reason
            return error
        }
    }
    var locations = Locations()

    /// The transitions offered, forward and reversed: `(name, spec, reversed)`.
    public var offered: [(name: String, spec: TransitionSpec, reversed: Bool)] {
        transitions.flatMap { t in [(t.name, t, false)] + (t.reversedName.map { [($0, t, true)] } ?? []) }
    }

    /// Reads the scene file at `path` (a regular file of at most `Limits/sceneBytes`).
    public static func read(from path: String) throws -> SceneDocument {
        let bytes = try InputFile.read(path, limit: Limits.sceneBytes, what: "scene file")
        return try parse(bytes, path: path)
    }

    static let topKeys = ["$schema", "size", "background", "states", "transitions", "durations", "assets"]
    static let viewKeys = ["type", "name", "frame", "backgroundColor", "alpha", "cornerRadius", "clipsToBounds", "hidden", "borderWidth",
                           "borderColor", "text", "fontSize", "textStyle", "bold", "tracking", "textColor", "lines", "alignment", "lineSpacing", "image",
                           "contentMode", "contentSize", "contentOffset", "subviews", "constraints", "cornerCurve", "shadow", "material",
                           "rotation3D", "gradient", "shape", "mask"]
    static let transitionKeys = ["name", "summary", "from", "to", "reversedName", "phases", "matched", "unmatched", "onTop", "gesture"]
    /// At most this many samples in a gesture.
    static let maximumGestureSamples = 10_000

    /// Parses a scene file's bytes; `path` names it in errors.
    public static func parse(_ bytes: [UInt8], path: String) throws(DocumentError) -> SceneDocument {
        var reader = JSONReader(bytes, source: path)
        var size: Size?, background = Color.white, darkBackground: Color?, states: [String: ViewSpec] = [:], transitions: [TransitionSpec] = []
        var durations: String?, assets: String?
        var viewCount = 0
        var sawStates = false, sawTransitions = false
        var sizeMark: JSONReader.Mark?, transitionMarks: [JSONReader.Mark] = [], cascadeMarks: [[Int: JSONReader.Mark]] = []
        var frameMarks: [(state: String, view: String, mark: JSONReader.Mark)] = []
        var references: [[(reference: Reference, mark: JSONReader.Mark)]] = []
        var viewNameMarks: [String: [(view: String, mark: JSONReader.Mark)]] = [:]
        var imageMarks: [(state: String, image: String, mark: JSONReader.Mark)] = []
        var inputMarks: [(key: String, mark: JSONReader.Mark)] = []
        var constraintMarks: [String: [ConstraintMark]] = [:]
        try reader.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "size":
                sizeMark = r.mark()
                let pair = try readNumbers(&r, count: 2)
                guard pair.allSatisfy({ $0 > 0 && $0 <= Limits.scenePoints }) else { throw r.error("must be [width, height] in points, each in 0 < v ≤ \(Int(Limits.scenePoints))") }
                size = Size(width: pair[0], height: pair[1])
            // Where an editor finds the schema (`smokescreen schema`); the reader needs nothing from it.
            case "$schema": _ = try r.readString()
            case "background": (background, darkBackground) = try readAppearanceColor(&r)
            case "durations":
                inputMarks.append(("durations", r.mark()))
                durations = try r.readString()
            case "assets":
                inputMarks.append(("assets", r.mark()))
                assets = try r.readString()
            case "states":
                sawStates = true
                try r.readObject { (r: inout JSONReader, name: String) throws(DocumentError) in
                    guard !name.isEmpty else { throw r.error("a state needs a name") }
                    var marks: [(view: String, mark: JSONReader.Mark)] = []
                    var nameMarks: [(view: String, mark: JSONReader.Mark)] = []
                    var images: [(image: String, mark: JSONReader.Mark)] = []
                    var constraints: [ConstraintMark] = []
                    var materials = 0
                    states[name] = try readView(&r, depth: 0, count: &viewCount, materials: &materials, frameMarks: &marks, nameMarks: &nameMarks,
                                                imageMarks: &images, constraintMarks: &constraints)
                    constraintMarks[name] = constraints
                    for (image, mark) in images where !imageMarks.contains(where: { $0.state == name && $0.image == image }) {
                        imageMarks.append((name, image, mark))
                    }
                    frameMarks += marks.map { (name, $0.view, $0.mark) }
                    viewNameMarks[name] = nameMarks
                }
            case "transitions":
                sawTransitions = true
                try r.readArray(maxCount: 1000) { (r: inout JSONReader, _: Int) throws(DocumentError) in
                    var marks = TransitionMarks()
                    transitions.append(try readTransition(&r, marks: &marks))
                    if let name = marks.name { transitionMarks.append(name) } else { transitionMarks.append(r.mark()) }
                    cascadeMarks.append(marks.cascades)
                    references.append(marks.references)
                }
            default: throw r.unknownKey(key, known: topKeys)
            }
        }
        try reader.finish()
        func missing(_ key: String, _ what: String) -> DocumentError {
            DocumentError(source: path, position: nil, keyPath: KeyPath([.key(key)]), reason: "missing (\(what))")
        }
        guard let size else { throw missing("size", "[width, height] in points") }
        guard sawStates, !states.isEmpty else { throw missing("states", "an object of named view trees") }
        guard sawTransitions, !transitions.isEmpty else { throw missing("transitions", "an array of transitions") }
        // Cross-references, each at the line:column where the name is written.
        func located(_ mark: JSONReader.Mark, _ reason: String) -> DocumentError {
            reader.errors(at: [mark], reason: reason)[0]
        }
        func suggestion(_ name: String, _ known: some Collection<String>) -> String {
            closestName(to: name, among: Array(known)).map { "; did you mean '\($0)'?" } ?? ""
        }
        var viewNames: [String: Set<String>] = [:]
        for (name, marks) in viewNameMarks {
            var seen = Set<String>()
            for (view, mark) in marks where !seen.insert(view).inserted {
                throw located(mark, "a second view named '\(view)' in state '\(name)'; names identify views in transitions and must be unique in a state")
            }
            viewNames[name] = seen
        }
        var names = Set<String>()
        for (i, t) in transitions.enumerated() {
            for (reference, mark) in references[i] {
                switch reference {
                case .state(let state) where states[state] == nil:
                    throw located(mark, "no state named '\(state)'" + suggestion(state, states.keys))
                case .fromView(let view) where viewNames[t.from]?.contains(view) == false:
                    throw located(mark, "no view named '\(view)' in the from-state '\(t.from)'" + suggestion(view, viewNames[t.from] ?? []))
                case .toView(let view) where viewNames[t.to]?.contains(view) == false:
                    throw located(mark, "no view named '\(view)' in the to-state '\(t.to)'" + suggestion(view, viewNames[t.to] ?? []))
                case .eitherView(let view) where viewNames[t.from]?.contains(view) == false && viewNames[t.to]?.contains(view) == false:
                    let both = (viewNames[t.from] ?? []).union(viewNames[t.to] ?? [])
                    throw located(mark, "no view named '\(view)' in the from-state '\(t.from)' or the to-state '\(t.to)'" + suggestion(view, both))
                default: break
                }
            }
            for name in [t.name] + (t.reversedName.map { [$0] } ?? []) where !names.insert(name).inserted {
                let mark = i < transitionMarks.count ? transitionMarks[i] : nil
                let reason = "two transitions are named '\(name)'"
                if let mark { throw located(mark, reason) }
                throw DocumentError(source: path, position: nil, keyPath: KeyPath([.key("transitions"), .index(i), .key("name")]), reason: reason)
            }
        }
        // Views laid out by constraints get their frames, each state solved as a window's engine would.
        for name in states.keys.sorted() where constraintMarks[name]?.isEmpty == false {
            let marks = constraintMarks[name] ?? []
            try SceneLayout.solve(&states[name]!, canvas: size) { viewPath, index, reason in
                guard let mark = marks.first(where: { $0.path == viewPath && $0.index == index })?.mark else {
                    return DocumentError(source: path, position: nil, keyPath: KeyPath([.key("states"), .key(name)]), reason: reason)
                }
                return reader.errors(at: [mark], reason: reason)[0]
            }
        }
        var document = SceneDocument(size: size, background: background, states: states, transitions: transitions, durations: durations, assets: assets,
                                     darkBackground: darkBackground)
        // Positions for what is checked later, found in one pass over the file.
        let flatCascades = cascadeMarks.flatMap { $0.sorted { $0.key < $1.key } }
        let templates = reader.errors(at: (sizeMark.map { [$0] } ?? []) + transitionMarks + flatCascades.map(\.value) + frameMarks.map(\.mark)
                                      + imageMarks.map(\.mark) + inputMarks.map(\.mark))
        var next = 0
        if sizeMark != nil { document.locations.size = templates[0]; next = 1 }
        document.locations.transitions = Array(templates[next..<(next + transitionMarks.count)])
        next += transitionMarks.count
        for marks in cascadeMarks {
            var byEntry: [Int: DocumentError] = [:]
            for key in marks.keys.sorted() { byEntry[key] = templates[next]; next += 1 }
            document.locations.cascades.append(byEntry)
        }
        for (state, view, _) in frameMarks {
            document.locations.viewFrames[state, default: [:]][view] = templates[next]
            next += 1
        }
        for (state, image, _) in imageMarks {
            document.locations.images[state, default: [:]][image] = templates[next]
            next += 1
        }
        for (key, _) in inputMarks {
            if key == "durations" { document.locations.durations = templates[next] } else { document.locations.assets = templates[next] }
            next += 1
        }
        return document
    }

    /// Where a constraint string is: the view that declares it (index path from the state's root) and its
    /// index in that view's list.
    struct ConstraintMark {
        let path: [Int]
        let index: Int
        let mark: JSONReader.Mark
    }

    /// Where a transition's name and its entries' cascades are, while it is read.
    struct TransitionMarks {
        var name: JSONReader.Mark?
        var cascades: [Int: JSONReader.Mark] = [:]
        /// Names that must resolve once the whole file is read, each where it is written.
        var references: [(reference: Reference, mark: JSONReader.Mark)] = []
        /// Each match's and unmatched entry's `phase`, where it is written.
        var phases: [(phase: String, mark: JSONReader.Mark)] = []
        /// The views each match names (from-state and to-state), and the views unmatched entries list by
        /// name, where they are written: a view is either matched or unmatched.
        var matchedViews: [(from: String, to: String, index: Int)] = []
        var unmatchedViews: [(view: String, mark: JSONReader.Mark)] = []
    }

    /// A name a transition refers to, resolved after parsing (the states may come after the transitions).
    enum Reference {
        /// `from` or `to`: a state.
        case state(String)
        /// A view of the transition's from-state, its to-state, or either.
        case fromView(String), toView(String), eitherView(String)
    }

    // MARK: Pieces

    private static func readNumbers(_ r: inout JSONReader, count: Int) throws(DocumentError) -> [Double] {
        var values: [Double] = []
        try r.readArray(maxCount: count) { (r: inout JSONReader, _: Int) throws(DocumentError) in values.append(try r.readNumber()) }
        guard values.count == count else { throw r.error("must be an array of \(count) numbers") }
        return values
    }

    /// The material names a scene file takes: `Backdrop.Material`'s, the adapting ones also with `Dark`.
    static let sceneMaterials: [String] = Backdrop.Material.allCases.map(\.rawValue)
        + [Backdrop.Material.ultraThin, .thin, .regular, .thick, .chrome].map { $0.rawValue + "Dark" }

    /// `{"color": "#RRGGBBAA", "offset": [dx, dy], "radius": r, "path": "rounded"}` as Core Animation's layer
    /// shadow: colour default #00000080 (black at half, the colour's alpha being the shadow's opacity), offset
    /// default [0, 3] points (down), radius (σ, points) default 3.
    private static func readShadow(_ r: inout JSONReader, dark: inout DarkColors) throws(DocumentError) -> Shadow {
        var shadow = Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: 0.5), offset: Size(width: 0, height: 3), radius: 3)
        try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "color": (shadow.color, dark.shadowColor) = try readAppearanceColor(&r)
            case "offset":
                let v = try readNumbers(&r, count: 2)
                guard v.allSatisfy({ abs($0) <= 10_000 }) else { throw r.error("must be [dx, dy] in points, each within ±10000") }
                shadow.offset = Size(width: v[0], height: v[1])
            case "radius": shadow.radius = try readNumber(&r, in: 0...1000)
            default: throw r.unknownKey(key, known: ["color", "offset", "radius"])
            }
        }
        return shadow
    }

    /// `{"x": °, "y": °, "z": °, "perspective": d, "anchor": [ax, ay]}`: turns about x, then y, then z
    /// (degrees, Core Animation's directions), seen from `d` points away (0, the default: no perspective),
    /// about the unit point `anchor` of the bounds (default [0.5, 0.5]: the centre) — as
    /// `CATransform3DRotate` after a `m34` of −1/d.
    private static func readRotation3D(_ r: inout JSONReader) throws(DocumentError) -> (Transform3D, Point) {
        var angles = (x: 0.0, y: 0.0, z: 0.0), perspective = 0.0, anchor = Point(x: 0.5, y: 0.5)
        try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "x": angles.x = try readNumber(&r, in: -3600...3600)
            case "y": angles.y = try readNumber(&r, in: -3600...3600)
            case "z": angles.z = try readNumber(&r, in: -3600...3600)
            case "perspective": perspective = try readNumber(&r, in: 0...100_000)
            case "anchor":
                let v = try readNumbers(&r, count: 2)
                guard v.allSatisfy({ (-100...100).contains($0) }) else { throw r.error("must be [x, y] in units of the bounds, each within ±100") }
                anchor = Point(x: v[0], y: v[1])
            default: throw r.unknownKey(key, known: ["x", "y", "z", "perspective", "anchor"])
            }
        }
        var turn = Transform3D.identity
        if perspective > 0 { turn.m34 = -1 / perspective }
        for (angle, axis) in [(angles.x, (1.0, 0.0, 0.0)), (angles.y, (0.0, 1.0, 0.0)), (angles.z, (0.0, 0.0, 1.0))] where angle != 0 {
            turn = Transform3D(rotationAngle: angle * .pi / 180, x: axis.0, y: axis.1, z: axis.2).concatenating(turn)
        }
        return (turn, anchor)
    }

    /// `{"type": "axial", "colors": [...], "locations": [...], "start": [x, y], "end": [x, y]}`: as
    /// `CAGradientLayer` (unit coordinates; defaults axial, locations spread evenly, top to bottom).
    private static func readGradient(_ r: inout JSONReader, dark: inout DarkColors) throws(DocumentError) -> Gradient {
        var kind = Gradient.Kind.axial, colors: [Color] = [], darkColors: [Color] = [], differs = false, locations: [Double]?
        var start = Point(x: 0.5, y: 0), end = Point(x: 0.5, y: 1)
        try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "type": kind = try readKeyword(&r, "gradient type", ["axial": .axial, "radial": .radial, "conic": .conic])
            case "colors":
                try r.readArray(maxCount: 256) { (r: inout JSONReader, _: Int) throws(DocumentError) in
                    let (light, darkColor) = try readAppearanceColor(&r)
                    colors.append(light)
                    darkColors.append(darkColor ?? light)
                    differs = differs || darkColor != nil
                }
            case "locations":
                var values: [Double] = []
                try r.readArray(maxCount: 256) { (r: inout JSONReader, _: Int) throws(DocumentError) in values.append(try readNumber(&r, in: -100...100)) }
                locations = values
            case "start", "end":
                let v = try readNumbers(&r, count: 2)
                guard v.allSatisfy({ (-100...100).contains($0) }) else { throw r.error("must be [x, y] in units of the bounds, each within ±100") }
                if key == "start" { start = Point(x: v[0], y: v[1]) } else { end = Point(x: v[0], y: v[1]) }
            default: throw r.unknownKey(key, known: ["type", "colors", "locations", "start", "end"])
            }
        }
        guard !colors.isEmpty else { throw r.error("a gradient needs at least one colour in 'colors'") }
        if let locations, locations.count != colors.count {
            throw r.error("'locations' has \(locations.count) numbers for \(colors.count) colours: give one per colour, or none to space them evenly")
        }
        func stops(_ colors: [Color]) -> [Gradient.Stop] {
            colors.enumerated().map { i, color in
                Gradient.Stop(location: locations?[i] ?? (colors.count == 1 ? 0 : Double(i) / Double(colors.count - 1)), color: color)
            }
        }
        if differs { dark.gradient = Gradient(kind: kind, stops: stops(darkColors), start: start, end: end) }
        return Gradient(kind: kind, stops: stops(colors), start: start, end: end)
    }

    /// `{"path": "M0 0 L10 10 Z", "fillColor": …, "fillRule": …, "strokeColor": …, "lineWidth": …,
    /// "lineCap": …, "lineJoin": …, "miterLimit": …, "dash": [on, off, …], "dashPhase": …,
    /// "strokeStart": …, "strokeEnd": …}`: a `CAShapeLayer`'s properties.
    private static func readShape(_ r: inout JSONReader, dark: inout DarkColors) throws(DocumentError) -> Shape {
        var shape = Shape()
        var hasPath = false
        let keys = ["path", "fillColor", "fillRule", "strokeColor", "lineWidth", "lineCap", "lineJoin", "miterLimit", "dash", "dashPhase",
                    "strokeStart", "strokeEnd"]
        try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "path":
                shape.path = try readPathData(&r)
                hasPath = true
            case "fillColor": (shape.fillColor, dark.fillColor) = try readAppearanceColor(&r)
            case "fillRule": shape.fillRule = try readFillRule(&r)
            case "strokeColor":
                let (light, darkColor) = try readAppearanceColor(&r)
                shape.strokeColor = light
                dark.strokeColor = darkColor
            case "lineWidth": shape.stroke.width = try readNumber(&r, in: 0...Limits.scenePoints)
            case "lineCap": shape.stroke.cap = try readKeyword(&r, "line cap", ["butt": .butt, "round": .round, "square": .square])
            case "lineJoin": shape.stroke.join = try readKeyword(&r, "line join", ["miter": .miter, "round": .round, "bevel": .bevel])
            case "miterLimit": shape.stroke.miterLimit = try readNumber(&r, in: 0...1000)
            case "dash":
                var lengths: [Double] = []
                try r.readArray(maxCount: 64) { (r: inout JSONReader, _: Int) throws(DocumentError) in
                    lengths.append(try readNumber(&r, in: 0...Limits.scenePoints))
                }
                shape.stroke.dashes = lengths
            case "dashPhase": shape.stroke.dashPhase = try readNumber(&r, in: -Limits.scenePoints...Limits.scenePoints)
            case "strokeStart": shape.stroke.start = try readNumber(&r, in: 0...1)
            case "strokeEnd": shape.stroke.end = try readNumber(&r, in: 0...1)
            default: throw r.unknownKey(key, known: keys)
            }
        }
        guard hasPath else { throw r.error("a shape needs a 'path' (SVG path data, such as \"M0 0 L40 0 L20 30 Z\")") }
        return shape
    }

    /// SVG path data (`"M0 0 L10 10 Z"`), bounded and checked: an error names the offset in the string.
    private static func readPathData(_ r: inout JSONReader) throws(DocumentError) -> Path {
        let text = try r.readString(maxBytes: 1 << 20)
        do throws(SVGPathData.SyntaxError) { return try SVGPathData.parse(text) } catch {
            throw r.error("not SVG path data \(error)")
        }
    }

    private static func readFillRule(_ r: inout JSONReader) throws(DocumentError) -> FillRule {
        try readKeyword(&r, "fill rule", ["nonZero": .nonZero, "evenOdd": .evenOdd])
    }

    /// One of `choices`' names, as its value; another string is an error naming `what` and the choices
    /// ("'x' is not a line cap: use butt, round or square").
    private static func readKeyword<T>(_ r: inout JSONReader, _ what: String, _ choices: KeyValuePairs<String, T>) throws(DocumentError) -> T {
        let text = try r.readString(maxBytes: 64)
        if let match = choices.first(where: { $0.key == text }) { return match.value }
        let names = choices.map(\.key)
        throw r.error("'\(text)' is not a \(what): use \(names.dropLast().joined(separator: ", ")) or \(names[names.count - 1])")
    }

    private static func readColor(_ r: inout JSONReader) throws(DocumentError) -> Color {
        let text = try r.readString(maxBytes: 16)
        do { return try Color(parsing: text) } catch { throw r.error("'\(text)' is not a colour: use #RGB, #RRGGBB or #RRGGBBAA") }
    }

    /// A colour for both appearances (`"#RRGGBB"`: the dark one nil), or one each (`{"light": "#FFFFFF",
    /// "dark": "#000000"}`, both required), as a dynamic `UIColor`.
    private static func readAppearanceColor(_ r: inout JSONReader) throws(DocumentError) -> (light: Color, dark: Color?) {
        switch try r.peek() {
        case .string: return (try readColor(&r), nil)
        case .object: break
        default: throw r.error("a colour is \"#RRGGBB\" (or #RGB, #RRGGBBAA), or {\"light\": \"#…\", \"dark\": \"#…\"}")
        }
        let mark = r.mark()
        var light: Color?, dark: Color?
        try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "light": light = try readColor(&r)
            case "dark": dark = try readColor(&r)
            default: throw r.unknownKey(key, known: ["light", "dark"])
            }
        }
        guard let light, let dark else {
            throw r.errors(at: [mark], reason: "a colour for each appearance needs both \"light\" and \"dark\" (or give one colour as \"#RRGGBB\")")[0]
        }
        return (light, dark)
    }

    private static func readNumber(_ r: inout JSONReader, in range: ClosedRange<Double>) throws(DocumentError) -> Double {
        let value = try r.readNumber()
        guard range.contains(value) else { throw r.error("must be in \(range.lowerBound)…\(range.upperBound), got \(value)") }
        return value
    }

    private static func readEnum<E: RawRepresentable & CaseIterable>(_ r: inout JSONReader, _ type: E.Type) throws(DocumentError) -> E where E.RawValue == String {
        let text = try r.readString(maxBytes: 64)
        guard let value = E(rawValue: text) else {
            let known = E.allCases.map(\.rawValue)
            var reason = "unknown value '\(text)'; expected one of \(known.joined(separator: ", "))"
            if let s = closestName(to: text, among: known) { reason += "; did you mean '\(s)'?" }
            throw r.error(reason)
        }
        return value
    }

    private static func readView(_ r: inout JSONReader, depth: Int, count: inout Int, materials: inout Int,
                                 frameMarks: inout [(view: String, mark: JSONReader.Mark)],
                                 nameMarks: inout [(view: String, mark: JSONReader.Mark)],
                                 imageMarks: inout [(image: String, mark: JSONReader.Mark)],
                                 path: [Int] = [], constraintMarks: inout [ConstraintMark]) throws(DocumentError) -> ViewSpec {
        guard depth < Limits.sceneDepth else { throw r.error("views nested more than \(Limits.sceneDepth) levels deep") }
        count += 1
        guard count <= Limits.sceneViews else { throw r.error("more than \(Limits.sceneViews) views in the scene") }
        var spec = ViewSpec()
        var frameMark: JSONReader.Mark?
        var gradientMark: JSONReader.Mark?, shapeMark: JSONReader.Mark?, fontSizeGiven = false, textStyleMark: JSONReader.Mark?
        let points = -Limits.scenePoints...Limits.scenePoints
        try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "type": spec.kind = try readEnum(&r, ViewSpec.Kind.self)
            case "name":
                let mark = r.mark()
                spec.name = try r.readString()
                nameMarks.append((spec.name!, mark))
            case "frame":
                frameMark = r.mark()
                let v = try readNumbers(&r, count: 4)
                guard v.allSatisfy(points.contains), v[2] >= 0, v[3] >= 0 else {
                    throw r.error("must be [x, y, width, height] in points, sizes ≥ 0, each within ±\(Int(Limits.scenePoints))")
                }
                spec.frame = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
                spec.frameWritten = true
            case "constraints":
                try r.readArray(maxCount: Limits.sceneViews) { (r: inout JSONReader, index: Int) throws(DocumentError) in
                    let mark = r.mark()
                    let text = try r.readString(maxBytes: 512)
                    switch ConstraintSpec.parse(text) {
                    case .success(let constraint): spec.constraints.append(constraint)
                    case .failure(let error): throw r.errors(at: [mark], reason: "'\(text)': \(error.reason)")[0]
                    }
                    constraintMarks.append(ConstraintMark(path: path, index: index, mark: mark))
                }
            case "backgroundColor":
                let (light, darkColor) = try readAppearanceColor(&r)
                spec.backgroundColor = light
                spec.dark.backgroundColor = darkColor
            case "alpha": spec.alpha = try readNumber(&r, in: 0...1)
            case "cornerRadius": spec.cornerRadius = try readNumber(&r, in: 0...Limits.scenePoints)
            case "clipsToBounds": spec.clipsToBounds = try r.readBool()
            case "hidden": spec.hidden = try r.readBool()
            case "borderWidth": spec.borderWidth = try readNumber(&r, in: 0...Limits.scenePoints)
            case "borderColor": (spec.borderColor, spec.dark.borderColor) = try readAppearanceColor(&r)
            case "text": spec.text = try r.readString()
            case "fontSize":
                spec.fontSize = try readNumber(&r, in: 1...1000)
                fontSizeGiven = true
            case "bold": spec.bold = try r.readBool()
            case "textStyle":
                textStyleMark = r.mark()
                spec.textStyle = try readEnum(&r, Font.TextStyle.self)
            case "tracking": spec.tracking = try readNumber(&r, in: -100...100)
            case "textColor": (spec.textColor, spec.dark.textColor) = try readAppearanceColor(&r)
            case "lines": spec.lines = try r.readInteger(in: 0...1000)
            case "alignment": spec.alignment = try readEnum(&r, TextAlignment.self)
            case "lineSpacing": spec.lineSpacing = try readNumber(&r, in: 0...1000)
            case "image":
                let mark = r.mark()
                spec.image = try r.readString()
                imageMarks.append((spec.image!, mark))
            case "contentMode": spec.contentMode = try readEnum(&r, ContentMode.self)
            case "contentSize":
                let v = try readNumbers(&r, count: 2)
                guard v.allSatisfy({ $0 >= 0 && $0 <= Limits.scenePoints }) else { throw r.error("must be [width, height] in points") }
                spec.contentSize = Size(width: v[0], height: v[1])
            case "contentOffset":
                let v = try readNumbers(&r, count: 2)
                guard v.allSatisfy(points.contains) else { throw r.error("must be [x, y] in points") }
                spec.contentOffset = Point(x: v[0], y: v[1])
            case "cornerCurve": spec.cornerCurve = try readKeyword(&r, "corner curve", ["circular": .circular, "continuous": .continuous])
            case "shadow": spec.shadow = try readShadow(&r, dark: &spec.dark)
            case "material":
                // Each material blurs what is behind it every frame: a bound on them is a bound on a frame's work.
                materials += 1
                guard materials <= Limits.sceneMaterialsPerState else {
                    throw r.error("more than \(Limits.sceneMaterialsPerState) views with a material in one state: each blurs what is behind it every frame")
                }
                let text = try r.readString(maxBytes: 64)
                guard sceneMaterials.contains(text) else {
                    throw r.error("'\(text)' is not a material: use one of \(sceneMaterials.joined(separator: ", "))")
                }
                let dark = Backdrop.Material(rawValue: text) == nil
                let material = Backdrop.Material(rawValue: dark ? String(text.dropLast(4)) : text) ?? .regular
                spec.material = .material(material, dark: dark)
                // The system materials follow the appearance, as UIKit's `.systemMaterial` does; `…Dark` and
                // the pre-iOS 13 styles are fixed.
                if !dark, [.ultraThin, .thin, .regular, .thick, .chrome].contains(material) { spec.dark.material = .material(material, dark: true) }
            case "rotation3D":
                let (turn, anchor) = try readRotation3D(&r)
                spec.transform3D = turn
                spec.transformAnchor = anchor
            case "gradient":
                gradientMark = r.mark()
                spec.gradient = try readGradient(&r, dark: &spec.dark)
            case "shape":
                shapeMark = r.mark()
                spec.shape = try readShape(&r, dark: &spec.dark)
            case "mask":
                var mask = Mask()
                var hasPath = false
                try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
                    switch key {
                    case "path":
                        mask.path = try readPathData(&r)
                        hasPath = true
                    case "fillRule": mask.fillRule = try readFillRule(&r)
                    default: throw r.unknownKey(key, known: ["path", "fillRule"])
                    }
                }
                guard hasPath else { throw r.error("a mask needs a 'path' (SVG path data): the view shows only inside it") }
                spec.mask = mask
            case "subviews":
                try r.readArray(maxCount: Limits.sceneViews) { (r: inout JSONReader, index: Int) throws(DocumentError) in
                    spec.subviews.append(try readView(&r, depth: depth + 1, count: &count, materials: &materials, frameMarks: &frameMarks,
                                                      nameMarks: &nameMarks, imageMarks: &imageMarks, path: path + [index],
                                                      constraintMarks: &constraintMarks))
                }
            default: throw r.unknownKey(key, known: viewKeys)
            }
        }
        if let name = spec.name, let frameMark { frameMarks.append((name, frameMark)) }
        let typeKeys: [ViewSpec.Kind: Bool] = [.label: !spec.text.isEmpty, .image: spec.image != nil]
        if spec.kind != .label, typeKeys[.label] == true { throw r.error("'text' is for views of type label") }
        if spec.kind != .image, typeKeys[.image] == true { throw r.error("'image' is for views of type image") }
        // (Checked once the whole view is read: "type" may come after "gradient".)
        if spec.kind != .view, spec.gradient != nil, let gradientMark { throw r.errors(at: [gradientMark], reason: "'gradient' is for views of type view")[0] }
        if let textStyleMark {
            if spec.kind != .label { throw r.errors(at: [textStyleMark], reason: "'textStyle' is for views of type label")[0] }
            if fontSizeGiven { throw r.errors(at: [textStyleMark], reason: "give 'fontSize' or 'textStyle', not both: a text style's size follows --text-size")[0] }
            // Its size at Large, the default: what constraints are solved with when the file is read.
            if let style = spec.textStyle { spec.fontSize = style.pointSize }
        }
        if let shapeMark {
            if spec.kind != .view { throw r.errors(at: [shapeMark], reason: "'shape' is for views of type view")[0] }
            if spec.gradient != nil { throw r.errors(at: [shapeMark], reason: "a view draws a 'gradient' or a 'shape', not both: put one in a subview")[0] }
        }
        return spec
    }

    private static func readTransition(_ r: inout JSONReader, marks: inout TransitionMarks) throws(DocumentError) -> TransitionSpec {
        var name: String?, summary = "", from: String?, to: String?, reversedName: String?
        var phases: [Choreography.Phase] = [], matches: [Choreography.Match] = [], unmatched: [Choreography.Unmatched] = []
        var onTop: [String] = []
        var gesture: (EdgePanGesture, Double)?
        try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "gesture": gesture = try readGesture(&r)
            case "name":
                marks.name = r.mark()
                name = try readName(&r)
            case "summary": summary = try r.readString()
            case "from":
                let mark = r.mark()
                from = try r.readString()
                marks.references.append((.state(from!), mark))
            case "to":
                let mark = r.mark()
                to = try r.readString()
                marks.references.append((.state(to!), mark))
            case "reversedName": reversedName = try readName(&r)
            case "phases":
                try r.readArray(maxCount: 100) { (r: inout JSONReader, _: Int) throws(DocumentError) in phases.append(try readPhase(&r)) }
            case "matched":
                try r.readArray(maxCount: 1000) { (r: inout JSONReader, index: Int) throws(DocumentError) in
                    let match = try readMatch(&r, marks: &marks)
                    matches.append(match)
                    marks.matchedViews.append((match.from, match.to, index))
                }
            case "unmatched":
                try r.readArray(maxCount: 1000) { (r: inout JSONReader, index: Int) throws(DocumentError) in
                    var cascadeMark: JSONReader.Mark?
                    unmatched.append(try readUnmatched(&r, cascadeMark: &cascadeMark, marks: &marks))
                    if let cascadeMark { marks.cascades[index] = cascadeMark }
                }
            case "onTop":
                try r.readArray(maxCount: 1000) { (r: inout JSONReader, _: Int) throws(DocumentError) in
                    let mark = r.mark()
                    onTop.append(try r.readString())
                    marks.references.append((.eitherView(onTop.last!), mark))
                }
            default: throw r.unknownKey(key, known: transitionKeys)
            }
        }
        guard let name else { throw r.error("a transition needs a name") }
        guard let from, let to else { throw r.error("transition '\(name)' needs from and to (state names)") }
        guard !phases.isEmpty else { throw r.error("transition '\(name)' needs at least one phase") }
        let phaseNames = Set(phases.map(\.name))
        guard phaseNames.count == phases.count else { throw r.error("transition '\(name)' has two phases with the same name") }
        // At the phase as written (matched[2].phase), with the closest name defined.
        for (phase, mark) in marks.phases where !phaseNames.contains(phase) {
            var reason = "transition '\(name)' has no phase named '\(phase)' (its phases: \(phases.map(\.name).joined(separator: ", ")))"
            if let s = closestName(to: phase, among: phases.map(\.name)) { reason += "; did you mean '\(s)'?" }
            throw r.errors(at: [mark], reason: reason)[0]
        }
        // A view both matched and unmatched would be drawn twice: moved by its match, and faded or slid
        // as an unmatched copy beside it.
        for (view, mark) in marks.unmatchedViews {
            guard let match = marks.matchedViews.first(where: { $0.from == view || $0.to == view }) else { continue }
            throw r.errors(at: [mark], reason: "view '\(view)' is matched (matched[\(match.index)]) and listed as unmatched too; "
                                                + "a view is either matched (it moves between the states) or unmatched (it leaves or arrives with an effect)")[0]
        }
        var spec = TransitionSpec(name: name, summary: summary, from: from, to: to, reversedName: reversedName,
                                  choreography: Choreography(phases: phases, matches: matches, unmatched: unmatched, onTop: onTop))
        if let (g, start) = gesture {
            spec.gesture = g
            spec.gestureStart = start
        }
        return spec
    }

    /// A transition's `name` or `reversedName`: it names the output folder, so it follows the one rule
    /// for names that reach a path (`TransitionName`), checked here where the key is.
    private static func readName(_ r: inout JSONReader) throws(DocumentError) -> String {
        let text = try r.readString()
        if let problem = TransitionName.problem(with: text) { throw r.error("\(problem)") }
        return text
    }

    /// `{"start": 0.2, "samples": [[0, 0], [0.3, 120], …]}`: seconds and points moved right, times
    /// never going back.
    private static func readGesture(_ r: inout JSONReader) throws(DocumentError) -> (EdgePanGesture, Double) {
        var start = 0.2
        var samples: [(time: Double, translation: Double)]?
        try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "start": start = try readNumber(&r, in: 0...Limits.maxSeconds)
            case "samples":
                var list: [(time: Double, translation: Double)] = []
                try r.readArray(maxCount: maximumGestureSamples) { (r: inout JSONReader, _: Int) throws(DocumentError) in
                    let pair = try readNumbers(&r, count: 2)
                    guard (0...Limits.maxSeconds).contains(pair[0]) else { throw r.error("a sample's time must be in 0…\(Limits.maxSeconds) s, got \(pair[0])") }
                    guard abs(pair[1]) <= Limits.scenePoints else { throw r.error("a sample's translation must be within ±\(Limits.scenePoints) pt, got \(pair[1])") }
                    if let last = list.last, pair[0] < last.time {
                        throw r.error("sample times must not go back (\(pair[0]) s after \(last.time) s)")
                    }
                    list.append((pair[0], pair[1]))
                }
                guard list.count >= 2 else { throw r.error("a gesture needs at least two samples ([seconds, points])") }
                samples = list
            default: throw r.unknownKey(key, known: ["start", "samples"])
            }
        }
        guard let samples else { throw r.error("a gesture needs samples: [[seconds, points moved right], …]") }
        return (EdgePanGesture(samples: samples), start)
    }

    private static func readPhase(_ r: inout JSONReader) throws(DocumentError) -> Choreography.Phase {
        var name: String?, duration: Double?, delay = 0.0, curve = TimingCurve.easeInEaseOut
        var spring: (spring: BlockSpring, mark: JSONReader.Mark)?
        var durationMark: JSONReader.Mark?
        try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "name": name = try r.readString()
            case "duration":
                durationMark = r.mark()
                duration = try readNumber(&r, in: 0...Limits.maxSeconds)
            case "delay": delay = try readNumber(&r, in: 0...Limits.maxSeconds)
            case "curve":
                switch try r.peek() {
                case .array:
                    let v = try readNumbers(&r, count: 4)
                    guard (0...1).contains(v[0]), (0...1).contains(v[2]) else { throw r.error("control point x values must be in 0…1") }
                    guard abs(v[1]) <= 1000, abs(v[3]) <= 1000 else { throw r.error("control point y values must be in -1000…1000") }
                    curve = TimingCurve(v[0], v[1], v[2], v[3])
                case .object:
                    try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
                        guard key == "spring" else { throw r.unknownKey(key, known: ["spring"]) }
                        let mark = r.mark()
                        spring = (try readSpring(&r), mark)
                    }
                    guard spring != nil else { throw r.error("an object curve is {\"spring\": {…}}") }
                default:
                    let text = try r.readString(maxBytes: 64)
                    guard let named = BlockTimings.namedCurve(text) else {
                        throw r.error("unknown curve '\(text)'; expected linear, easeIn, easeOut, easeInEaseOut, default, four numbers, or {\"spring\": {…}}")
                    }
                    curve = named
                }
            default: throw r.unknownKey(key, known: ["name", "duration", "delay", "curve"])
            }
        }
        guard let name else { throw r.error("a phase needs a name") }
        var timing: BlockTiming
        switch spring?.spring {
        case .bounce(let pace, let bounce, let velocity)?:
            // iOS 17's spring has its own duration; a second one would contradict it.
            if let durationMark {
                throw r.errors(at: [durationMark], reason: "phase '\(name)' moves on a spring with its own duration (curve.spring.duration, "
                               + "iOS 17's springDuration): the phase lasts until that spring settles, so it takes no duration")[0]
            }
            timing = BlockTiming(springDuration: pace, bounce: bounce, initialVelocity: velocity, delay: delay)
            guard timing.end <= Limits.maxSeconds else {
                throw r.errors(at: [spring!.mark], reason: "phase '\(name)' ends after the limit of \(Limits.maxSeconds) s: "
                               + "this spring settles in \((timing.duration * 1000).rounded() / 1000) s")[0]
            }
        case .damping(let ratio, let velocity)?:
            guard let duration else { throw r.error("phase '\(name)' needs a duration (seconds): a spring with a dampingRatio settles by the phase's duration") }
            timing = BlockTiming(duration: duration, delay: delay, dampingRatio: ratio, initialVelocity: velocity)
        case nil:
            guard let duration else { throw r.error("phase '\(name)' needs a duration (seconds)") }
            timing = BlockTiming(duration: duration, delay: delay, curve: curve)
        }
        guard timing.end <= Limits.maxSeconds else { throw r.error("phase '\(name)' ends after the limit of \(Limits.maxSeconds) s") }
        return Choreography.Phase(name, timing: timing)
    }

    /// The keys of a phase's `curve: {"spring": {…}}`.
    static let springKeys = ["dampingRatio", "initialVelocity", "duration", "bounce"]

    /// `{"dampingRatio": 0.8, "initialVelocity": 0}` (UIKit's `usingSpringWithDamping:initialSpringVelocity:`,
    /// settling by the phase's duration) or `{"duration": 0.5, "bounce": 0.2}` (iOS 17's
    /// `springDuration:bounce:`, the perceptual duration in seconds); either with `initialVelocity`.
    private static func readSpring(_ r: inout JSONReader) throws(DocumentError) -> BlockSpring {
        var ratio: Double?, velocity = 0.0, duration: Double?, bounce: Double?
        var ratioMark: JSONReader.Mark?, bounceMark: JSONReader.Mark?
        try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "dampingRatio":
                ratioMark = r.mark()
                ratio = try readNumber(&r, in: Spring.dampingRatioRange)
            case "initialVelocity": velocity = try readNumber(&r, in: -BlockTimings.maximumSpringVelocity...BlockTimings.maximumSpringVelocity)
            case "duration":
                duration = try readNumber(&r, in: 0...Limits.maxSeconds)
                guard duration! > 0 else { throw r.error("a spring's duration must be over 0 s") }
            case "bounce":
                bounceMark = r.mark()
                let value = try r.readNumber()
                guard value > -1, value < 1 else { throw r.error("must be over -1 and under 1 (0: no bounce), got \(value)") }
                bounce = value
            default: throw r.unknownKey(key, known: springKeys)
            }
        }
        if let ratio {
            if duration != nil || bounce != nil {
                throw r.errors(at: [ratioMark!], reason: "a spring has either dampingRatio (UIKit's usingSpringWithDamping, with the phase's duration) "
                               + "or duration and bounce (iOS 17's springDuration:bounce:), not both")[0]
            }
            return .damping(ratio: ratio, initialVelocity: velocity)
        }
        guard let duration else {
            if let bounceMark { throw r.errors(at: [bounceMark], reason: "a spring with a bounce needs its duration (seconds, the perceptual duration)")[0] }
            throw r.error("a spring needs dampingRatio (UIKit's, settling by the phase's duration) or duration and bounce (iOS 17's)")
        }
        return .bounce(duration: duration, bounce: bounce ?? 0, initialVelocity: velocity)
    }

    private static func readMatch(_ r: inout JSONReader, marks: inout TransitionMarks) throws(DocumentError) -> Choreography.Match {
        var id: String?, from: String?, to: String?, phase: String?, style = Choreography.MatchStyle.snapshot
        var idMark: JSONReader.Mark?
        try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "id":
                idMark = r.mark()
                id = try r.readString()
            case "from":
                let mark = r.mark()
                from = try r.readString()
                marks.references.append((.fromView(from!), mark))
            case "to":
                let mark = r.mark()
                to = try r.readString()
                marks.references.append((.toView(to!), mark))
            case "phase":
                let mark = r.mark()
                phase = try r.readString()
                marks.phases.append((phase!, mark))
            case "style": style = try readEnum(&r, Choreography.MatchStyle.self)
            default: throw r.unknownKey(key, known: ["id", "from", "to", "phase", "style"])
            }
        }
        guard let a = from ?? id, let b = to ?? id else { throw r.error("a match needs an id (the same name in both states) or from and to") }
        if let id, let idMark {
            if from == nil { marks.references.append((.fromView(id), idMark)) }
            if to == nil { marks.references.append((.toView(id), idMark)) }
        }
        guard let phase else { throw r.error("a match needs a phase") }
        return Choreography.Match(from: a, to: b, phase: phase, style: style)
    }

    private static func readUnmatched(_ r: inout JSONReader, cascadeMark: inout JSONReader.Mark?,
                                      marks: inout TransitionMarks) throws(DocumentError) -> Choreography.Unmatched {
        var selection: Choreography.Selection?, phase: String?, effects: [Choreography.Effect] = [], cascade = 0.0
        try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "views":
                var names: [String] = []
                try r.readArray(maxCount: Limits.sceneViews) { (r: inout JSONReader, _: Int) throws(DocumentError) in
                    let mark = r.mark()
                    names.append(try r.readString())
                    marks.references.append((.eitherView(names.last!), mark))
                    marks.unmatchedViews.append((names.last!, mark))
                }
                selection = .views(names)
            case "subviewsOf":
                let mark = r.mark()
                let name = try r.readString()
                marks.references.append((.eitherView(name), mark))
                selection = .subviews(of: name)
            case "phase":
                let mark = r.mark()
                phase = try r.readString()
                marks.phases.append((phase!, mark))
            case "cascade":
                cascadeMark = r.mark()
                cascade = try readNumber(&r, in: 0...10)
            case "effects":
                try r.readArray(maxCount: 16) { (r: inout JSONReader, _: Int) throws(DocumentError) in effects.append(try readEffect(&r)) }
            default: throw r.unknownKey(key, known: ["views", "subviewsOf", "phase", "cascade", "effects"])
            }
        }
        guard let selection else { throw r.error("an unmatched entry needs views (names) or subviewsOf (a name)") }
        guard let phase else { throw r.error("an unmatched entry needs a phase") }
        guard !effects.isEmpty else { throw r.error("an unmatched entry needs effects: fade, slide, slideAway or scale") }
        return Choreography.Unmatched(selection, phase: phase, effects: effects, cascade: cascade)
    }

    private static func readEffect(_ r: inout JSONReader) throws(DocumentError) -> Choreography.Effect {
        if try r.peek() == .string {
            let text = try r.readString(maxBytes: 32)
            guard text == "fade" else { throw r.error("unknown effect '\(text)'; a bare effect is \"fade\", others are objects: {\"slide\": [dx, dy]}, {\"slideAway\": {…}}, {\"scale\": s}") }
            return .fade
        }
        var effect: Choreography.Effect?
        try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            guard effect == nil else { throw r.error("one effect per object") }
            switch key {
            case "fade": _ = try r.readBool(); effect = .fade
            case "slide":
                let v = try readNumbers(&r, count: 2)
                guard v.allSatisfy({ abs($0) <= Limits.scenePoints }) else { throw r.error("must be [dx, dy] in points") }
                effect = .slide(dx: v[0], dy: v[1])
            case "scale": effect = .scale(try readNumber(&r, in: 0...100))
            case "slideAway":
                var from: String?, above = 0.0, below = 0.0
                try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
                    switch key {
                    case "from": from = try r.readString()
                    case "above": above = try readNumber(&r, in: 0...Limits.scenePoints)
                    case "below": below = try readNumber(&r, in: 0...Limits.scenePoints)
                    default: throw r.unknownKey(key, known: ["from", "above", "below"])
                    }
                }
                guard let from else { throw r.error("slideAway needs from: a matched view's name") }
                effect = .slideAway(from: from, above: above, below: below)
            default: throw r.unknownKey(key, known: ["fade", "slide", "slideAway", "scale"])
            }
        }
        guard let effect else { throw r.error("an empty effect") }
        return effect
    }
}

extension SceneDocument.ViewSpec {
    /// A label's font: `fontSize` points, bold, or semibold for a `headline` text style, with `tracking`.
    public var font: Font {
        var font = bold ? Font.boldSystem(size: fontSize) : Font.system(size: fontSize, weight: textStyle?.weight ?? .regular)
        if let points = tracking { font = font.withTracking(points / fontSize * 1000) }
        return font
    }

    /// The view and its subviews with the colours of `appearance` (light: as they are) and the labels of
    /// a `textStyle` at `textSize`'s size for it.
    public func resolved(for appearance: Appearance, textSize: Font.ContentSize = .large) -> SceneDocument.ViewSpec {
        var spec = self
        if let style = textStyle { spec.fontSize = style.pointSize(at: textSize) }
        spec.subviews = subviews.map { $0.resolved(for: appearance, textSize: textSize) }
        guard appearance == .dark else { return spec }
        let d = dark
        if let c = d.backgroundColor { spec.backgroundColor = c }
        if let c = d.borderColor { spec.borderColor = c }
        if let c = d.textColor { spec.textColor = c }
        if let c = d.shadowColor { spec.shadow?.color = c }
        if let g = d.gradient, spec.gradient != nil { spec.gradient = g }
        if let c = d.fillColor { spec.shape?.fillColor = c }
        if let c = d.strokeColor { spec.shape?.strokeColor = c }
        if let m = d.material { spec.material = m }
        return spec
    }
}

extension SceneDocument.ViewSpec {
    /// A plain view holding `subviews`, every other property its default (for the package's tests).
    package init(subviews: [SceneDocument.ViewSpec]) {
        self.subviews = subviews
    }
}
