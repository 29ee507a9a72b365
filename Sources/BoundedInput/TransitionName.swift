/// The one rule for names read from files or arguments that end up naming a folder or file: a
/// transition's `name` and `reversedName` in a scene file, a manifest's `name`, a catalogue entry, a part.
///
/// A name is data, never a path: 1 to 100 ASCII letters, digits, `-` and `_`, not starting with `-` (so it
/// cannot be read as an option). That rules out `/`, `.`, `..`, spaces, control characters and every
/// non-ASCII character (no look-alikes, no normalization questions), so a path built as `root + "/" + name`
/// stays directly under `root`.
public enum TransitionName {
    /// The longest name, in bytes: 100.
    public static let maxBytes = 100

    /// Why `name` is not a valid name, or nil when it is.
    public static func problem(with name: String) -> String? {
        let bytes = Array(name.utf8)
        if bytes.isEmpty { return "is empty" }
        if bytes.count > maxBytes { return "is longer than \(maxBytes) bytes" }
        if bytes[0] == UInt8(ascii: "-") { return "'\(name)' starts with '-'" }
        for byte in bytes where !isAllowed(byte) {
            let shown = name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? String($0) : "?" }.joined()
            return "'\(shown)' is not a name: only ASCII letters, digits, - and _ (it names a folder)"
        }
        return nil
    }

    /// Whether `name` follows the rule.
    public static func isValid(_ name: String) -> Bool { problem(with: name) == nil }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
