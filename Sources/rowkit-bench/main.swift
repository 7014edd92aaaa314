// rowkit-bench: the C-core versus Swift-baseline benchmark.
//
//   swift run -c release rowkit-bench [--items N] [--json]
//
// Prints a table of median ns per operation with swift/c and naive/c ratios and bytes per item;
// --json prints {"items": N, "ops": {...}, "bytes_per_item": {...}} instead.
import Foundation
import RowKitBench

var items = 1_000_000
var json = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--json":
        json = true
    case "--items":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else {
            print("error: --items needs a positive integer")
            exit(2)
        }
        items = value
    case "--help", "-h":
        print("usage: rowkit-bench [--items N] [--json]")
        exit(0)
    default:
        print("error: unknown argument '\(argument)'\nusage: rowkit-bench [--items N] [--json]")
        exit(2)
    }
}

let results = run(items: items)
print(json ? results.json() : results.table(), terminator: "")
