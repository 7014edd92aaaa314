import Synchronization

/// A one-line progress bar on standard error for work that takes more than a moment.
///
/// Nothing is drawn unless the bar is enabled (standard error is a terminal and `--quiet` was not
/// given) and the work has already run for `delay` seconds, so quick runs and pipes stay clean.
/// Redraws are throttled; `finish()` erases the line. Safe to update from any thread.
final class ProgressBar: Sendable {
    private struct State {
        var label: String
        var drawn = false
        var lastDraw: ContinuousClock.Instant?
        var lastText = ""
    }

    private let enabled: Bool
    private let delay: Duration
    private let start = ContinuousClock.now
    private let state: Mutex<State>

    /// The number of cells of the bar itself.
    static let width = 24

    /// Creates a bar that draws after `delay` seconds when `enabled`.
    init(label: String, enabled: Bool, delay: Double = 0.3) {
        self.enabled = enabled
        self.delay = .milliseconds(Int((delay * 1000).rounded()))
        state = Mutex(State(label: label))
    }

    /// Whether a bar belongs on standard error: it is a terminal and the user did not ask for quiet.
    static func isWanted(quiet: Bool) -> Bool { !quiet && StandardError.isTerminal }

    /// Shows that `done` of `total` `unit`s are finished, under `label` when given.
    func update(done: Int, total: Int, unit: String, label: String? = nil) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - start >= delay else { return }
        state.withLock { state in
            if let label { state.label = label }
            if let last = state.lastDraw, now - last < .milliseconds(80), done < total { return }
            let text = Self.line(label: state.label, done: done, total: total, unit: unit)
            guard text != state.lastText else { return }
            StandardError.write("\r\u{1B}[2K" + text)
            state.drawn = true
            state.lastDraw = now
            state.lastText = text
        }
    }

    /// Erases the bar if it was drawn.
    func finish() {
        state.withLock { state in
            if state.drawn { StandardError.write("\r\u{1B}[2K") }
            state.drawn = false
        }
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
