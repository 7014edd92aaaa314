// LiveTable: the machine's processes as an iOS table, live in the browser.
//
//   swift run -c release LiveTable [--port 8080] [--seconds N]
//
// Every second it reads /proc, builds a new table, lets RowKit diff it against the model
// (`TableModel.update(to:)`) and publishes the model with that changeset: every open page
// applies it in place, without reloading. The site is written to a temporary folder; it is a
// static export like any other.
import Foundation
import Hummingbird
import RowKit
import RowKitHTML
import RowKitServe

/// One process, as /proc shows it.
struct Process {
    var pid: Int
    var name: String
    var state: String
    var cpuTicks: Int
    var residentKB: Int
}

/// Every process /proc lists now (processes that end while being read are left out).
func readProcesses() -> [Process] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.compactMap { name -> Process? in
        guard let pid = Int(name), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm) ": state, ppid, ... utime is field 14 and stime 15 of the whole line.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        var resident = 0
        if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        {
            resident = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return Process(
            pid: pid, name: String(stat[stat.index(after: open)..<close]), state: String(fields[0]),
            cpuTicks: user + system, residentKB: resident)
    }
}

/// The processes as a table: running ones first, then the others, each by memory.
func processTable(_ processes: [Process], previousTicks: [Int: Int], seconds: Double) -> Table {
    let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    func row(_ process: Process) -> AnyRow {
        let cpu = Double(process.cpuTicks - (previousTicks[process.pid] ?? process.cpuTicks)) / ticksPerSecond / seconds
        let memory = String(format: "%.1f MB", Double(process.residentKB) / 1024)
        return AnyRow(
            SubtitleRow(
                process.name, detail: "pid \(process.pid) · \(String(format: "%.0f", cpu * 100))% CPU · \(memory)",
                id: process.pid))
    }
    let sorted = processes.sorted { ($0.residentKB, $1.pid) > ($1.residentKB, $0.pid) }
    let running = sorted.filter { $0.state == "R" }
    let others = sorted.filter { $0.state != "R" }
    return Table(
        style: .insetGrouped,
        sections: [
            Section(id: "running", header: .title("Running"), rows: running.map(row)),
            Section(
                id: "other", header: .title("Sleeping and Other"),
                footer: .title("\(processes.count) processes, by resident memory. Updated every second."),
                rows: others.map(row)),
        ])
}

@main
struct LiveTable {
    static func main() async throws {
        let arguments = CommandLine.arguments
        func value(_ name: String) -> Int? {
            arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil }
        }
        let port = value("--port") ?? 8080
        let seconds = value("--seconds")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-livetable-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }

        let site = LiveSite(folder: folder, options: ExportOptions(pageSize: 10_000, title: "Processes"))
        var processes = readProcesses()
        var model = try TableModel(processTable(processes, previousTicks: [:], seconds: 1))
        try await site.publish(model)

        let router = Router()
        router.add(middleware: LiveSiteMiddleware<BasicRequestContext>(site, exclusive: true))
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            services: [LiveSiteService(site)],
            onServerRunning: { channel in
                // Written at once: a program reading this line waits for it.
                let line = "Processes at http://127.0.0.1:\(channel.localAddress?.port ?? port)/ (Ctrl-C to stop)\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            })
        let updates = Task {
            var ticks = Dictionary(processes.map { ($0.pid, $0.cpuTicks) }, uniquingKeysWith: { a, _ in a })
            var round = 0
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(1))
                processes = readProcesses()
                let changes = try model.update(to: processTable(processes, previousTicks: ticks, seconds: 1))
                ticks = Dictionary(processes.map { ($0.pid, $0.cpuTicks) }, uniquingKeysWith: { a, _ in a })
                try await site.publish(model, changes: changes)
                round += 1
                if let seconds, round >= seconds {
                    await site.stop()
                    kill(getpid(), SIGINT)
                }
            }
        }
        try await app.runService()
        updates.cancel()
    }
}
