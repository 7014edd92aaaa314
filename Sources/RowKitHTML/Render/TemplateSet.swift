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
        for directory in [try Self.bundledDirectory(), customDirectory].compactMap({ $0 }) {
            for (name, file) in try Self.templateFiles(in: directory) {
                let text: String
                do {
                    text = try String(contentsOf: file, encoding: .utf8)
                } catch {
                    throw ExportError.fileSystem(operation: "read template", path: file.path, message: "\(error)")
                }
                sources[name] = (text, file.path)
            }
        }
        var literals: [String: String] = [:]
        for (name, source) in sources where !Self.hasTag(source.text) { literals[name] = source.text }
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
