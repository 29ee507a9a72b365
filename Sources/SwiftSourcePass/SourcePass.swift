/// The source pass of `smokescreen render File.swift`: it rewrites the few constructs of iOS code that
/// Swift on Linux cannot compile, because they need the Objective-C runtime, and nothing else, keeping
/// every line where it was so that the compiler's line numbers are the file's own.
///
/// | written for iOS | becomes |
/// |---|---|
/// | `@objc`, `@objc(name)`, `@objcMembers`, `@nonobjc`, `@IBAction`, `@IBOutlet`, `@IBInspectable`, `@IBDesignable`, `@IBSegueAction` | removed |
/// | `dynamic` before a declaration | removed |
/// | `#selector(handlePan(_:))` | `Selector(handlePan(_:), name: "handlePan(_:)")` (UIKit's `Selector` carries the method) |
/// | `import UIKit.UIGestureRecognizerSubclass` (any `import Module.Submodule` of UIKit, QuartzCore, CoreGraphics, Foundation) | `import UIKit` |
///
/// `#selector(getter: …)` and `#selector(setter: …)` are left as they are and reported: there is no
/// method to call. Comments and string literals are never changed.
public enum SourcePass {
    /// One change, at a line of the file (counted from 1).
    public struct Change: Hashable, Sendable, CustomStringConvertible {
        public let line: Int
        public let before: String
        public let after: String
        public var description: String {
            if after.isEmpty { return "removed \(before)" }
            if before.isEmpty { return "added \(after) (on iOS a framework's files see UIKit through its umbrella header)" }
            return "\(before) → \(after)"
        }
    }

