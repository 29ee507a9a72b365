import ArgumentParser
import BoundedInput
import Typesetting
import TransitionCompositor

/// `--text-size NAME` (also `--content-size`), shared by every command that renders: Dynamic Type's
/// text size, for the table and navigation built-ins, scene files' labels with a `textStyle` and Swift
/// files' stage.
struct TextSizeOption: ParsableArguments {
    /// The names, smallest first, in `Font.ContentSize`'s order: UIKit's seven standard sizes, then the
    /// five accessibility sizes.
    static let names = ["xSmall", "small", "medium", "large", "xLarge", "xxLarge", "xxxLarge", "AX1", "AX2", "AX3", "AX4", "AX5"]

    @Option(name: [.customLong("text-size"), .customLong("content-size")],
            help: "Dynamic Type's text size, \(TextSizeOption.names.joined(separator: ", ")) (default large): the table and navigation built-ins' rows, scene files' labels with a textStyle, Swift files' traits.")
    var name = "large"

    /// The size named (validate() has checked the name).
    var value: Font.ContentSize { TextSizeOption.names.firstIndex(of: name).flatMap(Font.ContentSize.init(rawValue:)) ?? .large }

    func validate() throws {
        guard TextSizeOption.names.contains(name) else {
            throw ValidationError("--text-size: no text size '\(name)' (\(TextSizeOption.names.joined(separator: ", ")))"
                                  + (closestName(to: name, among: TextSizeOption.names).map { "; did you mean '\($0)'?" } ?? ""))
        }
    }

    /// Warns when another size than Large is asked of a transition whose fonts are its own design.
    func warnIfFixed(_ transition: any Transition) {
        if value != .large, !transition.followsTextSize {
            printWarning("'\(transition.name)' draws fonts of its own design: --text-size \(name) changes nothing in it")
        }
    }
}
