import Foundation
import Mustache
import RowKitListing

/// The Mustache templates of an export: the bundled ones, each replaced by a template of the same
/// name from a custom folder when there is one.
///
/// Names are file names without `.mustache`, so `style.css.mustache` is `style.css`. A custom
/// folder may hold any subset of the templates (the rest come from the bundle) and extra
/// templates of its own, usable as partials. A template that fails to parse is an error that names
/// it, whichever folder it came from.
///
/// Every value the exporter gives a template is already escaped HTML (or a URL that passed
/// ``SafeURL`` and was then escaped); templates insert values with triple mustaches, `{{{text}}}`.
/// A double mustache escapes again: harmless, but it shows entities on the page.
public struct TemplateSet: Sendable {
    /// The templates the exporter renders; each must exist.
    public static let requiredNames = [
        "head", "page", "section", "row", "pagination", "detail", "site-index", "style.css",
    ]

    /// The Mustache library (templates by name; partials resolve within it).
    let library: MustacheLibrary
    /// The templates without a tag (the bundled style sheet, most of the bundle's bytes), by name:
    /// each renders as its text. They are parsed into ``library`` only when a template may name
    /// them as a partial; parsing them costs more than all the others together, at the start of
    /// every export, when nothing else runs.
    let literals: [String: String]
    /// The names of all templates loaded, sorted.
    public let names: [String]
    /// A hash of every template's name and text: equal for template sets that render alike.
    package let contentHash: UInt64
    /// The templates of the custom folder that replace no bundled template and that no template
    /// includes: never rendered, most likely misnamed.
    package let unusedCustomNames: [String]

    /// The folder of the bundled templates.
    public static func bundledDirectory() throws -> URL {
        guard let url = Bundle.module.url(forResource: "Templates", withExtension: nil) else {
            throw ExportError.bundledTemplatesMissing
        }
        return url
    }

    /// Loads the bundled templates, then those of `customDirectory` over them.
    public init(customDirectory: URL? = nil) throws {
        var sources: [String: (text: String, file: String)] = [:]
        var bundledNames: Set<String> = []
        var customNames: [String] = []
        for directory in [try Self.bundledDirectory(), customDirectory].compactMap({ $0 }) {
            let isCustom = directory == customDirectory
            for (name, file) in try Self.templateFiles(in: directory) {
                sources[name] = (try Self.text(of: file), file.path)
                if isCustom { customNames.append(name) } else { bundledNames.insert(name) }
            }
        }
        var literals: [String: String] = [:]
        for (name, source) in sources where !Self.hasTag(source.text) { literals[name] = source.text }
        let included = try Self.checkInclusions(sources.filter { literals[$0.key] == nil })
        unusedCustomNames = customNames.filter { !bundledNames.contains($0) && !included.contains($0) }.sorted()
        let named = Self.partialNames(in: sources.values.map(\.text).filter(Self.hasTag))
        var library = MustacheLibrary()
        for (name, source) in sources where literals[name] == nil || named.map({ $0.contains(name) }) ?? true {
            do {
                try library.register(source.text, named: name)
            } catch let error as MustacheTemplate.ParserError {
                throw ExportError.templateSyntax(
                    name: source.file,
                    message: "line \(error.context.lineNumber), column \(error.context.columnNumber): \(error.error)")
            } catch {
                throw ExportError.templateSyntax(name: source.file, message: "\(error)")
            }
        }
        for name in Self.requiredNames where library.getTemplate(named: name) == nil && literals[name] == nil {
            throw ExportError.templateMissing(name: name)
        }
        self.library = library
        self.literals = literals
        self.names = sources.keys.sorted()
        var hash = StableHash()
        for name in names {
            hash.update(name)
            hash.update(sources[name]?.text ?? "")
        }
        contentHash = hash.value
    }

    /// Renders template `name` with `context`.
    func render(_ name: String, _ context: [String: Any]) -> String {
        if let text = literals[name] { return text }
        return library.render(context, withTemplate: name) ?? ""
    }

