import ODRPackCore

/// Progress of a build on stderr: the one `ProgressBar` of long work (a live bar on a terminal, plain lines elsewhere
/// when asked, or nothing), counting packs written and the bytes of their files.
package struct BuildProgress: Sendable {

    let bar: ProgressBar

    /// No progress shown: a build whose caller shows none.
    package static var silent: BuildProgress { BuildProgress(bar: .silent()) }

    /// Build's progress drawn by a bar the caller made.
    package init(bar: ProgressBar) { self.bar = bar }

    func begin(packs: Int, bytes: Int64) { bar.begin(units: packs, bytes: bytes) }

    func add(bytes: Int64) { bar.add(bytes: bytes) }

    /// The last pack always draws, so even `lines` ends with the whole count.
    func packFinished() { bar.unitFinished() }

    func end() { bar.end() }
}
