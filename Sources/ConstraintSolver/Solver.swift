/// An incremental linear-constraint solver: Cassowary's simplex, as Auto Layout and kiwi solve
/// constraints. Constraints are `expression (≤ | = | ≥) 0` with a strength; required ones hold exactly,
/// the others are met as closely as their strengths allow (the solution minimises Σ strength × error).
///
/// Incremental: adding or removing a constraint pivots only what it touches, and changing a
/// constraint's constant (``setConstant(_:of:)``, ``suggestValue(_:for:)``) runs the dual simplex from
/// the current solution, a few pivots at most for a layout animation's frame.
///
/// Bad input never traps: a required constraint that contradicts the others is not added
/// (``SolverError/unsatisfiable``, the solver keeps its previous solution), numbers that are not finite
/// are refused, and every simplex loop is bounded.
public final class Solver {
    package enum Kind: UInt8 { case external, slack, error, dummy }

    /// The symbols that stand for one constraint in the tableau: its marker (slack, dummy or positive
    /// error), and the other error symbol of a non-required one (`-1` when none).
    struct Tag {
        var marker: Int32
        var other: Int32 = -1
        /// The marker's coefficient in the constraint's own row before any sign change: a change of the
        /// constant by Δ is the marker moving by Δ / this.
        var markerCoefficient: Double
    }

    struct Record {
        var expression: LinearExpression
        var relation: Relation
        var strength: Double
        var tag: Tag
    }

    // The tableau. Symbols are dense integers; `rowOf[symbol]` is the index of its row in `rows` when it
    // is basic, -1 when it is parametric.
    package internal(set) var kinds: [Kind] = []
    var rowOf: [Int32] = []
    package internal(set) var rows: [Row] = []
    var basics: [Int32] = []
    var objective = Row(constant: 0)
    var artificial: Row?
    var infeasible: [Int32] = []
    /// Symbols no row or constraint uses since the last rebuild, taken again by `makeSymbol`.
    var freeSymbols: [Int32] = []

    var records: [Int: Record] = [:]
    private var nextID = 0
    /// Edit variables: the variable's symbol → its edit constraint.
    private var edits: [Int32: ConstraintHandle] = [:]

    public init() {}

    // MARK: Variables

    /// A new variable, 0 until constraints say otherwise.
    public func makeVariable() -> Variable { Variable(symbol: makeSymbol(.external), solver: ObjectIdentifier(self)) }

    /// The variable's value in the current solution.
    public func value(of variable: Variable) -> Double {
        guard variable.solver == ObjectIdentifier(self), Int(variable.symbol) < rowOf.count else { return 0 }
        let row = rowOf[Int(variable.symbol)]
        return row < 0 ? 0 : rows[Int(row)].constant
    }

    /// How many constraints are in the solver (edit constraints included).
    public var constraintCount: Int { records.count }

    public func hasConstraint(_ handle: ConstraintHandle) -> Bool { handle.solver == ObjectIdentifier(self) && records[handle.id] != nil }

    // MARK: Constraints

    /// Adds `expression relation 0` with `strength` (``Strength/required`` by default; strengths at or
    /// above it are required). Throws ``SolverError/unsatisfiable`` for a required constraint the others
    /// rule out (nothing changes then).
    @discardableResult
    public func addConstraint(_ expression: LinearExpression, _ relation: Relation,
                              strength: Double = Strength.required) throws(SolverError) -> ConstraintHandle {
        try validate(expression, strength: strength)
        let id = nextID
        nextID += 1
        do {
            try add(id: id, expression, relation, min(strength, Strength.required))
        } catch let error {
            // `add` restores the tableau when the constraint does not fit; only a simplex that could not
            // finish (never seen: the pivots are bounded) leaves it part-way, and then it is built again.
            if records.removeValue(forKey: id) != nil { rebuild() }
            throw error
        }
        return ConstraintHandle(id: id, solver: ObjectIdentifier(self))
    }

    public func removeConstraint(_ handle: ConstraintHandle) throws(SolverError) {
        guard handle.solver == ObjectIdentifier(self), let record = records.removeValue(forKey: handle.id) else { throw .unknownConstraint }
        if let edited = edits.first(where: { $0.value == handle })?.key { edits[edited] = nil }
        removeErrorCosts(record)
        if rowOf[Int(record.tag.marker)] >= 0 {
            _ = removeRow(record.tag.marker)
        } else {
            guard let leaving = markerLeavingRow(record.tag.marker) else {
                rebuild()
                return
            }
            var row = removeRow(leaving)
            row.solve(for: leaving, record.tag.marker)
            substitute(record.tag.marker, row)
        }
        // The marker is in no row now: it is free to be taken again.
        if rowOf[Int(record.tag.marker)] < 0, !objectiveOrRowsHold(record.tag.marker) { freeSymbols.append(record.tag.marker) }
        if !optimize(artificialObjective: false) { rebuild() }
    }

    /// Whether any row or the objective still names `symbol` (a check before reusing it).
    private func objectiveOrRowsHold(_ symbol: Int32) -> Bool {
        objective.coefficient(for: symbol) != 0 || rows.contains { $0.coefficient(for: symbol) != 0 }
    }

