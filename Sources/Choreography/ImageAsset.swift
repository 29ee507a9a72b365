import BoundedInput
import PNGIO
import RasterCore

/// Image files as an app ships them: `name.png` at @1x, `name@2x.png`, `name@3x.png`.
public enum ImageAsset {
    /// `name.png`'s variant for `scale`: the exact one when it exists, else the nearest larger, else the
    /// nearest smaller. Returns the file (relative to `directory`) and its scale.
    public static func variant(of name: String, scale: Double, in directory: String) -> (file: String, scale: Double) {
        let base = name.hasSuffix(".png") ? String(name.dropLast(4)) : name
        func file(_ s: Int) -> String { s == 1 ? "\(base).png" : "\(base)@\(s)x.png" }
        let wanted = max(1, min(3, Int(scale.rounded())))
        let order = [wanted] + (1...3).filter { $0 > wanted } + (1...3).filter { $0 < wanted }.reversed()
        for s in order where InputFile.isRegularFile("\(directory)/\(file(s))") {
            return (file(s), Double(s))
        }
        return (file(wanted), Double(wanted))
    }
}
