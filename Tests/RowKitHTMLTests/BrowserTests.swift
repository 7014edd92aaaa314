import Foundation
import RowKit
import RowKitHTML
import Testing

/// Loads the exported example site in headless Chromium: checks the rendered DOM and saves
/// screenshots (390 and 1280 px wide, light and dark) to `.build/screenshots/`.
@Suite(.serialized, .timeLimit(.minutes(10))) struct BrowserTests {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func run(_ arguments: [String]) throws -> String {
        // Headless Chromium can hang on start-up now and then (CI saw one in about a hundred
        // runs): each run is under timeout(1), and only a run that timed out is tried again, at
        // most three times in all. A run that ends by itself is never retried, so a wrong page
        // still fails the test.
        for attempt in 1...3 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            process.arguments =
                [
                    "-k", "5", "60", chromium!, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--no-first-run",
                    "--disable-dev-shm-usage", "--run-all-compositor-stages-before-draw",
                ] + arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            // timeout(1) exits with 124 when it stopped the command, 137 when it had to kill it.
            let timedOut = process.terminationReason == .exit && [124, 137].contains(process.terminationStatus)
            if !timedOut || attempt == 3 { return String(decoding: data, as: UTF8.self) }
            print("chromium timed out (attempt \(attempt) of 3): \(arguments.joined(separator: " "))")
        }
        return ""
    }

    @Test(.enabled(if: chromium != nil, "chromium is not installed (apt-get install chromium)"))
    func exportedSiteRendersEverySectionAndRowInChromium() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        try SiteExporter(ExampleTables.options(title: "Examples")).export(ExampleTables.all, to: site)
        for (name, table) in [
            ("settings", ExampleTables.settings), ("catalogue", ExampleTables.catalogue),
            ("contacts", ExampleTables.contacts),
        ] {
            let page = site.appendingPathComponent("\(name)/index.html")
            let dom = try Self.run(["--dump-dom", page.absoluteString])
            #expect(dom.contains("</main>"), "\(name): no DOM")
            #expect(dom.components(separatedBy: "<section class=\"section\"").count - 1 == table.sections.count)
            #expect(dom.components(separatedBy: "<li class=\"row").count - 1 == table.rowCount)
            for row in table.sections.flatMap(\.rows) {
                if let text = (row.base as? any StandardRowContent)?.content.text {
                    #expect(
                        dom.contains(HTMLEscaping.escape(text).replacingOccurrences(of: "&#39;", with: "'")),
                        "\(name): row \(text) missing")
                }
            }
            // Every local link resolves to a file in the site.
            for href in dom.components(separatedBy: "href=\"").dropFirst().map({ String($0.prefix { $0 != "\"" }) })
            where !href.hasPrefix("http") && !href.hasPrefix("mailto:") && !href.hasPrefix("#") {
                let path = String(href.prefix { $0 != "#" })
                let target = page.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                #expect(FileManager.default.fileExists(atPath: target.path), "\(name): \(href) does not resolve")
            }
        }
        let shots = Self.packageRoot.appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        for name in ["settings", "catalogue", "contacts", "catalogue/rows/green-tea"] {
            for (width, height) in [(390, 844), (1280, 900)] {
                for dark in [false, true] {
                    let file = shots.appendingPathComponent(
                        "\(name.replacingOccurrences(of: "/", with: "-"))-\(width)-\(dark ? "dark" : "light").png")
                    try? FileManager.default.removeItem(at: file)
                    let page = name.contains("/") ? "\(name).html" : "\(name)/index.html"
                    _ = try Self.run(
                        (dark ? ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"] : [])
                            + [
                                "--screenshot=\(file.path)", "--window-size=\(width),\(height)",
                                site.appendingPathComponent(page).absoluteString,
                            ])
                    #expect(
                        FileManager.default.fileExists(atPath: file.path), "no screenshot \(file.lastPathComponent)")
                }
            }
        }
    }

    /// Value1 rows, measured in Chromium at three widths: text and detail share a line when both
    /// fit whole (the detail at the trailing edge), else the detail goes below the text at the
    /// leading edge, and no word that fits its box is ever broken across lines.
    @Test(.enabled(if: chromium != nil, "chromium is not installed (apt-get install chromium)"))
    func value1TextAndDetailNeverBreakAWordThatFits() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let table = Table(style: .insetGrouped) {
            Section("Value1") {
                Value1Row("Short", detail: "Short")
                Value1Row("Display & Brightness", detail: "Automatic", accessory: .disclosureIndicator)
                Value1Row(
                    "A rather long title that wraps over two lines or more", detail: "Detail",
                    accessory: .disclosureIndicator)
                Value1Row("Title", detail: "A long detail text that goes on and on and on and on")
                Value1Row(String(repeating: "A", count: 90), detail: String(repeating: "B", count: 90))
            }
        }
        try SiteExporter(ExampleTables.options(title: "Value1")).export(
            table, to: folder.url.appendingPathComponent("site"))
        // The page is measured from a wrapper page that loads it in an iframe of each width and
        // writes one line per row into its own DOM, which --dump-dom prints.
        let probe = """
            <!doctype html><meta charset="utf-8"><body><pre id="out"></pre><script>
            const widths = [320, 390, 1280];
            // The frames load in any order: lines are kept per width and joined in width order.
            let lines = {}, pending = widths.length;
            function words(el) {
              const out = [], text = el.firstChild;
              if (!text || text.nodeType !== 3) return out;
              const re = /\\S+/g; let m;
              while ((m = re.exec(text.data))) {
                const r = document.createRange(); r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
                const alone = el.cloneNode(false);
                alone.style.cssText = "position: absolute; white-space: nowrap; visibility: hidden";
                alone.textContent = m[0];
                el.parentNode.appendChild(alone);
                out.push({ word: m[0], lines: new Set([...r.getClientRects()].map(q => Math.round(q.top))).size,
                           width: alone.getBoundingClientRect().width });
                alone.remove();
              }
              return out;
            }
            for (const w of widths) {
              const f = document.createElement("iframe");
              f.style.width = w + "px"; f.style.height = "600px";
              f.onload = () => {
                lines[w] = [];
                for (const [i, row] of [...f.contentDocument.querySelectorAll(".value1")].entries()) {
                  const labels = row.querySelector(".labels").getBoundingClientRect();
                  const t = row.querySelector(".text"), d = row.querySelector(".detail");
                  const tr = t.getBoundingClientRect(), dr = d.getBoundingClientRect();
                  const broken = [t, d].flatMap(e => words(e).filter(x => x.lines > 1 && x.width < labels.width - 1))
                                       .map(x => x.word);
                  const placement = Math.abs(dr.top - tr.top) < 1
                    ? (Math.abs(dr.right - labels.right) < 1 ? "beside-trailing" : "beside-elsewhere")
                    : (dr.top >= tr.bottom - 1 && Math.abs(dr.left - labels.left) < 1 ? "below-leading" : "below-elsewhere");
                  lines[w].push(`${w}|row ${i}|${placement}|broken=${broken.join(",")}`);
                }
                if (--pending === 0) document.getElementById("out").textContent = "RESULT\\n" + widths.flatMap(w => lines[w]).join("\\n") + "\\nEND";
              };
              f.src = "site/index.html";
              document.body.appendChild(f);
            }
            </script>
            """
        let wrapper = folder.url.appendingPathComponent("probe.html")
        try probe.write(to: wrapper, atomically: true, encoding: .utf8)
        let dom = try Self.run([
            "--allow-file-access-from-files", "--virtual-time-budget=10000", "--dump-dom", wrapper.absoluteString,
        ])
        guard let start = dom.range(of: "RESULT\n"), let end = dom.range(of: "\nEND") else {
            Issue.record("the probe page wrote no result:\n\(dom.prefix(2000))")
            return
        }
        let rows = dom[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
        #expect(rows.count == 15, "\(rows)")
        for row in rows {
            #expect(row.hasSuffix("broken="), "a word that fits was broken: \(row)")
            #expect(
                !row.contains("elsewhere"),
                "detail neither beside at the trailing edge nor below at the leading edge: \(row)")
        }
        // Rows in order: Short, Display & Brightness, the long title, the long detail, the two long
        // words. Short pairs sit side by side at every width (Display & Brightness and Automatic
        // too, in a font as wide as iOS's: the font stack reaches Liberation Sans before DejaVu
        // Sans); long ones stack where they must.
        let expected = [
            "320|row 0|beside-trailing", "320|row 1|beside-trailing", "320|row 2|below-leading",
            "320|row 3|below-leading", "320|row 4|below-leading",
            "390|row 0|beside-trailing", "390|row 1|beside-trailing", "390|row 2|below-leading",
            "390|row 3|below-leading", "390|row 4|below-leading",
            "1280|row 0|beside-trailing", "1280|row 1|beside-trailing", "1280|row 2|beside-trailing",
            "1280|row 3|beside-trailing", "1280|row 4|below-leading",
        ]
        #expect(
            rows.map { $0.components(separatedBy: "|broken=")[0] } == expected,
            "\(rows)")
    }
}
