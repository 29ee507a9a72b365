import RasterCore
import TransitionCompositor

/// A transition described as a value: which views of the from-tree and the to-tree are the same element
/// (matched), what happens to the others (unmatched effects), when (phases) and in which order they
/// are stacked. ``ChoreographyRenderer`` turns it into frames on a smokescreen; no transition type draws
/// anything itself.
///
/// Views are found by their `name` in either tree. The same description plays forwards (from → to) and,
/// with ``reversed()``, backwards (to → from).
///
/// **Stacking**, back to front: the to-tree's *stage* (the tree with every choreographed view hidden)
/// over the from-tree's stage, cross-fading over the whole transition (or, with ``stageFade`` set to
/// ``StageFade/fromStageFadesOut(phase:)``, the to-stage opaque underneath from the start and the
/// from-stage fading out over it in that phase); unmatched views of the from-tree;
/// unmatched views of the to-tree; matched elements in the order of the to-tree; then the views named in
/// ``onTop``, in that order.
public struct Choreography: Sendable, Equatable {
    /// A named group of animations with one timing. Phases may overlap; each holds the smokescreen's use
    /// count while it runs.
    public struct Phase: Sendable, Equatable {
        /// How matches and unmatched entries name the phase (and how a durations plist overrides it).
        public var name: String
        /// Duration, delay (both seconds, from the start of the transition) and curve.
        public var timing: BlockTiming

        /// A phase named `name` with `timing` (seconds from the start of the transition).
        public init(_ name: String, timing: BlockTiming) {
            self.name = name
            self.timing = timing
        }
    }

    /// How a matched pair changes from one view into the other.
    public enum MatchStyle: String, Sendable, Equatable, CaseIterable {
        /// Snapshots of both views travel from the from-view's rect to the to-view's, stretched, cross-fading.
        /// Their corners are one layer's: each snapshot is taken with square corners (unless the view has a
        /// border) and both are clipped to a corner radius that moves from the from-view's to the
        /// to-view's, with the rounded view's corners and curve.
        case snapshot
        /// A live image view with the from-view's image and content mode changes frame and corner radius,
        /// so an aspect-fill picture is re-placed in every frame instead of stretched. The from-view must
        /// be an `ImageView`. When the to-view shows its image aspect-fit, the element ends on the
        /// picture's own rect inside it.
        case liveImage
        /// Text: each snapshot (clear background) travels the whole way, scaled vertically by the ratio
        /// of the font sizes and horizontally by the ratio of the line widths (one line on each side; the
        /// font sizes' otherwise), about the start of its first line on its baseline, so the two texts
        /// stay on each other's glyphs whatever their alignment or label height. When the two texts have
        /// the same number of lines they
        /// cross-fade; when the line count changes, the old text fades out over the first half of the
        /// phase and the new one fades in over the second half, so only one text is readable at a time.
        case text
        /// Two opaque views (bars, a card growing into a screen): the to-view fades in on top of the
        /// from-view, which stays opaque the whole time, so nothing behind them ever shows through. Corners
        /// as ``snapshot``'s.
        case opaqueCrossFade
    }

    /// A view in the from-tree and a view in the to-tree that are one element.
    public struct Match: Sendable, Equatable {
        /// The view's name in the from-tree.
        public var from: String
        /// The view's name in the to-tree.
        public var to: String
        /// The phase it moves in.
        public var phase: String
        /// How the pair changes.
        public var style: MatchStyle

        /// A pair moving in `phase`; style default ``MatchStyle/snapshot``.
        public init(from: String, to: String, phase: String, style: MatchStyle = .snapshot) {
            self.from = from
            self.to = to
            self.phase = phase
            self.style = style
        }
    }

    /// What happens to a view that has no partner. A view of the from-tree leaves (it ends in the effect's
    /// state); a view of the to-tree arrives (it starts in it).
    public enum Effect: Sendable, Equatable {
        /// To alpha 0.
        case fade
        /// Moved by `dx`, `dy` points.
        case slide(dx: Double, dy: Double)
        /// Moved vertically away from a matched element (named on either side): views above it by
        /// `above` points up, views below it by `below` points down.
        case slideAway(from: String, above: Double, below: Double)
        /// Scaled by `factor` about the view's centre.
        case scale(Double)
    }

    /// The views an unmatched entry applies to. A name found in both trees means the from-tree's view.
    public enum Selection: Sendable, Equatable {
        /// Views by name (in either tree).
        case views([String])
        /// The subviews of the named view that are visible in it (clipped to its bounds), back to front,
        /// except matched views and views another entry names.
        case subviews(of: String)
    }

    /// Views without a partner and what happens to them.
    public struct Unmatched: Sendable, Equatable {
        /// Which views.
        public var selection: Selection
        /// The phase they move in.
        public var phase: String
        /// Applied together: the state they leave into or arrive from.
        public var effects: [Effect]
        /// Seconds between the starts of successive views (in selection order). Default 0.
        public var cascade: Double

        /// An entry; `cascade` in seconds, default 0.
        public init(_ selection: Selection, phase: String, effects: [Effect], cascade: Double = 0) {
            self.selection = selection
            self.phase = phase
            self.effects = effects
            self.cascade = cascade
        }
    }

    /// The phases; names are unique.
    public var phases: [Phase]
    /// The matched pairs.
    public var matches: [Match]
    /// The unmatched entries.
    public var unmatched: [Unmatched]
    /// Views (named in either tree) drawn above everything, in this order (the last is the topmost).
    /// A matched element is named by either of its views.
    public var onTop: [String]
    /// How the two stages change places.
    public enum StageFade: Sendable, Equatable {
        /// The to-stage fades in over the from-stage over the whole transition (default).
        case crossFade
        /// The to-stage lies opaque at the bottom from the start and the from-stage (everything of the
        /// from-tree not choreographed, drawn as one image) fades out over it in `phase`: a white screen
        /// going to a black one fades as one piece, text and background together, with no mid-grey
        /// washing its text out (Vesper's detail → picture). Reversed, it fades back in over it.
        case fromStageFadesOut(phase: String)
    }
    /// How the two stages change places. Default ``StageFade/crossFade``.
    public var stageFade = StageFade.crossFade
    /// Whether this description plays backwards (see ``reversed()``).
    public private(set) var isReversed = false

    /// A forward choreography (see ``reversed()``); matches, unmatched entries and `onTop` default to none.
    public init(phases: [Phase], matches: [Match] = [], unmatched: [Unmatched] = [], onTop: [String] = []) {
        self.phases = phases
        self.matches = matches
        self.unmatched = unmatched
        self.onTop = onTop
    }

    /// The same transition played backwards, from the to-tree to the from-tree, as a pop plays a push:
    /// every animation runs over the mirrored interval (one that ran from `s` to `e` now runs from
    /// `T − e` to `T − s`, where `T` is when the last one ends) with its own curve, so elements that
    /// arrived last now leave first. With linear or symmetric curves (ease in and out), each reversed
    /// frame at time `t` equals the forward frame at `T − t`.
    public func reversed() -> Choreography {
        var copy = self
        copy.isReversed.toggle()
        return copy
    }

    /// The phase named `name`.
    public func phase(named name: String) -> Phase? { phases.first { $0.name == name } }
}
