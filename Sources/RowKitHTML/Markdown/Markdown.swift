import Ccmark
import RowKitListing
import Synchronization

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
        /// The longest document rendered as Markdown, in UTF-8 bytes; a longer one is shown as
        /// escaped plain text in a `<pre class="plain-text">` (nothing is lost, no markup is made).
        ///
        /// cmark holds a document's whole tree while it renders: 10 to 60 bytes per byte of
        /// Markdown, the most for dense inline markup. The limit bounds that. Default:
        /// `ListingLimits.maxMarkdownSize` (1 MiB), the limit `rowkit validate` warns about.
        public var maximumSize: Int

        /// Creates options; the defaults are safe.
        public init(
            unsafeHTML: Bool = false, smartPunctuation: Bool = false,
            maximumSize: Int = ListingLimits.maxMarkdownSize
        ) {
            self.unsafeHTML = unsafeHTML
            self.smartPunctuation = smartPunctuation
            self.maximumSize = maximumSize
        }

        /// Safe rendering, no smart punctuation.
        public static let `default` = Options()

        /// No `CMARK_OPT_VALIDATE_UTF8`: cmark is only given a String's bytes, valid UTF-8 already,
        /// on which the check (a second pass over every line) changes nothing; NUL becomes U+FFFD
        /// without it.
        var cmarkFlags: Int32 {
            var flags = CMARK_OPT_DEFAULT
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

    /// Renders `markdown` and appends the HTML's UTF-8 bytes to `output`.
    ///
    /// For many documents, a `Renderer` is faster: it reuses cmark's memory between them.
    public static func render(_ markdown: String, options: Options = .default, appendingTo output: inout [UInt8]) {
        Renderer().render(markdown, options: options, appendingTo: &output)
    }

    /// Renders Markdown documents one after the other on one thread, reusing one
    /// ``MarkdownArena`` for all of cmark's memory; the exporter's fast path.
    ///
    /// Not thread-safe: use one renderer per thread.
    final class Renderer {
        private let arena: UnsafeMutablePointer<MarkdownArena>
        /// cmark's allocator: callbacks into the thread's current arena (cmark keeps the pointer
        /// in the parser and every node, so it lives as long as the renderer).
        private let memory: UnsafeMutablePointer<cmark_mem>

        init() {
            arena = .allocate(capacity: 1)
            arena.initialize(to: MarkdownArena())
            memory = .allocate(capacity: 1)
            memory.initialize(
                to: cmark_mem(
                    calloc: { count, size in
                        let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
                        precondition(!overflow, "[RowKitHTML] cmark asked for too much memory")
                        return MarkdownArena.current.pointee.allocate(bytes, zeroed: true)
                    },
                    realloc: { block, size in MarkdownArena.current.pointee.reallocate(block, size) },
                    free: { block in MarkdownArena.current.pointee.deallocate(block) }))
        }

        deinit {
            arena.pointee.releaseAll()
            arena.deinitialize(count: 1)
            arena.deallocate()
            memory.deinitialize(count: 1)
            memory.deallocate()
        }

        /// Renders `markdown` and appends the HTML's UTF-8 bytes to `output`.
        ///
        /// Parses to a cmark tree, removes links and images whose destination ``SafeURL``
        /// rejects, points each image in `images` at its copy in the site (`root`, the way from the
        /// page to the site's root, then its site path) or removes it when it was not copied, then
        /// renders the tree; all of it in the arena, which is reset on return.
        /// Invalid UTF-8, NUL and the other C0 and C1 control characters (but tab and line breaks)
        /// become U+FFFD.
        ///
        /// - Complexity: O(*n*) in the length of `markdown`.
        func render(
            _ markdown: String, options: Options, images: BodyImages? = nil, root: String = "",
            appendingTo output: inout [UInt8]
        ) {
            let rewrite = images.flatMap { $0.isEmpty ? nil : ($0, root) }
            var text = markdown
            text.withUTF8 { utf8 in
                guard utf8.count <= options.maximumSize else {
                    Markdown.appendPlainText(utf8, to: &output)
                    return
                }
                if utf8.count > Markdown.largeDocument {
                    Markdown.largeDocuments.withLock { _ in
                        render(utf8: utf8, options: options, images: rewrite, appendingTo: &output)
                    }
                } else {
                    render(utf8: utf8, options: options, images: rewrite, appendingTo: &output)
                }
            }
        }

        /// Renders `utf8` with the arena allocator when no other thread's arena is installed,
        /// otherwise with cmark's own.
        private func render(
            utf8: UnsafeBufferPointer<UInt8>, options: Options, images: (BodyImages, String)?,
            appendingTo output: inout [UInt8]
        ) {
            let done: Void? = MarkdownArena.withCurrent(arena) {
                defer { arena.pointee.reset() }
                render(utf8: utf8, flags: options.cmarkFlags, images: images, memory: memory, appendingTo: &output)
            }
            if done == nil {
                // Another thread is using the arena allocator: cmark's own allocator.
                render(utf8: utf8, flags: options.cmarkFlags, images: images, memory: nil, appendingTo: &output)
            }
        }

        /// Renders with the arena allocator `memory` (the caller resets the arena), or with
        /// cmark's own allocator when `memory` is `nil`.
        private func render(
            utf8: UnsafeBufferPointer<UInt8>, flags: Int32, images: (BodyImages, String)?,
            memory: UnsafeMutablePointer<cmark_mem>?, appendingTo output: inout [UInt8]
        ) {
            // With the arena, the parser, the document and the HTML all come from it (cmark
            // allocates only through the allocator it was given), so they are not freed one by
            // one with cmark_parser_free and cmark_node_free: the caller's reset frees them.
            // Without, cmark_parser_new's parser and cmark_parser_finish's document are freed here.
            guard let parser = memory.map({ cmark_parser_new_with_mem(flags, $0) }) ?? cmark_parser_new(flags) else {
                return
            }
            defer { if memory == nil { cmark_parser_free(parser) } }
            utf8.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
            }
            guard let document = cmark_parser_finish(parser) else { return }
            defer { if memory == nil { cmark_node_free(document) } }
            // Link and image nodes come only from `[` (links, images, reference definitions) and
            // `<` (autolinks); entities and escapes never become syntax. Without either
            // character there is nothing to check.
            if utf8.contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "<") }) {
                Markdown.rewriteDestinations(in: document, images: images)
            }
            // cmark_render_html returns a NUL-terminated buffer from the document's allocator;
            // unless that is the arena, the caller frees it.
            guard let html = cmark_render_html(document, flags) else { return }
            defer { if memory == nil || !arena.pointee.owns(html) { free(html) } }
            let length = strlen(html)
            html.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
                Markdown.appendReplacingControls(UnsafeBufferPointer(start: bytes, count: length), to: &output)
            }
        }
    }

    /// Documents over this many bytes (64 KiB) are rendered one at a time, whatever the number of
    /// renderers, so that the exporter's threads hold at most one large cmark tree at once: with
    /// every thread on a document at ``Options/maximumSize``, the trees alone could take
    /// gigabytes on a machine of many cores.
    static let largeDocument = 64 * 1024
    /// Held while a large document renders.
    private static let largeDocuments = Mutex(())

    /// Appends `utf8`, escaped, in a `<pre class="plain-text">`: a document over
    /// ``Options/maximumSize``.
    private static func appendPlainText(_ utf8: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.append(contentsOf: "<pre class=\"plain-text\">".utf8)
        HTMLEscaping.escape(utf8: utf8, appendingTo: &output)
        output.append(contentsOf: "</pre>\n".utf8)
    }

    /// Appends `html` to `output`; cmark passes control characters through, and they become
    /// U+FFFD, as in escaped text: C0 controls (but tab and line breaks), DEL, and the C1 controls
    /// U+0080 to U+009F (UTF-8 `C2 80` to `C2 9F`).
    private static func appendReplacingControls(_ html: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        // Controls are rare: one pass to look (at C0, DEL and the lead byte C2 of U+0080...U+00BF),
        // the careful loop only when found.
        guard containsControlOrC2(html) else {
            output.append(contentsOf: html)
            return
        }
        var start = 0
        var index = 0
        while index < html.count {
            let length: Int
            if isReplacedControl(html[index]) {
                length = 1
            } else if html[index] == 0xC2, index + 1 < html.count, (0x80...0x9F).contains(html[index + 1]) {
                length = 2
            } else {
                index += 1
                continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: html[start..<index]))
            output.append(contentsOf: [0xEF, 0xBF, 0xBD])
            index += length
            start = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: html[start...]))
    }

    /// Whether `html` holds a byte ``appendReplacingControls(_:to:)`` replaces or the byte C2.
    /// Eight bytes at a time: a word with no byte below 0x20, no DEL and no C2 is passed over; one
    /// with any is looked at byte by byte, as tab and line feed, common in HTML, are below 0x20 too.
    private static func containsControlOrC2(_ html: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = html.baseAddress else { return false }
        func isControlOrC2(_ byte: UInt8) -> Bool { isReplacedControl(byte) || byte == 0xC2 }
        var index = 0
        while html.count - index >= ByteWord.width {
            let word = ByteWord.load(base + index)
            if ByteWord.below(0x20, in: word) | ByteWord.equal(0x7F, in: word) | ByteWord.equal(0xC2, in: word) != 0 {
                for offset in 0..<ByteWord.width where isControlOrC2(base[index + offset]) { return true }
            }
            index += ByteWord.width
        }
        for offset in index..<html.count where isControlOrC2(base[offset]) { return true }
        return false
    }

    /// C0 controls but tab, line feed and carriage return, and DEL.
    @inline(__always)
    private static func isReplacedControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
    }

    /// The images `markdown` references, in document order: each destination as written and
    /// where the image starts in `markdown`. Empty for a document over `maximumSize` (shown as
    /// plain text) or without `![` (no parse).
    ///
    /// Give it to `ListingReader.bodyImages` so that a listing's bodies are
    /// checked as they are read.
    /// - Complexity: O(*n*) in the length of `markdown`.
    public static func images(
        in markdown: String, maximumSize: Int = ListingLimits.maxMarkdownSize
    ) -> [MarkdownImageReference] {
        guard markdown.utf8.count <= maximumSize, MarkdownImageReference.mayOccur(in: markdown) else { return [] }
        var text = markdown
        return text.withUTF8 { utf8 -> [MarkdownImageReference] in
            // cmark's own allocator: the parser and the document are freed here.
            guard let parser = cmark_parser_new(CMARK_OPT_DEFAULT) else { return [] }
            defer { cmark_parser_free(parser) }
            utf8.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
            }
            guard let document = cmark_parser_finish(parser) else { return [] }
            defer { cmark_node_free(document) }
            var found: [MarkdownImageReference] = []
            forEachImage(in: document) { node, url in
                found.append(
                    MarkdownImageReference(
                        source: url, line: Int(cmark_node_get_start_line(node)),
                        column: Int(cmark_node_get_start_column(node))))
            }
            return found
        }
    }

    /// Calls `body` with every image node of `document` and its destination (empty when it has
    /// none), in document order. `body` must not change the tree.
    private static func forEachImage(in document: OpaquePointer, _ body: (OpaquePointer, String) -> Void) {
        // The iterator is owned here; nodes it returns belong to the document.
        guard let iterator = cmark_iter_new(document) else { return }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                cmark_node_get_type(node) == CMARK_NODE_IMAGE
            else { continue }
            body(node, cmark_node_get_url(node).map { String(cString: $0) } ?? "")
        }
    }

    /// Raw libcmark: one call to `cmark_markdown_to_html` with the same flags and nothing else; for
    /// benchmarks that compare the exporter's throughput with cmark's own. Returns the HTML's length
    /// in bytes (the HTML itself is freed at once).
    package static func renderRaw(_ markdown: String, options: Options = .default) -> Int {
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
    /// text, or the image's alternative text), so the text stays and nothing points anywhere; with
    /// `images`, an image whose destination is in its map points at `root` + its site path, or is
    /// replaced by its alternative text when it was not copied.
    private static func rewriteDestinations(in document: OpaquePointer, images: (BodyImages, String)?) {
        var rejected: [OpaquePointer] = []
        // The iterator is owned here; nodes it returns belong to the document.
        guard let iterator = cmark_iter_new(document) else { return }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE else { continue }
            // The URL is the node's own NUL-terminated string (empty when missing).
            let url = cmark_node_get_url(node)
            let allowed =
                url.map { url in
                    url.withMemoryRebound(to: UInt8.self, capacity: strlen(url) + 1) {
                        SafeURL.allows(utf8: UnsafeBufferPointer(start: $0, count: strlen(url)))
                    }
                } ?? true
            if !allowed {
                rejected.append(node)
            } else if type == CMARK_NODE_IMAGE, let (map, root) = images, let url,
                let copy = map.sitePaths[String(cString: url)]
            {
                // cmark copies the new URL into the node's own memory.
                if let copy { cmark_node_set_url(node, root + copy) } else { rejected.append(node) }
            }
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
