import ConstraintSolver
import XCTest

/// The solver on systems small enough to solve by hand: exact values (every answer here is a sum of
/// small binary fractions, so `==` is exact).
final class SolverTests: XCTestCase {
    private func expression(_ terms: (Variable, Double)..., constant: Double = 0) -> LinearExpression {
        LinearExpression(terms.map { Term($0.0, $0.1) }, constant: constant)
    }

    func testRequiredEqualitiesAreSolvedExactly() throws {
        let solver = Solver()
        let left = solver.makeVariable(), width = solver.makeVariable(), right = solver.makeVariable()
        try solver.addConstraint(expression((left, 1), constant: -16), .equal)                     // left = 16
        try solver.addConstraint(expression((right, 1), constant: -359), .equal)                   // right = 359
        try solver.addConstraint(expression((right, 1), (left, -1), (width, -1)), .equal)          // width = right - left
        XCTAssertEqual(solver.value(of: width), 343)
        XCTAssertFalse(solver.isAmbiguous(width))
    }

    func testTheStrongerOfTwoConflictingPreferencesWins() throws {
        let solver = Solver()
        let x = solver.makeVariable()
        try solver.addConstraint(expression((x, 1), constant: -100), .equal, strength: 250)
        let stronger = try solver.addConstraint(expression((x, 1), constant: -40), .equal, strength: 750)
        XCTAssertEqual(solver.value(of: x), 40)
        try solver.removeConstraint(stronger)
        XCTAssertEqual(solver.value(of: x), 100)
    }

    func testAnInequalityBoundsAPreference() throws {
        let solver = Solver()
        let x = solver.makeVariable()
        try solver.addConstraint(expression((x, 1), constant: -300), .equal, strength: Strength.weak)   // wants 300
        try solver.addConstraint(expression((x, 1), constant: -120), .lessThanOrEqual)               // x ≤ 120
        XCTAssertEqual(solver.value(of: x), 120)
        try solver.addConstraint(expression((x, 1), constant: -130), .greaterThanOrEqual, strength: Strength.strong) // x ≥ 130, optional
        XCTAssertEqual(solver.value(of: x), 120, "a required bound beats an optional one")
    }

    func testAContradictingRequiredConstraintIsRefusedAndChangesNothing() throws {
        let solver = Solver()
        let x = solver.makeVariable(), y = solver.makeVariable()
        try solver.addConstraint(expression((x, 1), constant: -10), .equal)
        try solver.addConstraint(expression((y, 1), (x, -2)), .equal)                               // y = 2x
        XCTAssertThrowsError(try solver.addConstraint(expression((y, 1), constant: -30), .equal)) {
            XCTAssertEqual($0 as? SolverError, .unsatisfiable)
        }
        XCTAssertThrowsError(try solver.addConstraint(expression((y, 1), constant: -5), .lessThanOrEqual))
        XCTAssertEqual(solver.value(of: x), 10)
        XCTAssertEqual(solver.value(of: y), 20)
        XCTAssertEqual(solver.constraintCount, 2)
        // The same constraint at an optional strength is met as closely as it can be: not at all.
        try solver.addConstraint(expression((y, 1), constant: -30), .equal, strength: 999)
        XCTAssertEqual(solver.value(of: y), 20)
    }

    func testChangingAConstantMovesTheSolution() throws {
        let solver = Solver()
        let top = solver.makeVariable(), height = solver.makeVariable(), bottom = solver.makeVariable()
        let topConstraint = try solver.addConstraint(expression((top, 1), constant: -600), .equal)
        try solver.addConstraint(expression((bottom, 1), constant: -844), .equal)
        try solver.addConstraint(expression((bottom, 1), (top, -1), (height, -1)), .equal)
        try solver.addConstraint(expression((height, 1), constant: -44), .greaterThanOrEqual)     // height ≥ 44
        XCTAssertEqual(solver.value(of: height), 244)
        try solver.setConstant(-100, of: topConstraint)
        XCTAssertEqual(solver.value(of: height), 744)
        XCTAssertEqual(solver.constant(of: topConstraint), -100)
        // A constant that breaks a required inequality: the constraint is removed, the rest solved.
        XCTAssertThrowsError(try solver.setConstant(-820, of: topConstraint)) { XCTAssertEqual($0 as? SolverError, .unsatisfiable) }
        XCTAssertFalse(solver.hasConstraint(topConstraint))
        XCTAssertEqual(solver.value(of: bottom), 844)
        XCTAssertGreaterThanOrEqual(solver.value(of: height), 44)
    }