    /// The constraint's expression constant (its right side is 0: `x - 10 = 0` has constant -10).
    public func constant(of handle: ConstraintHandle) -> Double? {
        handle.solver == ObjectIdentifier(self) ? records[handle.id]?.expression.constant : nil
    }

    /// Changes the constraint's expression constant and re-solves from the current solution (the dual
    /// simplex: a few pivots for a small change). When the new constant makes a required constraint
    /// contradict the others, that constraint is removed and ``SolverError/unsatisfiable`` thrown.
    public func setConstant(_ constant: Double, of handle: ConstraintHandle) throws(SolverError) {
        guard handle.solver == ObjectIdentifier(self), var record = records[handle.id] else { throw .unknownConstraint }
        guard constant.isFinite, abs(constant) <= Solver.maximumConstant else { throw .invalidNumber("the constant") }
        let delta = constant - record.expression.constant
        guard delta != 0 else { return }
        record.expression.constant = constant
        records[handle.id] = record
        // The system with the new constant is the old one with the marker moved by shift.
        let marker = record.tag.marker
        let shift = delta / record.tag.markerCoefficient
        // A row whose basic symbol is a dummy (all its symbols are: a required equality of constants
        // only) must stay at 0; the dual simplex cannot move a dummy.
        var fixedRowMoved = false
        if rowOf[Int(marker)] >= 0 {
            let index = Int(rowOf[Int(marker)])
            rows[index].constant -= shift
            if kinds[Int(marker)] == .dummy { fixedRowMoved = !nearZero(rows[index].constant) }
            if rows[index].constant < 0 { infeasible.append(marker) }
        } else {
            let kinds = self.kinds, basics = self.basics
            var negative: [Int32] = []
            rows.withUnsafeMutableBufferPointer { rows in
                for index in rows.indices {
                    let c = rows[index].coefficient(for: marker)
                    guard c != 0 else { continue }
                    rows[index].constant += c * shift
                    let kind = kinds[Int(basics[index])]
                    if kind == .dummy, !nearZero(rows[index].constant) { fixedRowMoved = true }
                    if rows[index].constant < 0, kind != .external { negative.append(basics[index]) }
                }
            }
            infeasible.append(contentsOf: negative)
        }
        if fixedRowMoved || !dualOptimize() {
            // The new constant contradicts required constraints: the others are kept and this one is
            // broken (refused) when it does not fit them.
            rebuild(refitting: handle.id)
            if records[handle.id] == nil { throw .unsatisfiable }
        }
    }

    // MARK: Edit variables

    /// Makes `variable` editable at `strength` (below required): ``suggestValue(_:for:)`` then moves it
    /// as close to a value as the other constraints allow.
    public func addEditVariable(_ variable: Variable, strength: Double) throws(SolverError) {
        guard variable.solver == ObjectIdentifier(self) else { throw .unknownConstraint }
        guard edits[variable.symbol] == nil else { throw .badEditVariable("the variable is already an edit variable") }
        guard strength < Strength.required else { throw .badEditVariable("an edit variable's strength must be below required") }
        let handle = try addConstraint(LinearExpression([Term(variable)]), .equal, strength: strength)
        edits[variable.symbol] = handle
    }

    public func removeEditVariable(_ variable: Variable) throws(SolverError) {
        guard let handle = edits[variable.symbol] else { throw .unknownConstraint }
        try removeConstraint(handle)
    }

    func forgetEditsOfRemovedConstraints() {
        edits = edits.filter { records[$0.value.id] != nil }
    }

    public func hasEditVariable(_ variable: Variable) -> Bool { edits[variable.symbol] != nil }

    /// Asks for `value` for an edit variable; the solution moves there as far as stronger constraints allow.
    public func suggestValue(_ value: Double, for variable: Variable) throws(SolverError) {
        guard let handle = edits[variable.symbol] else { throw .unknownConstraint }
        guard value.isFinite, abs(value) <= Solver.maximumConstant else { throw .invalidNumber("the suggested value") }
        try setConstant(-value, of: handle)
    }

    // MARK: Checks

    /// The largest constant (or suggested value) accepted, in points: beyond it a double keeps too few
    /// digits below the point for the solution to hold to 1e-6.
    public static let maximumConstant = 1.0e6
    /// The largest coefficient (a multiplier) accepted, and the smallest other than zero: within these a
    /// chain of pivots keeps the solution to 1e-6 of the constants' scale.
    public static let maximumCoefficient = 1.0e2
    public static let minimumCoefficient = 1.0e-2

    private func validate(_ expression: LinearExpression, strength: Double) throws(SolverError) {
        guard expression.constant.isFinite, abs(expression.constant) <= Solver.maximumConstant else { throw .invalidNumber("the constant") }
        for term in expression.terms {
            guard term.coefficient.isFinite, abs(term.coefficient) <= Solver.maximumCoefficient,
                  term.coefficient == 0 || abs(term.coefficient) >= Solver.minimumCoefficient else { throw .invalidNumber("a coefficient") }
            guard term.variable.solver == ObjectIdentifier(self), Int(term.variable.symbol) < kinds.count else {
                throw .unknownConstraint
            }
        }
        guard strength.isFinite, strength > 0 else { throw .invalidNumber("the strength") }
    }
}
