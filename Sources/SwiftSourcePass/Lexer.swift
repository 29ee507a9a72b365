/// A token of Swift source, as much as the source pass needs: blank space, comments and string literals
/// are kept whole (so that nothing inside them is rewritten), identifiers and `#` directives are words,
/// everything else is one character of punctuation.
struct Token {
    enum Kind { case space, comment, string, identifier, number, pound, punctuation }
    let kind: Kind
    let start: Int
    let end: Int
    /// The line the token starts on, from 1.
    let line: Int
}

/// Splits Swift source into ``Token``s. String literals of every form are skipped whole: `"…"` with
/// escapes and interpolations (which may hold strings and comments of their own), `"""…"""`, and raw
/// strings `#"…"#` with any number of `#`. Nested block comments are one comment.
struct Lexer {
    private let s: [UInt8]
    private var i = 0
    private var line = 1
    /// How deep strings and interpolations nest now; past ``maximumDepth`` the rest of the file is one
    /// string (nothing more is rewritten), so that no input can exhaust the stack.
    private var depth = 0
    static let maximumDepth = 256

    init(_ bytes: [UInt8]) { s = bytes }

    mutating func tokens() -> [Token] {
        var out: [Token] = []
        while i < s.count {
            let start = i, startLine = line
            let kind = next()
            out.append(Token(kind: kind, start: start, end: i, line: startLine))
        }
        return out
    }

    private func at(_ k: Int) -> UInt8 { k < s.count ? s[k] : 0 }
    private static func isIdentifierByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c >= 0x80
    }

    private mutating func advance() {
        if s[i] == 0x0A { line += 1 }
        i += 1
    }

    private mutating func next() -> Token.Kind {
        let c = s[i]
        if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
            while i < s.count, [0x20, 0x09, 0x0A, 0x0D].contains(s[i]) { advance() }
            return .space
        }
        if c == 0x2F, at(i + 1) == 0x2F { skipLineComment(); return .comment }
        if c == 0x2F, at(i + 1) == 0x2A { skipBlockComment(); return .comment }
        if c == 0x22 { skipString(hashes: 0); return .string }
        if c == 0x23 {
            // `#"…"#` raw strings, `#/…/#` regex literals, or a `#word` directive.
            var k = i, hashes = 0
            while at(k) == 0x23 { hashes += 1; k += 1 }
            if at(k) == 0x2F {
                while i < k { advance() }
                skipRegex(hashes: hashes)
                return .string
            }
            if at(k) == 0x22 {
                while i < k { advance() }
                skipString(hashes: hashes)
                return .string
            }
            advance()
            while i < s.count, Self.isIdentifierByte(s[i]) { advance() }
            return .pound
        }
        if c == 0x60 {  // `backticked identifier`
            advance()
            while i < s.count, s[i] != 0x60, s[i] != 0x0A { advance() }
            if i < s.count, s[i] == 0x60 { advance() }
            return .identifier
        }
        if c >= 0x30 && c <= 0x39 {
            while i < s.count, Self.isIdentifierByte(s[i]) || s[i] == 0x2E && at(i + 1) >= 0x30 && at(i + 1) <= 0x39 { advance() }
            return .number
        }
        if Self.isIdentifierByte(c) || c == 0x24 {
            advance()
            while i < s.count, Self.isIdentifierByte(s[i]) { advance() }
            return .identifier
        }
        advance()
        return .punctuation
    }

    private mutating func skipLineComment() {
        while i < s.count, s[i] != 0x0A { advance() }
    }

    private mutating func skipBlockComment() {
        var depth = 0
        while i < s.count {
            if s[i] == 0x2F, at(i + 1) == 0x2A { depth += 1; advance(); advance(); continue }
            if s[i] == 0x2A, at(i + 1) == 0x2F {
                depth -= 1
                advance(); advance()
                if depth == 0 { return }
                continue
            }
            advance()
        }
    }

    /// `#/…/#`: from the opening slash to after the closing slash and its `#`s.
    private mutating func skipRegex(hashes: Int) {
        advance()
        while i < s.count {
            if s[i] == 0x5C { advance(); if i < s.count { advance() }; continue }
            if s[i] == 0x2F {
                var k = i + 1, h = 0
                while h < hashes, at(k) == 0x23 { h += 1; k += 1 }
                if h == hashes { while i < k { advance() }; return }
            }
            advance()
        }
    }

    /// From the opening quote (after any `#`s) to after the closing quote and its `#`s.
    private mutating func skipString(hashes: Int) {
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth {
            while i < s.count { advance() }
            return
        }
        let multiline = at(i + 1) == 0x22 && at(i + 2) == 0x22
        let quotes = multiline ? 3 : 1
        for _ in 0..<quotes { advance() }
        while i < s.count {
            let c = s[i]
            if c == 0x5C {  // backslash: an escape only when followed by the string's hashes
                var k = i + 1, h = 0
                while h < hashes, at(k) == 0x23 { h += 1; k += 1 }
                if h == hashes {
                    while i < k { advance() }
                    if at(i) == 0x28 {  // interpolation
                        advance()
                        skipCode(untilCloseParen: true)
                        continue
                    }
                    if i < s.count { advance() }
                    continue
                }
                advance()
                continue
            }
            if c == 0x22 {
                var k = i, q = 0
                while q < quotes, at(k) == 0x22 { q += 1; k += 1 }
                var h = 0
                while h < hashes, at(k) == 0x23 { h += 1; k += 1 }
                if q == quotes, h == hashes {
                    while i < k { advance() }
                    return
                }
                advance()
                continue
            }
            if c == 0x0A, !multiline { return }  // an unterminated string ends at the line's end
            advance()
        }
    }

    /// Code inside an interpolation, to the `)` that closes it.
    private mutating func skipCode(untilCloseParen: Bool) {
        var depth = 1
        while i < s.count {
            let c = s[i]
            if c == 0x22 { skipString(hashes: 0); continue }
            if c == 0x23, at(i + 1) == 0x22 || at(i + 1) == 0x23 {
                var k = i, hashes = 0
                while at(k) == 0x23 { hashes += 1; k += 1 }
                if at(k) == 0x22 { while i < k { advance() }; skipString(hashes: hashes); continue }
            }
            if c == 0x2F, at(i + 1) == 0x2F { skipLineComment(); continue }
            if c == 0x2F, at(i + 1) == 0x2A { skipBlockComment(); continue }
            if c == 0x28 { depth += 1 } else if c == 0x29 {
                depth -= 1
                if depth == 0 { advance(); return }
            }
            advance()
        }
    }
}
