import Ccmark

/// CommonMark to HTML, through libcmark. The only file in the package that imports `Ccmark`.
///
/// Safe by default: raw HTML in the Markdown is replaced by a comment (cmark's safe mode), and
/// every link and image destination goes through ``SafeURL``: anything but `http`, `https`,
/// `mailto`, scheme-less relative paths and `#fragments` is removed, keeping the link text (or
/// the image's alternative text). Set ``Options/unsafeHTML`` to let raw HTML through.
public enum Markdown {
    /// How Markdown is rendered.
    public struct Options: Sendable, Hashable {
        /// Lets raw HTML blocks and inline HTML through unchanged (cmark's `CMARK_OPT_UNSAFE`).
        ///
        /// Only for Markdown you trust: raw HTML can carry scripts. Link and image destinations are
        /// still filtered by ``SafeURL``. Default: `false`.
        public var unsafeHTML: Bool
        /// Turns straight quotes into curly ones and `--` into dashes (`CMARK_OPT_SMART`).
        /// Default: `false`.
        public var smartPunctuation: Bool

        /// Creates options; the defaults are safe.
        public init(unsafeHTML: Bool = false, smartPunctuation: Bool = false) {
            self.unsafeHTML = unsafeHTML
            self.smartPunctuation = smartPunctuation
        }

        /// Safe rendering, no smart punctuation.
        public static let `default` = Options()

        var cmarkFlags: Int32 {
            var flags = CMARK_OPT_VALIDATE_UTF8
            if unsafeHTML { flags |= CMARK_OPT_UNSAFE }
            if smartPunctuation { flags |= CMARK_OPT_SMART }
            return flags
        }
    }

    /// The version of the linked libcmark, such as "0.30.2".
    public static var cmarkVersion: String { String(cString: cmark_version_string()) }

    /// Renders `markdown` as an HTML fragment.
    ///
    /// - Complexity: O(*n*) in the length of `markdown`.
    public static func render(_ markdown: String, options: Options = .default) -> String {
        var bytes: [UInt8] = []
        render(markdown, options: options, appendingTo: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Renders `markdown` and appends the HTML's UTF-8 bytes to `output`; the exporter's fast path.
    ///
    /// Parses to a cmark tree (owned here, freed on return), removes links and images whose
    /// destination ``SafeURL`` rejects, then renders the tree. Invalid UTF-8, NUL and the other
    /// control characters (but tab and line breaks) become U+FFFD.
    public static func render(_ markdown: String, options: Options = .default, appendingTo output: inout [UInt8]) {
        let flags = options.cmarkFlags
        // cmark_parser_new returns a parser the caller frees with cmark_parser_free.
        guard let parser = cmark_parser_new(flags) else { return }
        defer { cmark_parser_free(parser) }
        var text = markdown
        text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
            }
        }
        // cmark_parser_finish returns the document root; the caller frees it with cmark_node_free.
        guard let document = cmark_parser_finish(parser) else { return }
        defer { cmark_node_free(document) }
        removeUnsafeDestinations(in: document)
        // cmark_render_html returns a malloc'ed, NUL-terminated buffer the caller frees.
        guard let html = cmark_render_html(document, flags) else { return }
        defer { free(html) }
        let length = strlen(html)
        html.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            let buffer = UnsafeBufferPointer(start: bytes, count: length)
            // cmark passes control characters through; they become U+FFFD, as in escaped text.
            var start = 0
            for index in 0..<length where buffer[index] < 0x20 || buffer[index] == 0x7F {
                let byte = buffer[index]
                if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<index]))
                output.append(contentsOf: [0xEF, 0xBF, 0xBD])
                start = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<length]))
        }
    }

    /// Raw libcmark: one call to `cmark_markdown_to_html` with the same flags and nothing else; for
    /// benchmarks that compare the exporter's throughput with cmark's own. Returns the HTML's length
    /// in bytes (the HTML itself is freed at once).
    public static func renderRaw(_ markdown: String, options: Options = .default) -> Int {
        var text = markdown
        return text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars -> Int in
                // The returned buffer is malloc'ed; the caller frees it.
                guard let base = chars.baseAddress,
                      let html = cmark_markdown_to_html(base, chars.count, options.cmarkFlags)
                else { return 0 }
                defer { free(html) }
                return strlen(html)
            }
        }
    }

    /// Replaces every link and image whose destination is not allowed by its children (the link
    /// text, or the image's alternative text), so the text stays and nothing points anywhere.
    private static func removeUnsafeDestinations(in document: OpaquePointer) {
        var rejected: [OpaquePointer] = []
        // The iterator is owned here; nodes it returns belong to the document.
        guard let iterator = cmark_iter_new(document) else { return }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE else { continue }
            let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            if SafeURL.sanitize(url) == nil { rejected.append(node) }
        }
        cmark_iter_free(iterator)
        // Unlink after iterating: the iterator must not see the tree change under it.
        for node in rejected.reversed() {
            while let child = cmark_node_first_child(node) {
                cmark_node_insert_before(node, child)
            }
            cmark_node_free(node)  // unlinks the node, then frees it (now childless)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
