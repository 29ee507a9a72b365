// libFuzzer entry point: manifest.json, through the parser the output folder and `diff` use.
import FrameStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = try? Manifest.parse(Array(UnsafeBufferPointer(start: data, count: size)), path: "fuzz.json")
    return 0
}
