import Testing

/// The kinds of suite that make `make test` long, so a quick subset can leave them out: `make test-quick` skips the
/// suites tagged `slow`. swift test 6.3 filters by name only, so the Makefile reads the tags from each `@Suite(...)`
/// (a suite is tagged in its own traits, `@Suite(.tags(.slow))`, never through an extension) and skips those names.
/// A suite earns `slow` by its time in the full run on the 2-core machine (`swift test --xunit-output`'s times).
extension Tag {
    /// Seconds or minutes of the full suite's time on the 2-core machine: left out of `make test-quick`.
    @Tag static var slow: Self
    /// Bounds an odrpack child process's memory: its peak resident memory (`PeakMemory`) across a small and a large
    /// input, or a run under an address-space limit. Kept in the unit suite: the bound is the behaviour under test.
    @Tag static var memory: Self
    /// Drives the odrpack binary through a whole workflow on real trees (build, thin, interrupt), not one function.
    @Tag static var endToEnd: Self
}
