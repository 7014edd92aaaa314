import Foundation
import RowKitHTML
import RowKitListing

// Input: one format byte ('y' YAML, 'j' JSON, 'c' CSV; anything else picks by value modulo 3),
// one byte choosing the read buffer's size (1 to 16 bytes, or 1 MiB; and, from 0x80 on, parsing on a
// thread of its own: `readAhead`), then the document's bytes.
// The streaming reader must end in a valid summary or in diagnostics with positions, hand out
// rows only in a well-formed order, and read the same with any buffer size; a valid document must
// then export (streaming again) to a site inside a fresh folder. Any trap, sanitizer report, or a
// violated expectation below (abort) is a finding.

private let workFolder: URL = {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("rowkit-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}()

/// Checks the order of what a reader hands out: `begin` before anything, sections numbered from 0
/// in order, rows only in the open section, and collects the document.
private struct Checker: ListingVisitor {
    var section = -1
    var begun = false
    var rows: [[String]] = []

    mutating func begin(_ header: ListingHeader) {
        begun = true
        section = -1
        rows = []
    }

    mutating func row(_ row: ListingRow, section: Int) {
        guard begun, section == self.section || section == self.section + 1 else { fatalError("a row out of order") }
        if section == self.section + 1 {
            self.section = section
            rows.append([])
        }
        rows[section].append(row.id + "|" + row.text + "|" + (row.body ?? ""))
    }

    mutating func endSection(_ section: ListingSection, index: Int) {
        guard begun, index == self.section || index == self.section + 1 else {
            fatalError("a section end out of order")
        }
        if index == self.section + 1 {
            self.section = index
            rows.append([])
        }
    }

    mutating func abandon() {
        begun = false
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzListing(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 1 else { return 0 }
    let format: ListingFormat
    switch bytes[0] {
    case UInt8(ascii: "y"): format = .yaml
    case UInt8(ascii: "j"): format = .json
    case UInt8(ascii: "c"): format = .csv
    default: format = [ListingFormat.yaml, .json, .csv][Int(bytes[0]) % 3]
    }
    let bufferSize = bytes[1] % 17 == 0 ? 1 << 20 : Int(bytes[1] % 17)
    let data = Data(bytes: bytes + 2, count: count - 2)
    let path = workFolder.appendingPathComponent("input.\(format)").path
    let csv = CSVListingOptions(sectionBy: "category")
    var reader = ListingReader(data, path: path, format: format, csv: csv)
    reader.bufferSize = bufferSize
    // Half the inputs are parsed on a thread of their own, and must read exactly the same.
    reader.readAhead = bytes[1] >= 0x80
    var checker = Checker()
    let summary: ListingSummary
    do {
        summary = try reader.read(into: &checker)
    } catch {
        fatalError("a checking visitor never throws: \(error)")
    }
    // The same document, read whole with the default buffer.
    let whole = ListingReader(data, path: path, format: format, csv: csv).document()
    guard summary.isValid else {
        for diagnostic in summary.diagnostics where diagnostic.location.line < 1 || diagnostic.location.column < 1 {
            fatalError("a diagnostic without a position: \(diagnostic)")
        }
        guard case .failure(let error) = whole, error.diagnostics == summary.diagnostics else {
            fatalError("reading in \(bufferSize)-byte pieces found other problems")
        }
        return 0
    }
    guard case .success(let document) = whole,
        document.sections.map({ $0.rows.map { $0.id + "|" + $0.text + "|" + ($0.body ?? "") } }) == checker.rows
    else {
        fatalError("reading in \(bufferSize)-byte pieces gave other rows")
    }
    FuzzExport.check(reader, title: document.title, in: workFolder)
    return 0
}
