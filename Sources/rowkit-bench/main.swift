// rowkit-bench: the C-core versus Swift-baseline benchmark, with the pipeline beside it.
//
//   swift run -c release rowkit-bench [--items N] [--json] [--skip-pipeline] [--only NAME]
//                                     [--file-export SIZES [--formats yaml,json,csv] [--detail-pages]]
//
// --only runs one benchmark of the suite (offset-tree or table-view) or one part of the pipeline
// (diff or model) and nothing else, for profiling one part (e.g. under `perf record`); --only
// file-export runs the file-to-site benchmark alone. --file-export 100000,1000000 adds the
// file-to-site benchmark (generated listings exported as `rowkit export` does; FileExportBenchmark)
// at those row counts, with its peak memory measured in a child process.
// Prints a table of median ns per operation with swift/c and naive/c ratios and bytes per item
// (fresh and after edits), the C tree beside two plain-C references (a Fenwick tree, a chunked
// array), then the pipeline figures (snapshot diff at 10^5 and 10^6 rows, single-row edits and
// lookups on a model of one 1,000,000-row section, export of 100,000 rows with Markdown against
// bare cmark, and the peak memory of exporting 1,000,000 rows, measured in a child process), and
// last the ratios the run is held to. --json prints {"items": N, "ops": {...}, "bytes_per_item":
// {...}, "reference": {...}, "diff_ms": {...}, "model": {...}, ..., "ratios": {...}} instead.
import Foundation
import RowKitBench

let usage =
    "usage: rowkit-bench [--items N] [--json] [--skip-pipeline] [--only offset-tree|table-view|diff|model|file-export]"
    + " [--file-export SIZES] [--formats yaml,json,csv] [--detail-pages]"
var items = 1_000_000
var json = false
var pipeline = true
var peakRows = 1_000_000
var suite = BenchmarkSuite.standard
var pipelinePart: String?
var fileExport = FileExportBenchmark(sizes: [])
var fileExportOnly = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--json":
        json = true
    case "--skip-pipeline":
        pipeline = false
    case "--items":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else {
            FileHandle.standardError.write(Data("error: --items needs a positive integer\n\(usage)\n".utf8))
            exit(64)
        }
        items = value
    case "--file-export":
        guard let sizes = arguments.popFirst()?.split(separator: ",").compactMap({ Int($0) }), !sizes.isEmpty,
            sizes.allSatisfy({ $0 > 0 })
        else {
            FileHandle.standardError.write(
                Data("error: --file-export needs row counts, e.g. 100000,1000000\n\(usage)\n".utf8))
            exit(64)
        }
        fileExport.sizes = sizes
    case "--formats":
        let formats =
            arguments.popFirst()?.split(separator: ",").compactMap { ListingGenerator.Format(rawValue: String($0)) }
            ?? []
        guard !formats.isEmpty else {
            FileHandle.standardError.write(Data("error: --formats needs yaml, json or csv\n\(usage)\n".utf8))
            exit(64)
        }
        fileExport.formats = formats
    case "--detail-pages":
        fileExport.detailPages = true
    case "--file-export-child":
        // The child process of the file export's peak-memory measurement: export, print the peak.
        guard let path = arguments.popFirst() else { exit(64) }
        let site = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rowkit-bench-peak-\(ProcessInfo.processInfo.processIdentifier)")
        // exit(_:) runs no defer: the site is removed before it, whatever the export did.
        do {
            try FileExportBenchmark.export(
                URL(fileURLWithPath: path), to: site, jobs: ProcessInfo.processInfo.activeProcessorCount)
            try? FileManager.default.removeItem(at: site)
            print(FileExportBenchmark.peakResidentBytes())
            exit(0)
        } catch {
            try? FileManager.default.removeItem(at: site)
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        }
    case "--only" where arguments.first == "file-export":
        _ = arguments.popFirst()
        fileExportOnly = true
        if fileExport.sizes.isEmpty { fileExport.sizes = [100_000] }
    case "--only":
        let names = suite.benchmarks.map(\.name) + ["diff", "model"]
        guard let name = arguments.popFirst(), names.contains(name) else {
            let known = names.joined(separator: ", ")
            FileHandle.standardError.write(Data("error: --only needs one of: \(known)\n\(usage)\n".utf8))
            exit(64)
        }
        suite = BenchmarkSuite(suite.benchmarks.filter { $0.name == name })
        pipeline = false
        if name == "diff" || name == "model" { pipelinePart = name }
    case "--export-peak-child":
        // The child process of the peak-memory measurement: export, print the peak RSS in bytes.
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else { exit(64) }
        do {
            print(try PipelineBenchmarks.exportPeakResidentBytes(rows: value))
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        }
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data("error: unknown argument '\(argument)'\n\(usage)\n".utf8))
        exit(64)
    }
}

