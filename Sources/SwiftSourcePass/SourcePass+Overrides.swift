// Swift on Linux cannot override a method in an extension (iOS can: UIKit's methods are `@objc`), and
// iOS code often does: `extension ListViewController: UITableViewDelegate { override func tableView(…) }`.
// This pass moves such members into the body of their class when the class is declared in the same file,
// and keeps the compiler's line numbers the file's own with `#sourceLocation` around what it moved.

extension SourcePass {
    /// A member of an extension to move: its text and the line it started on.
    struct MovedMember {
        let range: Range<Int>
        let line: Int
        let name: String
    }

    /// The most members moved from one file (a bound on the work; more stay where they are).
    static let maximumMovedMembers = 1_000

    /// `text` with every `override` member of an extension of a class declared at the top level of the
    /// same file moved to the end of that class's body, each change listed; `file` names the file in the
    /// `#sourceLocation` directives that keep diagnostics on the original lines. Extensions with generic
    /// parameters or a `where` clause are left alone.
    static func movingOverridesOutOfExtensions(_ text: String, file: String) -> (text: String, changes: [Change]) {
        let bytes = Array(text.utf8)
        var lexer = Lexer(bytes)
        let tokens = lexer.tokens()
        func string(_ t: Token) -> String { String(decoding: bytes[t.start..<t.end], as: UTF8.self) }
        func isPunctuation(_ t: Token, _ c: String) -> Bool { t.kind == .punctuation && string(t) == c }
        func next(_ i: Int) -> Int? {
            var j = i
            while j < tokens.count, tokens[j].kind == .space || tokens[j].kind == .comment { j += 1 }
            return j < tokens.count ? j : nil
        }
        // Matching braces (linear), and each brace's depth.
        var closing: [Int: Int] = [:]
        var stack: [Int] = []
        var depthAt = [Int](repeating: 0, count: tokens.count)
        for (j, t) in tokens.enumerated() {
            depthAt[j] = stack.count
            if isPunctuation(t, "{") { stack.append(j) } else if isPunctuation(t, "}"), let o = stack.popLast() { closing[o] = j }
        }
        let modifiers: Set<String> = ["public", "private", "fileprivate", "internal", "open", "final", "override", "required",
                                      "convenience", "static", "class", "mutating", "nonmutating", "lazy", "weak", "unowned", "indirect"]
        let typeWords: Set<String> = ["class", "struct", "enum", "extension", "protocol", "actor"]

        // Top-level classes (name → the index of their body's `{`), and top-level extensions.
        var classBodies: [String: Int] = [:]
        var extensions: [(name: String, open: Int)] = []
        var j = 0
        while j < tokens.count {
            let t = tokens[j]
            guard depthAt[j] == 0, t.kind == .identifier, typeWords.contains(string(t)), let n = next(j + 1), tokens[n].kind == .identifier,
                  !modifiers.contains(string(tokens[n])) || string(t) == "extension" else { j += 1; continue }
            let kind = string(t), name = string(tokens[n])
            // The header up to the body: no generics or `where` for what this pass touches.
            var k = n + 1
            var simple = true
            while k < tokens.count, !isPunctuation(tokens[k], "{") {
                let word = string(tokens[k])
                if word == "<" || word == "where" || (word == "." && kind == "extension") { simple = false }
                if isPunctuation(tokens[k], "}") || isPunctuation(tokens[k], ";") { break }
                k += 1
            }
            guard k < tokens.count, isPunctuation(tokens[k], "{") else { j = k + 1; continue }
            if simple, kind == "class" { classBodies[name] = k }
            if simple, kind == "extension" { extensions.append((name, k)) }
            j = (closing[k] ?? k) + 1
        }
        guard !classBodies.isEmpty, !extensions.isEmpty else { return (text, []) }

        // The override members of those extensions.
        var moves: [(member: MovedMember, into: String)] = []
        for ext in extensions {
            guard classBodies[ext.name] != nil, let close = closing[ext.open] else { continue }
            var k = ext.open + 1
            while k < close, moves.count < maximumMovedMembers {
                let t = tokens[k]
                guard t.kind == .identifier, string(t) == "override", depthAt[k] == depthAt[ext.open] + 1 else {
                    if isPunctuation(t, "{"), let c = closing[k] { k = c + 1 } else { k += 1 }
                    continue
                }
                // Back over the modifiers and attributes before `override`.
                var start = k
                var b = k - 1
                while b > ext.open {
                    let p = tokens[b]
                    if p.kind == .space || p.kind == .comment { b -= 1; continue }
                    if p.kind == .identifier, modifiers.contains(string(p)) || (b > 0 && string(tokens[b - 1]) == "@") {
                        start = b
                        if string(tokens[b - 1]) == "@" { start = b - 1; b -= 2 } else { b -= 1 }
                        continue
                    }
                    if isPunctuation(p, ")") {
                        // An attribute's arguments: `@available(…)`.
                        var q = b, depth = 0
                        while q > ext.open {
                            if isPunctuation(tokens[q], ")") { depth += 1 } else if isPunctuation(tokens[q], "(") { depth -= 1; if depth == 0 { break } }
                            q -= 1
                        }
                        if q > ext.open + 1, tokens[q - 1].kind == .identifier, q >= 2, string(tokens[q - 2]) == "@" {
                            start = q - 2
                            b = q - 3
                            continue
                        }
                    }
                    break
                }
                // Forward to the body's closing brace: the member ends there.
                var e = k + 1
                var name = ""
                while e < close, !isPunctuation(tokens[e], "{") {
                    if name.isEmpty, tokens[e].kind == .identifier, !modifiers.contains(string(tokens[e])),
                       ["func", "var", "init", "subscript"].contains(string(tokens[e])) {
                        if let m = next(e + 1), string(tokens[e]) == "func" || string(tokens[e]) == "var" { name = string(tokens[e]) + " " + string(tokens[m]) } else { name = string(tokens[e]) }
                    }
                    e += 1
                }
                guard e < close, let bodyClose = closing[e], bodyClose < close, !name.isEmpty else { k = e + 1; continue }
                moves.append((MovedMember(range: tokens[start].start..<tokens[bodyClose].end, line: tokens[start].line, name: name), ext.name))
                k = bodyClose + 1
            }
        }
        guard !moves.isEmpty else { return (text, []) }

        // Blank the moved members where they were (their line breaks stay), and add them to their classes.
        var insertions: [Int: [MovedMember]] = [:]
        for move in moves {
            if let open = classBodies[move.into], let close = closing[open] { insertions[close, default: []].append(move.member) }
        }
        let removed = moves.map(\.member.range)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + moves.reduce(0) { $0 + $1.member.range.count } + 200 * moves.count)
        let quoted = file.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        var position = 0
        // The byte offsets where something happens, in order.
        var events: [(offset: Int, remove: Range<Int>?, insertBefore: Int?)] = removed.map { ($0.lowerBound, $0, nil) }
        events += insertions.keys.map { (tokens[$0].start, nil, $0) }
        events.sort { $0.offset < $1.offset }
        for event in events {
            guard event.offset >= position else { continue }
            output += bytes[position..<event.offset]
            if let range = event.remove {
                output += bytes[range].filter { $0 == 0x0A || $0 == 0x0D }
                position = range.upperBound
            } else if let closeIndex = event.insertBefore, let members = insertions[closeIndex] {
                for member in members {
                    output += Array("\n#sourceLocation(file: \"\(quoted)\", line: \(member.line))\n".utf8)
                    // The member's own indentation, so that columns stay the file's.
                    var lineStart = member.range.lowerBound
                    while lineStart > 0, bytes[lineStart - 1] == 0x20 || bytes[lineStart - 1] == 0x09 { lineStart -= 1 }
                    output += bytes[lineStart..<member.range.lowerBound]
                    output += bytes[member.range]
                }
                output += Array("\n#sourceLocation(file: \"\(quoted)\", line: \(tokens[closeIndex].line))\n".utf8)
                position = tokens[closeIndex].start
            }
        }
        output += bytes[position...]
        let changes = moves.map { move in
            Change(line: move.member.line, before: "override \(move.member.name) in an extension", after: "in class \(move.into)'s body (Swift on Linux cannot override in an extension)")
        }
        return (String(decoding: output, as: UTF8.self), changes)
    }
}
