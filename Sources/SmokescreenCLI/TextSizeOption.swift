import Foundation
import ArgumentParser
import BoundedInput
import Typesetting
import TransitionCompositor

/// `--text-size NAME` (also `--content-size`), shared by every command that renders: Dynamic Type's
/// text size, for the table and navigation built-ins, scene files' labels with a `textStyle` and Swift
/// files' stage.
package struct TextSizeOption: ParsableArguments {
    /// Every option at its default, as ArgumentParser makes it before it parses.
    package init() {}

    /// The names, smallest first, in `Font.ContentSize`'s order: UIKit's seven standard sizes, then the
    /// five accessibility sizes.
    static let names = ["xSmall", "small", "medium", "large", "xLarge", "xxLarge", "xxxLarge", "AX1", "AX2", "AX3", "AX4", "AX5"]

    @Option(name: [.customLong("text-size"), .customLong("content-size")],
            help: "Dynamic Type's text size, \(TextSizeOption.names.joined(separator: ", ")) (default large): the table and navigation built-ins' rows, scene files' labels with a textStyle, Swift files' traits.")
    var name = "large"

    @Option(name: .customLong("system-fonts"), help: ArgumentHelp(
        "A folder of Apple's SF Pro files, as Apple names them (SF-Pro-Text-Regular.otf, SF-Pro-Display-Bold.otf, …): the system font drawn in SF Pro Text below 20 pt and SF Pro Display from 20 pt instead of Inter (default: $\(Font.systemFontsVariable), else Inter). Apple licenses SF for mock-ups of its platforms' interfaces; Smokescreen ships none of it.",
        valueName: "dir"))
    var systemFonts: String?

    /// The size named (validate() has checked the name).
    package var value: Font.ContentSize { TextSizeOption.names.firstIndex(of: name).flatMap(Font.ContentSize.init(rawValue:)) ?? .large }

    package func validate() throws {
        guard TextSizeOption.names.contains(name) else {
            throw ValidationError("--text-size: no text size '\(name)' (\(TextSizeOption.names.joined(separator: ", ")))"
                                  + (closestName(to: name, among: TextSizeOption.names).map { "; did you mean '\($0)'?" } ?? ""))
        }
        if let systemFonts {
            // For the whole process, and for a Swift file's program, which reads the variable.
            do throws(TypesettingError) {
                try Font.useSystemFonts(inDirectory: systemFonts)
            } catch {
                throw ValidationError("--system-fonts: \(error.reason)")
            }
            setenv(Font.systemFontsVariable, systemFonts, 1)
        }
    }

    /// Warns when another size than Large is asked of a transition whose fonts are its own design.
    func warnIfFixed(_ transition: any Transition) {
        if value != .large, !transition.followsTextSize {
            printWarning("'\(transition.name)' draws fonts of its own design: --text-size \(name) changes nothing in it")
        }
    }
}
