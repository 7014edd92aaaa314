import Foundation
import RowKitHTML

// Input: one format byte ('y' YAML, 'j' JSON, 'c' CSV; anything else picks by value modulo 3),
// then the document's bytes. The reader must end in a document or a clean ListingError; a
// document must then export to a site inside a fresh folder. Any trap, sanitizer report, or a
// violated expectation below (abort) is a finding.

private let workFolder: URL = {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("rowkit-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzListing(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let format: ListingFormat
    switch bytes[0] {
    case UInt8(ascii: "y"): format = .yaml
    case UInt8(ascii: "j"): format = .json
    case UInt8(ascii: "c"): format = .csv
    default: format = [ListingFormat.yaml, .json, .csv][Int(bytes[0]) % 3]
    }
    let data = Data(bytes: bytes + 1, count: count - 1)
    let path = workFolder.appendingPathComponent("input.\(format)").path
    let document: ListingDocument
    do {
        document = try ListingReader.read(data, path: path, format: format, csv: CSVListingOptions(sectionBy: "category"))
    } catch {
        if error.diagnostics.isEmpty { fatalError("a ListingError without diagnostics") }
        for diagnostic in error.diagnostics where diagnostic.location.line < 1 || diagnostic.location.column < 1 {
            fatalError("a diagnostic without a position: \(diagnostic)")
        }
        return 0
    }
    FuzzExport.check(document, in: workFolder)
    return 0
}
