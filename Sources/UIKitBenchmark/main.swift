// `uikit-bench`: the same transition written with the UIKit layer and with Smokescreen's own API, timed
// and measured side by side (docs/performance.md, "The UIKit layer against the native API").
//
//   swift run -c release uikit-bench [--runs 7] [--scale 2] [--fps 60] [--assets assets]
//
// Per run, each side: building the frames (the views made, the animation run on the virtual clock, one
// presentation tree frozen per frame) and drawing every frame into one canvas on one thread; the sides
// alternate, and the medians over runs are printed with their ratio. Memory: each side in a child
// process of its own (this program with `--child native|uikit|empty`), its peak resident size above
// that of a child which only loads the thumbnail, per frame. Before timing, the two sides' frames are
// compared pixel by pixel: the pair measures the same pictures.
import Foundation
import PNGIO
import RasterCore
import SmokescreenStage
import TransitionCompositor

/// What both sides animate.
enum Pair {
    static let duration = 0.5
    static let selectedRow = 3
    /// The table's visible bounds (its content offset is 17 pt), points.
    static let grownFrame = (x: 0.0, y: 17.0, width: 375.0, height: 603.0)
}

struct Options {
    var runs = 7, scale = 2.0, fps = 60.0, assets = "assets", child: String?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let v = rest.popFirst() else { throw BenchError("\(name) needs a value") }
            return v
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--runs":
                guard let n = Int(try value(argument)), (1...1000).contains(n) else { throw BenchError("--runs must be 1…1000") }
                runs = n
            case "--scale":
                guard let s = Double(try value(argument)), [1, 2, 3].contains(s) else { throw BenchError("--scale must be 1, 2 or 3") }
                scale = s
            case "--fps":
                guard let f = Double(try value(argument)), f >= 1, f <= 120 else { throw BenchError("--fps must be 1…120") }
                fps = f
            case "--assets": assets = try value(argument)
            case "--child": child = try value(argument)
            default: throw BenchError("unknown argument '\(argument)' (--runs N, --scale 1|2|3, --fps F, --assets PATH)")
            }
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let d = start.duration(to: .now)
    return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// Every frame of `sequence` drawn into one canvas, in order, and (`encode`) each encoded as a PNG with
/// the `fast` preset; returns the seconds spent drawing and encoding.
@discardableResult
func drawAll(_ sequence: FrameSequence, encode: Bool = false) throws -> (draw: Double, encode: Double) {
    var canvas = try sequence.makeCanvas()
    let encoder = PNGEncoder(compression: .fast)
    var drawing = 0.0, encoding = 0.0
    for index in 0..<sequence.times.count {
        drawing += seconds { sequence.draw(frame: index, into: &canvas) }
        if encode { encoding += try seconds { _ = try encoder.encodeWithDigest(canvas) } }
    }
    return (drawing, encoding)
}

struct Sides {
    let thumbnail: Bitmap
    let image: UIImage
    let options: Options

    init(options: Options) throws {
        self.options = options
        let path = options.assets + "/reference/thumb_200.png"
        thumbnail = try PNGCodec.read(contentsOf: path)
        guard let image = UIImage(contentsOfFile: path) else { throw BenchError("\(path): not an image UIImage can read") }
        self.image = image
    }

    func native() throws -> FrameSequence { try NativeSide.render(thumbnail: thumbnail, scale: options.scale, fps: options.fps) }
    func uikit() throws -> FrameSequence { try UIKitSide.render(thumbnail: image, scale: options.scale, fps: options.fps) }
}

/// Pixels of frame `index` that differ by more than `tolerance` in a channel, out of all.
func differingPixels(_ a: FrameSequence, _ b: FrameSequence, frame index: Int, tolerance: Int) throws -> (Int, Int) {
    var x = try a.makeCanvas(), y = try b.makeCanvas()
    a.draw(frame: index, into: &x)
    b.draw(frame: index, into: &y)
    guard x.width == y.width, x.height == y.height else { return (x.width * x.height, x.width * x.height) }
    var differing = 0
    for row in 0..<x.height {
        for column in 0..<x.width {
            let p = x[column, row], q = y[column, row]
            if abs(Int(p.r) - Int(q.r)) > tolerance || abs(Int(p.g) - Int(q.g)) > tolerance
                || abs(Int(p.b) - Int(q.b)) > tolerance || abs(Int(p.a) - Int(q.a)) > tolerance { differing += 1 }
        }
    }
    return (differing, x.width * x.height)
}

