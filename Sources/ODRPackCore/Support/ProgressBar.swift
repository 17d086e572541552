import Foundation
import ODRPackPlatform

/// How long work shows progress on stderr (`--progress`, decided by the front end's `Console`): a live bar on a
/// terminal, one line a second where asked for without one, or nothing.
package enum ProgressStyle: Sendable { case bar, lines, none }

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
    }

    private let style: ProgressStyle
    /// What one unit is, in the plural (`packs`, `files`).
    private let unit: String
    private let start = Date()
    private let counts = Locked(Counts())

    package init(style: ProgressStyle, unit: String = "packs") {
        self.style = style
        self.unit = unit
    }

    package func begin(units: Int, bytes: Int64) {
        counts.withLock {
            $0.totalUnits = units
            $0.totalBytes = bytes
        }
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
            draw(&$0, force: $0.unitsDone == $0.totalUnits)
        }
    }

    /// Clears the bar's line, so what is printed next starts on a clean line.
    package func end() {
        guard style == .bar else { return }
        counts.withLock { counts in
            if counts.drawn { try? StandardStream.write("\r\u{1B}[K", to: StandardStream.error) }
            counts.drawn = false
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
        let now = Date()
        let interval = style == .bar ? 0.1 : 1.0
        guard force || now.timeIntervalSince(counts.lastDraw) >= interval else { return }
        counts.lastDraw = now
        let status = Self.status(
            unitsDone: counts.unitsDone, totalUnits: counts.totalUnits, unit: unit, bytesDone: counts.bytesDone,
            totalBytes: counts.totalBytes, seconds: now.timeIntervalSince(start))
        switch style {
        case .bar:
            let width = 24
            let filled =
                counts.totalBytes > 0
                ? Int(Double(width) * Double(counts.bytesDone) / Double(counts.totalBytes)) : width
            let bar =
                String(repeating: "#", count: min(filled, width))
                + String(repeating: ".", count: max(0, width - filled))
            try? StandardStream.write("\r\u{1B}[K[\(bar)] \(status)", to: StandardStream.error)
            counts.drawn = true
        case .lines:
            try? StandardStream.write("odrpack: \(status)\n", to: StandardStream.error)
        case .none:
            break
        }
    }
}
