// libFuzzer entry point: PNG decoding, through the function `smokescreen` itself decodes with.
import PNGIO

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = try? PNGCodec.decode(Array(UnsafeBufferPointer(start: data, count: size)), name: "fuzz.png")
    return 0
}
