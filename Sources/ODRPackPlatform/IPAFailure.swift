/// Why `ipa` will not unpack an input IPA or make the IPA asked for (docs/store.md#ipa), as a fact of
/// `ODRPackError.ipa`: the IPA as given on the command line and the entry it holds, the app, the build folder, the
/// output, or what the sign command changed. A hostile archive is refused before anything is written.
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
    /// The app given is no app folder (its path ends in `..` or `/`).
    case notAnAppFolder(FilePath)
    /// The build folder given holds no odrpack-manifest.json (APP and BUILD_DIR swapped, or not a build).
    case noBuildManifest(FilePath)
    /// `--output` names a folder, not the file to write.
    case outputIsFolder(FilePath)
    /// `--output`'s folder is a file: the nearest existing one of its folders.
    case outputFolderIsFile(FilePath, file: FilePath)
    /// `--output` lies inside an input folder (the app or the build folder), which ipa never changes.
    case outputInsideInput(FilePath, input: FilePath)
    /// `--output` is an input file (an .ipa given as the app), which ipa never changes.
    case outputIsInput(FilePath, input: FilePath)
    /// The temporary folder, where an IPA written in place is made, does not exist.
    case noTemporaryFolder(FilePath)
    /// The app's path is not UTF-8, so it cannot be put into the sign command, which is text.
    case signCommandPathNotText(FilePath)
    /// The sign command changed more than the signature of the app (named as in the IPA): no IPA is written.
    case signCommandChangedApp(String, SignedAppChange)

    /// What the sign command changed that it must not (docs/store.md#ipa).
    package enum SignedAppChange: Sendable, Equatable {
        /// The app folder is gone.
        case removedApp
        /// The app's Info.plist is gone.
        case removedInfoPlist
        /// Info.plist no longer names an executable.
        case removedExecutableName
        /// The executable Info.plist names (its path in the app) is no file inside the app.
        case noExecutable(String)
        /// A file thinning took out (its path in the app) is back.
        case putBack(String)
    }
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
        case .notAnAppFolder(let app): return "'\(app.text)' is not an app folder: pass the built app (MyGame.app)"
        case .noBuildManifest(let folder):
            return """
                '\(folder.text)' holds no \(BuildManifestFailure.fileName): pass the folder odrpack build wrote (APP \
                BUILD_DIR, in that order)
                """
        case .outputIsFolder(let output):
            return "--output '\(output.text)' is a folder: name the .ipa file to write"
        case .outputFolderIsFile(let output, let file):
            return "the folder of --output '\(output.text)' is not a folder ('\(file.text)' is a file)"
        case .outputInsideInput(let output, let input):
            return """
                --output '\(output.text)' is inside '\(input.text)', an input, which ipa never changes: write the IPA \
                elsewhere
                """
        case .outputIsInput(let output, let input):
            return """
                --output '\(output.text)' is the same file as '\(input.text)', an input, which ipa never changes: \
                write the IPA elsewhere
                """
        case .noTemporaryFolder(let folder):
            return "the temporary folder '\(folder.text)' does not exist: set TMPDIR to a folder where ipa can work"
        case .signCommandPathNotText(let app):
            return """
                the sign command cannot be given '\(app.text)': a shell command is text, and that path is not UTF-8; \
                write the IPA into a folder whose path is, or run ipa from a folder that holds it
                """
        case .signCommandChangedApp(let app, let change):
            return """
                the sign command \(change) in '\(app)': it must only sign the app; no IPA written (fix the command \
                given to --sign-command)
                """
        }
    }
}

extension IPAFailure.SignedAppChange: CustomStringConvertible {
    /// What the sign command did, as the message says it after "the sign command".
    package var description: String {
        switch self {
        case .removedApp: return "removed the app itself"
        case .removedInfoPlist: return "removed Info.plist"
        case .removedExecutableName: return "removed CFBundleExecutable from Info.plist"
        case .noExecutable(let path): return "left no executable file '\(path)' (CFBundleExecutable) inside the app"
        case .putBack(let path): return "put back '\(path)', which ships in its pack"
        }
    }
}
