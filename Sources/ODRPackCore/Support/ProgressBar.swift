import Foundation
import ODRPackPlatform

/// How long work shows progress on stderr (`--progress`, decided by the front end's `Console`): a live bar on a
/// terminal, one line a second where asked for without one, a line about every 10 seconds in CI (`heartbeat`: as cargo
/// prints without a terminal, never a long silence nor a flood), or nothing.
package enum ProgressStyle: Sendable { case bar, lines, heartbeat, none }

/// The one progress bar of long work (`build`, `verify`, `thin --embed`, `ipa`, `upload`): done of total, throughput
/// and time left, as `[########................] 3/7 packs, 120 MB of 400 MB, 85 MB/s, 3s left`. Thread-safe: writers
/// on every core report into it. A failed write to stderr is not worth failing the work, so drawing never throws.
package final class ProgressBar: Sendable {
    private struct Counts {
        var totalUnits = 0
        var totalBytes: Int64 = 0
        var unitsDone = 0
        var bytesDone: Int64 = 0
        var lastDraw = Date.distantPast
        var drawn = false
        /// What one unit is, in the plural (`packs`, `files`).
        var unit: String
        var start = Date()
        /// `heartbeat`: a stage is under way and its clock thread runs.
        var beating = false
    }

    private let style: ProgressStyle
    private let counts: Locked<Counts>
    /// The least time between two drawings: 0.1 s for the bar, 1 s for lines, 10 s for the heartbeat.
    private let interval: TimeInterval
    private let write: @Sendable (String) -> Void

    /// Whether anything is drawn: totals that cost a pass of their own are worth finding only then.
    package var isShown: Bool { style != .none }

    /// - Parameters:
    ///   - interval: the least time between two drawings, else the style's own (a test's is short).
    ///   - write: where the text goes: the run's stderr (`Console`), never assumed to be the process's (a command
    ///     run in-process has its own; a test's collects it).
    package init(
        style: ProgressStyle, unit: String = "packs", interval: TimeInterval? = nil,
        write: @escaping @Sendable (String) -> Void
    ) {
        self.style = style
        counts = Locked(Counts(unit: unit))
        switch style {
        case .bar: self.interval = interval ?? 0.1
        case .lines, .none: self.interval = interval ?? 1
        case .heartbeat: self.interval = interval ?? 10
        }
        self.write = write
    }

    /// A bar that draws nothing: what a library call counts with when its caller shows no progress.
    package static func silent(unit: String = "packs") -> ProgressBar {
        ProgressBar(style: .none, unit: unit, write: { _ in })
    }

    /// Starts a stage of `units` units holding `bytes` bytes: the counts and the clock start again, so one bar serves
    /// work done in stages (`ipa`: the packs verified, then the files zipped), each in its own `unit` when given.
    package func begin(units: Int, bytes: Int64, unit: String? = nil) {
        counts.withLock {
            $0.totalUnits = units
            $0.totalBytes = bytes
            $0.unitsDone = 0
            $0.bytesDone = 0
            // The heartbeat's first line comes one interval in: work shorter than that prints none.
            $0.lastDraw = style == .heartbeat ? Date() : .distantPast
            $0.start = Date()
            if let unit { $0.unit = unit }
            if style == .heartbeat && !$0.beating {
                $0.beating = true
                startHeartbeat()
            }
        }
    }

    /// `heartbeat`: a line every `interval` while a stage is under way, also when no byte was counted since (one large
    /// file zipped, a server waited for), until `end` or the stage's last unit.
    private func startHeartbeat() {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: min(interval / 4, 0.5))
                let going = counts.withLock { counts -> Bool in
                    guard counts.beating else { return false }
                    let done = counts.unitsDone >= counts.totalUnits && counts.bytesDone >= counts.totalBytes
                    if !done && Date().timeIntervalSince(counts.lastDraw) >= interval { draw(&counts, force: true) }
                    return true
                }
                if !going { return }
            }
        }
        thread.start()
    }

    package func add(bytes: Int64) {
        guard style != .none else { return }
        counts.withLock {
            $0.bytesDone += bytes
            draw(&$0, force: false)
        }
    }

    /// The last unit always draws, so even `lines` ends with the whole count.
    package func unitFinished() {
        guard style != .none else { return }
        counts.withLock {
            $0.unitsDone += 1
            draw(&$0, force: $0.unitsDone == $0.totalUnits && style != .heartbeat)
        }
    }

    /// Clears the bar's line, so what is printed next starts on a clean line.
    package func end() {
        if style == .heartbeat { counts.withLock { $0.beating = false } }
        guard style == .bar else { return }
        counts.withLock { counts in
            if counts.drawn { write("\r\u{1B}[K") }
            counts.drawn = false
        }
    }

    /// Runs `body` (which prints a line) with the bar out of its way: cleared before, drawn again after while work is
    /// left, so lines and the bar never share a line of the terminal.
    package func printing<T>(_ body: () throws -> T) rethrows -> T {
        try counts.withLock { counts in
            if style == .bar && counts.drawn { write("\r\u{1B}[K") }
            counts.drawn = false
            defer {
                if style == .bar && counts.totalBytes > 0 && counts.bytesDone < counts.totalBytes {
                    draw(&counts, force: true)
                }
            }
            return try body()
        }
    }

    /// `3/7 packs, 120 MB of 400 MB, 85 MB/s, 3s left`: a pure function of the counts, for the tests.
    package static func status(
        unitsDone: Int, totalUnits: Int, unit: String, bytesDone: Int64, totalBytes: Int64, seconds: Double
    ) -> String {
        let elapsed = max(seconds, 0.001)
        let rate = Double(bytesDone) / elapsed
        let remaining = rate > 0 ? Double(max(totalBytes - bytesDone, 0)) / rate : 0
        return
            "\(unitsDone)/\(totalUnits) \(unit), \(ByteCount.format(bytesDone)) of \(ByteCount.format(totalBytes)), "
            + "\(ByteCount.format(Int64(rate)))/s, \(Int(remaining.rounded()))s left"
    }

    private func draw(_ counts: inout Counts, force: Bool) {
        // Before `begin` (or for no work at all) there is nothing to show a share of.
        guard counts.totalUnits > 0 || counts.totalBytes > 0 else { return }
        let now = Date()
        guard force || now.timeIntervalSince(counts.lastDraw) >= interval else { return }
        counts.lastDraw = now
        let status = Self.status(
            unitsDone: counts.unitsDone, totalUnits: counts.totalUnits, unit: counts.unit,
            bytesDone: counts.bytesDone, totalBytes: counts.totalBytes, seconds: now.timeIntervalSince(counts.start))
        switch style {
        case .bar:
            let width = 24
            let filled =
                counts.totalBytes > 0
                ? Int(Double(width) * Double(counts.bytesDone) / Double(counts.totalBytes)) : width
            let bar =
                String(repeating: "#", count: min(filled, width))
                + String(repeating: ".", count: max(0, width - filled))
            write("\r\u{1B}[K[\(bar)] \(status)")
            counts.drawn = true
        case .lines, .heartbeat:
            write("odrpack: \(status)\n")
        case .none:
            break
        }
    }
}

extension ProgressBar {
    /// One unit's share of the bar, for work that learns how far into the unit it is as it goes (bytes of an archive
    /// read, of a pack copied): what it reports never passes the share the total counted for it, and `finish` adds the
    /// rest, so the bar ends exactly at its total even where a damaged file is shorter or longer than recorded.
    package struct Share {
        let bar: ProgressBar
        let bytes: Int64
        private(set) var done: Int64 = 0

        package init(of bar: ProgressBar, bytes: Int64) {
            self.bar = bar
            self.bytes = max(bytes, 0)
        }

        /// The work is `position` bytes into the unit.
        package mutating func advance(to position: Int64) {
            let position = min(position, bytes)
            guard position > done else { return }
            bar.add(bytes: position - done)
            done = position
        }

        /// `count` more bytes of the unit are done.
        package mutating func add(_ count: Int64) { advance(to: [done, count].saturatingSum) }

        /// The unit is done: its whole share counts.
        package mutating func finish() {
            advance(to: bytes)
            bar.unitFinished()
        }
    }
}
