import Foundation

/// Progress of a build on stderr: a live bar on a terminal, plain lines elsewhere when asked, or nothing.
public final class BuildProgress: @unchecked Sendable {
    public enum Style: Sendable { case bar, lines, none }

    private let style: Style
    private let lock = NSLock()
    private let start = Date()
    private var totalPacks = 0
    private var totalBytes: Int64 = 0
    private var packsDone = 0
    private var bytesDone: Int64 = 0
    private var lastDraw = Date.distantPast

    public init(style: Style) { self.style = style }

    func begin(packs: Int, bytes: Int64) {
        lock.withLock {
            totalPacks = packs
            totalBytes = bytes
        }
    }

    func add(bytes: Int64) {
        guard style != .none else { return }
        lock.withLock {
            bytesDone += bytes
            drawIfDue()
        }
    }

    func packFinished() {
        guard style != .none else { return }
        lock.withLock {
            packsDone += 1
            drawIfDue(force: style == .lines ? false : packsDone == totalPacks)
        }
    }

    func end() {
        guard style == .bar, totalPacks > 0 else { return }
        lock.withLock { try? StandardStream.write("\r\u{1B}[K", to: STDERR_FILENO) }
    }

    private func drawIfDue(force: Bool = false) {
        let now = Date()
        let interval = style == .bar ? 0.1 : 1.0
        guard force || now.timeIntervalSince(lastDraw) >= interval else { return }
        lastDraw = now
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let rate = Double(bytesDone) / elapsed
        let remaining = rate > 0 ? Double(totalBytes - bytesDone) / rate : 0
        let status = "\(packsDone)/\(totalPacks) packs, \(ByteCount.format(bytesDone)) of \(ByteCount.format(totalBytes)), "
            + "\(ByteCount.format(Int64(rate)))/s, \(Int(remaining.rounded()))s left"
        switch style {
        case .bar:
            let width = 24
            let filled = totalBytes > 0 ? Int(Double(width) * Double(bytesDone) / Double(totalBytes)) : width
            let bar = String(repeating: "#", count: min(filled, width)) + String(repeating: ".", count: max(0, width - filled))
            try? StandardStream.write("\r\u{1B}[K[\(bar)] \(status)", to: STDERR_FILENO)
        case .lines:
            try? StandardStream.write("odrpack: \(status)\n", to: STDERR_FILENO)
        case .none:
            break
        }
    }
}
