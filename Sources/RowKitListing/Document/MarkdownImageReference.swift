#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An image a row's Markdown body references: its destination as written and where it starts in
/// the body.
///
/// The listing readers do not parse Markdown; a ``ListingReader/bodyImages`` function (the
/// exporter's `Markdown.images(in:)`) finds them, and the reader checks each destination as it
/// checks an `image:` path.
public struct MarkdownImageReference: Sendable, Hashable {
    /// The destination as written in the Markdown (after escapes and entities are resolved).
    public var source: String
    /// The line in the body where the image starts, from 1.
    public var line: Int
    /// The column (in UTF-8 bytes) in the body where the image starts, from 1.
    public var column: Int

    /// Creates a reference.
    public init(source: String, line: Int, column: Int) {
        self.source = source
        self.line = line
        self.column = column
    }

    /// Whether `markdown` can hold an image at all: every image, inline or by reference, starts
    /// with `![`. A cheap test that spares the bodies without one a Markdown parse.
    ///
    /// - Complexity: O(*n*) in the length of `markdown`.
    public static func mayOccur(in markdown: String) -> Bool {
        if let found = markdown.utf8.withContiguousStorageIfAvailable(containsImageStart) { return found }
        var copy = markdown
        return copy.withUTF8(containsImageStart)
    }

    /// Whether `bytes` hold `![`: each `[` found with `memchr`, then the byte before it looked at.
    private static func containsImageStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var offset = 0
        while offset < bytes.count,
            let hit = memchr(base + offset, Int32(UInt8(ascii: "[")), bytes.count - offset)
        {
            let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if index > 0, base[index - 1] == UInt8(ascii: "!") { return true }
            offset = index + 1
        }
        return false
    }

    /// Whether ``source`` names a remote image (`http:` or `https:`), which is used as it is.
    public var isRemote: Bool {
        let lowered = source.trimmingASCIIWhitespace().prefix(8).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }
}
