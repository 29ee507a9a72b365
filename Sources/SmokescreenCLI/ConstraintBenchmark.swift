import ConstraintSolver
import Foundation

/// `smokescreen bench --constraints`: Auto Layout's solver on a screen of 501 constraints (83 rows of a
/// vertical list in a 375-pt container that it may not overflow: leading and trailing margins, a top spaced 8 pt below the row
/// before, a required minimum height and a content height held at hugging 250 and compression
/// resistance 750), solved from scratch, and one constant changed and solved again (the list's top
/// inset, which moves every row: the worst single change).
struct ConstraintBenchmark {
    var runs: Int

    struct Result {
        var constraints: Int
        var scratchSeconds: Double
        var changeSeconds: Double
        var lastRowTop: Double
    }

    /// Builds the screen; returns the solver, the top inset's constraint and the last row's top.
    static func screen() throws -> (Solver, ConstraintHandle, Variable) {
        let solver = Solver()
        let width = solver.makeVariable()
        try solver.addConstraint(LinearExpression([Term(width)], constant: -375), .equal)
        var previousBottom: LinearExpression?
        var topInset: ConstraintHandle?
        var lastTop = width
        for row in 0..<83 {
            let x = solver.makeVariable(), y = solver.makeVariable(), w = solver.makeVariable(), h = solver.makeVariable()
            try solver.addConstraint(LinearExpression([Term(x)], constant: -16), .equal)                                    // leading
            try solver.addConstraint(LinearExpression([Term(x), Term(w), Term(width, -1)], constant: 16), .equal)           // trailing
            if let above = previousBottom {
                try solver.addConstraint(LinearExpression([Term(y)] + above.terms.map { Term($0.variable, -$0.coefficient) }, constant: -8), .equal)
            } else {
                topInset = try solver.addConstraint(LinearExpression([Term(y)], constant: -20), .equal)
            }
            try solver.addConstraint(LinearExpression([Term(h)], constant: -44), .greaterThanOrEqual)                     // minimum height
            let content = Double(30 + (row * 37) % 50)
            try solver.addConstraint(LinearExpression([Term(h)], constant: -content), .lessThanOrEqual, strength: 250)   // hugging
            try solver.addConstraint(LinearExpression([Term(h)], constant: -content), .greaterThanOrEqual, strength: 750) // compression
            previousBottom = LinearExpression([Term(y), Term(h)])
            lastTop = y
        }
        // The container's height, which the list may not pass.
        let height = solver.makeVariable()
        try solver.addConstraint(LinearExpression([Term(height)], constant: -10_000), .equal)
        try solver.addConstraint(LinearExpression([Term(height)] + previousBottom!.terms.map { Term($0.variable, -$0.coefficient) }), .greaterThanOrEqual)
        return (solver, topInset!, lastTop)
    }

    func run() throws -> Result {
        var scratch: [Double] = []
        var change: [Double] = []
        var count = 0
        var lastTop = 0.0
        for _ in 0..<runs {
            for _ in 0..<20 {
                let start = DispatchTime.now().uptimeNanoseconds
                let (solver, _, _) = try Self.screen()
                scratch.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                count = solver.constraintCount
            }
            let (solver, top, last) = try Self.screen()
            let changes = 2000
            let start = DispatchTime.now().uptimeNanoseconds
            for i in 0..<changes { try solver.setConstant(-Double(20 + i % 300), of: top) }
            change.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(changes))
            lastTop = solver.value(of: last)
        }
        return Result(constraints: count, scratchSeconds: median(scratch), changeSeconds: median(change), lastRowTop: lastTop)
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
