// rowkit-bench: the C-core versus Swift-baseline benchmark, with the pipeline beside it.
//
//   swift run -c release rowkit-bench [--items N] [--json] [--skip-pipeline] [--only NAME]
//
// --only runs one benchmark of the suite (offset-tree or table-view) or one part of the pipeline
// (diff or model) and nothing else, for profiling one part (e.g. under `perf record`).
// Prints a table of median ns per operation with swift/c and naive/c ratios and bytes per item
// (fresh and after edits), the C tree beside two plain-C references (a Fenwick tree, a chunked
// array), then the pipeline figures (snapshot diff at 10^5 and 10^6 rows, single-row edits and
// lookups on a model of one 1,000,000-row section, export of 100,000 rows with Markdown against
// bare cmark, and the peak memory of exporting 1,000,000 rows, measured in a child process), and
// last the ratios the run is held to. --json prints {"items": N, "ops": {...}, "bytes_per_item":
// {...}, "reference": {...}, "diff_ms": {...}, "model": {...}, ..., "ratios": {...}} instead.
import Foundation
import RowKitBench

let usage = "usage: rowkit-bench [--items N] [--json] [--skip-pipeline] [--only offset-tree|table-view|diff|model]"
var items = 1_000_000
var json = false
var pipeline = true
var peakRows = 1_000_000
var suite = BenchmarkSuite.standard
var pipelinePart: String?
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
func childPeakResidentBytes(rows: Int) -> Int? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    process.arguments = ["--export-peak-child", "\(rows)"]
    let output = Pipe()
    process.standardOutput = output
    do { try process.run() } catch { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
}

if let pipelinePart {
    let benchmarks = PipelineBenchmarks()
    let diffs = pipelinePart == "diff" ? benchmarks.runDiffs() : []
    let model = pipelinePart == "model" ? benchmarks.runModel() : nil
    for diff in diffs {
        print("diff \(diff.rows) rows (\(diff.identity)): \(diff.milliseconds) ms" + (diff.ratioToInt.map { ", \($0)x Int" } ?? ""))
    }
    if let model { print("model edit \(model.editMicroseconds) µs, path(of:) \(model.lookupNanoseconds) ns") }
    exit(0)
}
let results = suite.run(items: items)
guard pipeline else {
    print(json ? results.json() : results.table(), terminator: "")
    exit(0)
}
let benchmarks = PipelineBenchmarks()
let diffs = benchmarks.runDiffs()
let model = benchmarks.runModel()
let export = benchmarks.runExport()
let peak = childPeakResidentBytes(rows: peakRows)
let ratios = TargetRatios(results: results, diffs: diffs, model: model)
if json {
    var document = results.json().trimmingCharacters(in: .whitespacesAndNewlines)
    document.removeLast()  // the closing brace
    print(
        document + ", " + PipelineBenchmarks.jsonMembers(diffs: diffs, model: model, export: export, peakBytes: peak, peakRows: peakRows)
            + ", " + ratios.jsonMember() + "}")
} else {
    print(results.table(), terminator: "")
    print(PipelineBenchmarks.table(diffs: diffs, model: model, export: export, peakBytes: peak, peakRows: peakRows), terminator: "")
    print(ratios.table(), terminator: "")
}
