import ArgumentParser
import BoundedInput
import Foundation
import SwiftSourcePass
#if canImport(Glibc)
import Glibc
#endif

/// `smokescreen render File.swift…`: UIKit code written for iOS, compiled against Smokescreen's UIKit
/// and run on a stage.
///
/// The files go through the source pass (each change printed with its line) into a cache folder, with a
/// `main.swift` that calls the files' `run(on:)`. Smokescreen's UIKit is one shared library,
/// `libSmokescreenStageRuntime.so`, built by `swift build -c release` in Smokescreen's own package (its
/// modules shared with the tool's release build; minutes the first time, then only when Smokescreen's
/// sources changed); `swiftc` compiles only the user's files against it (about a second), and the
/// program renders into the output folder. The compiler's diagnostics name the user's files, lines and
/// columns.
package struct SwiftFileRender {
    /// The user's files, as given.
    let files: [String]
    let out: String
    let name: String
    let device: String
    /// Dynamic Type's text size, by `StageTextSizes`' names.
    var textSize = "large"
    /// The stage's appearance: "light" or "dark".
    var appearance = "light"
    /// Whether the frames show iOS's status bar and home indicator (`--no-status-bar`: no).
    var drawsStatusBar = true
    /// "portrait" or "landscape".
    var orientation = "portrait"
    let fps: Double
    let scale: Int?
    let jobs: Int?
    let force: Bool
    /// Virtual seconds after `run(on:)` for what it started to end.
    let timeLimit: Double
    /// Wall-clock seconds the program may run.
    let timeout: Double
    let packageRoot: String?
    let quiet: Bool

    static let maximumFiles = 64
    static let maximumFileBytes = 1 << 20
    /// `func run(on stage: Stage)` (throwing or not), as the files must define it.
    static let entryPoint = "run(on:)"

    // MARK: Checking the files

    /// The files' text, checked: each a readable regular `.swift` file under the size limit, names
    /// distinct, one of them defining `run(on stage: Stage)`.
    func readFiles() throws -> [(name: String, text: String)] {
        guard files.count <= Self.maximumFiles else {
            throw CLIError(ExitStatus.usage, "at most \(Self.maximumFiles) Swift files, got \(files.count)")
        }
        var seen = Set<String>()
        var read: [(String, String)] = []
        for path in files {
            guard path.hasSuffix(".swift") else { throw CLIError(ExitStatus.usage, "\(path): not a Swift file (.swift); give only Swift files") }
            let base = (path as NSString).lastPathComponent
            guard base != "main.swift" else {
                throw CLIError(ExitStatus.usage, "\(path): a file named main.swift is where the program starts; define func run(on stage: Stage) in a file of another name")
            }
            guard seen.insert(base).inserted else { throw CLIError(ExitStatus.usage, "\(path): two files are named \(base)") }
            let bytes: [UInt8]
            do { bytes = try InputFile.read(path, limit: Self.maximumFileBytes, what: "Swift file") } catch {
                throw CLIError(error.exitStatus, "\(error)")
            }
            guard let text = String(validating: bytes, as: UTF8.self) else { throw CLIError(ExitStatus.dataError, "\(path): not UTF-8 text") }
            read.append((path, text))
        }
        guard read.contains(where: { Self.definesEntryPoint($0.1) }) else {
            throw CLIError(ExitStatus.usage, "none of the files defines func run(on stage: Stage) throws, which the render calls with the stage "
                           + "(see docs/uikit.md, \"Rendering Swift files\")")
        }
        return read
    }

    static func definesEntryPoint(_ text: String) -> Bool { SourcePass.declaresRenderEntryPoint(text) }

    // MARK: Running

    func run() throws {
        ChildProcesses.stopWithUs()
        let sources = try readFiles()
        let root = try findPackageRoot()
        let cache = try cacheFolder(root: root)
        let sourceFolder = cache + "/Sources/SwiftRender"
        // The source pass, each change printed where it was made.
        var rewritten: [(name: String, original: String, text: String)] = []
        var problems = 0
        for (path, text) in sources {
            let result = SourcePass.rewrite(text, file: sourceFolder + "/" + (path as NSString).lastPathComponent)
            if !quiet { for change in result.changes { printNote("\(path):\(change.line): \(change)") } }
            for problem in result.problems {
                printError("\(path):\(problem.line): \(problem.message)")
                problems += 1
            }
            rewritten.append(((path as NSString).lastPathComponent, path, result.text))
        }
        if problems > 0 { throw CLIError(ExitStatus.dataError, "the source pass could not rewrite \(problems) construct\(problems == 1 ? "" : "s") (above)") }

        let lock = try lockCache(cache)
        defer { close(lock) }
        try removeEarlierPackageBuild(in: cache)
        try syncSources(rewritten.map { ($0.name, $0.text) }, into: sourceFolder)
        let runtime = try buildRuntime(root: root, cache: cache)
        let start = Date()
        if !quiet { printNote("compiling \(files.count) file\(files.count == 1 ? "" : "s") against Smokescreen's UIKit (\(cache))…") }
        let program = cache + "/SwiftRender"
        let compile = runProcess("/usr/bin/env", ["swiftc"] + compilerArguments(root: root, binFolder: runtime, sourceFolder: sourceFolder,
                                                                                 files: rewritten.map(\.name) + ["main.swift"], program: program),
                                 timeout: nil)
        let mapped = mapDiagnostics(compile.output, sourceFolder: sourceFolder, originals: Dictionary(uniqueKeysWithValues: rewritten.map { ($0.name, $0.original) }))
        guard compile.status == 0 else {
            FileHandle.standardError.write(Data(mapped.diagnostics.utf8))
            if mapped.diagnostics.isEmpty { FileHandle.standardError.write(Data(compile.output.suffix(4000).utf8)) }
            guard mapped.errors > 0 else {
                throw CLIError(ExitStatus.failure, "compiling the files against Smokescreen's UIKit failed outside them (the compiler's output is above)")
            }
            throw CLIError(ExitStatus.dataError, "the files do not compile against Smokescreen's UIKit (\(mapped.errors) error\(mapped.errors == 1 ? "" : "s"))")
        }
        if !quiet, !mapped.diagnostics.isEmpty { FileHandle.standardError.write(Data(mapped.diagnostics.utf8)) }
        if !quiet { printNote(String(format: "compiled in %.1f s", Date().timeIntervalSince(start))) }

        var arguments = ["--out", out, "--name", name, "--device", device, "--orientation", orientation, "--text-size", textSize, "--appearance", appearance, "--fps", String(fps),
                         "--time-limit", String(timeLimit), "--status-bar", drawsStatusBar ? "on" : "off"]
        if let scale { arguments += ["--scale", String(scale)] }
        if let jobs { arguments += ["--jobs", String(jobs)] }
        if force { arguments.append("--force") }
        let result = runProcess(program, arguments, timeout: timeout, passThrough: true)
        if result.timedOut {
            throw CLIError(ExitStatus.failure, "the script ran for over \(Int(timeout)) s of wall-clock time and was stopped (an endless loop in its code?); "
                           + "nothing was written (raise --timeout for a long render)")
        }
        if let signal = result.signal {
            throw CLIError(ExitStatus.failure, "the script crashed (signal \(signal)\(signal == 4 || signal == 5 ? ": a trap in Swift code, such as a force unwrap of nil or an index out of range" : "")); its output is above")
        }
        guard result.status == 0 else { throw ExitCode(result.status) }
        if !quiet { print("\(name): \(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) → \(out)") }
    }

    // MARK: The package

    /// Smokescreen's package: `--package`, `$SMOKESCREEN_PACKAGE`, or the package this executable was
    /// built in (found from its path).
    func findPackageRoot() throws -> String {
        if let given = packageRoot ?? ProcessInfo.processInfo.environment["SMOKESCREEN_PACKAGE"] {
            guard Self.isSmokescreenPackage(given) else {
                throw CLIError(ExitStatus.usage, "\(given): not Smokescreen's package (no Package.swift declaring SmokescreenStage)")
            }
            return URL(fileURLWithPath: given).standardizedFileURL.resolvingSymlinksInPath().path
        }
        var candidates: [String] = []
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        candidates.append(executable)
        candidates.append(FileManager.default.currentDirectoryPath + "/.")
        // The package this tool was built in, where it still is (an installed tool is elsewhere).
        candidates.append(Self.builtIn)
        for start in candidates {
            var folder = (start as NSString).deletingLastPathComponent
            while folder != "/" && !folder.isEmpty {
                if Self.isSmokescreenPackage(folder) { return folder }
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        throw CLIError(ExitStatus.usage, "rendering Swift files needs Smokescreen's package to compile them against: none around the tool, "
                       + "the current folder or the package it was built in (\(Self.builtInPackage)); "
                       + "pass --package PATH (or set SMOKESCREEN_PACKAGE)")
    }

    /// This source file where the tool was built: the package it was built in is three folders up.
    static let builtIn = #filePath
    static var builtInPackage: String {
        ((((builtIn as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent)
    }

    static func isSmokescreenPackage(_ folder: String) -> Bool {
        guard let text = try? String(contentsOfFile: folder + "/Package.swift", encoding: .utf8) else { return false }
        return text.contains("\"SmokescreenStage\"")
    }

    /// One cache per Smokescreen package, so that its modules are compiled once for every render.
    func cacheFolder(root: String) throws -> String {
        let base = ProcessInfo.processInfo.environment["SMOKESCREEN_CACHE"]
            ?? ((ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? (NSHomeDirectory() + "/.cache")) + "/smokescreen")
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in root.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        let folder = base + "/swift-render/" + String(hash, radix: 16)
        do { try FileManager.default.createDirectory(atPath: folder + "/Sources/SwiftRender", withIntermediateDirectories: true) } catch {
            throw CLIError(ExitStatus.cannotCreate, "\(folder): cannot make the build cache: \(error.localizedDescription)")
        }
        return folder
    }

    /// One render at a time per cache (two at once would compile into the same folder).
    func lockCache(_ folder: String) throws -> Int32 {
        let fd = open(folder + "/.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CLIError(ExitStatus.cannotCreate, "\(folder)/.lock: cannot open the cache's lock") }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if !quiet { printNote("waiting for another render of Swift files to finish with the cache…") }
            _ = flock(fd, LOCK_EX)
        }
        return fd
    }

    /// The release build's folder of Smokescreen's package, with `libSmokescreenStageRuntime.so` in it
    /// up to date: built by `swift build` when it is missing or a source of the package (or its manifest)
    /// changed since the last build this cache saw; otherwise left as it is, without starting SwiftPM.
    func buildRuntime(root: String, cache: String) throws -> String {
        let bin = root + "/.build/release"
        let library = bin + "/" + Self.runtimeLibrary
        let stampPath = cache + "/runtime-stamp"
        // The stamp: when the last build started, and the library's modification time it left.
        if let stamp = try? String(contentsOfFile: stampPath, encoding: .utf8),
           let (started, built) = Self.parseStamp(stamp),
           let modified = Self.modificationTime(library), modified == built,
           Self.newestSource(root: root) < started {
            return bin
        }
        let started = Date().timeIntervalSince1970
        if !quiet {
            printNote("bringing Smokescreen's UIKit up to date in \(root)/.build (\(Self.modificationTime(library) == nil ? "the first time: minutes" : "only what changed"))…")
        }
        let build = runProcess("/usr/bin/env", ["swift", "build", "-c", "release", "--package-path", root, "--product", Self.runtimeProduct], timeout: nil)
        guard build.status == 0, let built = Self.modificationTime(library) else {
            FileHandle.standardError.write(Data(build.output.suffix(4000).utf8))
            throw CLIError(ExitStatus.failure, "building Smokescreen's UIKit (swift build -c release --product \(Self.runtimeProduct) in \(root)) failed; its output is above")
        }
        try? "\(started) \(built)\n".write(toFile: stampPath, atomically: true, encoding: .utf8)
        return bin
    }

    static let runtimeProduct = "SmokescreenStageRuntime"
    static let runtimeLibrary = "lib\(runtimeProduct).so"

    package static func parseStamp(_ text: String) -> (Double, Double)? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    static func modificationTime(_ path: String) -> Double? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    /// The newest modification time of the package's manifest and of anything under `Sources/` (a few
    /// milliseconds for the package's files; a folder's time covers files added to it or removed).
    package static func newestSource(root: String) -> Double {
        var newest = modificationTime(root + "/Package.swift") ?? .infinity
        let sources = root + "/Sources"
        newest = max(newest, modificationTime(sources) ?? .infinity)
        guard let walker = FileManager.default.enumerator(atPath: sources) else { return .infinity }
        while let relative = walker.nextObject() as? String {
            newest = max(newest, modificationTime(sources + "/" + relative) ?? .infinity)
        }
        return newest
    }

    /// `swiftc`'s arguments for the user's module: Swift 5 mode, optimized, the package's modules and
    /// its C modules' maps (with the system headers they include, by pkg-config as SwiftPM finds them),
    /// linked against the runtime library by its absolute path.
    func compilerArguments(root: String, binFolder bin: String, sourceFolder: String, files: [String], program: String) -> [String] {
        var arguments = ["-module-name", "SwiftRender", "-swift-version", "5", "-O", "-g", "-D", "SWIFT_PACKAGE",
                         "-no-color-diagnostics", "-I", bin + "/Modules"]
        let fm = FileManager.default
        let sources = root + "/Sources"
        for target in ((try? fm.contentsOfDirectory(atPath: sources)) ?? []).sorted() {
            // A system library's own module map; a C target's, written by SwiftPM into its build folder.
            if fm.fileExists(atPath: sources + "/" + target + "/module.modulemap") {
                arguments += ["-Xcc", "-fmodule-map-file=" + sources + "/" + target + "/module.modulemap"]
            } else if fm.fileExists(atPath: bin + "/" + target + ".build/module.modulemap") {
                arguments += ["-Xcc", "-fmodule-map-file=" + bin + "/" + target + ".build/module.modulemap",
                              "-Xcc", "-I", "-Xcc", sources + "/" + target + "/include"]
            }
        }
        arguments += systemIncludeFlags(root: root)
        arguments += files.map { sourceFolder + "/" + $0 }
        arguments += ["-L", bin, "-l" + Self.runtimeProduct, "-Xlinker", "-rpath=" + bin, "-o", program]
        return arguments
    }

    /// `-I` flags of the system libraries the package's manifest names by `pkgConfig:`.
    func systemIncludeFlags(root: String) -> [String] {
        guard let manifest = try? String(contentsOfFile: root + "/Package.swift", encoding: .utf8) else { return [] }
        let names = manifest.matches(of: /pkgConfig: "([^"]+)"/).map { String($0.1) }
        guard !names.isEmpty else { return [] }
        let result = runProcess("/usr/bin/env", ["pkg-config", "--cflags-only-I"] + names, timeout: 30)
        guard result.status == 0 else { return [] }
        var seen = Set<String>()
        return result.output.split(whereSeparator: \.isWhitespace).map(String.init).filter { $0.hasPrefix("-I") && seen.insert($0).inserted }
    }

    /// An earlier version of the command kept a whole SwiftPM package and its build here (hundreds of
    /// megabytes): removed, now that the build is the package's own.
    func removeEarlierPackageBuild(in cache: String) throws {
        for name in [".build", "Package.swift", "Package.resolved"] where FileManager.default.fileExists(atPath: cache + "/" + name) {
            try? FileManager.default.removeItem(atPath: cache + "/" + name)
        }
    }

    /// The files into the cache's source folder (each written only when it changed), and files of an
    /// earlier render removed.
    func syncSources(_ sources: [(name: String, text: String)], into folder: String) throws {
        let main = """
        // Written by `smokescreen render File.swift`: the stage the command describes, given to run(on:).
        import SmokescreenStage

        StageRunner.main { stage in try run(on: stage) }

        """
        let wanted = sources.map(\.name) + ["main.swift"]
        for existing in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !wanted.contains(existing) {
            try? FileManager.default.removeItem(atPath: folder + "/" + existing)
        }
        for (name, text) in sources { try writeIfChanged(text, to: folder + "/" + name) }
        try writeIfChanged(main, to: folder + "/main.swift")
    }

    private func writeIfChanged(_ text: String, to path: String) throws {
        if let old = try? String(contentsOfFile: path, encoding: .utf8), old == text { return }
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw CLIError(ExitStatus.cannotCreate, "\(path): cannot write: \(error.localizedDescription)")
        }
    }

    // MARK: Diagnostics

    /// The compiler's errors and warnings about the user's files, with the paths the user gave.
    func mapDiagnostics(_ output: String, sourceFolder: String, originals: [String: String]) -> (diagnostics: String, errors: Int) {
        var lines: [String] = []
        var errors = 0
        var keep = false
        let folder = (sourceFolder as NSString).resolvingSymlinksInPath
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            var text = String(line)
            var isHeader = false
            for prefix in [sourceFolder + "/", folder + "/"] where text.hasPrefix(prefix) {
                let rest = text.dropFirst(prefix.count)
                guard let colon = rest.firstIndex(of: ":") else { continue }
                let file = String(rest[..<colon])
                guard let original = originals[file] else { continue }
                text = original + rest[colon...]
                isHeader = true
            }
            if isHeader {
                keep = text.contains(": error:") || text.contains(": warning:")
                if text.contains(": error:") { errors += 1 }
                if keep { lines.append(text) }
                continue
            }
            if text.hasPrefix("/") || text.hasPrefix("[") || text.hasPrefix("Building") || text.hasPrefix("Compiling") || text.hasPrefix("error: ") && text.contains("emit-module") {
                keep = false
                continue
            }
            // The compiler's excerpt under a diagnostic (source lines and carets).
            if keep, !text.isEmpty { lines.append(text) }
        }
        return (lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n", errors)
    }

    // MARK: Processes

    struct ProcessResult {
        var status: Int32
        var signal: Int32?
        var output: String
        var timedOut: Bool
    }

    /// Runs `executable` with `arguments`; with `passThrough`, its standard error goes to ours as it
    /// comes (the script's messages) and only standard output is kept.
    func runProcess(_ executable: String, _ arguments: [String], timeout: Double?, passThrough: Bool = false) -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = passThrough ? FileHandle.standardError : pipe
        do { try ChildProcesses.run(process) } catch {
            return ProcessResult(status: ExitStatus.failure, signal: nil, output: "cannot run \(executable): \(error.localizedDescription)", timedOut: false)
        }
        defer { ChildProcesses.ended() }
        let timedOut = TimeoutFlag()
        if let timeout {
            let pid = process.processIdentifier
            let watched = process
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                guard watched.isRunning else { return }
                timedOut.set()
                kill(pid, SIGKILL)
            }
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        let wasTimedOut = timedOut.isSet
        if process.terminationReason == .uncaughtSignal {
            return ProcessResult(status: ExitStatus.failure, signal: process.terminationStatus, output: output, timedOut: wasTimedOut)
        }
        return ProcessResult(status: process.terminationStatus, signal: nil, output: output, timedOut: wasTimedOut)
    }
}

/// The child a Swift render waits for (the compiler's build, the script), stopped with the tool: Ctrl-C,
/// `kill` or a CI's timeout ending the tool ends the child's process group too (Foundation starts each
/// child in a group of its own), so that no build goes on writing into the package's `.build` unowned.
///
/// The signals get a handler (not `SIG_IGN`, which a child would inherit, and not a Dispatch source, which
/// is only installed later on Dispatch's own thread: children spawned meanwhile ignored the signals). A
/// handler is reset to the default across `exec`, so children start as usual. The handler does only what
/// is safe there: read the child's pid, `killpg`, `_exit` with the shell's status (128 + the signal).
enum ChildProcesses {
    /// The running child's pid, 0 for none; `spawning` is 1 while one is being started (its pid not yet
    /// known): a signal then is kept in `requested` and acted on once the pid is.
    nonisolated(unsafe) static var child: pid_t = 0
    nonisolated(unsafe) static var spawning: Int32 = 0
    nonisolated(unsafe) static var requested: Int32 = 0

    /// From now on SIGINT, SIGTERM and SIGHUP stop the running child's group, then the tool.
    static func stopWithUs() {
        // (Touched here first: a static is initialized lazily, which the handler must not be the one to do.)
        _ = (child, spawning, requested)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            _ = signal(number) { received in
                let pid = ChildProcesses.child
                if pid > 0 { _ = killpg(pid, SIGTERM); _exit(128 + received) }
                if ChildProcesses.spawning != 0 { ChildProcesses.requested = received; return }
                _exit(128 + received)
            }
        }
    }

    /// Starts `process`, known as the running child from the moment it has a pid.
    static func run(_ process: Process) throws {
        spawning = 1
        defer { spawning = 0 }
        do { try process.run() } catch {
            // (Nothing started; a signal that came meanwhile still stops the tool.)
            if requested != 0 { _exit(128 + requested) }
            throw error
        }
        child = process.processIdentifier
        spawning = 0
        if requested != 0 { _ = killpg(child, SIGTERM); _exit(128 + requested) }
    }

    /// The child has ended.
    static func ended() { child = 0 }
}

/// Set once, from the timer's thread, read after the process ended.
final class TimeoutFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// An error of the Swift render: a message and the exit status it stands for.
struct CLIError: Error, CustomStringConvertible {
    let status: Int32
    let description: String
    init(_ status: Int32, _ description: String) {
        self.status = status
        self.description = description
    }
}

func printNote(_ message: String) {
    FileHandle.standardError.write(Data("smokescreen: \(message)\n".utf8))
}

/// The devices `render --device` names (the stage's, in module SmokescreenStage, which the tool does not
/// link: the names are kept in step with `StageRunner`'s by `SwiftFileRenderTests`).
package enum StageDevices {
    package static let names = ["iPhone15", "iPhone15ProMax", "iPhoneSE", "iPadAir"]
}

/// The Dynamic Type text sizes `render --text-size` names, smallest first (kept in step with
/// `StageRunner.textSizes` the same way).
package enum StageTextSizes {
    package static let names = TextSizeOption.names
}
