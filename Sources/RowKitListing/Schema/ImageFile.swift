#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A row's image file, opened once inside its document's folder, size-limited and checked to be
/// an image by its first bytes.
///
/// Resolution never leaves the folder and cannot be raced: the folder is opened once (``Folder``),
/// then the path is walked one component at a time with `openat(…, O_NOFOLLOW)`, each relative to
/// the folder opened before it. A symbolic link met on the way is read (`readlinkat`) and its
/// target walked the same way, so a link that stays inside the folder works and one that leads out
/// (an absolute target, or `..` above the folder) is refused; `..` goes back to the folder already
/// open, never through the file system again. What is checked is the file that was opened, and
/// what is read is that same open file: swapping a component for a symbolic link between the
/// check and the copy cannot make it read anything else.
///
/// Accepted: PNG, JPEG, GIF, WebP and AVIF, recognised by their signature, whatever the file's
/// extension says (the extension must still be one of ``extensions``). SVG is refused: an SVG
/// file can carry scripts, which run when the image is opened on its own.
///
/// Self-contained (the C library only), so both the exporter and the listing validator can use it.
package struct ImageFile: Sendable {
    /// An image format the exporter copies.
    package enum Format: String, Sendable, CaseIterable {
        case png, jpeg, gif, webp, avif

        /// The extension of copied files: `png`, `jpg`, `gif`, `webp`, `avif`.
        package var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
    }

    /// What identifies a file on this machine (device and inode), for copying each file once.
    package struct Identity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// Why an image path was refused; `message` says it in words.
    package enum Problem: Error, Equatable, Sendable {
        /// The path is empty, absolute, starts with `~`, holds a backslash or NUL, or has a URL
        /// scheme: it is not a path relative to the document's folder.
        case notRelative
        /// `..` or a symbolic link leads outside the folder.
        case outsideFolder
        /// Nothing exists at the path (or a folder on the way is missing).
        case notFound
        /// The path names a folder, a device, a pipe or a socket.
        case notAFile
        /// The extension is not one of ``ImageFile/extensions``.
        case unsupportedExtension
        /// The file is larger than the limit.
        case tooLarge(size: Int, limit: Int)
        /// The file's first bytes are not those of a supported image; `found` names what it looks
        /// like instead ("an SVG file", "text"), when that can be told.
        case notAnImage(found: String?)
        /// More than 40 symbolic links on the way.
        case tooManyLinks
        /// The system refused to open or read it (`strerror` text), or the folder is missing.
        case unreadable(String)

        /// The problem in words, after "image 'path' ".
        package var message: String {
            switch self {
            case .notRelative: return "must be a path relative to the document's folder"
            case .outsideFolder: return "is outside the document's folder"
            case .notFound: return "does not exist"
            case .notAFile: return "is not a regular file"
            case .unsupportedExtension:
                return "is not a PNG, JPEG, GIF, WebP or AVIF file"
            case .tooLarge(let size, let limit):
                return
                    "is \(ListingText.mebibytes(size)) MiB; images may be at most \(ListingText.mebibytes(limit)) MiB"
            case .notAnImage(let found?) where found == "an SVG file":
                return "is an SVG file, which can carry scripts; convert it to PNG or WebP"
            case .notAnImage(let found?):
                return "is \(found), not a PNG, JPEG, GIF, WebP or AVIF image"
            case .notAnImage(nil):
                return "is not a PNG, JPEG, GIF, WebP or AVIF image (its first bytes are not an image's)"
            case .tooManyLinks: return "goes through too many symbolic links"
            case .unreadable(let reason): return "cannot be read: \(reason)"
            }
        }
    }

    /// A folder that image paths are resolved inside, opened once.
    package final class Folder: Sendable {
        /// The folder's path as given.
        package let path: String
        let descriptor: Int32

        /// Opens the folder at `path`; `.unreadable` when it cannot be opened.
        package init(path: String) throws(Problem) {
            self.path = path
            let opened = open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard opened >= 0 else { throw .unreadable("its folder '\(path)': " + String(cString: strerror(errno))) }
            descriptor = opened
        }

        deinit { close(descriptor) }
    }

    /// The extensions an image path may have (any case).
    package static let extensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "avif"]
    /// The largest image copied, in bytes (16 MiB).
    package static let maximumSize = 16 * 1024 * 1024

    /// The image's format, from its signature.
    package let format: Format
    /// The file's bytes.
    package let bytes: [UInt8]
    /// The file's device and inode.
    package let identity: Identity

    /// Opens `path` inside `folder`, checks it and reads it whole.
    ///
    /// - Complexity: O(*n*) in the file's size, which is at most `sizeLimit` bytes.
    package static func read(_ path: String, in folder: Folder, sizeLimit: Int = maximumSize) throws(Problem)
        -> ImageFile
    {
        let opened = try OpenFile(path, in: folder, sizeLimit: sizeLimit)
        defer { close(opened.descriptor) }
        var bytes = [UInt8](repeating: 0, count: opened.size)
        guard let count = bytes.withUnsafeMutableBytes({ DescriptorIO.read(opened.descriptor, into: $0, at: 0) })
        else { throw .unreadable(String(cString: strerror(errno))) }
        bytes.removeSubrange(count...)
        // The file may have changed size since fstat: what was read is what gets checked.
        guard let format = signature(of: bytes) else { throw .notAnImage(found: describe(bytes)) }
        return ImageFile(format: format, bytes: bytes, identity: opened.identity)
    }

    /// Opens `path` inside `folder` and checks it (the size and the first bytes) without reading
    /// the rest: what `validate` needs.
    package static func check(_ path: String, in folder: Folder, sizeLimit: Int = maximumSize) throws(Problem) -> Format
    {
        let opened = try OpenFile(path, in: folder, sizeLimit: sizeLimit)
        defer { close(opened.descriptor) }
        var head = [UInt8](repeating: 0, count: 512)
        let got = head.withUnsafeMutableBytes { pread(opened.descriptor, $0.baseAddress!, $0.count, 0) }
        guard got >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        head.removeSubrange(got...)
        guard let format = signature(of: head) else { throw .notAnImage(found: describe(head)) }
        return format
    }

    /// An opened, size-checked regular file.
    private struct OpenFile {
        var descriptor: Int32
        var size: Int
        var identity: Identity

        init(_ path: String, in folder: Folder, sizeLimit: Int) throws(Problem) {
            let components = try ImageFile.components(of: path)
            guard let last = components.last(where: { $0 != "." && $0 != ".." }),
                let dot = last.lastIndex(of: "."),
                ImageFile.extensions.contains(last[last.index(after: dot)...].lowercased())
            else { throw .unsupportedExtension }
            descriptor = try ImageFile.openBeneath(folder.descriptor, components)
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw .unreadable(reason)
            }
            guard (status.st_mode & S_IFMT) == S_IFREG else {
                close(descriptor)
                throw .notAFile
            }
            size = Int(status.st_size)
            identity = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            guard size <= sizeLimit else {
                close(descriptor)
                throw .tooLarge(size: size, limit: sizeLimit)
            }
        }
    }

    /// The path's components, after the checks that need no file system.
    private static func components(of path: String) throws(Problem) -> [String] {
        let trimmed = path.trimmingSpaces()
        guard !trimmed.isEmpty, !trimmed.utf8.contains(0), !trimmed.hasPrefix("/"), !trimmed.hasPrefix("~"),
            !trimmed.contains("\\"), !hasScheme(trimmed)
        else { throw .notRelative }
        let withoutQuery = trimmed.prefix { $0 != "?" && $0 != "#" }
        return withoutQuery.split(separator: "/").map(String.init)
    }

    /// Walks `components` from `root`, never leaving it; returns the final file's descriptor
    /// (opened read-only, non-blocking so a pipe cannot stall it), which the caller closes.
    private static func openBeneath(_ root: Int32, _ components: [String]) throws(Problem) -> Int32 {
        // The folders walked into, innermost last; `root` is not ours to close.
        var folders: [Int32] = []
        defer { for folder in folders { close(folder) } }
        var pending = Array(components.reversed())
        var links = 0
        while let component = pending.popLast() {
            let current = folders.last ?? root
            if component == "." || component.isEmpty { continue }
            if component == ".." {
                guard let inner = folders.popLast() else { throw .outsideFolder }
                close(inner)
                continue
            }
            let isLast = pending.allSatisfy { $0 == "." || $0.isEmpty }
            let flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (isLast ? O_NONBLOCK : O_DIRECTORY)
            let opened = openat(current, component, flags)
            if opened >= 0 {
                if isLast { return opened }
                folders.append(opened)
                continue
            }
            let reason = errno
            // A symbolic link (ELOOP under O_NOFOLLOW; FreeBSD says EMLINK): walk its target here.
            if reason == ELOOP || reason == EMLINK || reason == ENOTDIR, let target = readLink(component, in: current) {
                links += 1
                guard links <= 40 else { throw .tooManyLinks }
                guard !target.hasPrefix("/") else { throw .outsideFolder }
                pending.append(
                    contentsOf: target.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
                        .reversed())
                continue
            }
            switch reason {
            case ENOENT, ENOTDIR: throw .notFound
            case ENXIO, EISDIR: throw .notAFile
            default: throw .unreadable(String(cString: strerror(reason)))
            }
        }
        throw .notAFile  // the path named the folder itself
    }

    /// The target of the symbolic link `name` in `folder`, or `nil` when it is not one.
    private static func readLink(_ name: String, in folder: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(folder, name, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The format whose signature `head` starts with.
    static func signature(of head: [UInt8]) -> Format? {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        // AVIF: an ISO-BMFF `ftyp` box whose major or a compatible brand is `avif` or `avis`.
        if starts(Array("ftyp".utf8), at: 4) {
            let boxSize = head.prefix(4).reduce(0) { $0 << 8 | Int($1) }
            let end = min(max(boxSize, 16), head.count)
            for offset in stride(from: 8, to: end - 3, by: 4) where offset != 12 {
                if starts(Array("avif".utf8), at: offset) || starts(Array("avis".utf8), at: offset) { return .avif }
            }
        }
        return nil
    }

    /// What a file that is not a supported image looks like, when it can be told.
    static func describe(_ head: [UInt8]) -> String? {
        if head.isEmpty { return "empty" }
        let text = String(decoding: head.prefix(256), as: UTF8.self)
        let start = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }.prefix(256).lowercased()
        if start.hasPrefix("<svg") || (start.hasPrefix("<?xml") && start.contains("<svg"))
            || start.hasPrefix("<!doctype svg")
        {
            return "an SVG file"
        }
        let printable = head.prefix(256).allSatisfy { $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return printable ? "text" : nil
    }

    /// Whether `path` starts with `scheme:` (RFC 3986 letters before the first colon).
    private static func hasScheme(_ path: String) -> Bool {
        guard let colon = path.firstIndex(of: ":") else { return false }
        let scheme = path[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else {
            return false
        }
        return scheme.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }
}

extension String {
    /// The string without leading and trailing ASCII spaces, tabs and line breaks.
    fileprivate func trimmingSpaces() -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0C }
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
