import SmokescreenStage
import XCTest

/// Random numbers drawn by code that imports UIKit come from the stage's seeded generator.
final class StageRandomTests: XCTestCase {
    /// What a transition might draw: every spelling UIKit code uses.
    private func draws() -> [String] {
        var deck = [1, 2, 3, 4, 5]
        deck.shuffle()
        return [
            "\(Int.random(in: 0..<1000))", "\(Int.random(in: 1...6))", "\(UInt8.random(in: 0...255))",
            "\(CGFloat.random(in: 0..<1))", "\(Double.random(in: -1...1))", "\(Float.random(in: 0..<10))",
            "\(Bool.random())", "\([10, 20, 30].randomElement()!)", "\(Array(0..<5).shuffled())", "\(deck)",
        ]
    }

    func testTheSameSeedDrawsTheSameNumbers() throws {
        let stage = try makeStage()
        let first = draws()
        let again = try makeStage()
        XCTAssertEqual(draws(), first, "a new stage starts the sequence again")
        XCTAssertNotEqual(draws(), first, "the sequence goes on")
        let seeded = try Stage(device: testDevice(), fps: 10, randomSeed: 7)
        XCTAssertNotEqual(draws(), first, "another seed, other numbers")
        withExtendedLifetime((stage, again, seeded)) {}
    }

    func testTheSeededNumbersStayInTheirRangesAndSpread() throws {
        let stage = try makeStage()
        defer { withExtendedLifetime(stage) {} }
        var counts = [Int](repeating: 0, count: 6)
        for _ in 0..<6000 { counts[Int.random(in: 0..<6)] += 1 }
        // A fair die: each face 1000 ± 5 standard deviations (≈ 29 each).
        for count in counts { XCTAssertEqual(Double(count), 1000, accuracy: 150) }
        for _ in 0..<1000 {
            let x = CGFloat.random(in: 2..<3)
            XCTAssertTrue(x >= 2 && x < 3)
        }
        XCTAssertNil([Int]().randomElement())
    }
}
