/// How the frames of a render are named: `frame_0000.png`, `frame_0001.png`, … (at least four digits,
/// so `ffmpeg -i frame_%04d.png` works). The one place frame names are made and recognised.
public enum FrameFileName {
    /// The file name of frame `index` (0-based).
    public static func name(_ index: Int) -> String {
        let digits = String(index)
        return "frame_" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".png"
    }

    /// The frame number in a name of the form `frame_<digits>.png` (any number of digits), or nil for
    /// any other name. Numbers too large for `Int` give `Int.max`, so they sort last.
    public static func index(of name: String) -> Int? {
        guard name.hasPrefix("frame_"), name.hasSuffix(".png") else { return nil }
        let digits = name.utf8.dropFirst(6).dropLast(4)
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(String(decoding: digits, as: UTF8.self)) ?? Int.max
    }
}
