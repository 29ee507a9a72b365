import ArgumentParser
import Foundation
import FrameStore
import XCTest
import SmokescreenCLI

/// `render --all`, `--shard auto` under each batch system, the cost split, `merge` and `diff --all`.
final class ScaleOutTests: XCTestCase {
    private var folders: [String] = []
    override func tearDown() {
        for f in folders { try? FileManager.default.removeItem(atPath: f) }
        folders = []
    }
    private func temporary(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "scale-out-\(getpid())-\(name)-\(folders.count)"
        try? FileManager.default.removeItem(atPath: path)
        folders.append(path)
        return path
    }
    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> SafetyTests.Run {
        try SafetyTests.run(arguments, environment: environment)
    }
    /// Every file under `folder`, by relative path, with its bytes.
    private func files(_ folder: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let e = FileManager.default.enumerator(atPath: folder)
        while let path = e?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: "\(folder)/\(path)", isDirectory: &isDirectory), !isDirectory.boolValue {
                result[path] = FileManager.default.contents(atPath: "\(folder)/\(path)")
            }
        }
        return result
    }

    // MARK: --shard auto

    func testShardAutoUnderEachEngineIsTheSamePartAsKOverN() throws {
        // Part 3 of 4, as each engine says it.
        XCTAssertTrue(try ShardEnvironment.resolve(["JOB_COMPLETION_INDEX": "2"], count: 4) == (3, 4), "Kubernetes: 0-based index")
        XCTAssertTrue(try ShardEnvironment.resolve(["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_COUNT": "4"]) == (3, 4), "Slurm: --array=5-8")
        XCTAssertTrue(try ShardEnvironment.resolve(["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"]) == (3, 4), "Slurm: --array=0-3")
        XCTAssertTrue(try ShardEnvironment.resolve(["CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "4"]) == (3, 4), "GitLab: 1-based")
        // What an engine leaves out, or gets wrong, is an error that names it.
        let failures: [([String: String], Int?, String)] = [
            (["JOB_COMPLETION_INDEX": "2"], nil, "--shard-count"),
            (["SLURM_ARRAY_TASK_ID": "2"], nil, "SLURM_ARRAY_TASK_COUNT"),
            (["CI_NODE_INDEX": "x", "CI_NODE_TOTAL": "4"], nil, "CI_NODE_INDEX=x is not a whole number"),
            (["CI_NODE_INDEX": "5", "CI_NODE_TOTAL": "4"], nil, "part 5 is outside 1…4"),
            (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "4"], 3, "--shard-count 3 disagrees"),
            ([:], nil, "found no batch system"),
        ]
        for (environment, count, expected) in failures {
            XCTAssertThrowsError(try ShardEnvironment.resolve(environment, count: count), "\(environment)") { error in
                XCTAssert("\(error)".contains(expected), "\(error)")
            }
        }
        // The command resolves it the same way.
        let render = try XCTUnwrap(try SmokescreenCommand.parseAsRoot(["render", "--all", "--shard", "auto"]) as? Render)
        XCTAssertTrue(try render.resolvedShard(environment: ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"])! == (2, 3))
        XCTAssertThrowsError(try SmokescreenCommand.parseAsRoot(["render", "--shard", "1/2", "--shard-count", "2"]))
        XCTAssertThrowsError(try SmokescreenCommand.parseAsRoot(["render", "table-row-styles", "--all"]))
        XCTAssertThrowsError(try SmokescreenCommand.parseAsRoot(["render", "--match", "x*"]), "--match goes with --all")
        XCTAssertThrowsError(try SmokescreenCommand.parseAsRoot(["render", "--all", "--scenes", "/nonexistent/scenes"])) { error in
            XCTAssert("\(SmokescreenCommand.message(for: error))".contains("is not a folder"))
        }
    }

    // MARK: The split

    func testTheSplitIsBalancedByCostAndAPureFunctionOfTheCatalogue() throws {
        let items = try CatalogueRender.items(scenes: nil, match: nil)
        let settings = try XCTUnwrap(try SmokescreenCommand.parseAsRoot(["render"]) as? Render).transitionOptions.settings(scale: 2)
        let record = CatalogueRender.plan(items, settings: { _ in settings }, scale: 2, fps: nil, compression: "fast", match: nil, part: 1, parts: 1)
        XCTAssertEqual(record.catalogue.count, items.count)
        XCTAssert(record.catalogue.allSatisfy { $0.error == nil && $0.frames > 0 }, "every built-in plans")
        let costs = record.catalogue.map { ($0.name, $0.cost) }
        for n in [2, 4, 8] {
            let parts = ShardPlan.partition(costs, parts: n)
            XCTAssertEqual(parts.flatMap { $0 }.sorted(), costs.map(\.0).sorted(), "every transition in exactly one part")
            let totals = ShardPlan.totals(costs, parts: parts)
            let ratio = (totals.max() ?? 0) / (totals.min() ?? 1)
            XCTAssertLessThanOrEqual(ratio, 1.25, "N = \(n): largest part \(ratio)x the smallest")
            // The same parts whatever order the catalogue is listed in.
            XCTAssertEqual(ShardPlan.partition(costs.reversed(), parts: n).map(Set.init), parts.map(Set.init))
        }
        // Balanced by cost, not by name: a big item is alone in its part.
        XCTAssertEqual(ShardPlan.partition([("a", 10), ("b", 1), ("c", 1), ("d", 1)], parts: 2), [["a"], ["b", "c", "d"]])
    }

    // MARK: Parts on separate machines, merged

    func testPartsRenderedUnderEachEngineMergeByteIdenticalToOneRun() throws {
        let common = ["render", "--all", "--match", "table-[bmr]*", "--scale", "1", "--fps", "10", "--quiet"]
        let whole = temporary("whole")
        XCTAssertEqual(try run(common + ["--out", whole]).status, 0)
        let expected = try files(whole)
        XCTAssertEqual(Set(expected.keys.compactMap { $0.split(separator: "/").first.map(String.init) }),
                       ["catalogue.json", "table-row-styles", "table-batch-mixed", "table-multiple-selection"])
        // Three parts as each engine runs them: its variables set as it sets them.
        let engines: [(String, (Int) -> [String: String], [String])] = [
            ("kubernetes", { ["JOB_COMPLETION_INDEX": "\($0 - 1)"] }, ["--shard-count", "3"]),
            ("slurm", { ["SLURM_ARRAY_TASK_ID": "\($0 + 9)", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_COUNT": "3"] }, []),
            ("gitlab", { ["CI_NODE_INDEX": "\($0)", "CI_NODE_TOTAL": "3"] }, []),
        ]
        for (engine, variables, extra) in engines {
            var parts: [String] = []
            for k in 1...3 {
                let part = temporary("\(engine)-\(k)")
                let result = try run(common + ["--shard", "auto", "--out", part] + extra, environment: variables(k))
                XCTAssertEqual(result.status, 0, "\(engine) part \(k): \(result.standardError)")
                // The same part as --shard k/3.
                let explicit = temporary("explicit-\(k)")
                XCTAssertEqual(try run(common + ["--shard", "\(k)/3", "--out", explicit]).status, 0)
                XCTAssertEqual(try files(part), try files(explicit), "\(engine): --shard auto is part \(k)/3")
                parts.append(part)
            }
            let merged = temporary("\(engine)-merged")
            let result = try run(["merge"] + parts + ["--out", merged])
            XCTAssertEqual(result.status, 0, result.standardError)
            XCTAssertEqual(try files(merged), expected, "\(engine): the merged parts are byte-identical to one --all run")
        }
    }

    func testMergeRefusesMixedSettingsMissingAndDuplicatePartsAndFramesAndTamperedFiles() throws {
        // One transition's frames in two interleaved parts.
        let base = ["render", "table-batch-mixed", "--scale", "1", "--fps", "20", "--quiet"]
        let a = temporary("a"), b = temporary("b"), c = temporary("c")
        XCTAssertEqual(try run(base + ["--shard", "1/2", "--out", a]).status, 0)
        XCTAssertEqual(try run(base + ["--shard", "2/2", "--out", b]).status, 0)
        XCTAssertEqual(try run(["render", "table-batch-mixed", "--scale", "1", "--fps", "10", "--quiet", "--shard", "2/2", "--out", c]).status, 0)
        func refuses(_ parts: [String], _ expected: String, line: UInt = #line) throws {
            let out = temporary("out")
            let result = try run(["merge"] + parts + ["--out", out])
            XCTAssertEqual(result.status, 65, result.standardError, line: line)
            XCTAssert(result.standardError.contains(expected), "expected '\(expected)' in: \(result.standardError)", line: line)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing written", line: line)
        }
        try refuses([a, c], "mixed settings")
        try refuses([a], "missing: 6 of 13 frames")
        try refuses([a, a, b], "duplicate: frame_0000.png")
        // A frame changed after the render.
        let tampered = temporary("tampered")
        try FileManager.default.copyItem(atPath: b, toPath: tampered)
        var bytes = try XCTUnwrap(FileManager.default.contents(atPath: "\(tampered)/frame_0003.png"))
        bytes[bytes.count - 20] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: "\(tampered)/frame_0003.png"))
        try refuses([a, tampered], "tampered: \(tampered)/frame_0003.png")

        // Catalogue parts.
        let common = ["render", "--all", "--match", "table-[bm]*", "--scale", "1", "--fps", "10", "--quiet"]
        let p1 = temporary("p1"), p2 = temporary("p2"), q2 = temporary("q2")
        XCTAssertEqual(try run(common + ["--shard", "1/2", "--out", p1]).status, 0)
        XCTAssertEqual(try run(common + ["--shard", "2/2", "--out", p2]).status, 0)
        XCTAssertEqual(try run(["render", "--all", "--match", "table-[bm]*", "--scale", "2", "--fps", "10", "--quiet", "--shard", "2/2", "--out", q2]).status, 0)
        try refuses([p1], "part 2 of 2 missing")
        try refuses([p1, p1, p2], "part 1 of 2 given twice")
        try refuses([p1, q2], "mixed settings: \(p1) and \(q2) are not parts of the same render: scale 1 vs 2")
        let good = temporary("good")
        XCTAssertEqual(try run(["merge", p1, p2, "--out", good]).status, 0)
        // An existing folder with something in it is never merged into.
        let result = try run(["merge", p1, p2, "--out", good])
        XCTAssertEqual(result.status, 73, result.standardError)
        XCTAssert(result.standardError.contains("already exists and holds 'catalogue.json'"), result.standardError)
    }

    /// With two threads several transitions are rendered at once, each on one thread: the same files as
    /// one thread writes, and the same lines in the catalogue's order.
    func testTransitionsRenderedAtOnceWriteWhatOneThreadWrites() throws {
        let common = ["render", "--all", "--match", "table-[bm]*", "--scale", "1", "--fps", "10"]
        let one = temporary("one"), two = temporary("two")
        let a = try run(common + ["--jobs", "1", "--out", one]), b = try run(common + ["--jobs", "2", "--out", two])
        XCTAssertEqual(a.status, 0, a.standardError)
        XCTAssertEqual(b.status, 0, b.standardError)
        XCTAssertEqual(try files(one), try files(two))
        func names(_ output: String) -> [String] {
            output.split(separator: "\n").compactMap { line in line.contains(" frames, ") ? String(line.split(separator: ":")[0]) : nil }
        }
        XCTAssertEqual(names(a.standardOutput), names(b.standardOutput), "one line a transition, in the catalogue's order")
        XCTAssertEqual(names(b.standardOutput), ["table-batch-mixed", "table-multiple-selection"], b.standardOutput)
    }

    func testAFailingTransitionDoesNotStopTheOthers() throws {
        let scenes = temporary("scenes")
        try FileManager.default.createDirectory(atPath: scenes, withIntermediateDirectories: true)
        try Data("{ \"version\": 1, ".utf8).write(to: URL(fileURLWithPath: "\(scenes)/broken-push.json"))
        let out = temporary("out")
        let result = try run(["render", "--all", "--scenes", scenes, "--match", "*-push", "--scale", "1", "--fps", "5", "--out", out])
        XCTAssertEqual(result.status, 1, result.standardError)
        XCTAssert(result.standardError.contains("broken-push: failed"), result.standardError)
        XCTAssert(FileManager.default.fileExists(atPath: "\(out)/nav-push/manifest.json"), "the other transition finished")
        XCTAssert(result.standardOutput.contains("total (2, 1 failed)"), result.standardOutput)
    }

    func testDiffAllComparesCatalogueFoldersWithOneReport() throws {
        let common = ["render", "--all", "--match", "table-[bm]*", "--scale", "1", "--fps", "10", "--quiet"]
        let a = temporary("a"), b = temporary("b"), report = temporary("report")
        XCTAssertEqual(try run(common + ["--out", a]).status, 0)
        XCTAssertEqual(try run(common + ["--out", b]).status, 0)
        let same = try run(["diff", "--all", a, b])
        XCTAssertEqual(same.status, 0, same.standardOutput + same.standardError)
        XCTAssert(same.standardOutput.contains("2 transitions, all match"), same.standardOutput)
        // One transition changed (a frame of another), one gone.
        try FileManager.default.removeItem(atPath: "\(b)/table-multiple-selection")
        try FileManager.default.removeItem(atPath: "\(b)/table-batch-mixed/frame_0002.png")
        try FileManager.default.copyItem(atPath: "\(a)/table-batch-mixed/frame_0006.png", toPath: "\(b)/table-batch-mixed/frame_0002.png")
        let differs = try run(["diff", "--all", a, b, "--diff-out", report])
        XCTAssertEqual(differs.status, 1)
        XCTAssert(differs.standardOutput.contains("differs    table-batch-mixed"), differs.standardOutput)
        XCTAssert(differs.standardOutput.contains("missing    table-multiple-selection"), differs.standardOutput)
        let html = try String(contentsOfFile: "\(report)/report.html", encoding: .utf8)
        XCTAssert(html.contains("2 of 2 transitions do not match"))
        XCTAssert(html.contains("table-batch-mixed/report.html"), "links to the transition's own report")
        XCTAssert(FileManager.default.fileExists(atPath: "\(report)/table-batch-mixed/sheet.png"))
    }
}

extension ScaleOutTests {
    /// The examples in docs/scale-out run the commands the README describes, and the batch script parses.
    func testTheScaleOutExamplesUseTheCommandsAsDocumented() throws {
        let folder = SafetyTests.root + "/docs/scale-out"
        let kubernetes = try String(contentsOfFile: "\(folder)/kubernetes-indexed-job.yaml", encoding: .utf8)
        XCTAssert(kubernetes.contains("completionMode: Indexed") && kubernetes.contains("--shard auto --shard-count 4") && kubernetes.contains("completions: 4"))
        XCTAssert(kubernetes.contains("smokescreen merge /results/part-0 /results/part-1 /results/part-2 /results/part-3"))
        let slurm = try String(contentsOfFile: "\(folder)/slurm-array.sbatch", encoding: .utf8)
        XCTAssert(slurm.contains("#SBATCH --array=1-4") && slurm.contains("--shard auto"))
        // Arguments after the script's name reach render; the merge takes every part (Tests/ScaleOut/slurm-test.sh
        // runs both on a real cluster).
        XCTAssert(slurm.contains("--out \"results/part-${SLURM_ARRAY_TASK_ID}\" \"$@\""))
        XCTAssert(slurm.contains("--wrap \"smokescreen merge results/part-* --out results/catalogue\""))
        let syntax = Process()
        syntax.executableURL = URL(fileURLWithPath: "/bin/bash")
        syntax.arguments = ["-n", "\(folder)/slurm-array.sbatch"]
        try syntax.run()
        syntax.waitUntilExit()
        XCTAssertEqual(syntax.terminationStatus, 0, "bash -n")
        let actions = try String(contentsOfFile: "\(folder)/github-actions.yml", encoding: .utf8)
        XCTAssert(actions.contains("--shard ${{ matrix.part }}/4") && actions.contains("SMOKESCREEN_GOLDEN_SHARD: ${{ matrix.part }}/4"))
        XCTAssert(actions.contains("smokescreen merge parts/part-1/part-1.tgz"))
        // Each command line of the examples parses as the tool takes it.
        for arguments in [["render", "--all", "--shard", "auto", "--shard-count", "4", "--quiet", "--out", "/results/part-0"],
                          ["render", "--all", "--shard", "auto", "--jobs", "2", "--quiet", "--out", "results/part-1"],
                          ["render", "--all", "--shard", "auto", "--jobs", "1", "--quiet", "--out", "results/part-1", "--scale", "1", "--match", "nav-*"],
                          ["render", "--all", "--shard", "3/4", "--quiet", "--out", "part-3"],
                          ["merge", "p1", "p2.tgz", "--out", "catalogue"]] {
            XCTAssertNoThrow(try SmokescreenCommand.parseAsRoot(arguments), "\(arguments)")
        }
    }
}
