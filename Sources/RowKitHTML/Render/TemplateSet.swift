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
        "head", "page", "section", "row", "pagination", "detail", "site-index", "style.css", "search.js", "listing.js",
    ]

    /// The Mustache library (templates by name; partials resolve within it).
    let library: MustacheLibrary
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
        var library = MustacheLibrary()
        for (name, source) in sources {
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
        for name in Self.requiredNames where library.getTemplate(named: name) == nil {
            throw ExportError.templateMissing(name: name)
        }
        self.library = library
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
        library.render(context, withTemplate: name) ?? ""
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
