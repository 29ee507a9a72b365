// The simplex itself, after Badros, Borning and Stuckey's "The Cassowary Linear Arithmetic Constraint
// Solving Algorithm" (2001) as kiwi arranges it: a constraint becomes a row with a slack, dummy or pair
// of error symbols; the primal simplex minimises the errors' cost; the dual simplex restores feasibility
// after a constant changes.

extension Solver {
    func makeSymbol(_ kind: Kind) -> Int32 {
        // Symbols a rebuild left unused are taken again first, so rebuilding never grows the tables.
        if kind != .external, let reused = freeSymbols.popLast() {
            kinds[Int(reused)] = kind
            rowOf[Int(reused)] = -1
            return reused
        }
        kinds.append(kind)
        rowOf.append(-1)
        return Int32(kinds.count - 1)
    }

    /// What an addition may change before it turns out not to fit: restored then, so a refused constraint
    /// leaves the tableau as it was (copy-on-write makes taking it cheap).
    struct Snapshot {
        let rows: [Row], basics: [Int32], rowOf: [Int32], kinds: [Kind], objective: Row, infeasible: [Int32], freeSymbols: [Int32]
    }

    func snapshot() -> Snapshot {
        Snapshot(rows: rows, basics: basics, rowOf: rowOf, kinds: kinds, objective: objective, infeasible: infeasible, freeSymbols: freeSymbols)
    }

    func restore(_ saved: Snapshot) {
        rows = saved.rows; basics = saved.basics; rowOf = saved.rowOf; kinds = saved.kinds
        objective = saved.objective; infeasible = saved.infeasible; freeSymbols = saved.freeSymbols
        artificial = nil
    }

    @inline(__always) func kind(_ symbol: Int32) -> Kind { kinds[Int(symbol)] }

    func addRow(_ basic: Int32, _ row: Row) {
        rowOf[Int(basic)] = Int32(rows.count)
        rows.append(row)
        basics.append(basic)
    }

    /// Removes the row of a basic symbol (the last row takes its place).
    func removeRow(_ basic: Int32) -> Row {
        let index = Int(rowOf[Int(basic)])
        let row = rows[index]
        let last = rows.count - 1
        if index != last {
            rows[index] = rows[last]
            basics[index] = basics[last]
            rowOf[Int(basics[index])] = Int32(index)
        }
        rows.removeLast()
        basics.removeLast()
        rowOf[Int(basic)] = -1
        return row
    }

    /// Adds a validated constraint under `id`; on `.unsatisfiable` the tableau may be part-way changed
    /// (the caller rebuilds).
    func add(id: Int, _ expression: LinearExpression, _ relation: Relation, _ strength: Double) throws(SolverError) {
        // A constraint can fail to fit only in the two places below (a required one that contradicts
        // the others, or any one whose artificial objective rounding leaves above zero); the tableau is put
        // back as it was then, including what making the row did (new symbols, error costs).
        let symbolCount = kinds.count, free = freeSymbols
        var (row, tag) = makeRow(expression, relation, strength)
        var subject = chooseSubject(row, tag)
        func refuse(_ saved: Snapshot) -> SolverError {
            restore(saved)
            for symbol in [tag.marker, tag.other] where symbol >= 0 { objective.remove(symbol) }
            kinds.removeSubrange(symbolCount...)
            rowOf.removeSubrange(symbolCount...)
            freeSymbols = free
            return .unsatisfiable
        }
        if subject < 0 {
            let saved = snapshot()
            if row.symbols.allSatisfy({ kind($0) == .dummy }) {
                guard nearZero(row.constant) else { throw refuse(saved) }
                subject = tag.marker
            } else {
                guard addWithArtificialVariable(row) else { throw refuse(saved) }
            }
        }
        if subject < 0 {
            // Added through the artificial variable above.
        } else {
            row.solve(for: subject)
            substitute(subject, row)
            addRow(subject, row)
        }
        records[id] = Record(expression: expression, relation: relation, strength: strength, tag: tag)
        guard optimize(artificialObjective: false) else { throw .unsatisfiable }
    }

