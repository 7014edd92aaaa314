import Foundation
import RowKitListing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds the manifest of the site being exported: site-wide files in memory, each unit's entries
/// as its pages are done (in unit order), the list pages' entries when their table ends.
///
/// Unit entries of row pages are written to a scratch file as they come (they may number
/// millions); ``write(to:)`` assembles the manifest from it.
final class ManifestBuilder {
    var settings: UInt64 = 0
    var inputs: [ManifestSource] = []
    var images: [ManifestSource] = []
    var pages = 0
    var rows = 0
    var bytes = 0
    var files = 0
    private var siteFiles: [ManifestEntry] = []
    /// Per unit, in order: its list page's line, and where its row pages' lines are in the
    /// scratch file.
    private var units: [(unit: ManifestUnit, list: String?, rows: Range<Int>)] = []
    private var unitIndex: [ManifestUnit: Int] = [:]
    private let scratch: ScratchFile

    init(scratch: ScratchFile) {
        self.scratch = scratch
    }

    func addSiteFile(_ entry: ManifestEntry) {
        siteFiles.append(entry)
    }

    /// Adds the row pages of `unit` (units come in order).
    func addRowPages(_ entries: [ManifestEntry], of unit: ManifestUnit) throws {
        var text: [UInt8] = []
        text.reserveCapacity(entries.count * 96)
        for entry in entries {
            entry.append(to: &text)
            text.append(contentsOf: ",\n".utf8)
        }
        let range = try scratch.append(text)
        if let index = unitIndex[unit] {
            units[index].rows = units[index].rows.lowerBound..<range.upperBound
        } else {
            unitIndex[unit] = units.count
            units.append((unit, nil, range))
        }
    }

    /// Sets the list page of `unit`.
    func setListPage(_ entry: ManifestEntry, of unit: ManifestUnit) {
        if let index = unitIndex[unit] {
            units[index].list = entry.line
        } else {
            unitIndex[unit] = units.count
            units.append((unit, entry.line, 0..<0))
        }
    }

    /// Forgets the site-wide files under `folder` (relative, ending in "/").
    func removeSiteFiles(under folder: String) {
        siteFiles.removeAll { $0.path.hasPrefix(folder) }
    }

    /// Forgets the units of `table` and everything after them (a table read again).
    func removeUnits(ofTable table: Int) {
        units.removeAll { $0.unit.table >= table }
        unitIndex = Dictionary(uniqueKeysWithValues: units.enumerated().map { ($1.unit, $0) })
    }

    /// The paths of every file entry so far.
    func paths() throws -> SitePaths {
        var paths = SitePaths()
        for entry in siteFiles { paths.insert(entry.path) }
        var text: [UInt8] = []
        for (_, list, rows) in units {
            if let list, let path = ManifestReader.path(ofLine: list) { paths.insert(path) }
            guard !rows.isEmpty else { continue }
            text.removeAll(keepingCapacity: true)
            try scratch.read(rows, appendingTo: &text)
            // Each entry is one line ending in ",\n".
            var start = 0
            while let newline = text[start...].firstIndex(of: 0x0A) {
                let line = String(decoding: text[start..<(newline - 1)], as: UTF8.self)
                if let path = ManifestReader.path(ofLine: line) { paths.insert(path) }
                start = newline + 1
            }
        }
        return paths
    }

    /// Writes the manifest to `descriptor`.
    func write(to descriptor: Int32) throws {
        var out = "{\"version\":\(Manifest.version),\n"
        out += "\"settings\":\"\(StableHash.hex(settings))\",\"pages\":\(pages),\"rows\":\(rows),\"bytes\":\(bytes),"
        out += "\"files\":\(files),\n"
        for (name, sources) in [("inputs", inputs), ("images", images)] {
            if sources.isEmpty {
                out += "\"\(name)\":[],\n"
            } else {
                out += "\"\(name)\":[\n" + sources.map(\.line).joined(separator: ",\n") + "],\n"
            }
        }
        out += "\"files\":[\n"
        for entry in siteFiles.sorted(by: { $0.path < $1.path }) { out += entry.line + ",\n" }
        var wroteEntry = !siteFiles.isEmpty
        var pending = Array(out.utf8)
        func flush() throws {
            try ScratchFile.writeAll(descriptor, pending)
            pending.removeAll(keepingCapacity: true)
        }
        for (_, list, rows) in units.sorted(by: { $0.unit < $1.unit }) {
            if list != nil || !rows.isEmpty { wroteEntry = true }
            if let list { pending.append(contentsOf: (list + ",\n").utf8) }
            if !rows.isEmpty {
                try flush()
                try scratch.copy(rows, to: descriptor)
            }
            if pending.count > 1 << 16 { try flush() }
        }
        // Every entry ends in ",\n": the last one's is replaced by the closing brackets.
        try flush()
        if wroteEntry {
            let end = lseek(descriptor, -2, SEEK_CUR)
            guard end >= 0, ftruncate(descriptor, end) == 0 else { throw ExportError.posix("write", "the manifest") }
        }
        try ScratchFile.writeAll(descriptor, Array("]}\n".utf8))
    }
}
