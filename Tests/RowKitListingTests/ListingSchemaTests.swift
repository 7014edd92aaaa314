import Foundation
import RowKit
import Testing

@testable import RowKitListing

/// `Schema/listing.schema.json` stays in step with the reader's fields and enums.
struct ListingSchemaTests {
    private static let schemaURL = ListingFixtures.root
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Schema/listing.schema.json")

    private func schema() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schemaURL))
        return try #require(object as? [String: Any])
    }

    private func dictionary(_ value: Any?, _ keys: String...) throws -> [String: Any] {
        var current = value
        for key in keys { current = (current as? [String: Any])?[key] }
        return try #require(current as? [String: Any])
    }

    private func strings(_ value: Any?) -> [String] { value as? [String] ?? [] }

    @Test func whenTheSchemaIsParsed_thenItIsDraft2020_12JSON() throws {
        #expect(try schema()["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    }

    @Test func whenTheSchemaListsFields_thenTheyMatchTheValidatorAtEveryLevel() throws {
        let root = try schema()
        #expect(Set(try dictionary(root, "properties").keys) == Set(ListingSchema.documentFields))
        #expect(Set(try dictionary(root, "$defs", "section", "properties").keys) == Set(ListingSchema.sectionFields))
        #expect(
            Set(try dictionary(root, "$defs", "row", "properties").keys)
                == Set(ListingRow.Field.allCases.map(\.rawValue)))
        #expect(strings(try dictionary(root, "$defs", "row")["required"]) == ["text"])
        #expect(strings(root["required"]) == ["sections"])
    }

    @Test func whenTheSchemaListsEnums_thenTheyAreTheSwiftRawValuesInOrder() throws {
        let defs = try dictionary(try schema(), "$defs")
        #expect(strings(try dictionary(defs, "tableStyle")["enum"]) == TableStyle.allCases.map(\.rawValue))
        #expect(strings(try dictionary(defs, "cellStyle")["enum"]) == CellLayout.allCases.map(\.rawValue))
        #expect(strings(try dictionary(defs, "accessory")["enum"]) == Accessory.allCases.map(\.rawValue))
        #expect(
            try dictionary(try schema(), "properties", "version")["const"] as? Int == ListingDocument.currentVersion)
    }
}
