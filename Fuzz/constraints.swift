// libFuzzer entry point: Auto Layout's solver driven by bytes. Each operation is a byte naming it and
// the bytes of its operands: add a constraint (1–4 terms over 8 variables, multipliers as UIKit takes
// them and some the solver refuses, any double as constant, NaN and infinity included, any strength), remove one, change a constant, make an edit
// variable, suggest a value. The solver must never trap or hang, and after every operation each value
// must be finite and every required constraint it kept must hold.
import ConstraintSolver

private struct Bytes {
    var data: UnsafeBufferPointer<UInt8>
    var at = 0
    mutating func byte() -> UInt8? {
        guard at < data.count else { return nil }
        defer { at += 1 }
        return data[at]
    }
    /// A coefficient: a multiplier as UIKit and scene files take them (0.1 … 10, and a centre's half of
    /// one), sometimes one outside the solver's range (refused).
    mutating func coefficient() -> Double? {
        guard let b = byte() else { return nil }
        let table: [Double] = [1, 0.5, 2, 0.25, 4, 0.1, 10, 0.05, 3, 1.5, 0.75, 5, 1e-9, 1e6, 0, .nan]
        return (b & 0x80 == 0 ? 1 : -1) * table[Int(b) & 15]
    }

    /// A double: half the time a small integer-like value, otherwise the raw bits (NaN, ±inf, huge).
    mutating func double() -> Double? {
        guard let kind = byte() else { return nil }
        if kind & 1 == 0 { return Double(Int8(bitPattern: kind)) * 4 }
        var bits: UInt64 = 0
        for _ in 0..<8 { guard let b = byte() else { return nil }; bits = bits << 8 | UInt64(b) }
        return Double(bitPattern: bits)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConstraints(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = Bytes(data: UnsafeBufferPointer(start: data, count: min(size, 4096)))
    let solver = Solver()
    let variables = (0..<8).map { _ in solver.makeVariable() }
    var kept: [(ConstraintHandle, LinearExpression, Relation, Bool)] = []
    let strengths = [Strength.required, Strength.strong, Strength.medium, Strength.weak, 250, 750, 0, -1, .nan, 1e300]
    while let operation = input.byte() {
        switch operation % 5 {
        case 0, 1:
            guard let shape = input.byte(), let constant = input.double() else { break }
            var terms: [Term] = []
            for _ in 0...(Int(shape) & 3) {
                guard let v = input.byte(), let c = input.coefficient() else { break }
                terms.append(Term(variables[Int(v) % 8], c))
            }
            let relation: Relation = [.lessThanOrEqual, .equal, .greaterThanOrEqual][Int(shape >> 2) % 3]
            let strength = strengths[Int(shape >> 4) % strengths.count]
            let expression = LinearExpression(terms, constant: constant)
            if let handle = try? solver.addConstraint(expression, relation, strength: strength) {
                kept.append((handle, expression, relation, strength >= Strength.required))
            }
        case 2:
            guard let i = input.byte(), !kept.isEmpty else { break }
            let (handle, _, _, _) = kept.remove(at: Int(i) % kept.count)
            try? solver.removeConstraint(handle)
        case 3:
            guard let i = input.byte(), let constant = input.double(), !kept.isEmpty else { break }
            let index = Int(i) % kept.count
            if (try? solver.setConstant(constant, of: kept[index].0)) != nil { kept[index].1.constant = constant }
        default:
            guard let v = input.byte(), let value = input.double() else { break }
            let variable = variables[Int(v) % 8]
            if !solver.hasEditVariable(variable) { try? solver.addEditVariable(variable, strength: Strength.strong) }
            try? solver.suggestValue(value, for: variable)
        }
        kept.removeAll { !solver.hasConstraint($0.0) }
        // Required constraints hold, to a tolerance that grows with the numbers involved.
        for (_, expression, relation, required) in kept where required {
            var scale = abs(expression.constant)
            var value = expression.constant
            for term in expression.terms {
                let x = solver.value(of: term.variable)
                value += term.coefficient * x
                scale += abs(term.coefficient * x)
            }
            guard value.isFinite, scale.isFinite, scale < 1e12 else { continue }
            let tolerance = 1e-6 * (1 + scale)
            switch relation {
            case .equal: precondition(abs(value) <= tolerance, "a required equality is off by \(value)")
            case .lessThanOrEqual: precondition(value <= tolerance, "a required ≤ is off by \(value)")
            case .greaterThanOrEqual: precondition(value >= -tolerance, "a required ≥ is off by \(value)")
            }
        }
    }
    return 0
}