    /// Whether `text` has a `{{`, byte by byte: Foundation's `contains` on Linux first makes the
    /// text an `NSString`, about 3 ms for the bundled style sheet and scripts at every export's start.
    static func hasTag(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // `index` is the second byte of the pair looked at; a byte other than `{` there ends
            // no pair and starts none, so the next pair to look at ends two bytes on.
            var index = 1
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "{") {
                    if bytes[index - 1] == UInt8(ascii: "{") { return true }
                    index += 1
                } else {
                    index += 2
                }
            }
            return false
        }
    }

    /// The names `texts` may use as partials or parents (`{{> name}}`, `{{< name}}`), or `nil`
    /// (any name) when one of them changes its delimiters, after which tags cannot be found by
    /// looking for `{{`. Whitespace is allowed around the sigil and the name; a name read too
    /// generously only parses a template that was not needed.
    static func partialNames(in texts: [String]) -> Set<String>? {
        var names: Set<String> = []
        for text in texts {
            var rest = Substring(text)
            while let open = rest.range(of: "{{") {
                rest = rest[open.upperBound...]
                let tag = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
                guard let sigil = tag.first else { break }
                if sigil == "=" { return nil }
                guard sigil == ">" || sigil == "<" else { continue }
                let body = tag.dropFirst()
                let name = body.range(of: "}}").map { body[..<$0.lowerBound] } ?? body
                names.insert(name.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        return names
    }

    /// The text of the template file `file`; throws ``ExportError/templateUnreadable(path:reason:)``
    /// when it is not a regular file, cannot be read or is not UTF-8.
    private static func text(of file: URL) throws -> String {
        // O_NONBLOCK: a pipe is refused below, not waited on.
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw ExportError.templateUnreadable(path: file.path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw ExportError.templateUnreadable(path: file.path, reason: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            let kind: String
            switch info.st_mode & S_IFMT {
            case S_IFDIR: kind = "a folder"
            case S_IFIFO: kind = "a pipe"
            case S_IFSOCK: kind = "a socket"
            default: kind = "a device"
            }
            throw ExportError.templateUnreadable(path: file.path, reason: "it is \(kind), not a file")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        guard bytes.withUnsafeMutableBytes({ FileTree.read(descriptor, into: $0, at: 0) }) else {
            throw ExportError.templateUnreadable(path: file.path, reason: String(cString: strerror(errno)))
        }
        let contents = (bytes: bytes, info: info)
        guard let text = String(validating: contents.bytes, as: UTF8.self) else {
            let valid = String(decoding: contents.bytes, as: UTF8.self).unicodeScalars
                .prefix { $0 != "\u{FFFD}" }
            let line = valid.reduce(1) { $0 + ($1 == "\n" ? 1 : 0) }
            throw ExportError.templateUnreadable(
                path: file.path, reason: "line \(line): it is not UTF-8 text; save it as UTF-8")
        }
        return text
    }

    /// Reads the outline of every template in `sources` (by name) and throws when sections nest
    /// deeper than ``TemplateOutline/maximumDepth`` (counting the templates they include) or when
    /// templates include each other in a cycle. Returns the names some template includes.
    private static func checkInclusions(_ sources: [String: (text: String, file: String)]) throws -> Set<String> {
        var outlines: [String: TemplateOutline] = [:]
        for (name, source) in sources {
            do {
                outlines[name] = try TemplateOutline(source.text)
            } catch {
                throw ExportError.templateSyntax(
                    name: source.file,
                    message:
                        "line \(error.line): sections nest more than \(TemplateOutline.maximumDepth) deep; "
                        + "RowKit renders at most \(TemplateOutline.maximumDepth) levels")
            }
        }
        var included: Set<String> = []
        var depths: [String: Int] = [:]
        for name in outlines.keys.sorted() {
            var path: [String] = []
            let depth = try depth(of: name, outlines, &depths, &path, &included)
            if depth > TemplateOutline.maximumDepth, let file = sources[name]?.file {
                throw ExportError.templateSyntax(
                    name: file,
                    message:
                        "its sections and the templates it includes nest \(depth) deep; RowKit renders at most "
                        + "\(TemplateOutline.maximumDepth) levels")
            }
        }
        return included
    }

    /// The depth of sections and inclusions template `name` renders to; throws
    /// ``ExportError/templateCycle(names:)`` when it includes itself (`path`: the templates on the
    /// way to it).
    private static func depth(
        of name: String, _ outlines: [String: TemplateOutline], _ depths: inout [String: Int], _ path: inout [String],
        _ included: inout Set<String>
    ) throws -> Int {
        if let known = depths[name] { return known }
        if let start = path.firstIndex(of: name) { throw ExportError.templateCycle(names: path[start...] + [name]) }
        guard let outline = outlines[name] else { return 0 }
        path.append(name)
        var deepest = outline.depth
        for inclusion in outline.inclusions {
            included.insert(inclusion.name)
            let inner = try depth(of: inclusion.name, outlines, &depths, &path, &included)
            deepest = max(deepest, inclusion.depth + 1 + inner)
            // A long chain of inclusions is refused before it is followed further.
            if deepest > TemplateOutline.maximumDepth { break }
        }
        path.removeLast()
        depths[name] = deepest
        return deepest
    }

    private static func templateFiles(in directory: URL) throws -> [(String, URL)] {
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw ExportError.fileSystem(operation: "list templates", path: directory.path, message: "not a folder")
        }
        let basePath = directory.standardizedFileURL.resolvingSymlinksInPath().path
        var files: [(String, URL)] = []
        for case let url as URL in enumerator where url.pathExtension == "mustache" {
            let path = url.standardizedFileURL.resolvingSymlinksInPath().path
            guard path.hasPrefix(basePath + "/") else { continue }
            let relative = String(path.dropFirst(basePath.count + 1).dropLast(".mustache".count))
            files.append((relative, url))
        }
        return files.sorted { $0.0 < $1.0 }
    }
}
