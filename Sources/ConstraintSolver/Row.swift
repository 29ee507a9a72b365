/// Coefficients this close to zero are zero (they are what remains of a cancellation).
@inline(__always) func nearZero(_ value: Double) -> Bool { abs(value) < 1.0e-8 }

/// One row of the tableau: `basic = constant + Σ coefficient × symbol`, or, before it has a basic
/// symbol, `0 = constant + Σ …`. Symbols are kept sorted, so merging two rows is one pass and the
/// smallest symbol comes first (Bland's rule, which keeps the simplex from cycling, picks by it).
package struct Row {
    var constant: Double
    private(set) var symbols: [Int32] = []
    private(set) var coefficients: [Double] = []
    /// A superset of the symbols' low six bits: most rows of a layout hold a handful of symbols, and a
    /// substitution visits every row, so the mask answers "not here" without a search.
    private var mask: UInt64 = 0

    init(constant: Double) { self.constant = constant }

    var isEmpty: Bool { symbols.isEmpty }
    var count: Int { symbols.count }

    @inline(__always) private static func bit(_ symbol: Int32) -> UInt64 { 1 << UInt64(UInt32(bitPattern: symbol) & 63) }

    @inline(__always) private func index(of symbol: Int32) -> (found: Bool, at: Int) {
        var low = 0, high = symbols.count
        while low < high {
            let mid = (low + high) >> 1
            let s = symbols[mid]
            if s == symbol { return (true, mid) }
            if s < symbol { low = mid + 1 } else { high = mid }
        }
        return (false, low)
    }

    func coefficient(for symbol: Int32) -> Double {
        guard mask & Row.bit(symbol) != 0 else { return 0 }
        let (found, at) = index(of: symbol)
        return found ? coefficients[at] : 0
    }

    /// Adds `coefficient × symbol` (removing the symbol when its coefficient becomes zero).
    mutating func insert(_ symbol: Int32, _ coefficient: Double) {
        let (found, at) = index(of: symbol)
        if found {
            let sum = coefficients[at] + coefficient
            if nearZero(sum) {
                symbols.remove(at: at)
                coefficients.remove(at: at)
            } else {
                coefficients[at] = sum
            }
        } else if !nearZero(coefficient) {
            symbols.insert(symbol, at: at)
            coefficients.insert(coefficient, at: at)
            mask |= Row.bit(symbol)
        }
    }

    /// Adds `coefficient × other` (its constant and every symbol), in one merge.
    mutating func insert(_ other: Row, _ coefficient: Double) {
        constant += other.constant * coefficient
        if other.symbols.count == 1 {
            insert(other.symbols[0], other.coefficients[0] * coefficient)
            return
        }
        var mergedSymbols: [Int32] = []
        var mergedCoefficients: [Double] = []
        mergedSymbols.reserveCapacity(symbols.count + other.symbols.count)
        mergedCoefficients.reserveCapacity(symbols.count + other.symbols.count)
        var newMask: UInt64 = 0
        var i = 0, j = 0
        while i < symbols.count || j < other.symbols.count {
            let symbol: Int32
            let value: Double
            if j == other.symbols.count || (i < symbols.count && symbols[i] < other.symbols[j]) {
                symbol = symbols[i]; value = coefficients[i]; i += 1
            } else if i == symbols.count || other.symbols[j] < symbols[i] {
                symbol = other.symbols[j]; value = other.coefficients[j] * coefficient; j += 1
            } else {
                symbol = symbols[i]; value = coefficients[i] + other.coefficients[j] * coefficient; i += 1; j += 1
            }
            if !nearZero(value) {
                mergedSymbols.append(symbol)
                mergedCoefficients.append(value)
                newMask |= Row.bit(symbol)
            }
        }
        symbols = mergedSymbols
        coefficients = mergedCoefficients
        mask = newMask
    }

    /// Removes `symbol` and returns its coefficient (0 when it was not there).
    @discardableResult
    mutating func remove(_ symbol: Int32) -> Double {
        guard mask & Row.bit(symbol) != 0 else { return 0 }
        let (found, at) = index(of: symbol)
        guard found else { return 0 }
        symbols.remove(at: at)
        return coefficients.remove(at: at)
    }

    mutating func reverseSign() {
        constant = -constant
        for i in coefficients.indices { coefficients[i] = -coefficients[i] }
    }

    /// Solves `0 = constant + … + c × symbol + …` for `symbol`: the row becomes `symbol`'s.
    mutating func solve(for symbol: Int32) {
        let c = -1.0 / remove(symbol)
        constant *= c
        for i in coefficients.indices { coefficients[i] *= c }
    }

    /// Solves `lhs = …` for `rhs`, a symbol of the row: the row becomes `rhs`'s.
    mutating func solve(for lhs: Int32, _ rhs: Int32) {
        insert(lhs, -1)
        solve(for: rhs)
    }

    /// Replaces `symbol` by what `row` says it equals. True when the symbol was in this row.
    @discardableResult
    mutating func substitute(_ symbol: Int32, _ row: Row) -> Bool {
        guard mask & Row.bit(symbol) != 0 else { return false }
        let c = remove(symbol)
        guard c != 0 else { return false }
        insert(row, c)
        return true
    }
}
