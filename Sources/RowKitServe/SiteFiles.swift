import Foundation

/// The files of a site folder, as the server may serve them.
struct SiteFiles: Sendable {
    /// What a request path leads to.
    enum Lookup: Equatable {
        /// A regular file inside the site: its site-relative path and its URL.
        case file(String, URL)
        /// A folder named without its trailing `/`: where to redirect.
        case folder(String)
        case notFound
    }

    let folder: URL

    /// What the request path `target` (before `?`) leads to: only regular files whose real path
    /// (symbolic links followed) is inside the site's real folder, and no hidden name.
    func lookup(_ target: String) -> Lookup {
        guard let sitePath = RequestPath.sitePath(Substring(target)),
            !sitePath.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
            let root = Self.realPath(folder.path)
        else { return .notFound }
        let full = root + "/" + sitePath
        guard let real = Self.realPath(full), real.hasPrefix(root + "/") else { return .notFound }
        var info = stat()
        guard stat(real, &info) == 0 else { return .notFound }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file(sitePath, URL(fileURLWithPath: real))
        case S_IFDIR:
            // `/contacts` is the folder `contacts/`: its index page, at the address with `/`.
            guard !target.hasSuffix("/") else { return .notFound }
            return .folder(target + "/")
        default: return .notFound
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The `Content-Type` of a site file, by its extension.
    static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "svg": "image/svg+xml"
        case "ico": "image/x-icon"
        case "txt": "text/plain; charset=utf-8"
        case "wasm": "application/wasm"
        default: "application/octet-stream"
        }
    }
}
