import Foundation
import ODRPackCore
import ODRPackPlatform

/// Progress of a build on stderr: a live bar on a terminal, plain lines elsewhere when asked, or nothing.
package final class BuildProgress: Sendable {
    package enum Style: Sendable { case bar, lines, none }

    private struct Counts {
        var totalPacks = 0
        var totalBytes: Int64 = 0
        var packsDone = 0
        var bytesDone: Int64 = 0
        var lastDraw = Date.distantPast
    }

    private let style: Style
    private let start = Date()
    /// Updated from every writer thread.
    private let counts = Locked(Counts())

    package init(style: Style) { self.style = style }

    func begin(packs: Int, bytes: Int64) {
        counts.withLock {
            $0.totalPacks = packs
            $0.totalBytes = bytes
        }
    }

    func add(bytes: Int64) {
        guard style != .none else { return }
        counts.withLock {
            $0.bytesDone += bytes
            draw(&$0, force: false)
        }
    }

    /// The last pack always draws, so even `lines` ends with the whole count.
    func packFinished() {
        guard style != .none else { return }
        counts.withLock {
            $0.packsDone += 1
            draw(&$0, force: $0.packsDone == $0.totalPacks)
        }
    }

    func end() {
        guard style == .bar else { return }
        counts.withLock { counts in
            if counts.totalPacks > 0 { try? StandardStream.write("\r\u{1B}[K", to: StandardStream.error) }
        }
    }

    /// Progress is only drawn on a terminal or when asked: a failed write to stderr is not worth failing the build.
    private func draw(_ counts: inout Counts, force: Bool) {
        let now = Date()
        let interval = style == .bar ? 0.1 : 1.0
        guard force || now.timeIntervalSince(counts.lastDraw) >= interval else { return }
        counts.lastDraw = now
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let rate = Double(counts.bytesDone) / elapsed
        let remaining = rate > 0 ? Double(counts.totalBytes - counts.bytesDone) / rate : 0
        let status =
            "\(counts.packsDone)/\(counts.totalPacks) packs, \(ByteCount.format(counts.bytesDone)) of "
            + "\(ByteCount.format(counts.totalBytes)), \(ByteCount.format(Int64(rate)))/s, \(Int(remaining.rounded()))s left"
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
        case .lines:
            try? StandardStream.write("odrpack: \(status)\n", to: StandardStream.error)
        case .none:
            break
        }
    }
}
