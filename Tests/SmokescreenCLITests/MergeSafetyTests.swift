import BoundedInput
import Foundation
import FrameStore
import MergeParts
import XCTest

/// `merge` against hostile and careless input (issue 32: D1, D3–D6, D11, D12, D16, D17, D19–D21), run as
/// the user would: the built tool in a child process (``SafetyTests/run(_:environment:directory:)``),
/// with a private `TMPDIR` that must be empty afterwards, canary files hashed before and after, the exit
/// status and a message naming the thing, and the child's peak memory under 512 MB. Parts are made
/// here, small: frames are a few bytes (merge checks their SHA-256, not their pixels), archives are
/// written by Python's tarfile module.
final class MergeSafetyTests: XCTestCase {
    private var folders: [String] = []
    override func tearDown() {
        for f in folders { try? FileManager.default.removeItem(atPath: f) }
        folders = []
    }

    /// A fresh folder with `tmp/` (the child's TMPDIR) and `canary/` (files that must never change).
    private struct Fixture {
        var base: String
        var tmp: String { base + "/tmp" }
        var canary: String { base + "/canary" }
    }

    private func fixture() throws -> Fixture {
        let base = NSTemporaryDirectory() + "merge-safety-\(getpid())-\(UUID().uuidString.prefix(8))"
        folders.append(base)
        let f = Fixture(base: base)
        for folder in [f.tmp, f.canary] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try Data("the user's own manifest".utf8).write(to: URL(fileURLWithPath: f.canary + "/manifest.json"))
        try Data("the user's own frame".utf8).write(to: URL(fileURLWithPath: f.canary + "/frame_0000.png"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: f.canary + "/notes.txt"))
        return f
    }

    /// Every entry under `folder` (not following links): file digests, link targets, folders.
    private func tree(_ folder: String) -> [String: String] {
        var result: [String: String] = [:]
        let fm = FileManager.default
        guard let e = fm.enumerator(atPath: folder) else { return [:] }
        while let path = e.nextObject() as? String {
            let full = folder + "/" + path
            if let target = try? fm.destinationOfSymbolicLink(atPath: full) { result[path] = "link → " + target; continue }
            var isDirectory: ObjCBool = false
            _ = fm.fileExists(atPath: full, isDirectory: &isDirectory)
            result[path] = isDirectory.boolValue ? "folder" : Digest.sha256Hex(Array(fm.contents(atPath: full) ?? Data()))
        }
        return result
    }

    private func merge(_ arguments: [String], _ f: Fixture) throws -> SafetyTests.Run {
        try SafetyTests.run(["merge"] + arguments, environment: ["TMPDIR": f.tmp], directory: f.base)
    }

