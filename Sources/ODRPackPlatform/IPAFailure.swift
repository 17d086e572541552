/// Why `ipa` will not unpack an input IPA (docs/store.md#ipa), as a fact of `ODRPackError.ipa`: the IPA as given on the
/// command line, and the entry it holds. A hostile archive is refused before anything is written.
package enum IPAFailure: Sendable, Equatable {
    /// Not a zip `ipa` can read: the reader's words for why.
    case unreadable(String, reason: String)
    /// It holds this many apps in Payload/ (not one).
    case appCount(String, count: Int)
    /// An entry's data overlaps another's.
    case overlappingEntry(String, entry: String)
    /// Its entries declare more bytes than the folder where ipa works has free.
    case moreThanFreeSpace(String, declared: UInt64, free: UInt64, folder: String)
    /// It holds an entry twice.
    case duplicateEntry(String, entry: String)
    /// It holds an entry inside another entry that is a file.
    case entryInsideFile(String, entry: String)
    /// A symbolic link's target is longer than a path may be.
    case linkTargetTooLong(String, entry: String, bytes: UInt64, limit: Int)
    /// An entry's name leads out of the folder it is unpacked into.
    case entryLeavesArchive(String, entry: String)
    /// An entry's CRC-32 or size does not match its data.
    case damagedEntry(String, entry: String)
    /// An entry's data is not the size it declares: what it holds, nil for more.
    case entrySizeMismatch(String, entry: String, declared: UInt64, holds: UInt64?)
    /// An app bundle (a copied `.app`) holds something that is neither a file, a folder nor a link.
    case unsupportedInApp(String)
    /// What the IPA would hold is neither a file, a folder nor a link.
    case unsupportedInIPA(String)
}

extension IPAFailure: CustomStringConvertible {
    package var description: String {
        let untrusted = "it is no IPA to trust"
        switch self {
        case .unreadable(let ipa, let reason):
            return "'\(ipa)' is not a readable IPA (\(reason)): pass the app's .ipa or its .app folder"
        case .appCount(let ipa, let count):
            return """
                '\(ipa)' holds \(count == 0 ? "no" : "\(count)") apps in Payload/: an IPA holds exactly one \
                Payload/NAME.app/
                """
        case .overlappingEntry(let ipa, let entry):
            return "'\(ipa)' holds '\(entry)' whose data overlaps another entry's: \(untrusted); rebuild it"
        case .moreThanFreeSpace(let ipa, let declared, let free, let folder):
            return """
                '\(ipa)' declares \(declared) bytes of content, more than the \(free) bytes free where ipa works \
                ('\(folder)'): free some space, or check the IPA
                """
        case .duplicateEntry(let ipa, let entry): return "'\(ipa)' holds '\(entry)' twice: rebuild the IPA"
        case .entryInsideFile(let ipa, let entry):
            return "'\(ipa)' holds '\(entry)' inside a file it holds: rebuild the IPA"
        case .linkTargetTooLong(let ipa, let entry, let bytes, let limit):
            return """
                '\(ipa)' holds the symbolic link '\(entry)' whose target is \(bytes) bytes, over the \(limit) a path \
                may have: \(untrusted); rebuild it
                """
        case .entryLeavesArchive(let ipa, let entry):
            return "'\(ipa)' holds the entry '\(entry)', which leaves the archive: \(untrusted)"
        case .damagedEntry(let ipa, let entry): return "'\(entry)' in '\(ipa)' is damaged (CRC or size mismatch)"
        case .entrySizeMismatch(let ipa, let entry, let declared, let holds):
            return """
                '\(entry)' in '\(ipa)' declares \(declared) bytes but holds \(holds.map { "\($0)" } ?? "more"): \
                \(untrusted); rebuild it
                """
        case .unsupportedInApp(let path):
            return "'\(path)' is neither a file, a folder nor a symbolic link: an app bundle holds only those"
        case .unsupportedInIPA(let path):
            return "'\(path)' is neither a file, a folder nor a symbolic link: an IPA holds only those"
        }
    }
}
