import SwiftSourcePass
import XCTest

final class SourcePassTests: XCTestCase {
    func testTheObjectiveCConstructsAreRewrittenOnTheirLines() {
        let source = """
        import UIKit
        import UIKit.UIGestureRecognizerSubclass

        @objcMembers final class Sheet: NSObject {
            @IBOutlet weak var handle: UIView!
            @objc dynamic var progress: CGFloat = 0
            @objc(handlePan:) func handlePan(_ pan: UIPanGestureRecognizer) {}
            @objc private func close() {}
            func install(on view: UIView) {
                view.addGestureRecognizer(UIPanGestureRecognizer(target: self, action: #selector(handlePan(_:))))
                let tap = UITapGestureRecognizer(target: self, action: #selector( Sheet.close ))
                _ = tap
            }
        }
        """
        let result = SourcePass.rewrite(source, addingUIKitImport: false)
        XCTAssertEqual(result.text, """
        import UIKit
        import UIKit

        final class Sheet: NSObject {
            weak var handle: UIView!
            var progress: CGFloat = 0
            func handlePan(_ pan: UIPanGestureRecognizer) {}
            private func close() {}
            func install(on view: UIView) {
                view.addGestureRecognizer(UIPanGestureRecognizer(target: self, action: Selector(handlePan(_:), name: "handlePan(_:)")))
                let tap = UITapGestureRecognizer(target: self, action: Selector( Sheet.close , name: "Sheet.close"))
                _ = tap
            }
        }
        """)
        XCTAssertEqual(result.changes.map(\.line), [2, 4, 5, 6, 6, 7, 8, 10, 11])
        XCTAssertEqual(result.changes[0].description, "import UIKit.UIGestureRecognizerSubclass → import UIKit")
        XCTAssertEqual(result.changes[5].description, "removed @objc(handlePan:)")
        XCTAssertEqual(result.changes[7].description, "#selector(handlePan(_:)) → Selector(handlePan(_:), name: \"handlePan(_:)\")")
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.text.split(separator: "\n", omittingEmptySubsequences: false).count,
                       source.split(separator: "\n", omittingEmptySubsequences: false).count, "every line stays where it was")
    }

    /// The render's entry point is found by its tokens: any parameter name, blank space and comments
    /// anywhere, the module-qualified type; not in a comment or a string, not another function's.
    func testTheRenderEntryPointIsFoundByItsTokens() {
        for found in ["func run(on stage: Stage) throws {}", "func run(on _: Stage) throws {}", "func run(on stage0: Stage) {}",
                      "func run(\n  on stage: /* the stage */ Stage\n) throws {}", "func run(on: Stage) throws {}",
                      "func run(on stage: SmokescreenStage.Stage) throws {}", "@MainActor func run(on s: Stage) throws {}"] {
            XCTAssertTrue(SourcePass.declaresRenderEntryPoint(found), found)
        }
        for missing in ["// func run(on stage: Stage) throws {}", "let s = \"func run(on stage: Stage)\"", "func run(with stage: Stage) {}",
                        "func run(on stage: Stage, speed: Double) {}", "func runs(on stage: Stage) {}", "func run(on stage: [Stage]) {}",
                        "/* func run(on stage: Stage) */", "func run(on stage: Stage"] {
            XCTAssertFalse(SourcePass.declaresRenderEntryPoint(missing), missing)
        }
    }

    func testCommentsStringsAndLookAlikesAreLeftAlone() {
        let source = #"""
        // @objc in a comment, #selector(x) too
        /* nested /* @objc */ still a comment #selector(y) */
        let a = "@objc #selector(z) \(value("@objc")) dynamic var"
        let b = #"raw @objc "quoted" #selector(w)"#
        let c = """
            @objc #selector(v)
            """
        let dynamic = 3
        let d = dynamic + 1
        let e = object.dynamic
        @available(iOS 13, *) func f() {}
        """#
        let result = SourcePass.rewrite(source, addingUIKitImport: false)
        XCTAssertEqual(result.text, source)
        XCTAssertEqual(result.changes, [])
    }

    func testAccessorSelectorsAreReportedNotRewritten() {
        let source = "let s = #selector(getter: UIView.frame)\n"
        let result = SourcePass.rewrite(source, addingUIKitImport: false)
        XCTAssertEqual(result.text, source)
        XCTAssertEqual(result.problems.map(\.line), [1])
        XCTAssertTrue(result.problems[0].message.contains("accessor"))
    }

    func testUnfinishedInputEndsWithoutAHang() {
        for source in ["#selector(", "\"unterminated", "/* open comment", "@", "#\"raw", "\"\\(open", "`tick", "#selector(a(b(c)"] {
            let result = SourcePass.rewrite(source, addingUIKitImport: false)
            XCTAssertEqual(result.text.utf8.count >= 0, true)
            XCTAssertEqual(result.text, source, "left as it is: \(source)")
        }
    }

    func testAMultilineSelectorKeepsItsLines() {
        let source = "x.addTarget(self, action: #selector(\n    handle(_:)\n), for: .valueChanged)\n"
        let result = SourcePass.rewrite(source, addingUIKitImport: false)
        XCTAssertEqual(result.text, "x.addTarget(self, action: Selector(\n    handle(_:)\n, name: \"handle(_:)\"), for: .valueChanged)\n")
        XCTAssertEqual(result.changes.first?.after, "Selector( handle(_:) , name: \"handle(_:)\")")
    }

    func testWindowsLineEndingsKeepEveryLine() {
        let source = "    @objc\r\n    func foo() {}\r\n    var x = 1\r\n    dynamic var y = 2\r\n    let s = #selector(\r\n foo\r\n)\r\n"
        let result = SourcePass.rewrite(source, addingUIKitImport: false)
        XCTAssertEqual(result.text, "    \r\n    func foo() {}\r\n    var x = 1\r\n    dynamic var y = 2\r\n    let s = Selector(\r\n foo\r\n, name: \"foo\")\r\n",
                       "dynamic after a plain statement is left (Linux compiles it); the selector's name is on one line")
    }

    func testWhatOnlyLooksLikeAModifierOrSpansLinesIsHandled() {
        XCTAssertEqual(SourcePass.rewrite("let v = base ||\n    dynamic\n    let w = 1\n", addingUIKitImport: false).text, "let v = base ||\n    dynamic\n    let w = 1\n")
        XCTAssertEqual(SourcePass.rewrite("@objc(fooWith:\n      bar:) func f() {}\n", addingUIKitImport: false).text, "\nfunc f() {}\n", "the attribute's line break stays")
        XCTAssertEqual(SourcePass.rewrite("let s = #selector // pick\n    (foo(with:bar:))\n", addingUIKitImport: false).text,
                       "let s = Selector // pick\n    (foo(with:bar:), name: \"foo(with:bar:)\")\n")
        let getter = SourcePass.rewrite("let s = #selector( getter : A.base)\n", addingUIKitImport: false)
        XCTAssertEqual(getter.text, "let s = #selector( getter : A.base)\n")
        XCTAssertEqual(getter.problems.count, 1)
        XCTAssertEqual(SourcePass.rewrite("let r = #/\"\"\"/#\n@objc dynamic var x = 1\n", addingUIKitImport: false).text, "let r = #/\"\"\"/#\nvar x = 1\n", "a regex literal is skipped whole")
    }

    func testAnObjectiveCProtocolsOptionalRequirementsAreReported() {
        let result = SourcePass.rewrite("@objc protocol P {\n    @objc optional func f()\n    func g()\n}\n", addingUIKitImport: false)
        XCTAssertEqual(result.problems.map(\.line), [2])
        XCTAssertTrue(result.problems[0].message.contains("default implementation"))
    }

    func testPathologicalInputEndsWithoutACrashOrAHang() {
        // Unclosed parentheses on every line (linear: each is matched once), and strings nested past the
        // lexer's depth (the rest is left as it is, with no deep recursion).
        let unclosed = String(repeating: "_ = #selector(\n", count: 50_000)
        XCTAssertEqual(SourcePass.rewrite(unclosed, addingUIKitImport: false).text, unclosed)
        let deep = "let x = \"" + String(repeating: "a\\(\"", count: 100_000) + "\n@objc func f() {}\n"
        XCTAssertEqual(SourcePass.rewrite(deep, addingUIKitImport: false).text, deep)
    }

    func testAFileWithoutUIKitGetsItsImportOnAnExistingLine() {
        let framework = "// Constants.swift\nimport QuartzCore\nlet duration: TimeInterval = 0.3\n"
        let result = SourcePass.rewrite(framework)
        XCTAssertEqual(result.text, "// Constants.swift\nimport UIKit; import QuartzCore\nlet duration: TimeInterval = 0.3\n")
        XCTAssertEqual(result.changes.map(\.line), [2])
        XCTAssertTrue(result.changes[0].description.hasPrefix("added import UIKit"))
        XCTAssertEqual(SourcePass.rewrite("//\nlet x = 1\n").text, "import UIKit; //\nlet x = 1\n", "a comment line when there is no import")
        XCTAssertEqual(SourcePass.rewrite("import UIKit\nlet x = 1\n").changes, [])
        XCTAssertEqual(SourcePass.rewrite("import SmokescreenStage\n").changes, [], "it re-exports UIKit")
    }

    func testCellInitializersTheTableMakesBecomeRequired() {
        let source = """
        final class Cell: UITableViewCell {
            override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
                super.init(style: style, reuseIdentifier: reuseIdentifier)
            }
            required init?(coder: NSCoder) { fatalError() }
        }
        final class Header: UITableViewHeaderFooterView {
            public override init(reuseIdentifier: String?) { super.init(reuseIdentifier: reuseIdentifier) }
        }
        final class List: UITableViewController {
            override init(style: UITableView.Style) { super.init(style: style) }
            override init(nibName: String?, bundle: Bundle?) { super.init(nibName: nibName, bundle: bundle) }
        }
        """
        let result = SourcePass.rewrite(source, addingUIKitImport: false)
        XCTAssertEqual(result.text, source
            .replacingOccurrences(of: "    override init(style: UITableViewCell", with: "    required init(style: UITableViewCell")
            .replacingOccurrences(of: "public override init(reuseIdentifier", with: "public required init(reuseIdentifier"))
        XCTAssertEqual(result.changes.map(\.line), [2, 8])
        XCTAssertEqual(result.changes[0].description, "override init(style:reuseIdentifier:) → required init(style:reuseIdentifier:)")
        XCTAssertEqual(result.problems, [])
    }

    func testACollectionCellsInitFrameBecomesRequiredAndAViewsStaysAsItIs() {
        let source = """
        final class PhotoCell: UICollectionViewCell {
            let image = UIImageView()
            override init(frame: CGRect) { super.init(frame: frame) }
            required init?(coder: NSCoder) { fatalError() }
            class func make() -> PhotoCell { PhotoCell(frame: .zero) }
        }
        class Badge<T>: UIKit.UICollectionReusableView, Sendable { override init(frame: CGRect) { super.init(frame: frame) } }
        final class Card: UIView {
            override init(frame: CGRect) {
                super.init(frame: frame)
                let inner = { () -> Int in 1 }
                _ = inner
            }
        }
        """
        let result = SourcePass.rewrite(source, addingUIKitImport: false)
        XCTAssertEqual(result.text, source
            .replacingOccurrences(of: "    override init(frame: CGRect) { super.init(frame: frame) }\n    required", with: "    required override init(frame: CGRect) { super.init(frame: frame) }\n    required")
            .replacingOccurrences(of: "Sendable { override init", with: "Sendable { required override init"))
        XCTAssertEqual(result.changes.map(\.line), [3, 7])
        XCTAssertEqual(result.changes[0].description, "override init(frame:) → required override init(frame:)")
    }

    /// `import Foundation` beside UIKit would make `DispatchQueue.main` ambiguous (UIKit's runs on the
    /// stage's clock); `ObjectiveC` is no module on Linux. Both become `import UIKit`.
    func testFoundationDispatchAndObjectiveCImportsBecomeUIKit() {
        let source = "import Foundation\nimport UIKit\nimport ObjectiveC\nimport struct Foundation.Date\nimport Dispatch\nfunc f() { DispatchQueue.main.async {} }\n"
        let result = SourcePass.rewrite(source)
        XCTAssertEqual(result.text, "import UIKit\nimport UIKit\nimport UIKit\nimport struct Foundation.Date\nimport UIKit\nfunc f() { DispatchQueue.main.async {} }\n")
        XCTAssertEqual(result.changes.map(\.description), ["import Foundation → import UIKit", "import ObjectiveC → import UIKit", "import Dispatch → import UIKit"])
        XCTAssertEqual(SourcePass.rewrite("import Foundation\n").text, "import UIKit\n", "no second UIKit import is added")
    }

    /// Swift on Linux cannot override in an extension: such members move into their class's body, with
    /// `#sourceLocation` keeping every line the file's own.
    func testOverridesInAnExtensionMoveIntoTheirClass() {
        let source = """
        import UIKit
        final class List: UITableViewController {
            var rows = 3
        }
        extension List {
            override func viewDidAppear(_ animated: Bool) {
                super.viewDidAppear(animated)
            }
            func helper() {}
        }
        extension List: UICollectionViewDelegate {
            @available(iOS 13, *) public override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { rows }
        }
        extension Array where Element == Int { }
        """
        let result = SourcePass.rewrite(source, file: "/cache/List.swift")
        XCTAssertEqual(result.text, """
        import UIKit
        final class List: UITableViewController {
            var rows = 3

        #sourceLocation(file: "/cache/List.swift", line: 6)
            override func viewDidAppear(_ animated: Bool) {
                super.viewDidAppear(animated)
            }
        #sourceLocation(file: "/cache/List.swift", line: 12)
            @available(iOS 13, *) public override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { rows }
        #sourceLocation(file: "/cache/List.swift", line: 4)
        }
        extension List {
            


            func helper() {}
        }
        extension List: UICollectionViewDelegate {
           \u{20}
        }
        extension Array where Element == Int { }
        """)
        XCTAssertEqual(result.changes.map(\.line), [6, 12])
        XCTAssertEqual(result.changes[0].description, "override func viewDidAppear in an extension → in class List's body (Swift on Linux cannot override in an extension)")
        XCTAssertEqual(SourcePass.rewrite(source).text, source, "without a file name nothing moves")
    }
}
