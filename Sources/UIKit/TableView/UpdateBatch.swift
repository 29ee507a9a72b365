internal import Containers

/// The operations a table or collection view records between the start and end of a batch
/// (`beginUpdates`/`endUpdates`, `performBatchUpdates`), nested batches included: the outermost end hands
/// back the whole update and one completion that runs every completion given inside it.
struct UpdateBatch {
    private var update: TableUpdate?
    private var depth = 0
    private var completions: [(Bool) -> Void] = []

    /// Opens a batch (or a level of one).
    mutating func begin() {
        if depth == 0 { update = TableUpdate() }
        depth += 1
    }

    /// Closes a level, keeping `completion` for the end of the whole batch; returns the update to apply
    /// and its completion when the outermost level closes, nil otherwise (or when none was open).
    mutating func end(completion: ((Bool) -> Void)?) -> (update: TableUpdate, completion: ((Bool) -> Void)?)? {
        guard depth > 0 else { return nil }
        if let completion { completions.append(completion) }
        depth -= 1
        guard depth == 0 else { return nil }
        let all = completions
        completions = []
        defer { update = nil }
        return (update ?? TableUpdate(), all.isEmpty ? nil : { finished in all.forEach { $0(finished) } })
    }

    /// Records one operation in the open batch; with none open, the operation is an update of its own,
    /// returned for the caller to apply.
    mutating func record(_ body: (inout TableUpdate) -> Void) -> TableUpdate? {
        var recorded = update ?? TableUpdate()
        body(&recorded)
        guard depth > 0 else { return recorded }
        update = recorded
        return nil
    }
}

/// Runs an update's `changes` as tables and collection views animate them: inside an animation block
/// with its duration and curve; at once when nothing moves or animations are off; otherwise over
/// `duration` seconds, ease in and out. `finish` gets whether the animation ran to its end.
func runUpdateAnimation(duration: TimeInterval, nothingMoves: Bool, changes: @escaping () -> Void, finish: @escaping (Bool) -> Void) {
    if UIView.inheritedAnimationDuration > 0 {
        UIView.animate(withDuration: UIView.inheritedAnimationDuration, animations: changes, completion: finish)
    } else if nothingMoves || !UIView.areAnimationsEnabled {
        UIView.performWithoutAnimation(changes)
        finish(true)
    } else {
        UIView.animate(withDuration: duration, delay: 0, options: [.curveEaseInOut], animations: changes, completion: finish)
    }
}
