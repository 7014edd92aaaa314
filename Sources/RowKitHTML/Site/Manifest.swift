import Foundation

/// The list of a site's files with their content hashes, kept in the site as
/// `.rowkit-manifest.json` so the next export can tell which files changed.
///
/// Format (keys sorted, so it is deterministic too):
/// `{"version":1,"files":{"index.html":"<16 hex digits>:<size>", ...}}`.
struct Manifest {
    static let fileName = ".rowkit-manifest.json"

    /// Content hash and size of each file, by path relative to the site.
    var files: [String: String] = [:]

    static func entry(hash: ContentHash, size: Int) -> String { "\(hash):\(size)" }

    /// The manifest of the site open as the folder descriptor `folder`; empty when it has none or
    /// it cannot be read (then every file is written again, and every file in the site counts as
    /// the user's, so none is removed).
    static func load(in folder: Int32) -> Manifest {
        guard let file = FileTree.contents(of: fileName, in: folder) else { return Manifest() }
        return decode(Data(file.bytes))
    }

    /// The manifest in `data`; empty when it is not one.
    private static func decode(_ data: Data) -> Manifest {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              object["version"] as? Int == 1,
              let files = object["files"] as? [String: String]
        else { return Manifest() }
        return Manifest(files: files)
    }

    /// The manifest as JSON bytes, keys sorted.
    func encoded() -> [UInt8] {
        var out = "{\"version\":1,\"files\":{"
        for (index, path) in files.keys.sorted().enumerated() {
            if index > 0 { out += "," }
            out += "\n" + Self.jsonString(path) + ":" + Self.jsonString(files[path] ?? "")
        }
        out += "\n}}\n"
        return Array(out.utf8)
    }

    private static func jsonString(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
