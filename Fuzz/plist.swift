// libFuzzer entry point: the durations plist, through the parser `smokescreen render` uses, with the
// block names Vesper reads.
import TransitionCompositor

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlist(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = try? BlockTimings.parse(Array(UnsafeBufferPointer(start: data, count: size)), path: "fuzz.plist",
                                required: ["navigationBar", "tableView", "selectedNote"], alsoKnown: ["picture", "chrome"], warn: nil)
    return 0
}