    /// The constraint's row in terms of the current parametric symbols, with its marker and error symbols
    /// (whose costs go into the objective).
    private func makeRow(_ expression: LinearExpression, _ relation: Relation, _ strength: Double) -> (Row, Tag) {
        var row = Row(constant: expression.constant)
        for term in expression.terms where !nearZero(term.coefficient) {
            let symbol = term.variable.symbol
            let index = rowOf[Int(symbol)]
            if index >= 0 { row.insert(rows[Int(index)], term.coefficient) } else { row.insert(symbol, term.coefficient) }
        }
        let required = strength >= Strength.required
        var tag: Tag
        switch relation {
        case .lessThanOrEqual, .greaterThanOrEqual:
            let coefficient = relation == .lessThanOrEqual ? 1.0 : -1.0
            let slack = makeSymbol(.slack)
            tag = Tag(marker: slack, markerCoefficient: coefficient)
            row.insert(slack, coefficient)
            if !required {
                let error = makeSymbol(.error)
                tag.other = error
                row.insert(error, -coefficient)
                objective.insert(error, strength)
            }
        case .equal:
            if required {
                let dummy = makeSymbol(.dummy)
                tag = Tag(marker: dummy, markerCoefficient: 1)
                row.insert(dummy, 1)
            } else {
                let plus = makeSymbol(.error), minus = makeSymbol(.error)
                tag = Tag(marker: plus, other: minus, markerCoefficient: -1)
                row.insert(plus, -1)
                row.insert(minus, 1)
                objective.insert(plus, strength)
                objective.insert(minus, strength)
            }
        }
        if row.constant < 0 { row.reverseSign() }
        return (row, tag)
    }

    /// The symbol to solve a new row for: an external one if any, else a marker or error symbol with a
    /// negative coefficient (so its value starts non-negative); -1 when none will do.
    private func chooseSubject(_ row: Row, _ tag: Tag) -> Int32 {
        for symbol in row.symbols where kind(symbol) == .external { return symbol }
        for candidate in [tag.marker, tag.other] where candidate >= 0 {
            let k = kind(candidate)
            if (k == .slack || k == .error), row.coefficient(for: candidate) < 0 { return candidate }
        }
        return -1
    }

    /// Adds a row no symbol of which can be its subject: an artificial variable stands for it and is
    /// minimised to zero; false when it cannot be (the constraint is unsatisfiable).
    private func addWithArtificialVariable(_ row: Row) -> Bool {
        let artificialSymbol = makeSymbol(.slack)
        addRow(artificialSymbol, row)
        artificial = row
        guard optimize(artificialObjective: true) else { artificial = nil; return false }
        let success = nearZero(artificial!.constant)
        artificial = nil
        if rowOf[Int(artificialSymbol)] >= 0 {
            var basicRow = removeRow(artificialSymbol)
            if basicRow.isEmpty { return success }
            guard let entering = basicRow.symbols.first(where: { kind($0) == .slack || kind($0) == .error }) else { return false }
            basicRow.solve(for: artificialSymbol, entering)
            substitute(entering, basicRow)
            addRow(entering, basicRow)
        }
        for index in rows.indices { rows[index].remove(artificialSymbol) }
        objective.remove(artificialSymbol)
        return success
    }

    /// Replaces `symbol` by `row` everywhere; restricted rows that go negative are queued for the dual simplex.
    func substitute(_ symbol: Int32, _ row: Row) {
        // One access to each array for the whole loop: class properties are checked for exclusive
        // access at every use, which cost more than the substitution itself.
        let kinds = self.kinds, basics = self.basics
        var negative: [Int32] = []
        rows.withUnsafeMutableBufferPointer { rows in
            for index in rows.indices where rows[index].substitute(symbol, row) {
                if rows[index].constant < 0, kinds[Int(basics[index])] != .external { negative.append(basics[index]) }
            }
        }
        infeasible.append(contentsOf: negative)
        objective.substitute(symbol, row)
        artificial?.substitute(symbol, row)
    }

    /// Pivots one optimisation may take: a simplex that follows Bland's rule ends long before.
    private var pivotLimit: Int { 20 * (rows.count + 64) }

    /// The primal simplex on the objective (or the artificial one): pivots while a symbol can lower it.
    /// False when it cannot finish (unbounded or over the pivot limit: neither happens to a consistent
    /// tableau).
    func optimize(artificialObjective: Bool) -> Bool {
        var pivots = 0
        while true {
            let target = artificialObjective ? artificial! : objective
            guard let entering = zip(target.symbols, target.coefficients).first(where: { $0.1 < 0 && kind($0.0) != .dummy })?.0 else {
                return true
            }
            pivots += 1
            guard pivots <= pivotLimit else { return false }
            // The ratio test over restricted rows; ties go to the smallest symbol (Bland's rule).
            var leaving: Int32 = -1
            var ratio = Double.greatestFiniteMagnitude
            let kinds = self.kinds, basics = self.basics
            rows.withUnsafeBufferPointer { rows in
                for index in rows.indices where kinds[Int(basics[index])] != .external {
                    let c = rows[index].coefficient(for: entering)
                    guard c < 0 else { continue }
                    let r = -rows[index].constant / c
                    if r < ratio || (r == ratio && basics[index] < leaving) { ratio = r; leaving = basics[index] }
                }
            }
            guard leaving >= 0 else { return false }
            var row = removeRow(leaving)
            row.solve(for: leaving, entering)
            substitute(entering, row)
            addRow(entering, row)
        }
    }

