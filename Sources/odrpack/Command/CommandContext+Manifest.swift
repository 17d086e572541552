import ODRPackCore
import ODRPackReport

extension CommandContext {
    /// MANIFEST, or the manifest found from the run's current folder up (docs/commands.md#scripts), with a note on
    /// stderr naming it when it is not in the current folder: a manifest decides what is packed, so the user sees
    /// which one.
    func manifestPath(given: String?) throws -> String {
        // A MANIFEST given is read as text, which names only a UTF-8 path (`PathArgument`).
        let located = try ManifestLocator(currentFolder: state.currentFolder?.string).locate(
            given: PathArgument.text(given, "MANIFEST"))
        if let note = located.note { try console.printNote("odrpack: note: \(note)\n") }
        return located.path
    }
}
