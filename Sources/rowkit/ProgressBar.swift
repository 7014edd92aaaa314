import Foundation
import RowKitHTML
import Synchronization

/// A one-line progress display on standard error for work that takes more than a moment.
///
/// Two modes: a bar with counts (`update(done:total:unit:label:)`), and an activity line with a
/// spinner and the elapsed time for a step that cannot count (`activity(_:)`, redrawn by a
/// background ticker). Nothing is drawn unless the display is enabled (standard error is a
/// terminal and `--quiet` was not given) and the work has already run for `delay` seconds, so quick
/// runs and pipes stay clean. `finish()` stops the ticker and erases the line. Safe to use from any
/// thread.
final class ProgressBar: Sendable {
    private struct State {
        var activity: String?
        var activityStart = ContinuousClock.now
        var drawn = false
        var finished = false
        var tickerRunning = false
        var lastDraw: ContinuousClock.Instant?
        var lastText = ""
        var spinnerFrame = 0
    }

    private let enabled: Bool
    private let delay: Duration
    private let start = ContinuousClock.now
    private let state = Mutex(State())

    /// The number of cells of the bar itself.
    static let width = 24
    private static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Creates a display that draws after `delay` seconds when `enabled`; a delay that is not a
    /// number counts as 0, and one over a day as a day.
    init(enabled: Bool, delay: Double = 0.3) {
        self.enabled = enabled
        let seconds = delay.isNaN ? 0 : min(max(delay, 0), 86_400)
        self.delay = .milliseconds(Int((seconds * 1000).rounded()))
    }

    /// Whether a progress display belongs on standard error: it is a terminal and the user did not
    /// ask for quiet.
    static func isWanted(quiet: Bool) -> Bool { !quiet && StandardError.isTerminal }

    /// Shows `text` (for example "Reading large.yaml") with a spinner and the time it has taken,
    /// until the next `update` or `finish`.
    func activity(_ text: String) {
        guard enabled else { return }
        let startTicker = state.withLock { state -> Bool in
            state.activity = text
            state.activityStart = .now
            defer { state.tickerRunning = true }
            return !state.tickerRunning && !state.finished
        }
        if startTicker {
            Thread.detachNewThread { [self] in
                while tick() { Thread.sleep(forTimeInterval: 0.1) }
            }
        }
    }

    /// Shows that `done` of `total` `unit`s are finished: `label [████░░░░] 45%  45/100 unit`.
    func update(done: Int, total: Int, unit: String, label: String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        state.withLock { state in
            state.activity = nil
            guard !state.finished, now - start >= delay else { return }
            if let last = state.lastDraw, now - last < .milliseconds(80), done < total { return }
            draw(Self.line(label: label, done: done, total: total, unit: unit), at: now, in: &state)
        }
    }

    /// Shows how far an export of listings has come: the input read of the listing being read, the
    /// rows exported and the rows per second, e.g.
    /// `Exporting big.csv [████░░░░] 45%  90.1/200.0 MB  450,000 rows  98,000 rows/s`.
    func update(reading progress: ExportProgress) {
        guard enabled else { return }
        let now = ContinuousClock.now
        state.withLock { state in
            state.activity = nil
            guard !state.finished, now - start >= delay else { return }
            let complete = progress.bytesTotal.map { progress.bytesRead >= $0 } ?? false
            if let last = state.lastDraw, now - last < .milliseconds(80), !complete { return }
            let elapsed = now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            draw(Self.line(progress, seconds: seconds), at: now, in: &state)
        }
    }

    /// The reading bar's text (see ``update(reading:)``).
    static func line(_ progress: ExportProgress, seconds: Double) -> String {
        let name = StandardError.safe((progress.path as NSString).lastPathComponent)
        var label = "Exporting "
        if progress.listings > 1 { label += "(\(progress.listing + 1)/\(progress.listings)) " }
        label += name.count > 30 ? String(name.prefix(29)) + "…" : name
        let total = progress.bytesTotal ?? 0
        // Before the first listing's size is known, nothing is done yet.
        let fraction = total > 0 ? min(max(Double(progress.bytesRead) / Double(total), 0), 1) : 0
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let percent = Int((fraction * 100).rounded(.down))
        let megabytes =
            "\(Formatting.oneDecimal(Double(progress.bytesRead) / 1e6))/\(Formatting.oneDecimal(Double(total) / 1e6)) MB"
        let rate = seconds > 0 ? Int((Double(progress.rows) / seconds).rounded()) : 0
        return
            "\(label) [\(bar)] \(percent)%  \(megabytes)  \(Formatting.plural(progress.rows, "row"))  \(Formatting.grouped(rate)) rows/s"
    }

    /// Stops the ticker and erases the line if it was drawn; later updates draw nothing.
    func finish() {
        state.withLock { state in
            if state.drawn { StandardError.write("\r\u{1B}[2K") }
            state.drawn = false
            state.finished = true
            state.activity = nil
        }
    }

    /// Draws the activity line once; `false` when the ticker should stop.
    private func tick() -> Bool {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard !state.finished else {
                state.tickerRunning = false
                return false
            }
            guard let activity = state.activity, now - start >= delay else { return true }
            state.spinnerFrame = (state.spinnerFrame + 1) % Self.spinner.count
            let elapsed =
                Double((now - state.activityStart).components.seconds)
                + Double((now - state.activityStart).components.attoseconds) / 1e18
            let text = "\(activity) \(Self.spinner[state.spinnerFrame]) \(Formatting.oneDecimal(elapsed)) s"
            draw(text, at: now, in: &state)
            return true
        }
    }

    private func draw(_ text: String, at now: ContinuousClock.Instant, in state: inout State) {
        guard text != state.lastText else { return }
        StandardError.write("\r\u{1B}[2K" + text)
        state.drawn = true
        state.lastDraw = now
        state.lastText = text
    }

    /// The bar's text: `Exporting [████████░░░░] 45%  45,000/100,000 rows`.
    static func line(label: String, done: Int, total: Int, unit: String) -> String {
        let fraction = total > 0 ? min(max(Double(done) / Double(total), 0), 1) : 1
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let percent = Int((fraction * 100).rounded(.down))
        let counts = "\(Formatting.grouped(done))/\(Formatting.grouped(total)) \(unit)"
        return "\(label) [\(bar)] \(percent)%  \(counts)"
    }
}
