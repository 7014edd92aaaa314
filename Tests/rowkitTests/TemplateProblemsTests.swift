import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rowkit export --templates` with templates that cannot be used: each is named with the reason,
/// with the documented status, before anything is written; a misnamed template is pointed out.
@Suite struct TemplateProblemsTests {
    /// Exports the settings example with the templates `files` (name to text) in a scratch folder;
    /// returns the run and the names left in the folder.
    static func export(_ files: [String: String]) throws -> (RowKitTool.Run, [String]) {
        let scratch = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: "Examples/settings.yaml", toPath: scratch.path("s.yaml"))
        try FileManager.default.copyItem(atPath: "Examples/icons", toPath: scratch.path("icons"))
        try FileManager.default.createDirectory(atPath: scratch.path("t"), withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(toFile: scratch.path("t/\(name).mustache"), atomically: false, encoding: .utf8)
        }
        let run = try RowKitTool.run(["export", "s.yaml", "-o", "site", "-q", "--templates", "t"], in: scratch.url)
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
        return (run, left)
    }

    @Test(arguments: [
        (["row": "{{>row}}"], "template row.mustache includes itself ({{>row}})"),
        (["page": "<p>{{#rows}}{{>page}}{{/rows}}</p>"], "template page.mustache includes itself"),
        (["row": "{{>a}}", "a": "{{>b}}", "b": "{{>a}}"], "templates a.mustache -> b.mustache -> a.mustache"),
        (["page": "{{=<% %>=}}<%> page %>"], "template page.mustache includes itself"),
    ])
    func aTemplateThatIncludesItselfIsRefusedNamingTheCycle(files: [String: String], message: String) throws {
        let (run, left) = try Self.export(files)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(left == ["icons", "s.yaml", "t"])
    }

    @Test func sectionsNestedTooDeepAreRefused() throws {
        let deep = String(repeating: "{{#a}}", count: 100_000) + String(repeating: "{{/a}}", count: 100_000)
        let (run, left) = try Self.export(["row": deep])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("row.mustache: line 1: sections nest more than 100 deep"), "\(run.stderr)")
        #expect(left == ["icons", "s.yaml", "t"])
    }

    /// Ten nested sections, as a real template might have, are fine.
    @Test func sectionsNestedTenDeepAreRendered() throws {
        let nested = String(repeating: "{{#rows}}", count: 10) + "x" + String(repeating: "{{/rows}}", count: 10)
        let (run, _) = try Self.export(["pagination": nested])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func aTemplateThatIsNotUTF8IsNamedWithStatus66() throws {
        let scratch = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: "Examples/settings.yaml", toPath: scratch.path("s.yaml"))
        try FileManager.default.copyItem(atPath: "Examples/icons", toPath: scratch.path("icons"))
        try FileManager.default.createDirectory(atPath: scratch.path("t"), withIntermediateDirectories: true)
        try Data([0x78, 0x0A, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: scratch.path("t/row.mustache")))
        #expect(mkfifo(scratch.path("t/page.mustache"), 0o644) == 0)
        let run = try RowKitTool.run(["export", "s.yaml", "-o", "site", "-q", "--templates", "t"], in: scratch.url)
        #expect(run.status == 66, "\(run.stderr)")
        #expect(!run.stderr.contains("Error Domain"), "\(run.stderr)")
        #expect(
            run.stderr.contains("page.mustache: it is a pipe, not a file")
                || run.stderr.contains("row.mustache: line 2: it is not UTF-8 text"), "\(run.stderr)")
        try FileManager.default.removeItem(atPath: scratch.path("t/page.mustache"))
        let second = try RowKitTool.run(["export", "s.yaml", "-o", "site", "-q", "--templates", "t"], in: scratch.url)
        #expect(second.status == 66)
        #expect(second.stderr.contains("row.mustache: line 2: it is not UTF-8 text"), "\(second.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["icons", "s.yaml", "t"])
    }

    @Test func aTemplateWithAnUnknownNameIsPointedOut() throws {
        let (run, _) = try Self.export(["rwo": "<li>{{{text}}}</li>", "extra": "x", "footer": "{{>extra}}"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains("warning: template rwo.mustache in 't' replaces no built-in template"), "\(run.stderr)")
        #expect(run.stderr.contains("template footer.mustache"), "\(run.stderr)")
        #expect(!run.stderr.contains("extra.mustache"), "a template another includes is used: \(run.stderr)")
    }
}
