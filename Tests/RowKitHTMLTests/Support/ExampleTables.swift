import Foundation
import RowKit
import RowKitHTML

/// The example tables the golden, browser and behaviour tests share.
enum ExampleTables {
    /// A folder holding the example images (written once per test process, removed when it exits).
    static let fixtures: URL = {
        let folder = fixturesFolder()
        try? FixtureImages.write(into: folder)
        atexit { try? FileManager.default.removeItem(at: ExampleTables.fixturesFolder()) }
        return folder
    }()

    private static func fixturesFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-html-fixtures-\(getpid())")
    }

    /// A Settings-like inset-grouped table: all four cell styles, every accessory, index titles.
    static let settings = Table(style: .insetGrouped) {
        Section(id: "connectivity", index: "C") {
            DefaultRow("Airplane Mode", image: CellImage("airplane.png"), accessory: .checkmark)
            Value1Row("Wi-Fi", detail: "HomeNet", image: CellImage("wifi.png"), accessory: .disclosureIndicator)
            Value1Row("Bluetooth", detail: "On", image: CellImage("bluetooth.png"), accessory: .disclosureIndicator)
            Value1Row(
                "Cellular", image: CellImage("cellular.png", accessibilityLabel: "Cellular antenna"),
                accessory: .disclosureIndicator)
        }
        Section("General", footer: "Version and storage details for this device.", index: "G") {
            DefaultRow("About", image: CellImage("general.png"), accessory: .disclosureIndicator)
            Value2Row("Version", detail: "18.2")
            Value2Row("Model", detail: "iPhone 16")
            SubtitleRow("Storage", detail: "54.3 GB of 128 GB used", accessory: .detailDisclosureButton)
            SubtitleRow("Battery Health", detail: "Maximum capacity 96%", accessory: .detailButton)
        }
        Section("Appearance", footer: "Choose how text and controls look.", index: "A") {
            DefaultRow("Light", accessory: .checkmark)
            DefaultRow("Dark")
            Value1Row("Text Size", detail: "Large", accessory: .disclosureIndicator)
            Value1Row("Display Zoom", detail: "Default", accessory: .detailButton)
        }
        Section("Support", index: "S") {
            DefaultRow("Help", accessory: .disclosureIndicator, link: "https://example.com/help")
            DefaultRow("Contact", link: "mailto:support@example.com")
        }
    }

    /// A small catalogue: Markdown bodies on detail pages, slug collisions, a non-ASCII identity.
    static let catalogue = Table(style: .grouped) {
        Section("Teas", footer: "Prices include tax.") {
            SubtitleRow(
                "Green Tea", detail: "€4.50", accessory: .disclosureIndicator,
                body: """
                    A *fresh*, grassy tea. Brew at **80 °C** for two minutes.

                    - Loose leaf
                    - 100 g tin

                    ![A 100 g tin](wifi.png "The tin")

                    [More about green tea](https://example.com/tea/green)
                    """)
            SubtitleRow(
                "Tea & Coffee", detail: "Sampler", accessory: .disclosureIndicator,
                body: "Both, in one box. See the [coffee section](#section-coffee).")
            SubtitleRow(
                "Tea Coffee", detail: "Same slug, second", accessory: .detailDisclosureButton, id: "tea-coffee",
                body: "A second row whose slug collides with the first.")
            SubtitleRow(
                "日本茶", detail: "Japanese tea", accessory: .disclosureIndicator,
                body: "Sencha and matcha. `code` and a list:\n\n1. One\n2. Two")
        }
        Section("Coffee", id: "coffee") {
            Value1Row(
                "Espresso", detail: "€2.00",
                body: "Short and **strong**; shown under the row. ![cup](bluetooth.png) ![gone](missing.png)")
            Value1Row("Filter", detail: "€2.50", accessory: .disclosureIndicator, link: "https://example.com/filter")
        }
    }

    /// A plain, contacts-like list with images and sticky letter headers.
    static let contacts = Table(style: .plain) {
        Section("A", index: "A") {
            SubtitleRow(
                "Anna Andersson", detail: "anna@example.com",
                image: CellImage("avatar-anna.png", accessibilityLabel: "Photo of Anna"))
            SubtitleRow("Arvid Åberg", detail: "+46 8 123 456")
        }
        Section("B", index: "B") {
            SubtitleRow("Ben Brown", detail: "ben@example.com", image: CellImage("avatar-ben.png"))
        }
        Section("C", index: "C") {
            SubtitleRow(
                "Chloé Chevalier", detail: "chloe@example.com",
                image: CellImage("avatar-chloe.png", accessibilityLabel: "Photo of Chloé"))
            SubtitleRow("David Duarte", detail: "david@example.com", image: CellImage("avatar-david.png"), id: "david")
        }
        Section(footer: "5 contacts")
    }

    /// The three examples with the names their folders get.
    static var all: [(name: String, table: any ExportableTable)] {
        [("Settings", settings), ("Catalogue", catalogue), ("Contacts", contacts)]
    }

    /// Export options for the examples.
    static func options(title: String, pageSize: Int = 500, search: Bool = true) -> ExportOptions {
        ExportOptions(pageSize: pageSize, baseDirectory: fixtures, title: title, search: search)
    }
}

/// A fresh temporary folder, removed by the caller with `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Relative paths of all regular files under `folder`, sorted.
    static func files(in folder: URL) -> [String] {
        let base = folder.resolvingSymlinksInPath().path
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
        var paths: [String] = []
        for case let path as String in enumerator {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                paths.append(path)
            }
        }
        return paths.sorted()
    }
}
