import Foundation

/// The `--json` document of a benchmark run, written through Codable in this one place: each part
/// of a run adds its members (``BenchmarkResults/jsonMembers``, ``PipelineBenchmarks/jsonMembers(diffs:model:export:peakBytes:peakRows:)``,
/// ``FileExportBenchmark/jsonMembers(_:)``, ``TargetRatios/jsonMembers``), and ``text`` encodes
/// them with `JSONEncoder`, keys sorted, numbers rounded as the tables print them.
public struct BenchmarkJSON: Sendable, Equatable {
    /// A JSON value.
    public enum Value: Encodable, Sendable, Equatable {
        case number(Double)
        case integer(Int)
        case string(String)
        case array([Value])
        case object([String: Value])

        /// `value` with `places` decimals.
        public static func number(_ value: Double, places: Int) -> Value {
            let scale = (0..<places).reduce(1.0) { product, _ in product * 10 }
            return .number((value * scale).rounded() / scale)
        }

        /// `value` as the tables print a time or a ratio: two decimals below 100, none from 100 on.
        public static func figure(_ value: Double) -> Value {
            value >= 100 ? .number(value.rounded()) : .number(value, places: 2)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .number(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .array(let values): try container.encode(values)
            case .object(let members): try container.encode(members)
            }
        }
    }

    /// The document's members.
    public private(set) var members: [String: Value] = [:]

    /// An empty document.
    public init() {}

    /// Adds `members` (a member of the same name is replaced).
    public mutating func add(_ members: [String: Value]) {
        self.members.merge(members) { _, new in new }
    }

    /// The document as one line of JSON with sorted keys, ending in a line break.
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Numbers are rounded finite figures and strings are plain text: encoding cannot fail.
        guard let data = try? encoder.encode(members) else { preconditionFailure("a benchmark value is not JSON") }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