    /// What the pass could not rewrite, at a line: the compiler will stop there.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        public let line: Int
        public let message: String
        public var description: String { message }
    }

    /// The rewritten text, its changes in order, and what it could not rewrite.
    public struct Result: Sendable {
        public let text: String
        public let changes: [Change]
        public let problems: [Problem]
    }

    static let removedAttributes: Set<String> = ["objc", "objcMembers", "nonobjc", "IBAction", "IBOutlet", "IBInspectable",
                                                  "IBDesignable", "IBSegueAction", "GKInspectable"]
    static let submoduleParents: Set<String> = ["UIKit", "QuartzCore", "CoreGraphics", "Foundation"]
    /// Modules a user's file imports that become `import UIKit` (see the import rewrite).
    static let replacedImports: Set<String> = ["Foundation", "Dispatch", "ObjectiveC"]
    /// What may follow `dynamic` when it is a declaration modifier.
    static let declarationWords: Set<String> = ["var", "func", "let", "subscript", "init", "override", "public", "private", "internal",
                                                 "fileprivate", "open", "final", "static", "class", "lazy", "weak", "unowned", "required",
                                                 "convenience", "@"]

    /// Whether `source` declares the function a render calls, `func run(on stage: Stage)`, by its tokens:
    /// any parameter name (or `_`) after the label `on`, the type `Stage` or `SmokescreenStage.Stage`,
    /// blank space and comments anywhere between, and nothing found inside comments or strings.
    public static func declaresRenderEntryPoint(_ source: String) -> Bool {
        let bytes = Array(source.utf8)
        var lexer = Lexer(bytes)
        let words = lexer.tokens().filter { $0.kind != .space && $0.kind != .comment }
            .map { ($0.kind, String(decoding: bytes[$0.start..<$0.end], as: UTF8.self)) }
        func word(_ k: Int) -> String? { k < words.count && words[k].0 != .string ? words[k].1 : nil }
        for k in words.indices where word(k) == "func" && word(k + 1) == "run" && word(k + 2) == "(" && word(k + 3) == "on" {
            // `on name:` or `on _:` (a parameter name of its own), or `on:` (the label is the name).
            var at = k + 4
            if word(at) != ":", let name = word(at), words[at].0 == .identifier, name != "Stage" { at += 1 }
            guard word(at) == ":" else { continue }
            var type = ""
            at += 1
            while let part = word(at), part != ")", type.count < 40 { type += part; at += 1 }
            if word(at) == ")", type == "Stage" || type == "SmokescreenStage.Stage" { return true }
        }
        return false
    }

    /// Rewrites `source` (the text of one Swift file); with `addingUIKitImport` (default), a file that
    /// imports no UIKit gets `import UIKit` (see ``addingUIKitImport(to:tokens:bytes:)``). With `file`
    /// (the path the rewritten text is compiled at), an `override` member of an extension of a class
    /// declared in the same file moves into the class's body, `#sourceLocation` keeping the compiler's
    /// lines the file's own.
    public static func rewrite(_ source: String, addingUIKitImport: Bool = true, file: String? = nil) -> Result {
        var lexer = Lexer(Array(source.utf8))
        let tokens = lexer.tokens()
        var output: [UInt8] = []
        output.reserveCapacity(source.utf8.count)
        var changes: [Change] = []
        var problems: [Problem] = []
        var importsUIKit = false
        let bytes = Array(source.utf8)
        var index = 0

        func text(_ t: Token) -> String { String(decoding: bytes[t.start..<t.end], as: UTF8.self) }
        /// Whether a token holds a line break (bytes: `\r\n` is one Character but two bytes).
        func breaksLine(_ t: Token) -> Bool { bytes[t.start..<t.end].contains(0x0A) || bytes[t.start..<t.end].contains(0x0D) }
        /// The line breaks of a span, kept where something is removed, so that every line stays put.
        func lineBreaks(_ range: ClosedRange<Int>) -> [UInt8] {
            tokens[range].flatMap { t in bytes[t.start..<t.end].filter { $0 == 0x0A || $0 == 0x0D } }
        }
        let closing = matchingParens(tokens, bytes)
        /// The next token that is not blank space or a comment, from `i`.
        func significant(from i: Int) -> Int? {
            var j = i
            while j < tokens.count {
                if tokens[j].kind != .space && tokens[j].kind != .comment { return j }
                j += 1
            }
            return nil
        }
        /// Skips the blanks after a removed token, so that no double space is left (not newlines).
        func skipBlanks(from i: Int) -> Int {
            var j = i
            while j < tokens.count, tokens[j].kind == .space, !breaksLine(tokens[j]) { j += 1 }
            return j
        }

        // The classes the scan is inside, with their superclass's name (nil: none), by brace depth.
        var classes: [(depth: Int, superclass: String?)] = []
        var pendingClass: String?? = nil
        var depth = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .punctuation {
                switch text(token) {
                case "{":
                    depth += 1
                    if let pending = pendingClass { classes.append((depth, pending)); pendingClass = nil }
                case "}":
                    if classes.last?.depth == depth { classes.removeLast() }
                    depth -= 1
                default: break
                }
            } else if token.kind == .identifier, text(token) == "class", let n = significant(from: index + 1), tokens[n].kind == .identifier,
                      !["func", "var", "let", "subscript", "override", "final", "public", "private", "open", "internal", "fileprivate", "static"].contains(text(tokens[n])) {
                // `class Name<…>: Superclass, …` (the superclass is the first name after the colon).
                var j = n + 1
                var superclass: String?
                while let k = significant(from: j), k < tokens.count, text(tokens[k]) != "{" {
                    if text(tokens[k]) == ":", let m = significant(from: k + 1), tokens[m].kind == .identifier {
                        var name = text(tokens[m])
                        var e = m
                        while let dot = significant(from: e + 1), text(tokens[dot]) == ".", let part = significant(from: dot + 1), tokens[part].kind == .identifier {
                            name = text(tokens[part])
                            e = part
                        }
                        superclass = name
                        break
                    }
                    j = k + 1
                }
                pendingClass = .some(superclass)
            }
            switch token.kind {
            case .punctuation where text(token) == "@":
                // An attribute: `@name`, maybe with `(…)`.
                if let n = significant(from: index + 1), n == index + 1, tokens[n].kind == .identifier, removedAttributes.contains(text(tokens[n])) {
                    var end = n + 1
                    var written = "@" + text(tokens[n])
                    if end < tokens.count, tokens[end].kind == .punctuation, text(tokens[end]) == "(", let close = closing[end] {
                        written += tokens[end...close].map(text).joined()
                        end = close + 1
                    }
                    output += lineBreaks(index...(end - 1))
                    changes.append(Change(line: token.line, before: written.collapsingBlanks, after: ""))
                    if text(tokens[n]) == "objc", let p = significant(from: end), text(tokens[p]) == "protocol" {
                        problems += optionalRequirements(tokens, bytes, closing, afterProtocolAt: p)
                    }
                    index = skipBlanks(from: end)
                    continue
                }
            case .identifier where text(token) == "dynamic":
                if let n = significant(from: index + 1), declarationWords.contains(text(tokens[n])), isModifierPosition(tokens, bytes, before: index) {
                    changes.append(Change(line: token.line, before: "dynamic", after: ""))
                    index = skipBlanks(from: index + 1)
                    continue
                }
            case .identifier where text(token) == "import":
                // `import UIKit.UIGestureRecognizerSubclass` → `import UIKit`
                if let m = significant(from: index + 1), tokens[m].kind == .identifier, submoduleParents.contains(text(tokens[m])),
                   m + 2 < tokens.count, text(tokens[m + 1]) == ".", tokens[m + 2].kind == .identifier {
                    var end = m + 2
                    while end + 2 < tokens.count, text(tokens[end + 1]) == ".", tokens[end + 2].kind == .identifier { end += 2 }
                    let before = tokens[index...end].map(text).joined()
                    let after = tokens[index...m].map(text).joined()
                    output += Array(after.utf8)
                    changes.append(Change(line: token.line, before: before, after: after))
                    index = end + 1
                    continue
                }
                // `import Foundation`, `import Dispatch`, `import ObjectiveC` → `import UIKit`: UIKit re-exports
                // Foundation and declares the main queue on the stage's clock (beside a direct import of
                // Foundation its `DispatchQueue.main` would be ambiguous) and the runtime's associated
                // objects; ObjectiveC is not a module on Linux.
                if let m = significant(from: index + 1), tokens[m].kind == .identifier, replacedImports.contains(text(tokens[m])),
                   !(m + 1 < tokens.count && text(tokens[m + 1]) == ".") {
                    output += bytes[token.start..<tokens[m].start]
                    output += Array("UIKit".utf8)
                    changes.append(Change(line: token.line, before: "import " + text(tokens[m]), after: "import UIKit"))
                    importsUIKit = true
                    index = m + 1
                    continue
                }
            case .identifier where text(token) == "override":
                // `override init(style:reuseIdentifier:)` of a table cell (or `init(reuseIdentifier:)` of a
                // header view) → `required init(…)`: the table makes registered classes through it.
                if let labels = initializerLabels(tokens, bytes, closing, afterOverrideAt: index) {
                    let signature = "init(\(labels.map { $0 + ":" }.joined()))"
                    if Self.requiredInitializers.contains(labels) {
                        output += Array("required".utf8)
                        changes.append(Change(line: token.line, before: "override " + signature, after: "required " + signature))
                        index += 1
                        continue
                    }
                    // A collection view's cell or reusable view: `init(frame:)` is required there.
                    if labels == ["frame"], let superclass = classes.last?.superclass ?? nil,
                       superclass.hasSuffix("Cell") || superclass.hasSuffix("ReusableView") {
                        output += Array("required override".utf8)
                        changes.append(Change(line: token.line, before: "override " + signature, after: "required override " + signature))
                        index += 1
                        continue
                    }
                }
            case .pound where text(token) == "#selector":
                if let open = significant(from: index + 1), text(tokens[open]) == "(", let close = closing[open] {
                    let inner = tokens[(open + 1)..<close].map(text).joined()
                    let trimmed = inner.trimmingBlanks
                    let before = "#selector(" + inner + ")"
                    let squeezed = String(trimmed.unicodeScalars.filter { !$0.properties.isWhitespace })
                    if squeezed.hasPrefix("getter:") || squeezed.hasPrefix("setter:") {
                        problems.append(Problem(line: token.line, message: "\(before) names a property's accessor, which cannot be called without the Objective-C runtime; call the property instead"))
                        break
                    }
                    let name = trimmed.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    let after = "Selector(" + inner + ", name: \"" + name.collapsingBlanks + "\")"
                    // What stands between the keyword and its parenthesis (a comment, a line break) stays.
                    let between = tokens[(index + 1)..<open].map(text).joined()
                    output += Array(("Selector" + between + "(" + inner + ", name: \"" + name.collapsingBlanks + "\")").utf8)
                    changes.append(Change(line: token.line, before: before.collapsingBlanks, after: after.collapsingBlanks))
                    index = close + 1
                    continue
                }
            default:
                break
            }
            output += bytes[token.start..<token.end]
            index += 1
        }
        var text = String(decoding: output, as: UTF8.self)
        if addingUIKitImport, !importsUIKit, let added = Self.addingUIKitImport(to: text, tokens: tokens, bytes: bytes) {
            text = added.text
            changes.append(Change(line: added.line, before: "", after: "import UIKit"))
            changes.sort { $0.line < $1.line }
        }
        if let file {
            let moved = movingOverridesOutOfExtensions(text, file: file)
            if !moved.changes.isEmpty {
                text = moved.text
                changes = (changes + moved.changes).sorted { $0.line < $1.line }
            }
        }
        return Result(text: text, changes: changes, problems: problems)
    }

    /// The initializers (by their argument labels) that are `required` in Smokescreen's UIKit, because
    /// a table makes the classes registered with it through them: a cell's and a header view's.
    static let requiredInitializers: Set<[String]> = [["style", "reuseIdentifier"], ["reuseIdentifier"]]

    /// The argument labels of the initializer declared after the `override` at `index` (other modifiers
    /// may stand between), or nil when no initializer follows.
    private static func initializerLabels(_ tokens: [Token], _ bytes: [UInt8], _ closing: [Int: Int], afterOverrideAt index: Int) -> [String]? {
        func text(_ t: Token) -> String { String(decoding: bytes[t.start..<t.end], as: UTF8.self) }
        func next(_ i: Int) -> Int? {
            var j = i
            while j < tokens.count, tokens[j].kind == .space || tokens[j].kind == .comment { j += 1 }
            return j < tokens.count ? j : nil
        }
        let modifiers: Set<String> = ["public", "open", "internal", "fileprivate", "private", "convenience"]
        guard var i = next(index + 1) else { return nil }
        while modifiers.contains(text(tokens[i])), let n = next(i + 1) { i = n }
        guard text(tokens[i]) == "init", let open = next(i + 1), text(tokens[open]) == "(", let close = closing[open] else { return nil }
        // The first identifier of each parameter (its label), at the top level of the parentheses.
        var labels: [String] = []
        var expectsLabel = true
        var j = open + 1
        while j < close {
            let t = tokens[j]
            if t.kind == .punctuation, text(t) == "(" || text(t) == "[", let end = closing[j] { j = end + 1; continue }
            if t.kind == .punctuation, text(t) == "," { expectsLabel = true }
            else if expectsLabel, t.kind == .identifier { labels.append(text(t)); expectsLabel = false }
            j += 1
        }
        return labels
    }

    /// A file that imports neither UIKit nor a module that re-exports it (on iOS a framework's Swift files
    /// see UIKit through its umbrella header) gets `import UIKit; ` at the start of its first import line,
    /// or of its first blank or comment line; nil when it needs none (or there is no such line).
    private static func addingUIKitImport(to text: String, tokens: [Token], bytes: [UInt8]) -> (text: String, line: Int)? {
        var imported = false
        for (j, t) in tokens.enumerated() where t.kind == .identifier && String(decoding: bytes[t.start..<t.end], as: UTF8.self) == "import" {
            var k = j + 1
            while k < tokens.count, tokens[k].kind == .space { k += 1 }
            // `import UIKit`, `import SmokescreenStage`, `import class UIKit.UIView`…
            while k < tokens.count, tokens[k].kind == .identifier || tokens[k].kind == .space {
                let word = String(decoding: bytes[tokens[k].start..<tokens[k].end], as: UTF8.self)
                if ["UIKit", "SmokescreenStage", "SwiftUI"].contains(word) { imported = true }
                if tokens[k].kind == .identifier, !["class", "struct", "enum", "protocol", "func", "var", "let", "typealias"].contains(word) { break }
                k += 1
            }
        }
        guard !imported else { return nil }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func trimmed(_ l: String) -> Substring { l.drop { $0 == " " || $0 == "\t" } }
        let target = lines.firstIndex { trimmed($0).hasPrefix("import ") }
            ?? lines.firstIndex { let t = trimmed($0); return t.isEmpty || t == "\r" || t.hasPrefix("//") }
        guard let target else { return nil }
        lines[target] = "import UIKit; " + lines[target]
        return (lines.joined(separator: "\n"), target + 1)
    }

    /// Whether the token before `index` lets a modifier stand there: the start of the file, another
    /// modifier or attribute, or the brace, semicolon or parenthesis that ends what comes before (a line
    /// break alone does not: `a ||\n dynamic` is an expression).
    private static func isModifierPosition(_ tokens: [Token], _ bytes: [UInt8], before index: Int) -> Bool {
        var j = index - 1
        while j >= 0 {
            let t = tokens[j]
            let s = String(decoding: bytes[t.start..<t.end], as: UTF8.self)
            if t.kind == .space { j -= 1; continue }
            if t.kind == .comment { j -= 1; continue }
            return ["{", "}", ";", ")"].contains(s) || declarationWords.contains(s) || t.kind == .identifier && removedAttributes.contains(s)
        }
        return true
    }

    /// For every `(` token, the index of the `)` that closes it, found in one pass (an unclosed one
    /// has none).
    private static func matchingParens(_ tokens: [Token], _ bytes: [UInt8]) -> [Int: Int] {
        var open: [Int] = []
        var result: [Int: Int] = [:]
        for (j, t) in tokens.enumerated() where t.kind == .punctuation {
            let c = bytes[t.start]
            if c == UInt8(ascii: "(") { open.append(j) } else if c == UInt8(ascii: ")"), let o = open.popLast() { result[o] = j }
        }
        return result
    }

    /// The `optional` requirements of the `@objc protocol` at `index`: Swift on Linux has none.
    private static func optionalRequirements(_ tokens: [Token], _ bytes: [UInt8], _ closing: [Int: Int], afterProtocolAt index: Int) -> [Problem] {
        var j = index, depth = 0, problems: [Problem] = []
        while j < tokens.count {
            let t = tokens[j]
            let s = String(decoding: bytes[t.start..<t.end], as: UTF8.self)
            if s == "{" { depth += 1 } else if s == "}" {
                depth -= 1
                if depth == 0 { break }
            } else if depth == 1, t.kind == .identifier, s == "optional" {
                problems.append(Problem(line: t.line, message: "an optional requirement of an @objc protocol: Swift on Linux has none; "
                                        + "make it a plain requirement with a default implementation in an extension"))
            }
            j += 1
        }
        return problems
    }
}

extension String {
    var trimmingBlanks: String {
        var scalars = Substring(self).unicodeScalars[...]
        while let c = scalars.first, c.properties.isWhitespace { scalars.removeFirst() }
        while let c = scalars.last, c.properties.isWhitespace { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    /// Runs of blanks and line breaks (`\r\n` too) as one space (for a message on one line).
    var collapsingBlanks: String {
        var out = String.UnicodeScalarView()
        var blank = false
        for c in unicodeScalars {
            if c.properties.isWhitespace { blank = true; continue }
            if blank, !out.isEmpty { out.append(" ") }
            blank = false
            out.append(c)
        }
        return String(out)
    }

    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            out += rest[rest.startIndex..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}

extension Substring {
    func range(of target: String) -> Range<Index>? {
        let t = Array(target)
        guard !t.isEmpty else { return nil }
        var i = startIndex
        while i < endIndex {
            var j = i, k = 0
            while k < t.count, j < endIndex, self[j] == t[k] { j = index(after: j); k += 1 }
            if k == t.count { return i..<j }
            i = index(after: i)
        }
        return nil
    }
}
