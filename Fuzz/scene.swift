// libFuzzer entry point: scene files, through the parser `smokescreen render scene.json` and `check` use.
import Choreography

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = try? SceneDocument.parse(Array(UnsafeBufferPointer(start: data, count: size)), path: "fuzz.json")
    return 0
}