    func testEditVariablesFollowSuggestionsWithinRequiredBounds() throws {
        let solver = Solver()
        let offset = solver.makeVariable()
        try solver.addConstraint(expression((offset, 1)), .greaterThanOrEqual)                     // offset ≥ 0
        try solver.addConstraint(expression((offset, 1), constant: -400), .lessThanOrEqual)       // offset ≤ 400
        try solver.addEditVariable(offset, strength: Strength.strong)
        for value in [12.5, 250, 399.75] {
            try solver.suggestValue(value, for: offset)
            XCTAssertEqual(solver.value(of: offset), value)
        }
        try solver.suggestValue(900, for: offset)
        XCTAssertEqual(solver.value(of: offset), 400)
        try solver.suggestValue(-3, for: offset)
        XCTAssertEqual(solver.value(of: offset), 0)
        XCTAssertThrowsError(try solver.addEditVariable(offset, strength: Strength.strong))
        XCTAssertThrowsError(try solver.addEditVariable(solver.makeVariable(), strength: Strength.required))
        try solver.removeEditVariable(offset)
        XCTAssertFalse(solver.hasEditVariable(offset))
        XCTAssertThrowsError(try solver.suggestValue(1, for: offset)) { XCTAssertEqual($0 as? SolverError, .unknownConstraint) }
    }

    func testNumbersThatAreNotFiniteAreRefused() {
        let solver = Solver()
        let x = solver.makeVariable()
        XCTAssertThrowsError(try solver.addConstraint(expression((x, .nan)), .equal))
        XCTAssertThrowsError(try solver.addConstraint(expression((x, 1), constant: .infinity), .equal))
        XCTAssertThrowsError(try solver.addConstraint(expression((x, 1)), .equal, strength: 0))
        XCTAssertThrowsError(try solver.addConstraint(expression((x, 1)), .equal, strength: .nan))
        XCTAssertEqual(solver.constraintCount, 0)
        XCTAssertThrowsError(try solver.addConstraint(expression((Solver().makeVariable(), 1)), .equal)) {
            XCTAssertEqual($0 as? SolverError, .unknownConstraint, "another solver's variable")
        }
    }

    func testAmbiguityIsReportedForFreeVariablesOnly() throws {
        let solver = Solver()
        let x = solver.makeVariable(), y = solver.makeVariable(), z = solver.makeVariable()
        try solver.addConstraint(expression((x, 1), constant: -10), .equal)
        try solver.addConstraint(expression((y, 1), (x, -1)), .greaterThanOrEqual)                // y ≥ x: y is free above 10
        XCTAssertFalse(solver.isAmbiguous(x))
        XCTAssertTrue(solver.isAmbiguous(y))
        XCTAssertTrue(solver.isAmbiguous(z), "in no constraint")
        try solver.addConstraint(expression((y, 1), constant: -10), .lessThanOrEqual)             // and y ≤ 10
        XCTAssertFalse(solver.isAmbiguous(y))
        // Two equal preferences that pull apart leave every point between them optimal.
        try solver.addConstraint(expression((z, 1)), .equal, strength: 500)
        try solver.addConstraint(expression((z, 1), constant: -20), .equal, strength: 500)
        XCTAssertTrue(solver.isAmbiguous(z))
    }

    func testRemovingOneOfTwoCopiesOfARequiredEqualityKeepsTheOther() throws {
        // Found by the fuzzer: the copy's row holds only dummy symbols; the removal must pivot there.
        let solver = Solver()
        let x = solver.makeVariable()
        let original = try solver.addConstraint(expression((x, -50), constant: -50), .equal)      // x = -1
        try solver.addEditVariable(x, strength: Strength.strong)
        try solver.suggestValue(0, for: x)
        try solver.addConstraint(expression((x, 2), constant: 2), .equal)                         // the same, scaled
        XCTAssertEqual(solver.value(of: x), -1)
        try solver.removeConstraint(original)
        XCTAssertEqual(solver.value(of: x), -1, "the copy still holds")
        // Two copies that are told apart by a new constant contradict each other: the changed one goes.
        let copy = try solver.addConstraint(expression((x, 1), constant: 1), .equal)
        XCTAssertThrowsError(try solver.setConstant(5, of: copy)) { XCTAssertEqual($0 as? SolverError, .unsatisfiable) }
        XCTAssertEqual(solver.value(of: x), -1)
    }

    func testRemovingUnknownConstraintsThrows() throws {
        let solver = Solver()
        let x = solver.makeVariable()
        let handle = try solver.addConstraint(expression((x, 1)), .equal)
        try solver.removeConstraint(handle)
        XCTAssertThrowsError(try solver.removeConstraint(handle)) { XCTAssertEqual($0 as? SolverError, .unknownConstraint) }
        XCTAssertThrowsError(try solver.setConstant(3, of: handle))
    }
}
