import BoundedInput
import Choreography
import Foundation
import XCTest

/// The JSON Schema of scene files (`SceneDocument.schema`, printed by `smokescreen schema`) against an
/// independent validator, Python's `jsonschema` (draft 2020-12): every shipped scene and every scene in
/// the documentation validates, and on a set of broken files the schema and `smokescreen check` agree.
///
/// Without python3 and jsonschema the tests are skipped, except under `CI=true` or
/// `SMOKESCREEN_SCHEMA_REQUIRED=1` (as `.ci/run` sets it), where they fail.
final class SceneSchemaTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// One source: the documentation's copy is the schema the tool prints, byte for byte.
    func testTheDocsCopyIsTheSchema() throws {
        let copy = try Data(contentsOf: Self.root.appendingPathComponent("docs/scene.schema.json"))
        XCTAssertEqual(copy, Data(SceneDocument.schema.utf8),
                       "docs/scene.schema.json differs from SceneDocument.schema: run `swift run smokescreen schema > docs/scene.schema.json`")
        let object = try JSONSerialization.jsonObject(with: copy) as? [String: Any]
        XCTAssertEqual(object?["$schema"] as? String, "https://json-schema.org/draft/2020-12/schema")
    }

    // MARK: The validator

    /// Validates each file against the schema (which it first checks against the draft's metaschema);
    /// prints {path: null | "instance/path: message"}.
    static let script = """
        import json, sys
        from jsonschema import Draft202012Validator
        schema = json.load(open(sys.argv[1]))
        Draft202012Validator.check_schema(schema)
        validator = Draft202012Validator(schema)
        result = {}
        for path in sys.argv[2:]:
            errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(map(str, e.absolute_path)))
            result[path] = None if not errors else "/".join(map(str, errors[0].absolute_path)) + ": " + errors[0].message
        print(json.dumps(result))
        """

    static var validatorRequired: Bool {
        let environment = ProcessInfo.processInfo.environment
        let ci = environment["CI"]?.lowercased() ?? ""
        return ci == "true" || ci == "1" || environment["SMOKESCREEN_SCHEMA_REQUIRED"] == "1"
    }

    /// Runs `arguments` under the Python interpreter (`SMOKESCREEN_PYTHON`, or python3 on PATH): status and stdout+stderr.
    static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [ProcessInfo.processInfo.environment["SMOKESCREEN_PYTHON"] ?? "python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The schema's verdict on each of `paths`: nil when valid, else where and why.
    func validate(_ paths: [String]) throws -> [String: String?] {
        let probe = try Self.python(["-c", "import jsonschema"])
        if probe.status != 0 {
            let reason = probe.output.split(separator: "\n").last.map(String.init) ?? "exit status \(probe.status)"
            let message = "python3 with jsonschema is needed to check the scene schema (pip install jsonschema): \(reason)"
            if Self.validatorRequired {
                XCTFail(message)
                throw ValidatorMissing()
            }
            throw XCTSkip(message)
        }
        let schemaPath = folder + "/scene.schema.json"
        try Data(SceneDocument.schema.utf8).write(to: URL(fileURLWithPath: schemaPath))
        let run = try Self.python(["-c", Self.script, schemaPath] + paths)
        guard run.status == 0, let data = run.output.data(using: .utf8),
              let verdicts = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            XCTFail("the validator failed (\(run.status)): \(run.output)")
            throw ValidatorMissing()
        }
        return verdicts.mapValues { $0 as? String }
    }

    struct ValidatorMissing: Error {}

    // MARK: Shipped and documented scenes

    /// Every ```json block of the Markdown files in README.md and docs/ that is a whole scene file (an
    /// object with states and transitions), as (where, text).
    static func documentedScenes() throws -> [(origin: String, text: String)] {
        let docs = Self.root.appendingPathComponent("docs")
        let markdown = ["README.md"] + (try FileManager.default.contentsOfDirectory(atPath: docs.path)).filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        var scenes: [(String, String)] = []
        for file in markdown {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            for (i, block) in text.components(separatedBy: "```json\n").dropFirst().enumerated() {
                guard let body = block.components(separatedBy: "\n```").first,
                      let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
                      object["states"] != nil, object["transitions"] != nil else { continue }
                scenes.append(("\(file), json block \(i + 1)", body))
            }
        }
        return scenes
    }

    func testEveryShippedAndDocumentedSceneValidates() throws {
        let scenesFolder = Self.root.appendingPathComponent("assets/scenes").path
        let shipped = try FileManager.default.contentsOfDirectory(atPath: scenesFolder).filter { $0.hasSuffix(".json") }.sorted()
            .map { scenesFolder + "/" + $0 }
        XCTAssertGreaterThanOrEqual(shipped.count, 3)
        let documented = try Self.documentedScenes()
        XCTAssertTrue(documented.contains { $0.origin.hasPrefix("docs/scene-springs-and-schema.md") && $0.text.contains("\"bounce\"") },
                      "the springs guide shows an iOS 17 spring")
        XCTAssertTrue(documented.contains { $0.origin.hasPrefix("docs/scene-springs-and-schema.md") && $0.text.contains("\"dampingRatio\"") },
                      "the springs guide shows a UIKit spring")
        var paths = shipped
        var origins: [String: String] = [:]
        for (i, scene) in documented.enumerated() {
            let path = folder + "/documented-\(i).json"
            try Data(scene.text.utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
            origins[path] = scene.origin
        }
        let verdicts = try validate(paths)
        for path in paths {
            let origin = origins[path] ?? path
            XCTAssertEqual(verdicts[path] ?? "not validated", nil, "\(origin) does not validate against the schema")
            // And Smokescreen reads it: shipped files with their images, documented ones as text.
            if origins[path] == nil {
                XCTAssertNoThrow(try SceneDocument.check(path: path, assetsDirectory: Self.root.appendingPathComponent("assets").path), origin)
            } else {
                XCTAssertNoThrow(try SceneDocument.parse(Array(try String(contentsOfFile: path, encoding: .utf8).utf8), path: origin), origin)
            }
        }
    }

    // MARK: Agreement on broken files

    /// A scene both the schema and `check` accept; each case below breaks it in one place.
    let base = """
        {
          "$schema": "https://smokescreen.invalid/scene.schema.json",
          "size": [120, 80],
          "background": "#FFFFFF",
          "states": {
            "a": { "subviews": [ { "name": "box", "frame": [0, 0, 20, 20], "backgroundColor": "#336699", "alpha": 1 },
                                 { "name": "dot", "frame": [0, 60, 10, 10], "backgroundColor": { "light": "#993366", "dark": "#CC6699" } } ] },
            "b": { "subviews": [ { "name": "box", "frame": [80, 40, 30, 30], "backgroundColor": "#336699" } ] }
          },
          "transitions": [
            { "name": "slide", "reversedName": "slide-back", "from": "a", "to": "b",
              "phases": [
                { "name": "move", "duration": 0.4, "curve": { "spring": { "dampingRatio": 0.7, "initialVelocity": 0 } } },
                { "name": "settle", "delay": 0.1, "curve": { "spring": { "duration": 0.5, "bounce": 0.2 } } },
                { "name": "fade", "duration": 0.2, "curve": [0.25, 0.1, 0.25, 1] }
              ],
              "matched": [ { "id": "box", "phase": "move" } ],
              "unmatched": [ { "views": ["dot"], "phase": "fade", "effects": ["fade", { "fade": true }, { "slide": [0, 10] }] } ] }
          ]
        }
        """

    /// (what is wrong, text to replace in `base`, its replacement, what check's message names).
    var broken: [(what: String, old: String, new: String, keyPath: String)] {
        let uikit = #"{ "spring": { "dampingRatio": 0.7, "initialVelocity": 0 } }"#
        let ios17 = #"{ "spring": { "duration": 0.5, "bounce": 0.2 } }"#
        return [
            ("a damping ratio of 0", uikit, #"{ "spring": { "dampingRatio": 0 } }"#, "curve.spring.dampingRatio"),
            ("a damping ratio as text", uikit, #"{ "spring": { "dampingRatio": "0.7" } }"#, "curve.spring.dampingRatio"),
            ("a damping ratio and a bounce", uikit, #"{ "spring": { "dampingRatio": 0.7, "bounce": 0.1 } }"#, "curve.spring.dampingRatio"),
            ("a velocity out of range", uikit, #"{ "spring": { "dampingRatio": 0.7, "initialVelocity": 5000 } }"#, "curve.spring.initialVelocity"),
            ("a UIKit spring without the phase's duration", #""duration": 0.4, "curve": \#(uikit)"#, #""curve": \#(uikit)"#, "phases[0]"),
            ("an iOS 17 spring with the phase's duration", #""delay": 0.1, "curve": \#(ios17)"#, #""delay": 0.1, "duration": 0.3, "curve": \#(ios17)"#, "phases[1].duration"),
            ("a bounce of 1", ios17, #"{ "spring": { "duration": 0.5, "bounce": 1 } }"#, "curve.spring.bounce"),
            ("a bounce of -1", ios17, #"{ "spring": { "duration": 0.5, "bounce": -1 } }"#, "curve.spring.bounce"),
            ("a bounce without a duration", ios17, #"{ "spring": { "bounce": 0.2 } }"#, "curve.spring.bounce"),
            ("a spring duration of 0", ios17, #"{ "spring": { "duration": 0, "bounce": 0.2 } }"#, "curve.spring.duration"),
            ("a misspelt spring key", ios17, #"{ "spring": { "duraton": 0.5 } }"#, "curve.spring.duraton"),
            ("an empty spring", ios17, #"{ "spring": { } }"#, "curve.spring"),
            ("an empty curve object", ios17, "{ }", "curve"),
            ("a misspelt spring", ios17, #"{ "sprung": { "duration": 0.5 } }"#, "curve.sprung"),
            ("a control point x out of 0…1", "[0.25, 0.1, 0.25, 1]", "[1.5, 0.1, 0.25, 1]", "phases[2].curve"),
            ("three control numbers", "[0.25, 0.1, 0.25, 1]", "[0.25, 0.1, 0.25]", "phases[2].curve"),
            ("an unknown curve name", "[0.25, 0.1, 0.25, 1]", #""bouncy""#, "phases[2].curve"),
            ("a phase without a duration", #""duration": 0.2, "curve": [0.25"#, #""curve": [0.25"#, "phases[2]"),
            ("a misspelt top-level key", #""size": [120, 80]"#, #""sizes": [120, 80]"#, "sizes"),
            ("a size that is a string", #""size": [120, 80]"#, #""size": "120x80""#, "size"),
            ("no transitions", #""transitions": ["#, #""transitionz": ["#, "transitionz"),
            ("a five-digit colour", ##""background": "#FFFFFF""##, ##""background": "#FFFFF""##, "background"),
            ("an alpha over 1", #""alpha": 1 }"#, #""alpha": 2 }"#, "alpha"),
            ("a colour for one appearance only", ##"{ "light": "#993366", "dark": "#CC6699" }"##, ##"{ "light": "#993366" }"##, "subviews[1].backgroundColor"),
            ("an appearance that is not light or dark", ##""dark": "#CC6699""##, ##""dusk": "#CC6699""##, "backgroundColor.dusk"),
            ("a dark colour that is not one", ##""dark": "#CC6699""##, ##""dark": "pink""##, "backgroundColor.dark"),
            ("a transition name with a space", #""name": "slide","#, #""name": "my slide","#, "transitions[0].name"),
            ("an unknown effect", #"{ "slide": [0, 10] }"#, #"{ "spin": 1 }"#, "effects[2].spin"),
            ("a $schema that is not a string", #""$schema": "https://smokescreen.invalid/scene.schema.json""#, #""$schema": 1"#, "$schema"),
        ]
    }

    func testTheSchemaAndCheckAgree() throws {
        var paths: [String] = []
        let valid = folder + "/valid.json"
        try Data(base.utf8).write(to: URL(fileURLWithPath: valid))
        for (i, c) in broken.enumerated() {
            XCTAssertEqual(base.components(separatedBy: c.old).count, 2, "\(c.what): the text to replace must occur once")
            let path = folder + "/broken-\(i).json"
            try Data(base.replacingOccurrences(of: c.old, with: c.new).utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let verdicts = try validate([valid] + paths)
        XCTAssertEqual(verdicts[valid] ?? "not validated", nil, "the schema rejects the valid base")
        XCTAssertEqual(try SceneDocument.check(path: valid), ["slide", "slide-back"])
        for (c, path) in zip(broken, paths) {
            XCTAssertNotEqual(verdicts[path] ?? nil, nil, "the schema accepts \(c.what)")
            XCTAssertThrowsError(try SceneDocument.check(path: path), "check accepts \(c.what)") { error in
                // check's message: file:line:column: key.path: reason, at the broken place.
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix(path + ":"), "\(c.what): \(message)")
                XCTAssertTrue(message.contains(c.keyPath), "\(c.what): \(message) does not name \(c.keyPath)")
            }
        }
    }
}
