import SnapshotView

/// Records the first old value (and, optionally, the presentation value then) and the last new value
/// of every property changed while it is installed.
final class ChangeRecorder: ViewChangeObserver {
    struct Change {
        let view: View
        let property: ViewProperty
        let from: AnimatableValue
        var to: AnimatableValue
        /// The presentation value at the first change (for beginFromCurrentState).
        let presentationAtStart: AnimatableValue?
        /// Engine-wide order of first change.
        let serial: Int
        var key: PropertyKey { PropertyKey(view, property) }
    }

    private(set) var changes: [Change] = []
    private var index: [PropertyKey: Int] = [:]
    private unowned let engine: AnimationEngine
    private let capturesPresentation: Bool

    init(engine: AnimationEngine, capturesPresentation: Bool) {
        self.engine = engine
        self.capturesPresentation = capturesPresentation
    }

    func view(_ view: View, changed property: ViewProperty, from old: AnimatableValue, to new: AnimatableValue) {
        let key = PropertyKey(view, property)
        if let i = index[key] {
            changes[i].to = new
            return
        }
        index[key] = changes.count
        let presentation = capturesPresentation ? engine.presentationValue(of: property, of: view, model: old) : nil
        changes.append(Change(view: view, property: property, from: old, to: new, presentationAtStart: presentation,
                              serial: engine.nextSerial()))
    }
}
