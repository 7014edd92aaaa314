import Foundation
import Testing
import RowKit
@testable import RowKitHTML

@Suite struct SmokeTests {
    @Test func settingsExportsToAFolder() throws {
        let out = URL(fileURLWithPath: "/tmp/rowkit-smoke")
        let summary = try SiteExporter(ExampleTables.options(title: "Settings")).export(ExampleTables.all.map { ($0.name, $0.table as any ExportableTable) }, to: out)
        print(summary)
    }
}
