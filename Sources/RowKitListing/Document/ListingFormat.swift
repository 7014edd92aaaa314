/// The syntax of a listing file.
public enum ListingFormat: String, Sendable, Hashable, CaseIterable {
    /// YAML 1.1 (`.yaml`, `.yml`).
    case yaml
    /// JSON as in RFC 8259 (`.json`).
    case json
    /// Comma-separated values as in RFC 4180 (`.csv`), first line a header.
    case csv

    /// The format a path's extension names (case-insensitive), or `nil` for any other extension.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "yaml", "yml": self = .yaml
        case "json": self = .json
        case "csv": self = .csv
        default: return nil
        }
    }
}
