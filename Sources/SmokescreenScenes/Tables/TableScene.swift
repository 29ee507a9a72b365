import Containers
import Foundation
import Motion
import RasterCore
import SnapshotView
import TransitionCompositor
import Typesetting

/// The screen every table scene of seed 001 runs in: 375x667 pt, a navigation bar with a title (and
/// a button title at the right), and a table filling the rest, in one appearance. The bar shows what is
/// behind it while the table is at its top, and the chrome material with a hairline once it has
/// scrolled (``NavigationBar``).
struct TableScreen {
    static let pointSize = Size(width: 375, height: 667)
    static let barHeight = NavigationBar.height

    let window: View
    let table: TableView
    let bar: NavigationBar
    /// The bar's button at the right, when the screen has one.
    let barButton: View?

    init(title: String, button: String? = nil, style: TableViewStyle, engine: AnimationEngine, appearance: Appearance = .light,
         textSize: Font.ContentSize = .large) throws {
        let palette = SystemPalette.of(appearance)
        window = View(frame: Rect(origin: .zero, size: TableScreen.pointSize), name: "window")
        table = TableView(frame: Rect(x: 0, y: TableScreen.barHeight, width: TableScreen.pointSize.width,
                                      height: TableScreen.pointSize.height - TableScreen.barHeight),
                          style: style, engine: engine, name: "table", appearance: appearance, textSize: textSize)
        // Behind the bar at the scroll edge: the table's colour, as a table that extends under the bar shows.
        window.backgroundColor = table.backgroundColor
        bar = NavigationBar(width: TableScreen.pointSize.width, appearance: appearance)
        let titleLabel = Label(text: title, style: TextStyle(font: .system(size: 17, weight: .semibold), color: palette.label, alignment: .center),
                               frame: Rect(x: 80, y: 20, width: TableScreen.pointSize.width - 160, height: 44), name: "title")
        try bar.addSubview(titleLabel)
        if let button {
            let label = Label(text: button, style: TextStyle(font: .system(size: 17), color: palette.tint, alignment: .right),
                              frame: Rect(x: TableScreen.pointSize.width - 96, y: 20, width: 80, height: 44), name: "barButton")
            try bar.addSubview(label)
            barButton = label
        } else {
            barButton = nil
        }
        try window.addSubview(table)
        try window.addSubview(bar)
    }

    /// The bar's scroll-edge appearance while the table is at its top, the standard one once scrolled.
    func updateBar() {
        ViewChangeObservation.withoutObserver { bar.isAtScrollEdge = table.contentOffset.y <= 0 }
    }
}

/// The built-in transitions of seed 001 (a talk on UITableView), each a script of table updates, taps and
/// scrolls on a `TableView`, timed on the engine's clock.
public struct TableTransition: Transition {
    /// Which of the talk's demonstrations.
    public enum Scene: String, Sendable, CaseIterable {
        /// One row inserted and one deleted with each of the eight styles, one update after another.
        case rowStyles = "table-row-styles"
        /// Shakespeare's plays sorted into alphabetical order with `moveSection` in one update, and back.
        case sortPlays = "table-sort-plays"
        /// Inserts, deletes, reloads and moves of rows and sections in one update.
        case batchMixed = "table-batch-mixed"
        /// A row of controls that slides in under the tapped row.
        case controlRow = "table-control-row"
        /// Rows selected and deselected with checkmarks.
        case multipleSelection = "table-multiple-selection"
        /// A button that floats while the table scrolls, over a background of clouds moving forever.
        case floatingView = "table-floating-view"
    }

    /// The scene rendered.
    public let scene: Scene

    /// The built-in transition of `scene`.
    public init(_ scene: Scene) { self.scene = scene }

    /// The scene's name, as `list` shows it.
    public var name: String { scene.rawValue }
    /// 375x667 points.
    public var pointSize: Size { TableScreen.pointSize }
    /// True: the table, its bar and the status bar draw iOS's system colours of the appearance; except
    /// the floating view's, whose sky and clouds are the demo's own design (its white text would vanish
    /// on them), which stays light.
    public var followsAppearance: Bool { scene != .floatingView }
    /// True: the rows' text draws at the text size, and rows grow with it (the control row's and the
    /// floating button's fonts are the demos' own).
    public var followsTextSize: Bool { true }

    /// One line for `smokescreen list`.
    public var summary: String {
        switch scene {
        case .rowStyles: "a row inserted and one deleted with each of the eight row animations, one update after another (plain table)"
        case .sortPlays: "a grouped table of plays: a section opens, then \"toggle sort\" moves every section into alphabetical order in one update, and back"
        case .batchMixed: "inserts, deletes, reloads and moves of rows and sections, all in one batch update"
        case .controlRow: "tap a row: a control row slides in below it; tap another: it moves there in one update; tap the owner: it goes"
        case .multipleSelection: "multiple selection: rows checked and unchecked with taps"
        case .floatingView: "a button stays put while the table scrolls and bounces, over clouds moving left forever (fixed length \(Self.floatingViewLength) s)"
        }
    }

    /// The floating-view scene's length (seconds): its script (a scroll down, one back to the top, a
    /// finger's pull past the top with its rubber band and bounce back, a scroll down) ends by then. Its clouds repeat forever, so the render stops here rather than
    /// when everything is idle.
    public static let floatingViewLength = 3.0

    /// Runs the scene's script on a virtual clock and freezes every frame.
    public func render(_ settings: RenderSettings) throws -> RenderedTransition {
        var script: TableScript?
        let endTime: Double? = scene == .floatingView ? Self.floatingViewLength : nil
        var rendered = try TransitionDriver.render(name: name, settings: settings, defaultFPS: defaultFPS,
                                                   durations: ["update": 0.3, "scroll": 0.3, "deselect": TableViewCell.selectionFadeDuration],
                                                   assets: [], endTime: endTime) { engine in
            let made = try TableScript.make(scene, engine: engine, scale: settings.scale, appearance: followsAppearance ? settings.appearance : .light,
                                            textSize: settings.textSize)
            script = made
            let context = try TransitionContext(container: made.screen.window, fromView: made.screen.table,
                                                toView: made.screen.table, engine: engine, scale: settings.scale)
            made.context = context
            try made.start()
            return context
        }
        rendered.sequence.fingerprint = fingerprint(ofFiles: [])
        rendered.markTraits(of: self, settings: settings)
        StatusBarOverlay.apply(to: &rendered, settings: settings, style: followsAppearance ? nil : .darkContent)
        _ = script
        return rendered
    }
}
