import Foundation

/// Starts the threads of the reading and export pipelines (the parser's read-ahead, the page
/// renderers, the search lane): a named Foundation thread with a 4 MiB stack, so each gets the same
/// room whatever the platform's default for secondary threads.
package enum WorkerThread {
    /// The stack of every worker thread.
    static let stackSize = 4 << 20

    /// Starts `body` on a new thread named `name` (as debuggers and profilers show it).
    package static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.stackSize = stackSize
        thread.start()
    }
}
