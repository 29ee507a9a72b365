import BoundedInput
import Foundation
import FrameStore
import PNGIO
import RasterCore
import TransitionCompositor

/// What `smokescreen bench --summary` measures for one built-in transition: each stage of the pipeline
/// in process (draw, encode, write, one frame at a time on one thread), and the whole process as users
/// run it (`smokescreen render NAME`, on all cores and on one, and at @3x), with its peak resident memory.
/// Times are wall-clock seconds, medians; measure release builds only.
public struct PipelineBenchmark {
    /// The workloads the summary covers, in the order of docs/performance.md: the reference scene, the default
    /// Vesper transition, a table batch update and the page curl.
    public static let workloads = ["reference", "vesper-timeline-to-detail", "table-batch-mixed", "inippon-pages-curl"]

    /// Runs of each measurement. Default 5.
    public var runs: Int
    /// Pixels per point. Default 2.
    public var scale: Int
    /// Threads of the whole-process runs. Default: the number of cores.
    public var jobs: Int
    /// The assets folder.
    public var assetsDirectory: String
    /// The `smokescreen` executable the whole-process runs start (default: this process's own).
    public var executable: String

    public init(assetsDirectory: String, runs: Int = 5, scale: Int = 2, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                executable: String = PipelineBenchmark.ownExecutable) {
        self.assetsDirectory = assetsDirectory
        self.runs = runs
        self.scale = scale
        self.jobs = jobs
        self.executable = executable
    }

    /// The path of the running executable (``AssetLocator/executablePath``).
    public static var ownExecutable: String { AssetLocator.executablePath }

    /// One transition's figures.
    public struct Workload: Codable, Sendable, Equatable {
        /// The built-in's name.
        public var name: String
        /// Frames of one render, and their size in pixels.
        public var frames: Int, width: Int, height: Int
        /// Preparing the render before any frame (the timeline run, snapshots, images), median: work
        /// before the frames that one thread does.
        public var prepareMilliseconds: Double
        /// Per frame, median over every frame of every run, on one thread: drawing the frame into a reused
        /// canvas, encoding it (`fast` preset, SHA-256 included, one reused encoder), writing the file
        /// (temporary name and rename).
        public var drawMilliseconds: Double, encodeMilliseconds: Double, writeMilliseconds: Double
        /// The whole process (`smokescreen render NAME --scale S --jobs J`), median wall time.
        public var totalMilliseconds: Double
        /// The same with `--jobs 1`, and the ratio of the two.
        public var totalOneJobMilliseconds: Double, jobsSpeedup: Double
        /// The same at @3x, and its ratio to the figure at `scale` (for @2x: pixels grow 2.25x).
        public var totalAt3xMilliseconds: Double, ratio3xOverScale: Double
        /// Peak resident memory of the whole process (the largest of the runs at `scale`), and above a run
        /// that renders nothing (`smokescreen list`).
        public var peakResidentBytes: Int, peakAboveEmptyBytes: Int
        /// The most bitmap bytes alive at once in the in-process runs (frames, snapshots, tiles).
        public var peakBitmapBytes: Int

        /// Every stored property given (written out so that the package's tests can call it).
        package init(name: String, frames: Int, width: Int, height: Int, prepareMilliseconds: Double, drawMilliseconds: Double,
                     encodeMilliseconds: Double, writeMilliseconds: Double, totalMilliseconds: Double,
                     totalOneJobMilliseconds: Double, jobsSpeedup: Double, totalAt3xMilliseconds: Double, ratio3xOverScale: Double,
                     peakResidentBytes: Int, peakAboveEmptyBytes: Int, peakBitmapBytes: Int) {
            self.name = name
            self.frames = frames
            self.width = width
            self.height = height
            self.prepareMilliseconds = prepareMilliseconds
            self.drawMilliseconds = drawMilliseconds
            self.encodeMilliseconds = encodeMilliseconds
            self.writeMilliseconds = writeMilliseconds
            self.totalMilliseconds = totalMilliseconds
            self.totalOneJobMilliseconds = totalOneJobMilliseconds
            self.jobsSpeedup = jobsSpeedup
            self.totalAt3xMilliseconds = totalAt3xMilliseconds
            self.ratio3xOverScale = ratio3xOverScale
            self.peakResidentBytes = peakResidentBytes
            self.peakAboveEmptyBytes = peakAboveEmptyBytes
            self.peakBitmapBytes = peakBitmapBytes
        }
    }

