import ArgumentParser
import BoundedInput
import Foundation
import FrameStore

/// `smokescreen merge PART… --out DIR`: the parts of a render made on separate machines, as one folder.
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Combine the parts of a render made on separate machines (folders or .tar/.tar.gz/.tgz of them) into one folder, checking that they belong together and that every frame is there once and unchanged.")

    @Argument(help: "The parts: `render --all` output folders (with catalogue.json), or folders of one transition's frames (`render --shard K/N`), or tarballs of either.")
    var parts: [String] = []

    @Option(help: "The folder to create with the merged render (must not exist, or be empty).")
    var out: String

    @Flag(help: "No summary line.")
    var quiet = false

    func validate() throws {
        guard !parts.isEmpty else { throw ValidationError("give the parts to merge") }
        if out.isEmpty { throw ValidationError("--out: the path is empty") }
    }

    func run() throws {
        let summary = try reportingErrors { try RenderMerge(parts: parts, out: out).run() }
        if !quiet { print(summary) }
    }
}

/// What `merge` found wrong: names the part, transition or frame and the reason (exit 65).
public struct MergeError: ExitStatusError, Equatable, Sendable {
    public var description: String
    public var exitStatus: Int32 { ExitStatus.dataError }
    init(_ description: String) { self.description = description }
}

/// Merges the parts of one render: either the parts of a catalogue (`render --all --shard K/N`, each
/// holding whole transitions) or the parts of one transition (`render NAME --shard K/N`, each holding
/// interleaved frames). Every part must come from the same render (same settings and inputs), every
/// part and frame must be there exactly once, and every frame file must have the SHA-256 its manifest
/// gives. The result is written to a temporary folder beside `out` and renamed at the end: nothing
/// half-written is left when a check fails.
public struct RenderMerge {
    public var parts: [String]
    public var out: String

    public init(parts: [String], out: String) {
        self.parts = parts
        self.out = out
    }

    /// Merges; returns a one-line summary.
    public func run() throws -> String {
        let fm = FileManager.default
        if fm.fileExists(atPath: out), ((try? fm.contentsOfDirectory(atPath: out)) ?? ["?"]).isEmpty == false {
            throw MergeError("\(out) already exists and is not empty; merge into a new folder")
        }
        var scratch: [String] = []
        defer { for s in scratch { try? fm.removeItem(atPath: s) } }
        let roots = try parts.map { part -> String in
            let root = try Self.open(part, scratch: &scratch)
            return root
        }
        let staging = "\(out).merging-\(getpid())"
        try? fm.removeItem(atPath: staging)
        scratch.append(staging)
        try fm.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let summary: String
        if roots.allSatisfy({ fm.fileExists(atPath: "\($0)/\(CatalogueRender.Record.fileName)") }) {
            summary = try mergeCatalogues(roots, into: staging)
        } else if roots.allSatisfy({ fm.fileExists(atPath: "\($0)/\(Manifest.fileName)") }) {
            let (name, frames) = try Self.mergeFrames(roots.map { ($0, $0) }, into: staging)
            summary = "\(name): \(frames) frames from \(roots.count) parts → \(out)"
        } else {
            let odd = zip(parts, roots).first { !fm.fileExists(atPath: "\($1)/\(CatalogueRender.Record.fileName)") }?.0 ?? parts[0]
            throw MergeError("\(odd): neither a catalogue part (catalogue.json) nor a transition's part (manifest.json), or mixed with parts of the other kind")
        }
        if fm.fileExists(atPath: out) { try fm.removeItem(atPath: out) }
        try fm.moveItem(atPath: staging, toPath: out)
        scratch.removeAll { $0 == staging }
        return summary
    }