    /// The checks every refusal passes: its status, a message with `expected`, nothing new in TMPDIR,
    /// the canaries unchanged, `out` not made, memory bounded.
    private func assertRefused(_ run: SafetyTests.Run, _ status: Int32, _ expected: String, _ f: Fixture, canary: [String: String],
                               out: String? = nil, line: UInt = #line) {
        XCTAssertEqual(run.status, status, run.standardError, line: line)
        XCTAssertTrue(run.standardError.contains(expected), "expected '\(expected)' in: \(run.standardError)", line: line)
        XCTAssertTrue(run.standardError.hasPrefix("smokescreen: "), run.standardError, line: line)
        XCTAssertEqual(run.standardError.split(separator: "\n").count, 1, "one line: \(run.standardError)", line: line)
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: f.tmp)) ?? ["?"], [], "nothing left in TMPDIR", line: line)
        XCTAssertEqual(tree(f.canary), canary, "the canary files are untouched", line: line)
        if let out { XCTAssertFalse(FileManager.default.fileExists(atPath: out), "\(out) not made", line: line) }
        let siblings = (try? FileManager.default.contentsOfDirectory(atPath: f.base)) ?? []
        XCTAssertFalse(siblings.contains { $0.contains(".merging") }, "no staging folder left: \(siblings)", line: line)
        XCTAssertGreaterThan(run.peakKiB, 0, line: line)
        XCTAssertLessThan(run.peakKiB, 512_000, "peak resident \(run.peakKiB) KiB", line: line)
    }

    // MARK: Making parts

    /// One transition's folder: `count` frames (a few bytes each) with their manifest; `owned` says which
    /// frames this part has (the others are null in its manifest).
    @discardableResult
    private func writeTransition(_ folder: String, name: String, count: Int = 3, owned: (Int) -> Bool = { _ in true },
                                 manifestName: String? = nil, edit: (inout Manifest) -> Void = { _ in }) throws -> Manifest {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var frames: [Manifest.Frame] = []
        for k in 0..<count {
            let file = FrameFileName.name(k)
            let bytes = Array("frame \(k) of \(name)".utf8)
            if owned(k) {
                try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + file))
                frames.append(.init(file: file, time: Double(k) / 10, sha256: Digest.sha256Hex(bytes)))
            } else {
                frames.append(.init(file: file, time: Double(k) / 10, sha256: nil))
            }
        }
        var manifest = Manifest(name: manifestName ?? name, pointSize: [10, 10], scale: 1, fps: 10, compression: "fast",
                                frames: frames, durations: [:], fingerprint: nil)
        edit(&manifest)
        try Data(try manifest.encoded()).write(to: URL(fileURLWithPath: folder + "/manifest.json"))
        return manifest
    }

    /// `catalogue.json` text for part `part` of `parts` listing `entries` (name, part).
    private func catalogueJSON(part: String, parts: String, entries: [(String, String)], frames: String = "3") -> String {
        let list = entries.map { "{\"cost\": 1, \"frames\": \(frames), \"name\": \"\($0.0)\", \"part\": \($0.1), \"source\": \"built-in\"}" }
        return "{\"catalogue\": [\(list.joined(separator: ", "))], \"compression\": \"fast\", \"fps\": 10, \"generator\": \"\(SmokescreenVersion.generator)\", \"part\": \(part), \"parts\": \(parts), \"scale\": 1}\n"
    }

    /// Two catalogue parts, `p1` with transition `a` and `p2` with `b`; returns their paths.
    private func catalogueParts(_ f: Fixture) throws -> (String, String) {
        let p1 = f.base + "/p1", p2 = f.base + "/p2"
        try writeTransition(p1 + "/a", name: "a")
        try writeTransition(p2 + "/b", name: "b")
        for (k, p) in [p1, p2].enumerated() {
            try Data(catalogueJSON(part: "\(k + 1)", parts: "2", entries: [("a", "1"), ("b", "2")]).utf8)
                .write(to: URL(fileURLWithPath: p + "/catalogue.json"))
        }
        return (p1, p2)
    }

    /// Writes a tar (gzip when `path` ends in gz) with Python's tarfile: each member a dictionary with
    /// `name` and `kind` (`file`, `dir`, `symlink`, `hardlink`, `fifo`, `chr`, `tree` to add a folder
    /// as `name`), and `data`, `source`, `link`, `mode`, `size` (zeros) as the kind needs.
    private func tar(_ path: String, _ members: [[String: Any]]) throws {
        let spec = path + ".json"
        try JSONSerialization.data(withJSONObject: members).write(to: URL(fileURLWithPath: spec))
        let script = """
        import io, json, sys, tarfile
        path, spec = sys.argv[1], sys.argv[2]
        with tarfile.open(path, 'w:gz' if path.endswith('gz') else 'w', format=tarfile.PAX_FORMAT) as t:
            for m in json.load(open(spec)):
                kind = m['kind']
                if kind == 'tree':
                    t.add(m['source'], arcname=m['name'])
                    continue
                i = tarfile.TarInfo(m['name'])
                i.mode = m.get('mode', 0o644)
                data = None
                if kind == 'file':
                    data = m['data'].encode() if 'data' in m else bytes(m.get('size', 0))
                    if 'random' in m:
                        import os
                        data = os.urandom(m['random'])
                    i.size = len(data)
                elif kind == 'dir': i.type = tarfile.DIRTYPE; i.mode = m.get('mode', 0o755)
                elif kind == 'symlink': i.type = tarfile.SYMTYPE; i.linkname = m['link']
                elif kind == 'hardlink': i.type = tarfile.LNKTYPE; i.linkname = m['link']
                elif kind == 'fifo': i.type = tarfile.FIFOTYPE
                elif kind == 'chr': i.type = tarfile.CHRTYPE; i.devmajor = 1; i.devminor = 3
                t.addfile(i, io.BytesIO(data) if data is not None else None)
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path, spec]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "tarfile wrote \(path)")
        try FileManager.default.removeItem(atPath: spec)
    }

    // MARK: D1 names are data, never paths

    func testD1CatalogueAndManifestNamesNeverReachAPath() throws {
        let f = try fixture()
        let (p1, p2) = try catalogueParts(f)
        let canary = tree(f.canary)
        // The reproduction: a link inside the part and a catalogue name that walks through it.
        try FileManager.default.createSymbolicLink(atPath: p1 + "/s", withDestinationPath: "a/a/a")
        for name in ["s/../../canary", "../canary", "a/../../canary", ".", "-rf", "a b", "é"] {
            try Data(catalogueJSON(part: "1", parts: "2", entries: [(name, "1"), ("b", "2")]).utf8).write(to: URL(fileURLWithPath: p1 + "/catalogue.json"))
            let out = f.base + "/out"
            let result = try merge([p1, p2, "--out", out], f)
            assertRefused(result, 65, "catalogue.json:1:", f, canary: canary, out: out)
            XCTAssertTrue(result.standardError.contains("catalogue[0].name: the name"), result.standardError)
        }
        // The same in an archive (its link refused first when it is there; here without it).
        try FileManager.default.removeItem(atPath: p1 + "/s")
        try Data(catalogueJSON(part: "1", parts: "2", entries: [("../canary", "1"), ("b", "2")]).utf8).write(to: URL(fileURLWithPath: p1 + "/catalogue.json"))
        try tar(f.base + "/p1.tgz", [["kind": "tree", "name": "p1", "source": p1]])
        let inArchive = try merge([f.base + "/p1.tgz", p2, "--out", f.base + "/out"], f)
        assertRefused(inArchive, 65, "\(f.base)/p1.tgz:p1/catalogue.json:1:", f, canary: canary, out: f.base + "/out")
        XCTAssertTrue(inArchive.standardError.contains("the name '../canary' is not a name"), inArchive.standardError)

        // A valid name whose folder in the part is a link to somewhere else: refused, not followed.
        try Data(catalogueJSON(part: "1", parts: "2", entries: [("a", "1"), ("b", "2")]).utf8).write(to: URL(fileURLWithPath: p1 + "/catalogue.json"))
        try FileManager.default.removeItem(atPath: p1 + "/a")
        try FileManager.default.createSymbolicLink(atPath: p1 + "/a", withDestinationPath: f.canary)
        assertRefused(try merge([p1, p2, "--out", f.base + "/out"], f), 65, "\(p1)/a: is a symbolic link", f, canary: canary, out: f.base + "/out")

        // A manifest's name is checked by the same rule.
        let t1 = f.base + "/t1"
        try writeTransition(t1, name: "t", manifestName: "../../canary")
        assertRefused(try merge([t1, "--out", f.base + "/out"], f), 65, "name: the name '../../canary' is not a name", f, canary: canary, out: f.base + "/out")
    }

    // MARK: D3 archives read in-process, with limits

    func testD3ArchivesAreReadWithLimitsAndOnlyRegularFilesAndFolders() throws {
        let f = try fixture()
        let canary = tree(f.canary)
        let out = f.base + "/out"
        // The reproduction: a setuid file 2,040 folders deep.
        let deep = "j/" + String(repeating: "a/", count: 2040) + "rootid"
        try tar(f.base + "/deep.tgz", [["kind": "file", "name": deep, "data": "#!/bin/sh\nid\n", "mode": 0o4755]])
        assertRefused(try merge([f.base + "/deep.tgz", "--out", out], f), 65, "member 'j/a/a/a/", f, canary: canary, out: out)
        let refusals: [([String: Any], String)] = [
            (["kind": "file", "name": "p/frame_0000.png", "data": "x", "mode": 0o4755], "member 'p/frame_0000.png': has the setuid bit"),
            (["kind": "file", "name": "p/frame_0000.png", "data": "x", "mode": 0o2755], "has the setgid bit"),
            (["kind": "dir", "name": "p", "mode": 0o1777], "member 'p/': has the sticky bit"),
            (["kind": "chr", "name": "p/null"], "member 'p/null': a character device; parts hold regular files and folders only"),
            (["kind": "fifo", "name": "p/manifest.json"], "member 'p/manifest.json': a named pipe (FIFO)"),
            (["kind": "file", "name": "../escaped/manifest.json", "data": "{}"], "its path has '..'"),
            (["kind": "file", "name": "/etc/escaped", "data": "x"], "an absolute path"),
            (["kind": "file", "name": "a/b/c/d/e/f/g/h/i", "data": "x"], "9 levels deep, over the limit of 8"),
            (["kind": "file", "name": "p.v2/manifest.json", "data": "{}"], "its folder 'p.v2' is not a name"),
        ]
        for (member, expected) in refusals {
            try tar(f.base + "/bad.tar", [member])
            assertRefused(try merge([f.base + "/bad.tar", "--out", out], f), 65, expected, f, canary: canary, out: out)
        }
        // A member given twice.
        try tar(f.base + "/twice.tar", [["kind": "file", "name": "p/manifest.json", "data": "{}"], ["kind": "file", "name": "p/manifest.json", "data": "{}"]])
        assertRefused(try merge([f.base + "/twice.tar", "--out", out], f), 65, "member 'p/manifest.json': given twice", f, canary: canary, out: out)
        // Not an archive at all.
        try Data("not a tarball".utf8).write(to: URL(fileURLWithPath: f.base + "/junk.tgz"))
        assertRefused(try merge([f.base + "/junk.tgz", "--out", out], f), 65, "junk.tgz: not a tar archive merge can read", f, canary: canary, out: out)
        // A JSON file over its limit, and files adding up to more than 4 GiB, refused from their headers
        // before a byte is written (a sparse 5 GiB file: GNU tar writes a tiny archive).
        try tar(f.base + "/bigjson.tar", [["kind": "file", "name": "p/manifest.json", "size": Limits.manifestBytes + 1]])
        assertRefused(try merge([f.base + "/bigjson.tar", "--out", out], f), 65, "67108865 bytes, over the limit of 67108864 bytes for a JSON file", f, canary: canary, out: out)
        let sparse = f.base + "/frame_0000.png"
        XCTAssertTrue(FileManager.default.createFile(atPath: sparse, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: sparse))
        try handle.truncate(atOffset: 5 << 30)
        try handle.close()
        let gnu = Process()
        gnu.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gnu.arguments = ["tar", "-S", "-czf", f.base + "/bomb.tgz", "-C", f.base, "frame_0000.png"]
        try gnu.run()
        gnu.waitUntilExit()
        try FileManager.default.removeItem(atPath: sparse)
        if gnu.terminationStatus == 0 {
            let bomb = try merge([f.base + "/bomb.tgz", "--out", out], f)
            assertRefused(bomb, 65, "member 'frame_0000.png': the archive's files add up to more than 4294967296 bytes", f, canary: canary, out: out)
        }
    }

    func testD3ALargeFrameIsUnpackedAndCopiedInBoundedMemory() throws {
        let f = try fixture()
        // A 600 MB frame (zeros: a 600 KB archive) with the digest its manifest gives: merged in pieces,
        // never held whole in memory.
        let size = 600 << 20
        let t = f.base + "/t"
        try writeTransition(t, name: "t", count: 2, edit: { m in
            let zeros = [UInt8](repeating: 0, count: size)
            m.frames[1].sha256 = Digest.sha256Hex(zeros)
        })
        try tar(f.base + "/t.tgz", [
            ["kind": "file", "name": "t/manifest.json", "data": try String(contentsOfFile: t + "/manifest.json", encoding: .utf8)],
            ["kind": "file", "name": "t/frame_0000.png", "data": "frame 0 of t"],
            ["kind": "file", "name": "t/frame_0001.png", "size": size],
        ])
        let out = f.base + "/out"
        let result = try merge([f.base + "/t.tgz", "--out", out], f)
        XCTAssertEqual(result.status, 0, result.standardError)
        var info = stat()
        XCTAssertEqual(stat(out + "/frame_0001.png", &info), 0)
        XCTAssertEqual(Int(info.st_size), size)
        XCTAssertLessThan(result.peakKiB, 200_000, "peak resident \(result.peakKiB) KiB for a \(size)-byte frame")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: f.tmp), [])
    }

    // MARK: D4 merge never deletes

    func testD4MergeNeverDeletesOrReplacesWhatIsInOut() throws {
        let f = try fixture()
        let (p1, p2) = try catalogueParts(f)
        let canary = tree(f.canary)
        // An empty folder (given with a trailing slash) is merged into, not deleted.
        let empty = f.base + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        let into = try merge([p1, p2, "--out", empty + "/"], f)
        XCTAssertEqual(into.status, 0, into.standardError)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: empty)), ["catalogue.json", "a", "b"])
        // A folder with anything in it is refused before any work, naming the first entry: nothing is touched.
        let result = try merge([p1, p2, "--out", f.canary], f)
        assertRefused(result, 73, "\(f.canary): already exists and holds 'frame_0000.png', which merge does not replace", f, canary: canary)
        // A file as --out.
        let file = f.canary + "/notes.txt"
        assertRefused(try merge([p1, p2, "--out", file], f), 73, "already exists and is not a folder", f, canary: canary)
        // Two merges into one new folder at once: one publishes, the other is refused; neither deletes.
        guard FileManager.default.isExecutableFile(atPath: SafetyTests.tool) else { throw XCTSkip("not built") }
        let out = f.base + "/together"
        let processes = (0..<2).map { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: SafetyTests.tool)
            process.arguments = ["merge", p1, p2, "--out", out, "--quiet"]
            process.environment = ["TMPDIR": f.tmp]
            process.standardError = FileHandle.nullDevice
            return process
        }
        for process in processes { try process.run() }
        for process in processes { process.waitUntilExit() }
        XCTAssertEqual(processes.map(\.terminationStatus).sorted(), [0, 73])
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: out)), ["catalogue.json", "a", "b"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: f.tmp), [])
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: f.base).contains { $0.contains(".merging") })
    }

    // MARK: D5 numbers in catalogue.json

    func testD5CatalogueNumbersAreCheckedNotTrapped() throws {
        let f = try fixture()
        let (p1, p2) = try catalogueParts(f)
        let canary = tree(f.canary)
        let out = f.base + "/out"
        let cases: [(part: String, parts: String, entryPart: String, frames: String, expected: String)] = [
            ("1", "0", "1", "3", "parts: expected a whole number in 1…10000, got 0.0"),
            ("1", "1", "7", "3", "catalogue[0].part: is 7 but parts is 1"),
            ("1", "100000000", "1", "3", "parts: expected a whole number in 1…10000, got 100000000.0"),
            ("1", "9223372036854775807", "1", "3", "parts: expected a whole number in 1…10000"),
            ("1", "1e300", "1", "3", "parts: expected a whole number in 1…10000"),
            ("-1", "2", "1", "3", "part: expected a whole number in 1…10000, got -1.0"),
            ("3", "2", "1", "3", "part: is 3 but parts is 2"),
            ("1", "2", "1.5", "3", "catalogue[0].part: expected a whole number"),
            ("1", "2", "1", "1e9", "catalogue[0].frames: expected a whole number in 0…100000"),
            ("1", "2", "9223372036854775807", "3", "catalogue[0].part: expected a whole number in 1…10000"),
        ]
        for c in cases {
            try Data(catalogueJSON(part: c.part, parts: c.parts, entries: [("a", c.entryPart), ("b", "2")], frames: c.frames).utf8)
                .write(to: URL(fileURLWithPath: p1 + "/catalogue.json"))
            assertRefused(try merge([p1, p2, "--out", out], f), 65, c.expected, f, canary: canary, out: out)
        }
        // Many parts missing: a short message, not one number per part.
        try Data(catalogueJSON(part: "1", parts: "10000", entries: [("a", "1"), ("b", "2")]).utf8).write(to: URL(fileURLWithPath: p1 + "/catalogue.json"))
        try Data(catalogueJSON(part: "2", parts: "10000", entries: [("a", "1"), ("b", "2")]).utf8).write(to: URL(fileURLWithPath: p2 + "/catalogue.json"))
        let many = try merge([p1, p2, "--out", out], f)
        assertRefused(many, 65, "parts 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, … (9998 in all) of 10000 missing", f, canary: canary, out: out)
        XCTAssertLessThan(many.standardError.utf8.count, 300)
    }

    // MARK: D6 a FIFO, and no child process

    func testD6AFIFOPartIsRefusedAtOnceAndNoChildProcessRuns() throws {
        let f = try fixture()
        let canary = tree(f.canary)
        let fifo = f.base + "/p.tar"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        assertRefused(try merge([fifo, "--out", f.base + "/m"], f), 66, "\(fifo): the archive is a named pipe (FIFO), not a regular file", f, canary: canary, out: f.base + "/m")
        let plain = f.base + "/p"
        XCTAssertEqual(mkfifo(plain, 0o644), 0)
        assertRefused(try merge([plain, "--out", f.base + "/m"], f), 66, "\(plain): not a folder", f, canary: canary, out: f.base + "/m")
        // The archive is read in-process: merge starts no program (strace sees one execve, the tool's).
        let (p1, p2) = try catalogueParts(f)
        try tar(f.base + "/p2.tgz", [["kind": "tree", "name": "p2", "source": p2]])
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else { return }
        let log = f.base + "/strace.log"
        guard FileManager.default.isExecutableFile(atPath: SafetyTests.tool) else { throw XCTSkip("not built") }
        let traced = Process()
        traced.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        traced.arguments = ["-f", "-qq", "-e", "trace=execve", "-o", log, SafetyTests.tool, "merge", p1, f.base + "/p2.tgz", "--out", f.base + "/m", "--quiet"]
        traced.environment = ["TMPDIR": f.tmp]
        try traced.run()
        traced.waitUntilExit()
        guard FileManager.default.fileExists(atPath: log) else { throw XCTSkip("strace cannot trace here") }
        XCTAssertEqual(traced.terminationStatus, 0)
        let execs = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("execve(") }
        XCTAssertEqual(execs.count, 1, execs.joined(separator: "\n"))
    }

    // MARK: D11 links inside an archive or a part

    func testD11LinksInsideAPartAreRefusedNotFollowed() throws {
        let f = try fixture()
        let canary = tree(f.canary)
        let out = f.base + "/out"
        let t = f.base + "/t"
        try writeTransition(t, name: "t")
        // The reproduction: a frame that links to a file outside (with the hash the manifest gives).
        try FileManager.default.copyItem(atPath: t + "/frame_0001.png", toPath: f.canary + "/frame_0001.png")
        let canaryWithFrame = tree(f.canary)
        for (kind, expected) in [("symlink", "member 't/frame_0001.png': a symbolic link (to '\(f.canary)/frame_0001.png')"),
                                 ("hardlink", "member 't/frame_0001.png': a hard link")] {
            try tar(f.base + "/t.tgz", [
                ["kind": "file", "name": "t/manifest.json", "data": try String(contentsOfFile: t + "/manifest.json", encoding: .utf8)],
                ["kind": "file", "name": "t/frame_0000.png", "data": "frame 0 of t"],
                ["kind": kind, "name": "t/frame_0001.png", "link": f.canary + "/frame_0001.png"],
            ])
            assertRefused(try merge([f.base + "/t.tgz", "--out", out], f), 65, expected, f, canary: canaryWithFrame, out: out)
        }
        // The same in a folder part: the link is refused, whatever it points to.
        try FileManager.default.removeItem(atPath: t + "/frame_0001.png")
        try FileManager.default.createSymbolicLink(atPath: t + "/frame_0001.png", withDestinationPath: f.canary + "/frame_0001.png")
        assertRefused(try merge([t, "--out", out], f), 65, "\(t)/frame_0001.png: is a symbolic link; merge follows no link inside a part", f, canary: canaryWithFrame, out: out)
        // A missing file's message is the same whether or not a linked file exists.
        try FileManager.default.removeItem(atPath: t + "/frame_0001.png")
        try FileManager.default.createSymbolicLink(atPath: t + "/frame_0001.png", withDestinationPath: "/nonexistent/file")
        assertRefused(try merge([t, "--out", out], f), 65, "\(t)/frame_0001.png: is a symbolic link", f, canary: canaryWithFrame, out: out)
        _ = canary
    }

    // MARK: D12 unpredictable scratch and staging names

    func testD12ScratchAndStagingFoldersAreNewPrivateAndUnpredictable() throws {
        let f = try fixture()
        // Folders made by mkdtemp: new each time, mode 0700, real folders.
        var paths = Set<String>()
        for _ in 0..<20 {
            let folder = try ScratchFolder(in: f.tmp, prefix: "smokescreen-merge")
            var info = stat()
            XCTAssertEqual(lstat(folder.path, &info), 0)
            XCTAssertEqual(info.st_mode & S_IFMT, S_IFDIR)
            XCTAssertEqual(info.st_mode & 0o777, 0o700)
            XCTAssertTrue(paths.insert(folder.path).inserted)
            folder.remove()
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path))
        }
        // Removing a scratch folder removes a link in it, never what the link points to.
        let before = tree(f.canary)
        let withLink = try ScratchFolder(in: f.tmp, prefix: "smokescreen-merge")
        try FileManager.default.createDirectory(atPath: withLink.path + "/a/b", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: withLink.path + "/a/b/c", withDestinationPath: f.canary)
        try FileManager.default.createSymbolicLink(atPath: withLink.path + "/d", withDestinationPath: f.canary + "/notes.txt")
        withLink.remove()
        XCTAssertFalse(FileManager.default.fileExists(atPath: withLink.path))
        XCTAssertEqual(tree(f.canary), before)
        // A link planted where a scratch or staging folder might be is never used nor removed, and what
        // it points to is untouched (a leftover is removed only when it is a folder of this user).
        let canary = tree(f.canary)
        try FileManager.default.createSymbolicLink(atPath: f.tmp + "/smokescreen-merge-2000000000-abcdef", withDestinationPath: f.canary)
        try FileManager.default.createSymbolicLink(atPath: f.base + "/.out.merging-2000000000-abcdef", withDestinationPath: f.canary)
        let (p1, p2) = try catalogueParts(f)
        try tar(f.base + "/p2.tgz", [["kind": "tree", "name": "p2", "source": p2]])
        let result = try merge([p1, f.base + "/p2.tgz", "--out", f.base + "/out"], f)
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: f.tmp), ["smokescreen-merge-2000000000-abcdef"])
        XCTAssertEqual(tree(f.canary), canary)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: f.base + "/.out.merging-2000000000-abcdef"), f.canary)
    }

    // MARK: D16 a colon in a part's name

    func testD16AColonInAnArchivesNameIsAFileName() throws {
        let f = try fixture()
        let (p1, p2) = try catalogueParts(f)
        let archive = f.base + "/user@host:p2.tgz"
        try tar(archive, [["kind": "tree", "name": "p2", "source": p2]])
        let result = try merge([p1, "user@host:p2.tgz", "--out", "merged"], f)
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: f.base + "/merged")), ["catalogue.json", "a", "b"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: f.tmp), [])
    }

    // MARK: D17 a manifest listing a file twice

    func testD17AManifestListingAFileTwiceIsRefused() throws {
        let f = try fixture()
        let canary = tree(f.canary)
        let t = f.base + "/t"
        try writeTransition(t, name: "t", count: 3, edit: { m in m.frames[2].file = m.frames[1].file })
        assertRefused(try merge([t, "--out", f.base + "/out"], f), 65, "\(t)/manifest.json: frames: lists frame_0001.png twice", f, canary: canary, out: f.base + "/out")
    }

    // MARK: D19 a symbolic link as --out

    func testD19ALinkAsOutIsKeptAndItsFolderFilled() throws {
        let f = try fixture()
        let (p1, p2) = try catalogueParts(f)
        let target = f.base + "/target"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: f.base + "/link", withDestinationPath: "target")
        let result = try merge([p1, p2, "--out", f.base + "/link"], f)
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: f.base + "/link"), "target", "the user's link is kept")
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: target)), ["catalogue.json", "a", "b"])
        XCTAssertLessThan(result.peakKiB, 512_000)
    }

    // MARK: D20 diagnostics: a dangling link as --out, a full disk while unpacking

    func testD20ADanglingOutIsRefusedFirstAndAFullDiskIsReportedAsSuch() throws {
        let f = try fixture()
        let canary = tree(f.canary)
        let (p1, p2) = try catalogueParts(f)
        try FileManager.default.createSymbolicLink(atPath: f.base + "/dangling", withDestinationPath: "nowhere/at/all")
        let dangling = try merge([p1, p2, "--out", f.base + "/dangling"], f)
        assertRefused(dangling, 73, "\(f.base)/dangling: a symbolic link to 'nowhere/at/all', which does not exist", f, canary: canary)
        XCTAssertFalse(dangling.standardError.contains("NSCocoaErrorDomain"))

        // A full disk while unpacking (a 256 KiB tmpfs as TMPDIR; needs root to mount).
        let small = f.base + "/small"
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: false)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        mount.arguments = ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", small]
        mount.standardError = FileHandle.nullDevice
        try mount.run()
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else { throw XCTSkip("cannot mount a small tmpfs here (not root?)") }
        defer {
            let umount = Process()
            umount.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            umount.arguments = ["umount", small]
            try? umount.run()
            umount.waitUntilExit()
        }
        try tar(f.base + "/big.tar", [["kind": "file", "name": "p/manifest.json", "data": "{}"], ["kind": "file", "name": "p/frame_0000.png", "random": 1 << 20]])
        let full = try SafetyTests.run(["merge", f.base + "/big.tar", "--out", f.base + "/out"], environment: ["TMPDIR": small], directory: f.base)
        XCTAssertEqual(full.status, 74, full.standardError)
        XCTAssertTrue(full.standardError.contains("member 'p/frame_0000.png': cannot write it to \(small)/smokescreen-merge-"), full.standardError)
        XCTAssertTrue(full.standardError.contains("No space left on device"), full.standardError)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: small), [], "the scratch folder is removed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: f.base + "/out"))
    }

    // MARK: D21 killed merges leave nothing

    func testD21InterruptedAndKilledMergesLeaveNothingBehind() throws {
        let f = try fixture()
        let (p1, p2) = try catalogueParts(f)
        // What a merge killed by SIGKILL leaves: folders of a process that no longer exists.
        let dead: Int32 = 2_000_000_000
        for path in [f.tmp + "/smokescreen-merge-\(dead)-a1B2c3", f.base + "/.out.merging-\(dead)-Zz9yY8"] {
            try FileManager.default.createDirectory(atPath: path + "/inner", withIntermediateDirectories: true)
            try Data("half a frame".utf8).write(to: URL(fileURLWithPath: path + "/inner/frame_0000.png"))
        }
        try tar(f.base + "/p2.tgz", [["kind": "tree", "name": "p2", "source": p2]])
        let result = try merge([p1, f.base + "/p2.tgz", "--out", f.base + "/out"], f)
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: f.tmp), [])
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: f.base).contains { $0.contains(".merging") })

        // SIGTERM and SIGINT while an archive is unpacked: the handler removes the scratch folder.
        guard FileManager.default.isExecutableFile(atPath: SafetyTests.tool) else { throw XCTSkip("not built") }
        try tar(f.base + "/slow.tar", [["kind": "file", "name": "p/frame_\(String(repeating: "0", count: 4)).png", "random": 200 << 20],
                                       ["kind": "file", "name": "p/manifest.json", "data": "{}"]])
        var interrupted = 0
        for signal in [SIGTERM, SIGINT] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: SafetyTests.tool)
            process.arguments = ["merge", f.base + "/slow.tar", "--out", f.base + "/slow-out"]
            process.environment = ["TMPDIR": f.tmp]
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait until the scratch folder exists, then interrupt.
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, process.isRunning, ((try? FileManager.default.contentsOfDirectory(atPath: f.tmp)) ?? []).isEmpty { usleep(2000) }
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { interrupted += 1 }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: f.tmp), [], "signal \(signal)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: f.base + "/slow-out"))
        }
        XCTAssertEqual(interrupted, 2, "both merges were interrupted (not finished before the signal)")
    }

    // MARK: The parsers on their own

    func testCatalogueFileRoundTripsWhatRenderWritesAndRefusesUnknownKeys() throws {
        let text = catalogueJSON(part: "2", parts: "3", entries: [("a", "1"), ("b", "2")])
        let file = try CatalogueFile.parse(Array(text.utf8), path: "c.json")
        XCTAssertEqual(file.parts, 3)
        XCTAssertEqual(file.part, 2)
        XCTAssertEqual(file.catalogue.map(\.name), ["a", "b"])
        XCTAssertThrowsError(try CatalogueFile.parse(Array(text.replacingOccurrences(of: "\"scale\"", with: "\"scales\"").utf8), path: "c.json")) { error in
            XCTAssertTrue("\(error)".contains("unknown key 'scales'; did you mean 'scale'?"), "\(error)")
        }
        let twice = catalogueJSON(part: "1", parts: "1", entries: [("a", "1"), ("a", "1")])
        XCTAssertThrowsError(try CatalogueFile.parse(Array(twice.utf8), path: "c.json")) { error in
            XCTAssertTrue("\(error)".contains("the name 'a' is listed twice"), "\(error)")
        }
    }
}
