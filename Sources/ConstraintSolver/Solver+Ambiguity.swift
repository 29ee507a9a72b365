extension Solver {
    /// Whether the optimum leaves `variable` free to move: it is parametric, or its row holds a
    /// parametric symbol that costs nothing to change and that can change (an unrestricted one, or a
    /// restricted one no row at zero blocks). A variable in no constraint is ambiguous.
    ///
    /// This is the tableau's own test, exact for the optimum the solver found; on a degenerate vertex
    /// (several restricted rows at zero) a variable can be reported as fixed that another pivot frees.
    public func isAmbiguous(_ variable: Variable) -> Bool {
        guard variable.solver == ObjectIdentifier(self), Int(variable.symbol) < rowOf.count else { return true }
        let index = rowOf[Int(variable.symbol)]
        guard index >= 0 else { return true }
        let row = rows[Int(index)]
        for symbol in row.symbols where kind(symbol) != .dummy && nearZero(objective.coefficient(for: symbol)) {
            if kind(symbol) == .external || canIncrease(symbol) { return true }
        }
        return false
    }

    /// Whether a parametric restricted symbol can grow from 0 without driving a restricted row negative.
    private func canIncrease(_ symbol: Int32) -> Bool {
        for index in rows.indices where kind(basics[index]) != .external {
            if rows[index].coefficient(for: symbol) < 0, nearZero(rows[index].constant) { return false }
        }
        return true
    }
}
