// libFuzzer entry point: catalogue.json, through the strict parser `merge` reads every part's catalogue with.
import MergeParts

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalogue(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = try? CatalogueFile.parse(Array(UnsafeBufferPointer(start: data, count: size)), path: "fuzz.json")
    return 0
}
