/// A variable of a ``Solver``: made by ``Solver/makeVariable()``, valid only in the solver that made it.
public struct Variable: Hashable, Sendable {
    /// The variable's symbol in its solver's tableau.
    let symbol: Int32
    /// The solver that made it (a variable of another solver is refused).
    let solver: ObjectIdentifier
}

/// `coefficient × variable`.
public struct Term: Hashable, Sendable {
    public var variable: Variable
    public var coefficient: Double
    public init(_ variable: Variable, _ coefficient: Double = 1) {
        self.variable = variable
        self.coefficient = coefficient
    }
}

/// `Σ coefficient × variable + constant`: the left side of a constraint whose right side is 0.
public struct LinearExpression: Hashable, Sendable {
    public var terms: [Term]
    public var constant: Double
    public init(_ terms: [Term] = [], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }
}

/// How an expression compares with 0.
public enum Relation: Sendable, Hashable {
    case lessThanOrEqual, equal, greaterThanOrEqual
}

/// The weights of non-required constraints, as Cassowary (and kiwi) name them. A constraint's error costs
/// its strength per point; ``required`` (and anything above it) must hold exactly.
public enum Strength {
    public static let required = 1_001_001_000.0
    public static let strong = 1_000_000.0
    public static let medium = 1_000.0
    public static let weak = 1.0
}

/// A constraint added to a ``Solver`` (another solver refuses it).
public struct ConstraintHandle: Hashable, Sendable {
    let id: Int
    let solver: ObjectIdentifier
}

/// Why the solver refused a request.
public enum SolverError: Error, Equatable, CustomStringConvertible {
    /// A required constraint contradicts the required constraints already added; it was not added.
    case unsatisfiable
    /// A coefficient, constant or strength that is not finite, a strength that is not positive, or a
    /// number beyond ``Solver/maximumConstant``, or a coefficient outside ``Solver/minimumCoefficient`` …
    /// ``Solver/maximumCoefficient`` (zero aside).
    case invalidNumber(String)
    /// The handle or variable is not this solver's, or the constraint was removed.
    case unknownConstraint
    /// An edit variable needs a strength below required, and at most one edit a variable.
    case badEditVariable(String)

    public var description: String {
        switch self {
        case .unsatisfiable: return "the constraint contradicts the required constraints"
        case .invalidNumber(let what): return "\(what) is not a finite number within the solver's range"
        case .unknownConstraint: return "the constraint is not in this solver"
        case .badEditVariable(let why): return why
        }
    }
}
