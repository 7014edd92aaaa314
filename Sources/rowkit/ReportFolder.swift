import ArgumentParser
import Foundation
import RowKitListing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder of `rowkit bench --report`: rowkit writes its `index.html` only into a new or empty
/// folder, or over a report it wrote itself (a regular file that names rowkit's report as its
/// generator). A file of the user's, a symbolic link, or any other folder is refused, and never
/// replaced.
struct ReportFolder {
    /// What every report page carries in its head (from `Templates/bench-report.mustache`).
    static let signature = #"<meta name="generator" content="RowKit bench report">"#

    /// The folder as given.
    let path: String

    /// `path/index.html`.
    var page: String { (path as NSString).appendingPathComponent("index.html") }

    /// Why the report cannot be written there, or `nil` when it can.
    func problem() -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 || stat(path, &info) == 0 else {
            return errno == ENOENT ? nil : String(cString: strerror(errno))
        }
        if (info.st_mode & S_IFMT) == S_IFLNK {
            guard stat(path, &info) == 0 else { return nil }  // a link to a folder yet to be made
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return "it is a file, not a folder" }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        guard !names.isEmpty else { return nil }
        guard names.contains("index.html") else { return Self.notMine }
        guard lstat(page, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return "its index.html is not a regular file (a symbolic link, a folder); rowkit replaces only a report "
                + "it wrote. Choose a new or empty folder"
        }
        guard let head = try? FileHandle(forReadingFrom: URL(fileURLWithPath: page)).read(upToCount: 4096),
            String(decoding: head, as: UTF8.self).contains(Self.signature)
        else { return Self.notMine }
        return nil
    }

    private static let notMine =
        "it holds files that rowkit did not write, and rowkit writes a report only into a new or empty folder "
        + "or over a report it wrote. Choose a new or empty folder"

    /// Writes `html` as the folder's `index.html` (creating the folder), whole or not at all: into
    /// a file of its own beside it, renamed over the page once written. Returns the page's path.
    func write(_ html: String) throws(ExitCode) -> String {
        if let problem = problem() { throw Self.refuse(path, problem) }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw Self.refuse(
                path, "cannot create the folder: \((error as NSError).localizedFailureReason ?? "\(error)")")
        }
        let partial = (path as NSString).appendingPathComponent(".index.html.rowkit-\(UUID().uuidString.lowercased())")
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.refuse(path, String(cString: strerror(errno))) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var reason = ""
        do {
            try handle.write(contentsOf: Data(html.utf8))
            try handle.synchronize()
        } catch {
            reason = (error as NSError).localizedFailureReason ?? "\(error)"
        }
        try? handle.close()
        let written = reason.isEmpty
        guard written, rename(partial, page) == 0 else {
            let failure = written ? String(cString: strerror(errno)) : reason
            unlink(partial)
            throw Self.refuse(path, failure)
        }
        return page
    }

    private static func refuse(_ path: String, _ problem: String) -> ExitCode {
        StandardError.line("rowkit: cannot write the report to '\(ListingText.escaped(path))': \(problem)")
        return .cannotCreate
    }
}
