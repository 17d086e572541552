import Foundation
import ODRPackCore
import ODRPackPlatform

/// The bar of bytes sent, on stderr, on a terminal only (`build`'s look: done of total, throughput, time left); pack
/// lines go through it so that the bar is cleared before a line is printed and drawn again after it.
package final class UploadProgress: Sendable {
    private struct State {
        var total: Int64 = 0
        var done: Int64 = 0
        var lastDraw = Date.distantPast
        var drawn = false
    }

    private let enabled: Bool
    private let start = Date()
    private let state = Locked(State())

    package init(enabled: Bool) { self.enabled = enabled }

    package func begin(total: Int64) { state.withLock { $0.total = total } }

    package func add(_ bytes: Int64) {
        guard enabled else { return }
        state.withLock { state in
            state.done += bytes
            draw(&state, force: false)
        }
    }

    /// Prints `line` on stdout with the bar out of its way. A failed write is the caller's exit 2.
    package func print(_ line: String) throws {
        try state.withLock { state in
            if state.drawn { try? StandardStream.write("\r\u{1B}[K", to: StandardStream.error) }
            state.drawn = false
            try StandardStream.write(line, to: StandardStream.output)
            if enabled && state.total > 0 && state.done < state.total { draw(&state, force: true) }
        }
    }

    package func end() {
        state.withLock { state in
            if state.drawn { try? StandardStream.write("\r\u{1B}[K", to: StandardStream.error) }
            state.drawn = false
        }
    }

    private func draw(_ state: inout State, force: Bool) {
        let now = Date()
        guard force || now.timeIntervalSince(state.lastDraw) >= 0.1 else { return }
        state.lastDraw = now
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let rate = Double(state.done) / elapsed
        let remaining = rate > 0 ? Double(max(state.total - state.done, 0)) / rate : 0
        let width = 24
        let filled = state.total > 0 ? Int(Double(width) * Double(state.done) / Double(state.total)) : width
        let bar =
            String(repeating: "#", count: min(filled, width)) + String(repeating: ".", count: max(0, width - filled))
        let status =
            "\(ByteCount.format(state.done)) of \(ByteCount.format(state.total)) sent, "
            + "\(ByteCount.format(Int64(rate)))/s, \(Int(remaining.rounded()))s left"
        try? StandardStream.write("\r\u{1B}[K[\(bar)] \(status)", to: StandardStream.error)
        state.drawn = true
    }
}
