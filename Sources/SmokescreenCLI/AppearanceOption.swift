import ArgumentParser
import SnapshotView
import TransitionCompositor

/// `--appearance light|dark`, shared by every command that renders: the appearance system colours
/// resolve for (the table and navigation built-ins, scene files' light/dark colours, Swift files' stage).
package struct AppearanceOption: ParsableArguments {
    /// Every option at its default, as ArgumentParser makes it before it parses.
    package init() {}

    @Option(name: .customLong("appearance"), help: "light or dark: the appearance system colours resolve for (the table and navigation built-ins, scene files' {\"light\", \"dark\"} colours, Swift files' traits; default light).")
    var name = Appearance.light.rawValue

    /// The appearance named (validate() has checked the name).
    package var value: Appearance { Appearance(rawValue: name) ?? .light }

    package func validate() throws {
        guard Appearance(rawValue: name) != nil else {
            throw ValidationError("--appearance: '\(name)' is neither \(Appearance.names.joined(separator: " nor "))")
        }
    }

    /// Sets the settings' appearance; warns when `transition` draws colours of its own design, which the
    /// dark appearance does not change.
    func apply(to settings: inout RenderSettings, for transition: any Transition) {
        settings.appearance = value
        warnIfFixed(transition)
    }

    /// Warns when the dark appearance is asked of a transition whose colours are its own design.
    func warnIfFixed(_ transition: any Transition) {
        if value != .light, !transition.followsAppearance {
            printWarning("'\(transition.name)' draws colours of its own design: --appearance \(value.rawValue) changes nothing in it")
        }
    }
}