    /// A part's folder: the folder itself, or a tarball unpacked into a scratch folder (and the folder in
    /// it that holds catalogue.json or manifest.json).
    static func open(_ part: String, scratch: inout [String]) throws -> String {
        let fm = FileManager.default
        let lower = part.lowercased()
        guard lower.hasSuffix(".tar") || lower.hasSuffix(".tar.gz") || lower.hasSuffix(".tgz") else {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: part, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw MergeError("\(part): no such folder (or .tar, .tar.gz, .tgz file)")
            }
            return part
        }
        guard fm.fileExists(atPath: part) else { throw MergeError("\(part): no such file") }
        let folder = NSTemporaryDirectory() + "smokescreen-merge-\(getpid())-\(scratch.count)"
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        scratch.append(folder)
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // No absolute names, no links out of the folder: GNU tar refuses `..` and strips a leading `/`.
        tar.arguments = ["tar", "-xf", part, "-C", folder, "--no-same-owner"]
        tar.standardError = FileHandle.nullDevice
        try tar.run()
        tar.waitUntilExit()
        guard tar.terminationStatus == 0 else { throw MergeError("\(part): not a tarball tar can unpack (exit \(tar.terminationStatus))") }
        // The render's folder: the top, or the one folder inside it that has a catalogue or a manifest.
        var candidates = [folder]
        if let entries = try? fm.contentsOfDirectory(atPath: folder).sorted() { candidates += entries.map { "\(folder)/\($0)" } }
        for c in candidates where fm.fileExists(atPath: "\(c)/\(CatalogueRender.Record.fileName)") || fm.fileExists(atPath: "\(c)/\(Manifest.fileName)") {
            return c
        }
        throw MergeError("\(part): holds neither catalogue.json nor manifest.json at its top or one folder down")
    }

    /// The catalogue parts: one of each part 1…N of the same render; each transition from the part the
    /// plan gave it, and from no other.
    func mergeCatalogues(_ roots: [String], into staging: String) throws -> String {
        var records: [(root: String, record: CatalogueRender.Record)] = []
        for root in roots {
            let path = "\(root)/\(CatalogueRender.Record.fileName)"
            let bytes = try InputFile.read(path, limit: Limits.manifestBytes, what: "catalogue")
            do { records.append((root, try JSONDecoder().decode(CatalogueRender.Record.self, from: Data(bytes)))) } catch {
                throw MergeError("\(path): not a catalogue.json Smokescreen wrote (\(error))")
            }
        }
        let first = records[0]
        for other in records.dropFirst() where !other.record.isSameRender(as: first.record) {
            let a = first.record, b = other.record
            var what: [String] = []
            if a.generator != b.generator { what.append("generator \(a.generator) vs \(b.generator)") }
            if a.scale != b.scale { what.append("scale \(a.scale) vs \(b.scale)") }
            if a.fps != b.fps { what.append("fps \(a.fps.map { "\($0)" } ?? "own") vs \(b.fps.map { "\($0)" } ?? "own")") }
            if a.compression != b.compression { what.append("compression \(a.compression) vs \(b.compression)") }
            if a.parts != b.parts { what.append("\(a.parts) parts vs \(b.parts)") }
            if a.match != b.match { what.append("--match \(a.match ?? "none") vs \(b.match ?? "none")") }
            if what.isEmpty { what.append("the catalogue (its transitions, frames or costs)") }
            throw MergeError("mixed settings: \(first.root) and \(other.root) are not parts of the same render: \(what.joined(separator: ", "))")
        }
        let count = first.record.parts
        var byPart: [Int: String] = [:]
        for (root, record) in records {
            if let earlier = byPart[record.part] { throw MergeError("part \(record.part) of \(count) given twice: \(earlier) and \(root)") }
            byPart[record.part] = root
        }
        let missing = (1...count).filter { byPart[$0] == nil }
        if !missing.isEmpty {
            throw MergeError("part\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of \(count) missing (given: \(byPart.keys.sorted().map(String.init).joined(separator: ", ")))")
        }
        let fm = FileManager.default
        var frames = 0, transitions = 0
        for entry in first.record.catalogue where entry.error == nil {
            let home = byPart[entry.part]!
            for (p, root) in byPart where p != entry.part && fm.fileExists(atPath: "\(root)/\(entry.name)") {
                throw MergeError("duplicate: \(entry.name) is in part \(p) (\(root)) but belongs to part \(entry.part) (\(home))")
            }
            guard fm.fileExists(atPath: "\(home)/\(entry.name)/\(Manifest.fileName)") else {
                throw MergeError("missing: \(entry.name) (part \(entry.part), \(home)/\(entry.name)) was not rendered")
            }
            let (_, n) = try Self.mergeFrames([("\(home)/\(entry.name)", "part \(entry.part)")], into: "\(staging)/\(entry.name)")
            frames += n
            transitions += 1
        }
        // The merged folder is one part of one: what a single `render --all` writes.
        var merged = first.record
        merged.part = 1
        merged.parts = 1
        for k in merged.catalogue.indices { merged.catalogue[k].part = 1 }
        try AtomicFile.write(try merged.encoded(), to: "\(staging)/\(CatalogueRender.Record.fileName)")
        return "\(transitions) transitions, \(frames) frames from \(count) parts → \(out)"
    }

    /// One transition's frames from `sources` (folder, label): the same render, every frame in exactly
    /// one of them, each file's SHA-256 as its manifest says. Writes the frames and the complete manifest.
    static func mergeFrames(_ sources: [(folder: String, label: String)], into folder: String) throws -> (name: String, frames: Int) {
        var manifests: [(folder: String, label: String, manifest: Manifest)] = []
        for (source, label) in sources {
            guard let manifest = try Manifest.read(from: "\(source)/\(Manifest.fileName)") else {
                throw MergeError("\(source): no manifest.json")
            }
            manifests.append((source, label, manifest))
        }
        let first = manifests[0]
        for other in manifests.dropFirst() where !other.manifest.describesSameRender(as: first.manifest) {
            throw MergeError("mixed settings: \(first.folder) (\(describe(first.manifest))) and \(other.folder) (\(describe(other.manifest))) are not parts of the same render")
        }
        var merged = first.manifest
        var owner = [String?](repeating: nil, count: merged.frames.count)
        for (source, _, manifest) in manifests {
            for (k, frame) in manifest.frames.enumerated() {
                guard let sha = frame.sha256 else { continue }
                if let earlier = owner[k] { throw MergeError("duplicate: \(frame.file) of \(merged.name) is in both \(earlier) and \(source)") }
                owner[k] = source
                merged.frames[k].sha256 = sha
            }
        }
        let missing = merged.frames.indices.filter { owner[$0] == nil }
        if !missing.isEmpty {
            let names = missing.prefix(5).map { merged.frames[$0].file }.joined(separator: ", ")
            throw MergeError("missing: \(missing.count) of \(merged.frames.count) frames of \(merged.name) are in no part (\(names)\(missing.count > 5 ? ", …" : ""))")
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (k, frame) in merged.frames.enumerated() {
            let path = "\(owner[k]!)/\(frame.file)"
            let bytes: [UInt8]
            do { bytes = try InputFile.read(path, limit: Limits.pngFileBytes, what: "frame") } catch {
                throw MergeError("missing: \(path), listed in its manifest, cannot be read (\(error))")
            }
            guard Digest.sha256Hex(bytes) == frame.sha256 else {
                throw MergeError("tampered: \(path) does not have the SHA-256 its manifest gives (\(frame.sha256 ?? "none"))")
            }
            try AtomicFile.write(bytes, to: "\(folder)/\(frame.file)")
        }
        try AtomicFile.write(try merged.encoded(), to: "\(folder)/\(Manifest.fileName)")
        return (merged.name, merged.frames.count)
    }

    static func describe(_ m: Manifest) -> String {
        "\(m.name), @\(m.scale)x, \(m.fps) fps, \(m.compression), \(m.frameCount) frames"
    }
}
