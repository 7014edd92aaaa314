import Dispatch
import Foundation
import Synchronization

/// SIGINT, SIGTERM and SIGHUP, turned into a clean stop with the shell's status for the signal
/// (128 + its number: 130, 143, 129).
///
/// Outside an export there is nothing to clean up: the first signal runs `onExit` (which erases
/// the progress line) and exits at once. During an export (between ``beginExport()`` and
/// ``endExport()``) it only sets ``signal``, which the exporter asks through
/// `ExportOptions.shouldStop` before every file it writes; the export then moves its temporary
/// folder to the trash, leaves the previous site as it was, and the command hands the trash to a
/// ``TrashRemover`` and exits with the signal's status. Should the export not come back within
/// five seconds, or a second signal arrive, the process runs `onExit` and exits anyway: the
/// export command's `onExit` hands the running export's temporary folder over the same way.
final class Interruption: Sendable {
    private struct State {
        var signal: Int32?
        var exporting = false
        var onExit: (@Sendable () -> Void)?
    }

    /// The process's one instance.
    static let shared = Interruption()

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "rowkit.signals")
    private let sources = Mutex<[Source]>([])

    /// A signal source, kept for as long as the process runs; only ever touched under the lock.
    private struct Source: @unchecked Sendable {
        var source: any DispatchSourceSignal
    }

    /// The signals handled.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Starts handling the signals; `onExit` runs before the process exits on one (it erases the
    /// progress line). A signal the process was started with ignored (as `nohup` does) stays
    /// ignored.
    func install(onExit: @escaping @Sendable () -> Void) {
        state.withLock { $0.onExit = onExit }
        for number in Self.signals {
            let previous = Foundation.signal(number, SIG_IGN)
            if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [self] in received(number) }
            source.resume()
            let kept = Source(source: source)
            sources.withLock { $0.append(kept) }
        }
    }

    /// The first signal received, if any.
    var signal: Int32? { state.withLock { $0.signal } }

    /// The exit status for `signal`: 128 plus its number.
    static func status(for signal: Int32) -> Int32 { 128 + signal }

    /// An export starts: signals from now on ask it to stop rather than end the process. Returns
    /// `false` when a signal came first (the caller stops at once).
    func beginExport() -> Bool {
        state.withLock { state in
            guard state.signal == nil else { return false }
            state.exporting = true
            return true
        }
    }

    /// The export is over (finished, failed or stopped).
    func endExport() {
        state.withLock { $0.exporting = false }
    }

    private func received(_ number: Int32) {
        let (first, exporting, onExit) = state.withLock { state in
            let first = state.signal == nil
            if first { state.signal = number }
            return (first, state.exporting, state.onExit)
        }
        guard first, exporting else {
            onExit?()
            exit(Self.status(for: signal ?? number))
        }
        queue.asyncAfter(deadline: .now() + 5) {
            onExit?()
            exit(Self.status(for: number))
        }
    }
}
