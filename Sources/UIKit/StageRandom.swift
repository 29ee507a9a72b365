// Random numbers on a stage are seeded, so that two runs of the same code draw the same frames. A module's
// own declaration shadows one of the same signature from a module it imports, so code that imports UIKit
// and calls `Int.random(in:)`, `CGFloat.random(in:)`, `Bool.random()`, `randomElement()`, `shuffled()`,
// or `shuffle()` gets these: with a stage, numbers from the stage's generator (SplitMix64, seeded when the
// stage is made); without one, the system's. Code that passes its own generator (`random(in:using:)`) is
// untouched. The C library's `arc4random` and `drand48` cannot be shadowed (they would be ambiguous with
// Glibc's) and stay unseeded.

/// The stage's random numbers: SplitMix64 (Steele, Lea and Flood, 2014), a 64-bit state advanced by a
/// fixed odd constant and mixed, so that every seed gives a well-spread sequence.
public struct StageRandomNumberGenerator: RandomNumberGenerator {
    nonisolated(unsafe) private static var state: UInt64 = 0

    /// Starts the sequence again from `seed` (the stage does this when it is made).
    package static func seed(_ seed: UInt64) { state = seed }

    public init() {}

    public mutating func next() -> UInt64 {
        Self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = Self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Runs `body` with the stage's generator when a stage is running, else with the system's.
    static func with<T>(_ body: (inout any RandomNumberGenerator) -> T) -> T {
        var generator: any RandomNumberGenerator = StageContext.engine == nil ? SystemRandomNumberGenerator() : StageRandomNumberGenerator()
        return body(&generator)
    }
}

extension FixedWidthInteger {
    /// A random value in `range`: the stage's generator when a stage runs (seeded), else the system's.
    public static func random(in range: Range<Self>) -> Self {
        StageRandomNumberGenerator.with { Self.random(in: range, using: &$0) }
    }

    /// A random value in `range`: the stage's generator when a stage runs (seeded), else the system's.
    public static func random(in range: ClosedRange<Self>) -> Self {
        StageRandomNumberGenerator.with { Self.random(in: range, using: &$0) }
    }
}

extension BinaryFloatingPoint where Self.RawSignificand: FixedWidthInteger {
    /// A random value in `range`: the stage's generator when a stage runs (seeded), else the system's.
    public static func random(in range: Range<Self>) -> Self {
        StageRandomNumberGenerator.with { Self.random(in: range, using: &$0) }
    }

    /// A random value in `range`: the stage's generator when a stage runs (seeded), else the system's.
    public static func random(in range: ClosedRange<Self>) -> Self {
        StageRandomNumberGenerator.with { Self.random(in: range, using: &$0) }
    }
}

extension Bool {
    /// True or false: the stage's generator when a stage runs (seeded), else the system's.
    public static func random() -> Bool {
        StageRandomNumberGenerator.with { Bool.random(using: &$0) }
    }
}

extension Collection {
    /// A random element, nil when empty: the stage's generator when a stage runs (seeded).
    public func randomElement() -> Element? {
        StageRandomNumberGenerator.with { randomElement(using: &$0) }
    }
}

extension Sequence {
    /// The elements in a random order: the stage's generator when a stage runs (seeded).
    public func shuffled() -> [Element] {
        StageRandomNumberGenerator.with { shuffled(using: &$0) }
    }
}

extension MutableCollection where Self: RandomAccessCollection {
    /// Puts the elements in a random order: the stage's generator when a stage runs (seeded).
    public mutating func shuffle() {
        var generator: any RandomNumberGenerator = StageContext.engine == nil ? SystemRandomNumberGenerator() : StageRandomNumberGenerator()
        shuffle(using: &generator)
    }
}
