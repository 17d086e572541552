import ArgumentParser

/// The option groups whose meaning every command shares, gathered from where the command declares them (their order
/// in its declaration is the order of its `--help`, so they stay there): `CommandContext` is built from them. A
/// command without `--json`, the gate, `--github` or `--progress` leaves it out.
struct SharedOptions {
    var output: OutputOptions
    var json = false
    var gate: WarningsGate?
    var gitHub: GitHubOptions?
    var progress: ProgressOptions?
}
