import Foundation
import Testing

/// `scripts/ensure-deps.sh` on Linux when another apt-get holds the package manager's lock: it
/// says it is waiting and tries again, instead of failing at once (apt-get's status 100). Run with
/// a stand-in `apt-get` (first in PATH) that reports the lock held twice, and a `pkg-config` that
/// finds nothing, so the script wants to install.
@Suite struct EnsureDepsScriptTests {
    @Test(.enabled(if: isLinux && getuid() == 0, "apt-get is Linux's; without root the script goes through sudo"))
    func whenAnotherAptGetHoldsTheLock_thenTheScriptWaitsForIt() throws {
        let scratch = try TemporaryDirectory()
        let calls = scratch.path("calls")
        let fakeAptGet = """
            #!/bin/sh
            echo "$@" >> \(calls)
            if [ "$(wc -l < \(calls))" -le 2 ]; then
              echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 99 (apt-get)" >&2
              exit 100
            fi
            """
        try fakeAptGet.write(toFile: scratch.path("apt-get"), atomically: false, encoding: .utf8)
        try "#!/bin/sh\nexit 1\n".write(toFile: scratch.path("pkg-config"), atomically: false, encoding: .utf8)
        for tool in ["apt-get", "pkg-config"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path(tool))
        }
        let script = RowKitTool.packageRoot.appendingPathComponent("scripts/ensure-deps.sh").path
        let path = scratch.url.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let run = try RowKitTool.runProcess(
            "/usr/bin/env", ["PATH=\(path)", "ROWKIT_APT_RETRY_SECONDS=0.1", "bash", script])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("rowkit: waiting for another apt-get or dpkg to finish"), "\(run.stderr)")
        let made = try String(contentsOfFile: calls, encoding: .utf8).split(separator: "\n")
        #expect(made.count == 4, "\(made)")
        #expect(made.allSatisfy { $0.hasPrefix("-o DPkg::Lock::Timeout=600 ") }, "\(made)")
        #expect(made.last?.contains("install -y") == true)
    }
}

#if os(Linux)
private let isLinux = true
#else
private let isLinux = false
#endif
