/// Hard limits on listing input; anything beyond them is reported as an error, never a crash.
///
/// A listing file may be of any size: it is read as a stream. These limits bound what one part of
/// it may hold, so no input can make the reader hold more than a few of them at once.
public enum ListingLimits {
    /// The largest single value (a string, number or key), in bytes (64 MiB), and the longest CSV
    /// record.
    public static let maxValueSize = 64 * 1024 * 1024
    /// The longest Markdown body rendered as Markdown, in bytes (1 MiB). A longer body is shown as
    /// escaped plain text, with a warning: cmark's tree takes 10 to 60 bytes per byte of Markdown,
    /// so a body of 64 MiB could take gigabytes.
    public static let maxMarkdownSize = 1024 * 1024
    /// The deepest nesting of mappings and sequences in YAML or JSON (a listing needs 4).
    public static let maxDepth = 64
    /// The most columns a CSV header may have (a listing maps at most nine of them).
    public static let maxColumns = 10_000
    /// The most diagnostics reported for one file; the last one says the rest were dropped.
    public static let maxDiagnostics = 200
    /// The longest explicit `id`, in bytes.
    public static let maxIDLength = 128
    /// The longest identity derived from a row's text, in Unicode scalars, before any `-2` suffix.
    public static let maxDerivedIDLength = 64
}
