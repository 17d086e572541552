import Foundation
import ODRPackCore
import ODRPackPlatform

@testable import ODRPackStore

/// What `odrpack upload` would exit with and print, from `BackgroundAssetsUpload.run` called in this process.
struct InProcessUploadRun {
    var status: Int32
    /// Each pack's line and the summary, as the text output prints them.
    var stdout: String
    /// `odrpack: error: …` lines: the error that stopped the run, or each failure (exit 1).
    var stderr: String
    var outcome: UploadOutcome?
}

extension UploadFixture {
    /// `upload` of this build in this process: libcurl against the stand-in, end to end as `odrpack upload` sends
    /// it, with `clock` in place of the system's, so that back-off, `Retry-After` and `--wait` take no time (the
    /// product has no variable that shortens them) and the waits asked for are in `clock.sleeps`.
    func uploadInProcess(
        _ standIn: AppStoreConnectStandIn, clock: FakeUploadClock, jobs: Int = 1, wait: Int? = nil,
        environment: [String: String] = [:]
    ) -> InProcessUploadRun {
        var options = UploadOptions(
            buildPath: out, selection: .all, environment: standIn.environment().merging(environment) { $1 })
        options.jobs = jobs
        options.waitSeconds = wait
        options.clock = clock
        // What the stand-in saw is read after the run: its last lines are written just after its last answers.
        defer { standIn.settle() }
        do {
            let outcome = try BackgroundAssetsUpload.run(options)
            let stdout = outcome.packs.map(UploadReport.line).joined() + UploadReport.summary(outcome)
            let stderr = outcome.failures.map { "odrpack: error: \($0)\n" }.joined()
            let failed = !outcome.failures.isEmpty || outcome.diagnostics.errorCount > 0
            return InProcessUploadRun(status: failed ? 1 : 0, stdout: stdout, stderr: stderr, outcome: outcome)
        } catch let error as ODRPackError {
            var status: Int32 = 2
            if case .usage = error { status = 64 }
            return InProcessUploadRun(status: status, stdout: "", stderr: "odrpack: error: \(error)\n", outcome: nil)
        } catch {
            return InProcessUploadRun(status: 2, stdout: "", stderr: "odrpack: error: \(error)\n", outcome: nil)
        }
    }
}
