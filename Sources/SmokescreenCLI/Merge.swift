import ArgumentParser
import BoundedInput
import Foundation
import FrameStore
import MergeParts
#if canImport(Glibc)
import Glibc
#endif

/// `smokescreen merge PART… --out DIR`: the parts of a render made on separate machines, as one folder.
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the parts of a render made on separate machines (folders or .tar/.tar.gz/.tgz of them) into one folder, checking that they belong together and that every frame is there once and unchanged.")

    @Argument(help: "The parts: `render --all` output folders (with catalogue.json), or folders of one transition's frames (`render --shard K/N`), or tarballs of either.")
    var parts: [String] = []

    @Option(help: "The folder to create with the merged render (must not exist, or be empty; a link to a folder is kept and its folder filled). Nothing in it is ever deleted or replaced.")
    var out: String

    @Flag(help: "No summary line.")
    var quiet = false

    @Flag(help: "Print one JSON object instead of the summary line: {kind (catalogue or transition), out, parts, transitions, frames, bytes, seconds}, and for one transition's parts its name.")
    var json = false

    func validate() throws {
        guard !parts.isEmpty else { throw ValidationError("give the parts to merge") }
        if out.isEmpty { throw ValidationError("--out: the path is empty") }
    }

    func run() throws {
        let start = ContinuousClock.now
        var summary = try reportingErrors { try RenderMerge(parts: parts, out: out).merge() }
        let elapsed = start.duration(to: .now)
        summary.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        if json {
            print(try jsonText(summary))
        } else if !quiet {
            print(summary.description)
        }
    }
}

/// What `merge` wrote: its summary line, and `merge --json`'s object.
public struct MergeSummary: Encodable, Equatable, Sendable, CustomStringConvertible {
    /// The parts' kind: whole transitions of a catalogue (`render --all --shard`), or interleaved frames
    /// of one transition (`render NAME --shard`).
    public enum Kind: String, Encodable, Sendable { case catalogue, transition }
    public var kind: Kind
    /// The merged folder (`--out`).
    public var out: String
    /// How many parts were merged.
    public var parts: Int
    /// The transition's name, for one transition's parts; nil for a catalogue.
    public var name: String?
    /// Transitions merged (1 for one transition's parts).
    public var transitions: Int
    /// Frame files merged.
    public var frames: Int
    /// Bytes of the frame files merged (manifests and catalogue.json not counted).
    public var bytes: Int
    /// Wall-clock seconds the merge took; 0 until the caller sets it.
    public var seconds: Double = 0

