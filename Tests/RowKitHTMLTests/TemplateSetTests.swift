import Foundation
import Testing
@testable import RowKitHTML

@Suite struct TemplateSetTests {
    @Test func everyBundledTemplateLoadsAndRenders() throws {
        let templates = try TemplateSet()
        #expect(Set(TemplateSet.requiredNames).isSubset(of: Set(templates.names)))
        for name in templates.names {
            let output = templates.render(name, ["title": "T", "language": "en", "root": ""])
            #expect(!output.isEmpty, "template \(name) rendered nothing")
        }
    }
}