    /// Everything `bench --summary` prints.
    public struct Summary: Codable, Sendable {
        /// The processor's model name and core count.
        public var machine: String
        public var cores: Int
        public var scale: Int, runs: Int, jobs: Int
        /// Peak resident memory of `smokescreen list`, the baseline of ``Workload/peakAboveEmptyBytes``.
        public var emptyPeakResidentBytes: Int
        /// Wall time of `smokescreen list`: starting the process, median.
        public var emptyMilliseconds: Double
        public var workloads: [Workload]

        /// Every stored property given (written out so that the package's tests can call it).
        package init(machine: String, cores: Int, scale: Int, runs: Int, jobs: Int, emptyPeakResidentBytes: Int,
                     emptyMilliseconds: Double, workloads: [Workload]) {
            self.machine = machine
            self.cores = cores
            self.scale = scale
            self.runs = runs
            self.jobs = jobs
            self.emptyPeakResidentBytes = emptyPeakResidentBytes
            self.emptyMilliseconds = emptyMilliseconds
            self.workloads = workloads
        }
    }

    /// Measures every workload.
    public func run(progress: ((String) -> Void)? = nil) throws -> Summary {
        progress?("an empty run")
        var empty: [Int] = [], emptyTimes: [Double] = []
        for _ in 0..<runs {
            let r = try ProcessRun.run(executable, ["list"])
            empty.append(r.peakResidentBytes)
            emptyTimes.append(r.seconds * 1e3)
        }
        let emptyPeak = empty.max() ?? 0
        var results: [Workload] = []
        for name in Self.workloads {
            progress?(name)
            results.append(try measure(name, emptyPeak: emptyPeak))
        }
        return Summary(machine: Self.processorName, cores: ProcessInfo.processInfo.activeProcessorCount, scale: scale,
                       runs: runs, jobs: jobs, emptyPeakResidentBytes: emptyPeak,
                       emptyMilliseconds: ReferenceBenchmark.median(emptyTimes), workloads: results)
    }

    /// The stages in process, then the whole process.
    func measure(_ name: String, emptyPeak: Int) throws -> Workload {
        guard let transition = TransitionCatalog.transition(named: name) else {
            throw BenchmarkError("no built-in transition '\(name)'")
        }
        let settings = RenderSettings(scale: Double(scale), assetsDirectory: assetsDirectory)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smokescreen-bench-\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        var prepare: [Double] = [], draw: [Double] = [], encode: [Double] = [], write: [Double] = []
        var frames = 0, width = 0, height = 0
        for _ in 0..<runs { prepare.append(try ReferenceBenchmark.seconds { _ = try transition.render(settings) }) }
        let (_, memory) = try MemoryLedger.measure("bench \(name)") {
            let sequence = try transition.render(settings).sequence
            frames = sequence.times.count
            var canvas = try sequence.makeCanvas()
            width = canvas.width; height = canvas.height
            let encoder = PNGEncoder(compression: .fast)
            for _ in 0..<runs {
                for index in 0..<frames {
                    draw.append(ReferenceBenchmark.seconds { sequence.draw(frame: index, into: &canvas) })
                    var png: [UInt8] = []
                    encode.append(try ReferenceBenchmark.seconds { png = try encoder.encodeWithDigest(canvas).png })
                    let path = folder + "/" + FrameFileName.name(index)
                    write.append(try ReferenceBenchmark.seconds {
                        do throws(AtomicFileError) { try AtomicFile.write(png, to: path) } catch { throw BenchmarkError("cannot write \(path): \(error.reason)") }
                    })
                }
            }
        }

        func whole(jobs: Int, scale: Int) throws -> (milliseconds: Double, peak: Int) {
            var times: [Double] = [], peak = 0
            for _ in 0..<runs {
                let r = try ProcessRun.run(executable, ["render", name, "--scale", "\(scale)", "--jobs", "\(jobs)", "--out", folder + "/whole",
                                                        "--assets", assetsDirectory, "--quiet", "--force"])
                guard r.status == 0 else { throw BenchmarkError("smokescreen render \(name) exited with status \(r.status)") }
                times.append(r.seconds * 1e3)
                peak = max(peak, r.peakResidentBytes)
            }
            return (ReferenceBenchmark.median(times), peak)
        }
        let all = try whole(jobs: jobs, scale: scale), one = try whole(jobs: 1, scale: scale), big = try whole(jobs: jobs, scale: 3)
        return Workload(name: name, frames: frames, width: width, height: height, prepareMilliseconds: ReferenceBenchmark.median(prepare) * 1e3,
                        drawMilliseconds: ReferenceBenchmark.median(draw) * 1e3, encodeMilliseconds: ReferenceBenchmark.median(encode) * 1e3,
                        writeMilliseconds: ReferenceBenchmark.median(write) * 1e3,
                        totalMilliseconds: all.milliseconds, totalOneJobMilliseconds: one.milliseconds,
                        jobsSpeedup: one.milliseconds / all.milliseconds,
                        totalAt3xMilliseconds: big.milliseconds, ratio3xOverScale: big.milliseconds / all.milliseconds,
                        peakResidentBytes: all.peak, peakAboveEmptyBytes: all.peak - emptyPeak, peakBitmapBytes: memory.peakBytes)
    }

