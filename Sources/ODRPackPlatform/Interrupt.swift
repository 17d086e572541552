import CPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C (SIGINT) ends odrpack with exit 130 (docs/commands.md#exit-codes), after ending an open progress line and
/// saying what was left as it was. The handler only calls `write(2)` and `_exit(2)`, both async-signal-safe, on bytes
/// prepared before the signal can arrive: no Swift runtime, no lock, no allocation inside it. Outside `holding`, work
/// is safe to stop at any instant (a build's commit is atomic and the next build recovers an interrupted one), and the
/// handler exits at once; work that must not stop halfway or must remove what it wrote (thin's commit, ipa's work
/// folder) runs in `holding`, where the first Ctrl-C is marked and acted on once the work has unwound through its
/// clean-up (`checkpoint`).
package enum Interrupt {
    /// The bytes the handler writes, set once by `install` before the handler is: never freed, never changed after.
    nonisolated(unsafe) private static var message: UnsafeMutableRawBufferPointer?

    /// Installs the handler. `message` is the whole text written to stderr (one or more full lines); when stderr is a
    /// terminal a line break goes first, so a progress bar (or the `^C` the terminal echoed) keeps its own line.
    /// A SIGINT that was ignored when odrpack started (a shell's background job) stays ignored; one that was blocked
    /// (inherited from a parent that blocks it) is unblocked, so Ctrl-C reaches the handler.
    package static func install(message text: String) {
        var current = sigaction()
        sigaction(SIGINT, nil, &current)
        #if canImport(Glibc)
            let ignored = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1  // SIG_IGN
        #else
            let ignored = unsafeBitCast(current.__sigaction_u.__sa_handler, to: Int.self) == 1
        #endif
        if ignored { return }
        let prefix = SystemCall.isTerminal(StandardStream.error) ? "\n" : ""
        let bytes = Array((prefix + text).utf8)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        buffer.copyMemory(from: bytes.withUnsafeBytes { $0 })
        message = buffer
        signal(SIGINT, handle)
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
    }

    /// The signal handler: the prepared message, then exit 130 (128 + SIGINT, as shells report it). Inside `holding`
    /// the first Ctrl-C is only marked, and acted on when the held section ends; a second one exits at once (what it
    /// leaves, the next run clears: docs/commands.md#exit-codes).
    private static let handle: @convention(c) (Int32) -> Void = { _ in
        if odrpack_interrupt_hold(0) > 0, odrpack_interrupt_mark_pending() == 0 { return }
        exitInterrupted()
    }

    private static func exitInterrupted() -> Never {
        if let message = Interrupt.message, let base = message.baseAddress {
            _ = SystemCall.writeAll(StandardStream.error, UnsafeRawBufferPointer(start: base, count: message.count))
        }
        _exit(130)
    }

    /// Thrown by `checkpoint` inside `holding` once Ctrl-C was pressed: it unwinds the work, running its clean-up
    /// (`defer`, `catch`), up to `holding`, which then exits 130.
    package struct Interrupted: Error {}

    /// Runs `body` with Ctrl-C held, for work that must not stop halfway or that must clean up what it wrote (a
    /// commit's renames, a work folder): a Ctrl-C during it is marked, `checkpoint` throws `Interrupted`, and when
    /// `body` has ended (returned or thrown, its clean-up done) the interrupt takes effect: the message, exit 130.
    package static func holding<T>(_ body: () throws -> T) rethrows -> T {
        _ = odrpack_interrupt_hold(1)
        defer {
            if odrpack_interrupt_hold(-1) == 0, odrpack_interrupt_pending() != 0 { exitInterrupted() }
        }
        return try body()
    }

    /// Where held work may stop: throws `Interrupted` once Ctrl-C was pressed, else nothing.
    package static func checkpoint() throws {
        if odrpack_interrupt_pending() != 0 { throw Interrupted() }
    }
}
