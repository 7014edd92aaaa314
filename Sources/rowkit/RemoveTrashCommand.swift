import ArgumentParser
import Foundation
import RowKitHTML

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rowkit remove-trash FOLDER NAME...`: removes what stopped exports left beside a site, as the
/// process ``TrashRemover`` starts (not shown in the help). Removes only folders that prove they
/// are RowKit's trash (``SiteTrash``); anything else named is left alone. Exits 0.
struct RemoveTrashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-trash",
        abstract: "Remove what interrupted exports left beside a site (run by rowkit itself).",
        shouldDisplay: false)

    @Argument(help: "The folder the trash is in.")
    var folder: String

    @Argument(help: "The trash folders' names in it.")
    var names: [String] = []

    func run() {
        let parent = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parent >= 0 else { return }
        defer { close(parent) }
        for name in names { SiteTrash.remove(name, in: parent) }
    }
}