    /// `model name` from /proc/cpuinfo, or "unknown".
    static var processorName: String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
              let colon = line.firstIndex(of: ":") else { return "unknown" }
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
}

/// A child process run to its end: wall time, exit status and peak resident memory (from `wait4`).
package enum ProcessRun {
    package struct Result {
        package var status: Int32
        package var seconds: Double
        package var peakResidentBytes: Int
    }

    package static func run(_ executable: String, _ arguments: [String]) throws -> Result {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The child's output is not part of the measurement.
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let start = ContinuousClock.now
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchmarkError("cannot start \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchmarkError("cannot wait for \(executable): \(String(cString: strerror(errno)))") }
        }
        let d = ContinuousClock.now - start
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(status: exit, seconds: Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18,
                      peakResidentBytes: Int(usage.ru_maxrss) * 1024)
    }
}

/// A benchmark that could not run: the reason, naming the transition, file or executable.
public struct BenchmarkError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

extension PipelineBenchmark.Summary {
    private static func mib(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }

    /// The performance table of docs/performance.md.
    public var markdownTable: String {
        var lines = [
            "| transition | frames (px) | before the frames | draw | encode | write | whole process, \(jobs) jobs | 1 job | speed-up | @3x / @\(scale)x | peak above empty |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for w in workloads {
            lines.append(String(format: "| `%@` | %d (%dx%d) | %.1f ms | %.2f ms | %.2f ms | %.2f ms | %.0f ms | %.0f ms | %.2fx | %.2fx | %@ |",
                                w.name as NSString, w.frames, w.width, w.height, w.prepareMilliseconds, w.drawMilliseconds, w.encodeMilliseconds,
                                w.writeMilliseconds, w.totalMilliseconds, w.totalOneJobMilliseconds, w.jobsSpeedup,
                                w.ratio3xOverScale, Self.mib(w.peakAboveEmptyBytes) as NSString))
        }
        lines.append("")
        lines.append("Draw, encode and write are per frame on one thread; whole-process times are `smokescreen render NAME --scale \(scale)` wall times. Medians of \(runs) runs at @\(scale)x on \(machine), \(cores) cores; an empty run (`smokescreen list`) takes \(String(format: "%.0f", emptyMilliseconds)) ms and peaks at \(Self.mib(emptyPeakResidentBytes)).")
        return lines.joined(separator: "\n")
    }

    /// Plain text, one block per transition.
    public var text: String {
        var lines = ["\(machine), \(cores) cores; @\(scale)x, \(runs) runs, medians; an empty run takes \(String(format: "%.0f", emptyMilliseconds)) ms and peaks at \(Self.mib(emptyPeakResidentBytes))"]
        for w in workloads {
            lines.append("\(w.name): \(w.frames) frames of \(w.width)x\(w.height) px")
            lines.append(String(format: "  before the frames: %.1f ms", w.prepareMilliseconds))
            lines.append(String(format: "  per frame on one thread: draw %.3f ms, encode %.3f ms, write %.3f ms", w.drawMilliseconds, w.encodeMilliseconds, w.writeMilliseconds))
            lines.append(String(format: "  whole process: %.1f ms on %d jobs, %.1f ms on 1 (%.2fx); @3x %.1f ms (%.2fx)", w.totalMilliseconds, jobs,
                                w.totalOneJobMilliseconds, w.jobsSpeedup, w.totalAt3xMilliseconds, w.ratio3xOverScale))
            lines.append("  peak resident \(Self.mib(w.peakResidentBytes)), \(Self.mib(w.peakAboveEmptyBytes)) above empty; bitmaps at most \(Self.mib(w.peakBitmapBytes)) in process")
        }
        return lines.joined(separator: "\n")
    }
}