    /// The summary line `merge` prints.
    public var description: String {
        switch kind {
        case .catalogue: "\(transitions) transitions, \(frames) frames from \(parts) parts → \(out)"
        case .transition: "\(name ?? ""): \(frames) frames from \(parts) parts → \(out)"
        }
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
/// gives.
///
/// Safety (docs/safety.md): names read from `catalogue.json` and manifests are checked by
/// ``TransitionName`` before they reach a path; files inside a part are read without following links
/// (``PartFolder``); archives are unpacked in-process with limits into a private scratch folder
/// (``ArchiveUnpacker``, ``ScratchFolder``); the result is built in a private staging folder beside
/// `out` and published by an atomic rename that never replaces or deletes anything
/// (``MergeDestination``). Scratch and staging folders are removed on every way out, SIGINT and
/// SIGTERM included, and a killed merge's are removed by the next merge.
public struct RenderMerge {
    public var parts: [String]
    public var out: String

    public init(parts: [String], out: String) {
        self.parts = parts
        self.out = out
    }

    /// The prefix of the scratch folders archives are unpacked into, in `$TMPDIR`.
    static let scratchPrefix = "smokescreen-merge"

    /// Merges; returns a one-line summary.
    public func run() throws -> String { try merge().description }

    /// Merges; returns what was merged (``MergeSummary/seconds`` is left 0 for the caller to time).
    public func merge() throws -> MergeSummary {
        // --out is checked before any work: a folder with anything in it, a file or a dangling link is refused.
        let destination = try MergeDestination(out)
        let temporary = ScratchFolder.temporaryDirectory
        ScratchFolder.removeLeftovers(in: temporary, prefix: Self.scratchPrefix)
        var scratch: [ScratchFolder] = []
        defer { for folder in scratch { folder.remove() } }
        var roots: [PartFolder] = []
        for part in parts { roots.append(try Self.open(part, scratch: &scratch, temporary: temporary)) }
        let staging = try destination.makeStaging()
        defer { staging.remove() }
        var summary: MergeSummary
        if try roots.allSatisfy({ try $0.hasFile([CatalogueFile.fileName]) }) {
            summary = try mergeCatalogues(roots, into: staging.path)
        } else if try roots.allSatisfy({ try $0.hasFile([Manifest.fileName]) }) {
            let (name, frames, bytes) = try Self.mergeFrames(roots.map { ($0, [], $0.shown) }, into: staging.path)
            summary = MergeSummary(kind: .transition, out: out, parts: roots.count, name: name, transitions: 1, frames: frames, bytes: bytes)
        } else {
            var odd = parts[0]
            for (part, root) in zip(parts, roots) where try !root.hasFile([CatalogueFile.fileName]) { odd = part; break }
            throw MergeError("\(odd): neither a catalogue part (catalogue.json) nor a transition's part (manifest.json), or mixed with parts of the other kind")
        }
        try destination.publish(staging)
        return summary
    }

    /// A part's folder: the folder itself, or an archive unpacked into a scratch folder (and the folder in
    /// it that holds catalogue.json or manifest.json).
    static func open(_ part: String, scratch: inout [ScratchFolder], temporary: String) throws -> PartFolder {
        guard ArchiveUnpacker.isArchiveName(part) else {
            var info = stat()
            guard stat(part, &info) == 0 else {
                throw MergePartsError("\(part): no such folder (or .tar, .tar.gz, .tgz file)", exitStatus: ExitStatus.noInput)
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw MergePartsError("\(part): not a folder (or a .tar, .tar.gz, .tgz file)", exitStatus: ExitStatus.noInput)
            }
            return PartFolder(root: part)
        }
        let folder = try ScratchFolder(in: temporary, prefix: scratchPrefix)
        scratch.append(folder)
        try ArchiveUnpacker.unpack(part, into: folder.path)
        // The render's folder: the top, or the one folder inside it that has a catalogue or a manifest.
        // Messages name the archive and the member (`part-2.tgz:part-2/…`), not the scratch folder.
        let top = PartFolder(root: folder.path, shown: part + ":")
        var candidates = [top]
        for name in (try? Directories.list(folder.path).sorted()) ?? [] where try top.kind([name]) == .folder {
            candidates.append(PartFolder(root: top.realPath([name]), shown: part + ":" + name))
        }
        for c in candidates where try c.hasFile([CatalogueFile.fileName]) || c.hasFile([Manifest.fileName]) {
            return c
        }
        throw MergeError("\(part): holds neither catalogue.json nor manifest.json at its top or one folder down")
    }

    /// `catalogue.json` as the record render writes.
    package static func record(_ file: CatalogueFile) -> CatalogueRender.Record {
        CatalogueRender.Record(
            generator: file.generator, scale: file.scale, fps: file.fps, compression: file.compression, match: file.match,
            part: file.part, parts: file.parts,
            catalogue: file.catalogue.map { .init(name: $0.name, source: $0.source, frames: $0.frames, cost: $0.cost, part: $0.part, error: $0.error) },
            appearance: file.appearance, textSize: file.textSize)
    }

    /// The catalogue parts: one of each part 1…N of the same render; each transition from the part the
    /// plan gave it, and from no other.
    func mergeCatalogues(_ roots: [PartFolder], into staging: String) throws -> MergeSummary {
        var records: [(root: PartFolder, record: CatalogueRender.Record)] = []
        for root in roots {
            let bytes = try root.read([CatalogueFile.fileName], limit: Limits.manifestBytes, what: "catalogue")
            let file = try CatalogueFile.parse(bytes, path: root.path([CatalogueFile.fileName]))
            records.append((root, Self.record(file)))
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
            if a.appearance != b.appearance { what.append("--appearance \(a.appearance ?? "light") vs \(b.appearance ?? "light")") }
            if a.textSize != b.textSize { what.append("--text-size \(a.textSize ?? "large") vs \(b.textSize ?? "large")") }
            if what.isEmpty { what.append("the catalogue (its transitions, frames or costs)") }
            throw MergeError("mixed settings: \(first.root.shown) and \(other.root.shown) are not parts of the same render: \(what.joined(separator: ", "))")
        }
        // 1…parts…Limits.maxShards: checked by CatalogueFile.parse, as is every entry's part.
        let count = first.record.parts
        var byPart: [Int: PartFolder] = [:]
        for (root, record) in records {
            if let earlier = byPart[record.part] { throw MergeError("part \(record.part) of \(count) given twice: \(earlier.shown) and \(root.shown)") }
            byPart[record.part] = root
        }
        let missing = (1...count).filter { byPart[$0] == nil }
        if !missing.isEmpty {
            let shownMissing = missing.prefix(10).map(String.init).joined(separator: ", ") + (missing.count > 10 ? ", … (\(missing.count) in all)" : "")
            let given = byPart.keys.sorted().prefix(10).map(String.init).joined(separator: ", ") + (byPart.count > 10 ? ", …" : "")
            throw MergeError("part\(missing.count == 1 ? "" : "s") \(shownMissing) of \(count) missing (given: \(given))")
        }
        var frames = 0, transitions = 0, bytes = 0
        for entry in first.record.catalogue where entry.error == nil {
            // The name was checked by TransitionName (CatalogueFile.parse): one folder name, no path.
            guard let home = byPart[entry.part] else { throw MergeError("\(entry.name): part \(entry.part) of \(count) is not given") }
            for (p, root) in byPart.sorted(by: { $0.key < $1.key }) where p != entry.part {
                guard try root.kind([entry.name]) != nil else { continue }
                throw MergeError("duplicate: \(entry.name) is in part \(p) (\(root.shown)) but belongs to part \(entry.part) (\(home.shown))")
            }
            guard try home.kind([entry.name]) == .folder, try home.hasFile([entry.name, Manifest.fileName]) else {
                if try home.kind([entry.name]) == .link { throw home.linkError([entry.name]) }
                throw MergeError("missing: \(entry.name) (part \(entry.part), \(home.path([entry.name]))) was not rendered")
            }
            let (_, n, size) = try Self.mergeFrames([(home, [entry.name], "part \(entry.part)")], into: "\(staging)/\(entry.name)")
            frames += n
            bytes += size
            transitions += 1
        }
        // The merged folder is one part of one: what a single `render --all` writes.
        var merged = first.record
        merged.part = 1
        merged.parts = 1
        for k in merged.catalogue.indices { merged.catalogue[k].part = 1 }
        try AtomicFile.write(try merged.encoded(), to: "\(staging)/\(CatalogueFile.fileName)")
        return MergeSummary(kind: .catalogue, out: out, parts: count, transitions: transitions, frames: frames, bytes: bytes)
    }

    /// One transition's frames from `sources` (part, folder in it, label): the same render, every frame in
    /// exactly one of them, each file's SHA-256 as its manifest says. Writes the frames and the complete
    /// manifest into `folder` (inside the private staging folder). Returns the transition's name, its
    /// frames and the bytes of its frame files.
    static func mergeFrames(_ sources: [(part: PartFolder, folder: [String], label: String)], into folder: String) throws -> (name: String, frames: Int, bytes: Int) {
        var manifests: [(part: PartFolder, folder: [String], manifest: Manifest)] = []
        for (part, components, _) in sources {
            let file = components + [Manifest.fileName]
            let bytes = try part.read(file, limit: Limits.manifestBytes, what: "manifest")
            let manifest = try Manifest.parse(bytes, path: part.path(file))
            if let problem = TransitionName.problem(with: manifest.name) {
                throw MergeError("\(part.path(file)): name: the name \(problem)")
            }
            var seen = Set<String>()
            for frame in manifest.frames where !seen.insert(frame.file).inserted {
                throw MergeError("\(part.path(file)): frames: lists \(frame.file) twice")
            }
            manifests.append((part, components, manifest))
        }
        let first = manifests[0]
        for other in manifests.dropFirst() where !other.manifest.describesSameRender(as: first.manifest) {
            throw MergeError("mixed settings: \(first.part.path(first.folder)) (\(describe(first.manifest))) and \(other.part.path(other.folder)) (\(describe(other.manifest))) are not parts of the same render")
        }
        var merged = first.manifest
        var owner = [Int?](repeating: nil, count: merged.frames.count)
        for (s, source) in manifests.enumerated() {
            for (k, frame) in source.manifest.frames.enumerated() where k < owner.count {
                guard let sha = frame.sha256 else { continue }
                if let earlier = owner[k] {
                    throw MergeError("duplicate: \(frame.file) of \(merged.name) is in both \(manifests[earlier].part.path(manifests[earlier].folder)) and \(source.part.path(source.folder))")
                }
                owner[k] = s
                merged.frames[k].sha256 = sha
            }
        }
        let missing = merged.frames.indices.filter { owner[$0] == nil }
        if !missing.isEmpty {
            let names = missing.prefix(5).map { merged.frames[$0].file }.joined(separator: ", ")
            throw MergeError("missing: \(missing.count) of \(merged.frames.count) frames of \(merged.name) are in no part (\(names)\(missing.count > 5 ? ", …" : ""))")
        }
        do { try Directories.create(folder) } catch {
            throw MergePartsError("\(error.path): cannot make the folder: \(error.reason)", exitStatus: ExitStatus.cannotCreate)
        }
        var bytes = 0
        for (k, frame) in merged.frames.enumerated() {
            guard let s = owner[k] else { continue }
            let source = manifests[s]
            let file = source.folder + [frame.file]
            // Copied 1 MiB at a time into the private staging folder while hashed; renamed into place when
            // the digest is the manifest's, so memory stays small whatever a frame's size.
            let temporary = "\(folder)/.\(frame.file).copy"
            let digest: String
            do { digest = try source.part.copy(file, limit: Limits.pngFileBytes, what: "frame", to: temporary) } catch {
                unlink(temporary)
                if error.exitStatus == ExitStatus.noInput || error.description.contains("symbolic link") {
                    throw MergeError("missing: \(source.part.path(file)), listed in its manifest, cannot be read (\(error))")
                }
                throw error
            }
            guard digest == frame.sha256 else {
                unlink(temporary)
                throw MergeError("tampered: \(source.part.path(file)) does not have the SHA-256 its manifest gives (\(frame.sha256 ?? "none"))")
            }
            var info = stat()
            if stat(temporary, &info) == 0 { bytes += Int(info.st_size) }
            guard rename(temporary, "\(folder)/\(frame.file)") == 0 else {
                throw MergePartsError("\(folder)/\(frame.file): cannot write: \(systemErrorMessage(errno))", exitStatus: ExitStatus.ioError)
            }
        }
        try AtomicFile.write(try merged.encoded(), to: "\(folder)/\(Manifest.fileName)")
        return (merged.name, merged.frames.count, bytes)
    }

    static func describe(_ m: Manifest) -> String {
        "\(m.name), @\(m.scale)x, \(m.fps) fps, \(m.compression), \(m.frameCount) frames"
    }
}