/// Runs this executable again to export `rows` rows alone and reports its peak resident set.
/// The `--json` document of the parts that ran.
func document(_ parts: [String: BenchmarkJSON.Value]...) -> String {
    var document = BenchmarkJSON()
    for members in parts { document.add(members) }
    return document.text
}

func childPeakResidentBytes(rows: Int) -> Int? {
    FileExportBenchmark.childPeak(arguments: ["--export-peak-child", "\(rows)"])
}

/// Runs this executable again to export the listing `file` alone and reports its peak resident set.
func childFileExportPeak(_ file: URL) -> Int? {
    FileExportBenchmark.childPeak(arguments: ["--file-export-child", file.path])
}

/// The file-to-site figures of `benchmark`, when it has sizes.
func runFileExport(_ benchmark: FileExportBenchmark) -> [FileExportBenchmark.Figure] {
    guard !benchmark.sizes.isEmpty else { return [] }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "rowkit-bench-files-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
        return try benchmark.run(in: folder, peak: childFileExportPeak) {
            FileHandle.standardError.write(Data("file export: \($0)\n".utf8))
        }
    } catch {
        FileHandle.standardError.write(Data("error: the file export benchmark failed: \(error)\n".utf8))
        exit(1)
    }
}

if let pipelinePart {
    let benchmarks = PipelineBenchmarks()
    let diffs = pipelinePart == "diff" ? benchmarks.runDiffs() : []
    let model = pipelinePart == "model" ? benchmarks.runModel() : nil
    for diff in diffs {
        print(
            "diff \(diff.rows) rows (\(diff.identity)): \(diff.milliseconds) ms"
                + (diff.ratioToInt.map { ", \($0)x Int" } ?? ""))
    }
    if let model {
        print(
            "model edit \(model.editMicroseconds) µs, path(of:) \(model.lookupNanoseconds) ns; "
                + "C insert \(model.cInsertNanoseconds) ns, C item_at \(model.cItemAtNanoseconds) ns; "
                + "edit / C insert \(model.editOverCInsert)x, path(of:) / C item_at \(model.lookupOverCItemAt)x")
    }
    exit(0)
}
if fileExportOnly {
    let figures = runFileExport(fileExport)
    print(
        json ? document(FileExportBenchmark.jsonMembers(figures)) : FileExportBenchmark.table(figures),
        terminator: "")
    exit(0)
}
let results = suite.run(items: items)
guard pipeline else {
    let files = runFileExport(fileExport)
    if json {
        print(document(results.jsonMembers, FileExportBenchmark.jsonMembers(files)), terminator: "")
    } else {
        print(results.table() + (files.isEmpty ? "" : FileExportBenchmark.table(files)), terminator: "")
    }
    exit(0)
}
let benchmarks = PipelineBenchmarks()
let diffs = benchmarks.runDiffs()
let model = benchmarks.runModel()
let export = benchmarks.runExport()
let peak = childPeakResidentBytes(rows: peakRows)
let ratios = TargetRatios(results: results, diffs: diffs, model: model)
let files = runFileExport(fileExport)
if json {
    let pipelineMembers = PipelineBenchmarks.jsonMembers(
        diffs: diffs, model: model, export: export, peakBytes: peak, peakRows: peakRows)
    print(
        document(
            results.jsonMembers, pipelineMembers, FileExportBenchmark.jsonMembers(files),
            ratios.jsonMembers),
        terminator: "")
} else {
    print(results.table(), terminator: "")
    print(
        PipelineBenchmarks.table(diffs: diffs, model: model, export: export, peakBytes: peak, peakRows: peakRows),
        terminator: "")
    if !files.isEmpty { print(FileExportBenchmark.table(files), terminator: "") }
    print(ratios.table(), terminator: "")
}
