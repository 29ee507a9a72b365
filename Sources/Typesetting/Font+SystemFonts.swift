#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Apple's SF Pro as the system font, from a folder of its files the user has.
///
/// Apple licenses SF Pro for mock-ups of interfaces for its platforms; Smokescreen never ships or
/// downloads it. Given a folder holding Apple's files (`SF-Pro-Text-Regular.otf`, `SF-Pro-Display-Bold.otf`,
/// … as Apple names them: `SF-Pro-Text-` or `SF-Pro-Display-` and a weight, `Ultralight` … `Black`), the
/// system font (``Font/system(size:weight:)``, the text styles, UIKit's `systemFont`) is SF Pro Text below
/// ``Font/systemDisplaySize`` and SF Pro Display from it, as iOS switches SF's optical sizes, with SF's
/// tracking by size (``Font/systemTracking(forSize:)``) and the files' own line metrics, so text measures
/// as iOS's does. Without a folder it is Inter, as before.
extension Font {
    /// The environment variable naming the folder of SF Pro's files, read when the system font is first
    /// used (the commands' `--system-fonts DIR` sets it, so that Swift files rendered in a child process
    /// see it too).
    public static let systemFontsVariable = "SMOKESCREEN_SYSTEM_FONTS"
    /// The system font's families while a folder of SF Pro's files is in use.
    public static let sfProText = "SF Pro Text", sfProDisplay = "SF Pro Display"

    /// The folder of SF Pro's files the system font comes from, or nil (Inter).
    public static var systemFontsDirectory: String? { SystemFonts.directory() }

    /// What a render drawn with SF Pro records, so that frames drawn with another system font are not
    /// kept or merged with its own: the file names and sizes of the designs in use (the same files on
    /// another machine give the same text); nil with Inter.
    public static var systemFontsFingerprint: String? {
        guard let directory = SystemFonts.directory() else { return nil }
        var parts: [String] = []
        for design in ["Text", "Display"] {
            for (weight, path) in SystemFonts.files(in: directory, design: design).sorted(by: { $0.key.value < $1.key.value }) {
                var info = stat()
                let size = stat(path, &info) == 0 ? Int(info.st_size) : -1
                parts.append("\(design)-\(weight.rawValue):\(size)")
            }
        }
        return "system fonts SF Pro " + parts.joined(separator: ",")
    }

    /// The system font from SF Pro's files in `directory` from now on, for the whole process; nil goes back
    /// to Inter. A font made before keeps its family (``system(size:weight:)`` names it when called).
    /// - Throws: ``TypesettingError`` naming the folder, when it cannot be read or holds no
    ///   `SF-Pro-Text-…` or no `SF-Pro-Display-…` file.
    public static func useSystemFonts(inDirectory directory: String?) throws(TypesettingError) {
        if let directory { try SystemFonts.check(directory) }
        SystemFonts.set(directory)
    }
}

/// The folder in use and the files found in it.
enum SystemFonts {
    struct State {
        var directory: String?
        /// Whether the environment variable has been read.
        var started = false
    }

    static let state = Mutex(State())

    /// Apple's weight names in its file names.
    static let weights: [(Font.Weight, String)] = [
        (.ultraLight, "Ultralight"), (.thin, "Thin"), (.light, "Light"), (.regular, "Regular"), (.medium, "Medium"),
        (.semibold, "Semibold"), (.bold, "Bold"), (.heavy, "Heavy"), (.black, "Black"),
    ]

    /// The folder in use; the environment variable's on first use (a folder that does not check out is
    /// reported once on stderr, and Inter is used).
    static func directory() -> String? {
        state.withLock { s -> String? in
            if !s.started {
                s.started = true
                if let raw = getenv(Font.systemFontsVariable), case let value = String(cString: raw), !value.isEmpty {
                    do throws(TypesettingError) {
                        try check(value)
                        s.directory = value
                    } catch {
                        let text = "warning: Typesetting: \(Font.systemFontsVariable): \(error.reason); the system font is Inter\n"
                        text.utf8CString.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count - 1) }
                    }
                }
            }
            return s.directory
        }
    }

    static func set(_ directory: String?) {
        state.withLock { s in
            s.started = true
            s.directory = directory
        }
        // Paths found for the SF families before belong to the folder before.
        FontRegistry.shared.forgetFamilyPaths()
    }

    /// The files of one design (`Text` or `Display`) in `directory`, by weight.
    static func files(in directory: String, design: String) -> [Font.Weight: String] {
        var found: [Font.Weight: String] = [:]
        for (weight, name) in weights {
            for ext in ["otf", "ttf"] {
                let path = directory + "/SF-Pro-\(design)-\(name).\(ext)"
                if FontLocator.isFile(path) { found[weight] = path; break }
            }
        }
        return found
    }

    static func check(_ directory: String) throws(TypesettingError) {
        var info = stat()
        guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw TypesettingError(kind: .fileNotFound, file: directory, reason: "\(directory): no such folder")
        }
        for design in ["Text", "Display"] where files(in: directory, design: design)[.regular] == nil {
            throw TypesettingError(kind: .familyNotFound, file: directory,
                                   reason: "\(directory): no SF-Pro-\(design)-Regular.otf (Apple's file names: SF-Pro-\(design)-Regular.otf and its other weights beside it)")
        }
    }
}
