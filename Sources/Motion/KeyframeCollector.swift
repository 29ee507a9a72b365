import SnapshotView

/// Gathers the keyframes of one keyframe animation and turns them into one path per property.
final class KeyframeCollector {
    struct Entry {
        let change: ChangeRecorder.Change
        let start: Double
        let duration: Double
    }

    let beginsFromCurrentState: Bool
    private var entries: [Entry] = []

    init(beginsFromCurrentState: Bool) {
        self.beginsFromCurrentState = beginsFromCurrentState
    }

    func add(_ changes: [ChangeRecorder.Change], start: Double, duration: Double) {
        entries += changes.map { Entry(change: $0, start: start, duration: duration) }
    }

    /// One change per property: its first old value and its last new value, in call order.
    var changes: [ChangeRecorder.Change] {
        var result: [ChangeRecorder.Change] = []
        var index: [PropertyKey: Int] = [:]
        for entry in entries.sorted(by: { $0.change.serial < $1.change.serial }) {
            if let i = index[entry.change.key] { result[i].to = entry.change.to; continue }
            index[entry.change.key] = result.count
            result.append(entry.change)
        }
        return result
    }

    /// The tracks: for each property, the path from its value before the block through each keyframe's
    /// value (holding between keyframes), as offsets from its model value. Rotations unwrap along the
    /// path so that each step turns the shorter way.
    func tracks(engine: AnimationEngine, discrete: Bool) -> [Track] {
        var grouped: [PropertyKey: [Entry]] = [:]
        var order: [PropertyKey] = []
        for entry in entries {
            if grouped[entry.change.key] == nil { order.append(entry.change.key) }
            grouped[entry.change.key, default: []].append(entry)
        }
        return order.compactMap { key -> Track? in
            guard let list = grouped[key], let first = list.min(by: { $0.change.serial < $1.change.serial })?.change else {
                return nil
            }
            let view = first.view, property = first.property
            let model = view.modelValue(of: property)
            if beginsFromCurrentState { engine.removeTracks(for: key) }
            let initial = beginsFromCurrentState ? (first.presentationAtStart ?? first.from) : first.from

            var points: [(time: Double, value: AnimatableValue)] = [(0, initial)]
            var current = initial, last = 0.0
            for entry in list.sorted(by: { ($0.start, $0.change.serial) < ($1.start, $1.change.serial) }) {
                let start = max(entry.start, last)
                let end = max(start, min(1, entry.start + entry.duration))
                if start > last { points.append((start, current)) }
                points.append((end, entry.change.to))
                current = entry.change.to
                last = end
            }
            if last < 1 { points.append((1, current)) }
            guard points.contains(where: { $0.value != model }) else { return nil }

            let components = points.map { ValueComponents($0.value) }
            var chain = [components[0].vector]
            for i in 1..<components.count {
                chain.append(chain[i - 1] + components[i].offset(from: components[i - 1]))
            }
            let modelVector = chain[chain.count - 1] + ValueComponents(model).offset(from: components[components.count - 1])
            let path = Track.Path.keyframes(times: points.map(\.time), offsets: chain.map { $0 - modelVector },
                                            discrete: discrete)
            return Track(view: view, property: property, from: initial, to: model, path: path)
        }
    }
}
