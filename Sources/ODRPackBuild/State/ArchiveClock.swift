import Foundation
import ODRPackPlatform

/// The output file system's clock, read to wait until the packs a build just wrote are a whole tick old, so that their
/// stamps vouch for them (`BuildState.takeArchiveStamps`): the kernel's file clock on a local file system, a probe
/// file (the build's own temporary) on a network one, whose server stamps files with its own clock.
enum ArchiveClock {
    /// The longest wait: FAT's two-second tick, and a little for a server's round trips.
    static let longestWait: Int64 = ReadStart.largestTick + 500_000_000

    /// Waits until the clock of the file system holding `folder` is at least `tick` past `latest`.
    /// - Returns: false when it cannot tell (no probe could be written) or did not get there in `longestWait`.
    static func wait(past latest: Int64, tick: Int64, in folder: FilePath) -> Bool {
        let (target, overflow) = latest.addingReportingOverflow(tick)
        guard !overflow else { return false }
        let remote = SystemCall.isRemoteFileSystem(folder) == true
        let started = SystemCall.fileClockNanoseconds
        while true {
            let now: Int64
            if remote {
                guard let probe = ReadStart.Sample.probe(in: folder) else { return false }
                now = probe.time
            } else {
                now = SystemCall.fileClockNanoseconds
            }
            if now >= target { return true }
            let waited = SystemCall.fileClockNanoseconds - started
            guard waited < longestWait else { return false }
            // A local clock says how long; a server's is polled every tenth of a second.
            let pause = remote ? 100_000_000 : min(target - now, longestWait - waited)
            Thread.sleep(forTimeInterval: Double(max(pause, 1_000_000)) / 1e9)
        }
    }
}