    /// The dual simplex: pivots the queued infeasible rows back to non-negative constants while keeping
    /// the objective optimal. False when a row cannot be made feasible (a required constraint conflicts).
    func dualOptimize() -> Bool {
        var pivots = 0
        while true {
            // Bland's rule for the dual simplex: the infeasible row with the smallest basic symbol leaves.
            infeasible.removeAll { rowOf[Int($0)] < 0 || rows[Int(rowOf[Int($0)])].constant >= 0 }
            guard let leaving = infeasible.min() else { return true }
            infeasible.removeAll { $0 == leaving }
            let index = rowOf[Int(leaving)]
            pivots += 1
            guard pivots <= pivotLimit else { infeasible.removeAll(); return false }
            let row = rows[Int(index)]
            var entering: Int32 = -1
            var ratio = Double.greatestFiniteMagnitude
            for (symbol, c) in zip(row.symbols, row.coefficients) where c > 0 && kind(symbol) != .dummy {
                let r = objective.coefficient(for: symbol) / c
                if r < ratio { ratio = r; entering = symbol }
            }
            guard entering >= 0 else { infeasible.removeAll(); return false }
            var pivoted = removeRow(leaving)
            pivoted.solve(for: leaving, entering)
            substitute(entering, pivoted)
            addRow(entering, pivoted)
        }
    }

    /// The row to pivot a parametric marker into the basis on removal: a restricted row where the marker
    /// has a negative coefficient (least ratio), else a restricted one with a positive coefficient, else
    /// an unrestricted one.
    func markerLeavingRow(_ marker: Int32) -> Int32? {
        // A required equality implied by the others (added again, say) has a row of dummies only; when one
        // of them names the marker, pivoting there moves no constant, so the copy takes over the removed
        // one's place. Any other row would move the copies' constants off zero.
        if kind(marker) == .dummy {
            for index in rows.indices where kind(basics[index]) == .dummy && rows[index].coefficient(for: marker) != 0 {
                return basics[index]
            }
        }
        var first: Int32 = -1, second: Int32 = -1, third: Int32 = -1
        var r1 = Double.greatestFiniteMagnitude, r2 = Double.greatestFiniteMagnitude
        for index in rows.indices {
            let c = rows[index].coefficient(for: marker)
            guard c != 0 else { continue }
            let basic = basics[index]
            if kind(basic) == .external {
                third = basic
            } else if c < 0 {
                let r = -rows[index].constant / c
                if r < r1 { r1 = r; first = basic }
            } else {
                let r = rows[index].constant / c
                if r < r2 { r2 = r; second = basic }
            }
        }
        for candidate in [first, second, third] where candidate >= 0 { return candidate }
        return nil
    }

    /// Takes a removed constraint's error costs out of the objective.
    func removeErrorCosts(_ record: Record) {
        for symbol in [record.tag.marker, record.tag.other] where symbol >= 0 && kind(symbol) == .error {
            let index = rowOf[Int(symbol)]
            if index >= 0 { objective.insert(rows[Int(index)], -record.strength) } else { objective.insert(symbol, -record.strength) }
        }
    }

    /// Builds the tableau again from the constraints' definitions, in the order they were added,
    /// leaving out any required one that no longer fits (after a change of constant). Used only after a
    /// failure, so the common paths stay incremental.
    func rebuild() {
        rebuild(without: [], from: records.sorted { $0.key < $1.key })
    }

    /// Builds the tableau again without the constraint `id`, then adds it back when it fits.
    func rebuild(refitting id: Int) {
        guard let record = records[id] else { rebuild(); return }
        let all = records.sorted { $0.key < $1.key }
        rebuild(without: [id], from: all)
        do {
            try add(id: id, record.expression, record.relation, record.strength)
        } catch {
            records[id] = nil
            rebuild()
        }
    }

    /// `rebuild()` without some constraints (used when one of them no longer fits).
    private func rebuild(without ids: Set<Int>, from all: [(key: Int, value: Record)]) {
        var dropped = ids
        while true {
            records.removeAll()
            rows.removeAll()
            basics.removeAll()
            for index in rowOf.indices { rowOf[index] = -1 }
            objective = Row(constant: 0)
            artificial = nil
            infeasible.removeAll()
            // Every symbol but the variables' is free to be taken again.
            freeSymbols = kinds.indices.reversed().filter { kinds[$0] != .external }.map { Int32($0) }
            var failed: Int?
            for (id, record) in all where !dropped.contains(id) {
                do { try add(id: id, record.expression, record.relation, record.strength) } catch {
                    // Refused and put back: leave it out and go on. Part-way (a simplex over its pivot
                    // limit): start again without it.
                    if records[id] == nil { continue }
                    failed = id
                    break
                }
            }
            guard let failed else { forgetEditsOfRemovedConstraints(); return }
            dropped.insert(failed)
        }
    }
}
