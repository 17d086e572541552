import Foundation
import Testing

@testable import ODRPackCore
@testable import ODRPackPlatform
@testable import ODRPackReport

/// docs/commands.md#conventions: in CI (`GITHUB_ACTIONS=true`, `CI=true`) `--progress auto` prints a progress line
/// about every 10 seconds on stderr, as cargo does without a terminal: never a much longer silence, never a flood.
@Suite struct ProgressHeartbeatTests {
    /// The text a bar writes, collected.
    final class Collected: Sendable {
        let lines = Locked<[String]>([])
        var write: @Sendable (String) -> Void { { text in self.lines.withLock { $0.append(text) } } }
    }

    @Test func ciMeansAHeartbeatOffATerminal() {
        for environment in [["GITHUB_ACTIONS": "true"], ["CI": "true"], ["CI": "TRUE"]] {
            let console = Console(environment: environment, streams: .process(), stderrIsTerminal: false)
            #expect(console.progressStyle(.auto) == .heartbeat, "\(environment)")
            #expect(console.progressStyle(.never) == .none)
            #expect(console.progressStyle(.always) == .lines)
            #expect(
                Console(quiet: true, environment: environment, streams: .process(), stderrIsTerminal: false)
                    .progressStyle(.auto) == .none)
        }
        #expect(Console(environment: [:], streams: .process(), stderrIsTerminal: false).progressStyle(.auto) == .none)
        #expect(
            Console(environment: ["CI": "false"], streams: .process(), stderrIsTerminal: false).progressStyle(.auto)
                == .none)
        #expect(
            Console(environment: ["CI": "true", "TERM": "xterm"], streams: .process(), stderrIsTerminal: true)
                .progressStyle(.auto) == .bar)
    }

    /// A 0.1 s interval stands for 10 s: lines come while work is silent, as many as the time allows and no more,
    /// none before the first interval and none after the end.
    @Test func linesComeEveryIntervalEvenWhenNothingIsCounted() throws {
        let collected = Collected()
        let bar = ProgressBar(style: .heartbeat, unit: "files", interval: 0.1, write: collected.write)
        bar.begin(units: 2, bytes: 1000)
        // Many small additions in a burst: one line at most, not one each.
        for _ in 0..<500 { bar.add(bytes: 1) }
        #expect(collected.lines.withLock { $0 }.isEmpty)
        let started = Date()
        Thread.sleep(forTimeInterval: 0.45)
        bar.unitFinished()
        let elapsed = Date().timeIntervalSince(started)
        let during = collected.lines.withLock { $0 }
        #expect(during.count >= 3 && Double(during.count) <= elapsed / 0.1 + 1, "\(during)")
        #expect(during.first?.hasPrefix("odrpack: 0/2 files, 500 B of 1 KB, ") == true, "\(during)")
        #expect(during.allSatisfy { $0.hasPrefix("odrpack: ") && $0.hasSuffix("s left\n") })
        bar.end()
        Thread.sleep(forTimeInterval: 0.25)
        #expect(collected.lines.withLock { $0 }.count == during.count)
    }

    /// Work shorter than the interval prints nothing, not even the whole count at its end.
    @Test func shortWorkPrintsNothing() {
        let collected = Collected()
        let bar = ProgressBar(style: .heartbeat, interval: 10, write: collected.write)
        bar.begin(units: 1, bytes: 10)
        bar.add(bytes: 10)
        bar.unitFinished()
        bar.end()
        #expect(collected.lines.withLock { $0 }.isEmpty)
    }
}
