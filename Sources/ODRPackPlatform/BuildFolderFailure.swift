/// Why a build folder cannot be used as it is (docs/build-output.md), as a fact of `ODRPackError.buildFolder`: one an
/// interrupted build left, one whose previous build manifest cannot be read, two that cannot be compared. Each is
/// exit 2 and `unusable-input`, the code these failures had as sentences.
package enum BuildFolderFailure: Sendable, Equatable, CustomStringConvertible {
    /// The file an interrupted build's journal is, said in messages (TemporaryName.previousManifest).
    package static let journal = TemporaryName.previousManifest

    /// An interrupted build left the folder (it holds the journal): its packs are part old, part new.
    case interrupted(FilePath)
    /// The previous build's manifest in the folder (as given) is there but cannot be read: the reader's words for why.
    /// Its packs' versions would restart at 0.
    case previousManifestUnreadable(folder: String, reason: String)
    /// `diff`: the two builds are of different apps (their bundle ids, old then new).
    case differentApps(old: String, new: String)
    /// `diff`: the two builds are of different formats (their short names, old then new).
    case differentFormats(old: String, new: String)

    package var description: String {
        switch self {
        case .interrupted(let folder):
            return """
                '\(folder.text)' was left by an interrupted build (it holds '\(Self.journal)'): its packs are part \
                old, part new; run the build again
                """
        case .previousManifestUnreadable(let folder, let reason):
            return """
                the previous build's \(BuildManifestFailure.fileName) in '\(folder)' cannot be read (\(reason)), so \
                the packs' versions are unknown and would restart at 0: restore it, or pass --reset-versions to start \
                every pack at version 0
                """
        case .differentApps(let old, let new):
            return """
                the builds are of different apps ('\(old)' and '\(new)'): pack ids include the bundle id, so nothing \
                could match
                """
        case .differentFormats(let old, let new):
            return "one build is \(old) and the other \(new): compare two builds of the same --format"
        }
    }
}
