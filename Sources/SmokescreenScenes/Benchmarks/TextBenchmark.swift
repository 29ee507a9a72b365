import Foundation
import Typesetting

/// What laying out a label costs: each label of a small corpus (Latin, Japanese, Arabic, Hebrew, mixed;
/// one line and wrapped) laid out with ``TextLayout`` at 17 pt, timed per label. Two cases: every layout
/// of a text it has not seen (the text made unique by a counter, so no cache answers), and the same
/// label laid out again, as a table redraws its visible cells on every frame.
public struct TextBenchmark {
    /// Repetitions; medians are taken over every layout of every run.
    public var runs: Int
    /// Told what is being measured.
    public var progress: ((String) -> Void)?

    /// A benchmark of `runs` runs over the corpus.
    public init(runs: Int = 5, progress: ((String) -> Void)? = nil) {
        self.runs = runs
        self.progress = progress
    }

    /// The labels laid out, with the width (points) they wrap to (infinite: one line).
    public static let corpus: [(text: String, width: Double)] = [
        ("AVATAR", .infinity),
        ("Tokyo", .infinity),
        ("Settings", .infinity),
        ("The office is closed on Sunday", .infinity),
        ("Coffee, ranked: the ten best cafés within walking distance of the office", 280),
        ("東京の天気、晴れ。「明日」は雨でしょう。", .infinity),
        ("吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。", 200),
        ("مرحبا بالعالم", .infinity),
        ("שלום עולם", .infinity),
        ("Hello עולם and مرحبا", .infinity),
    ]

    /// Microseconds per label laid out: medians over all labels of all runs.
    public struct Result: Sendable {
        /// A text seen for the first time.
        public var firstMicroseconds: Double
        /// The same text, font and width laid out again.
        public var repeatedMicroseconds: Double
        /// Layouts timed in each case.
        public var layouts: Int
    }

    public func run() throws -> Result {
        let style = TextStyle(font: .system(size: 17), numberOfLines: 0)
        // Open the fonts (and the fallback chain) before timing.
        for (text, width) in Self.corpus { _ = try TextLayout(text, style: style, width: width) }
        var first: [Double] = [], repeated: [Double] = []
        progress?("\(Self.corpus.count) labels, each laid out once per run as a new text")
        for run in 0..<runs {
            for (k, (text, width)) in Self.corpus.enumerated() {
                let unique = text + " \(run * Self.corpus.count + k)"
                first.append(try Self.seconds { _ = try TextLayout(unique, style: style, width: width) })
            }
        }
        progress?("the same labels laid out again, 20 times per run")
        for _ in 0..<runs {
            for (text, width) in Self.corpus {
                for _ in 0..<20 { repeated.append(try Self.seconds { _ = try TextLayout(text, style: style, width: width) }) }
            }
        }
        return Result(firstMicroseconds: Self.median(first) * 1e6, repeatedMicroseconds: Self.median(repeated) * 1e6,
                      layouts: first.count)
    }

    static func seconds(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