/// This process's peak resident size (bytes), from `VmHWM` in /proc/self/status: the peak of its own
/// memory since it started (`ru_maxrss` of a spawned child starts from its parent's peak).
func peakResidentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else { return 0 }
    return kilobytes * 1024
}

/// Runs this program with `--child side` and returns the child's peak resident size (bytes).
func childPeak(_ side: String, options: Options) throws -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--child", side, "--scale", String(options.scale), "--fps", String(options.fps), "--assets", options.assets]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0, let bytes = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw BenchError("the \(side) child failed (status \(process.terminationStatus))")
    }
    return bytes
}

func run() throws {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let sides = try Sides(options: options)
    if let child = options.child {
        switch child {
        case "native": try drawAll(try sides.native())
        case "uikit": try drawAll(try sides.uikit())
        case "empty": break
        default: throw BenchError("--child is native, uikit or empty")
        }
        print(peakResidentBytes())
        return
    }
    let native = try sides.native(), uikit = try sides.uikit()
    guard native.times.count == uikit.times.count else {
        throw BenchError("the sides take \(native.times.count) and \(uikit.times.count) frames: not the same transition")
    }
    let frames = native.times.count
    var worst = 0.0
    for index in [0, frames / 4, frames / 2, 3 * frames / 4, frames - 1] {
        let (differing, all) = try differingPixels(native, uikit, frame: index, tolerance: 2)
        worst = max(worst, Double(differing) / Double(all))
    }
    print(String(format: "pair: %d frames @%gx, %g fps; the sides' frames differ in %.3f %% of the pixels at most (channel Δ > 2; frames 0, ¼, ½, ¾, last)",
                 frames, options.scale, options.fps, worst * 100))
    var build: [String: [Double]] = [:], draw: [String: [Double]] = [:], encode: [String: [Double]] = [:], all: [String: [Double]] = [:]
    for _ in 0..<options.runs {
        for (name, make) in [("native", sides.native), ("uikit", sides.uikit)] {
            var sequence: FrameSequence?
            let b = try seconds { sequence = try make() }
            let (d, e) = try drawAll(sequence!, encode: true)
            build[name, default: []].append(b)
            draw[name, default: []].append(d)
            encode[name, default: []].append(e)
            all[name, default: []].append(b + d + e)
        }
    }
    func ms(_ s: Double) -> String { String(format: "%6.2f ms", s * 1000 / Double(frames)) }
    print("medians of \(options.runs) runs, per frame, one thread (build: views, animation and frozen trees; draw; encode: PNG, fast):")
    print("  side      build      draw    encode     whole")
    for name in ["native", "uikit"] {
        print("  \(name.padding(toLength: 6, withPad: " ", startingAt: 0))  \(ms(median(build[name]!)))  \(ms(median(draw[name]!)))  "
              + "\(ms(median(encode[name]!)))  \(ms(median(all[name]!)))")
    }
    func ratio(_ values: [String: [Double]]) -> Double { median(values["uikit"]!) / median(values["native"]!) }
    print(String(format: "  UIKit / native: build %.2fx, draw %.2fx, encode %.2fx, whole %.2fx", ratio(build), ratio(draw), ratio(encode), ratio(all)))
    let empty = try childPeak("empty", options: options)
    let nativePeak = try childPeak("native", options: options), uikitPeak = try childPeak("uikit", options: options)
    func kb(_ bytes: Int) -> String { String(format: "%.1f KB", Double(bytes) / 1024) }
    print("peak resident size above a process that only loaded the thumbnail (\(kb(empty))), per frame:")
    print("  native \(kb((nativePeak - empty) / frames)), UIKit \(kb((uikitPeak - empty) / frames)): "
          + String(format: "%.2fx", Double(uikitPeak - empty) / Double(max(1, nativePeak - empty))))
}

do { try run() } catch {
    FileHandle.standardError.write(Data("uikit-bench: \(error)\n".utf8))
    exit(1)
}
