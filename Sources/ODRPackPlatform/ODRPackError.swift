/// Why the tool could not do its job: the one fatal error type, one case per kind of failure. Every case is exit 2
/// but `usage` (64); the front end maps them in one place. Problems with the project itself are `Diagnostic`s.
///
/// A case carries the facts of the failure (the path, the errno, the request, the HTTP status, App Store Connect's
/// codes), not a sentence: a caller acts on them and a test asserts them, and the message is made from them in one
/// place, `description` (ODRPackError+Message.swift), when it is printed. The cases that still carry a sentence
/// (`usage`, by design: the command line's own words) are the producers not yet moved to facts.
package enum ODRPackError: Error, CustomStringConvertible, Equatable {
    /// A file-system call on one path failed: what it was doing, the path, the errno the system gave. Made by
    /// `system(_:_:_:)`; prints as `cannot write 'x.zip': No space left on device`.
    case io(FileOperation, path: FilePath, SystemError)
    /// A system call failed where no `FilePath` holds what it names (getcwd, an output named as typed): what it was
    /// doing, the errno the system gave. Prints as `cannot find the current folder: No such file or directory`.
    case call(SystemFailure, SystemError)
    /// A file operation failed where the system gave no errno (Foundation's file manager): which, on what, and
    /// Foundation's reason where it gives one.
    case file(FileFailure)
    /// A file read whole is over its bound (docs/build-output.md#bounded): what the file is (`the manifest`), its
    /// path, the bound in bytes.
    case fileTooLarge(String, path: FilePath, limit: Int)
    /// A resource or an output changed while the build read or finished it: which, and how.
    case changed(FileChange)
    /// Another build, thin or upload holds the folder's lock, and the command was told not to wait: which folder.
    case folderLocked(FolderLockConflict)
    /// A command odrpack runs for the user (`--sign-command`, the Background Assets packager) is missing, failed,
    /// or broke the rules its output must follow: which command, how, on which pack.
    case commandFailed(CommandFailure)
    /// A library odrpack calls (zlib, libdeflate) failed: how, with its status where it gives one.
    case library(LibraryFailure)
    /// App Store Connect (or a presigned part's host) answered a store request with a failure status and the client
    /// gave up on it: the request, the status, and the answer's `errors[]` (docs/store.md#failures).
    case http(StoreRequest, status: Int, appleErrors: [AppleAPIError])
    /// A store request got no answer the client can judge: the network, the retry policy, an answer out of bounds.
    case network(StoreRequest, NetworkFailure)
    /// The store client refused to send a request or follow an answer (docs/store.md#trust-boundaries).
    case refused(StoreRefusal)
    /// The tag manifest cannot be read at all, or the one found is not to be trusted (docs/commands.md#scripts).
    case manifest(ManifestFailure)
    /// A build folder's odrpack-manifest.json is missing, corrupt or of another schema version (one that cannot be
    /// read is `io`, with its path and errno).
    case buildManifest(BuildManifestFailure)
    /// `ipa` will not unpack the input IPA (docs/store.md#ipa): which entry, and what is wrong with it.
    case ipa(IPAFailure)
    /// `import-xcode` cannot read the project (docs/xcode.md): which target, configuration, setting or file, and why.
    case xcode(XcodeFailure)
    /// `thin` (or `ipa`) cannot use the app, the build folder or a pack (docs/commands.md#thin): which, and why.
    case thin(ThinFailure)
    /// `upload`, `submit` or `status` cannot go on (docs/store.md#upload): an archive, the upload record, or an answer
    /// of App Store Connect they cannot use.
    case upload(UploadFailure)
    /// An input lies outside `--input-root` (docs/commands.md#input-root), or the folder given is none: which, and
    /// where it leads.
    case inputRoot(InputRootFailure)
    /// A command will not write where it was told (docs/commands.md#scripts): a lock file odrpack cannot hold, an
    /// output FILE that is an input or a build folder's own file.
    case output(OutputFailure)
    /// A build folder cannot be used as it is: an interrupted build left it, its previous build manifest cannot be
    /// read, or two builds cannot be compared.
    case buildFolder(BuildFolderFailure)
    /// `build` cannot go on with what it was given: the published download manifest, a pack's version or sizes.
    case buildInput(BuildInputFailure)
    /// The project cannot be written as asked (reserved paths, colliding asset pack ids, an output folder that is
    /// resources-root), though it breaks no rule of the store: which path or pack, and why.
    case unbuildable(UnbuildableReason)
    /// The command line asks for something the project cannot do with it, found only once the manifest is read.
    case usage(String)

    /// The stable `error.code` of the `--json` error document (docs/commands.md#json): a wire contract, so each case
    /// names its string literally and a new case does not compile until it has one; renaming a case changes nothing.
    /// A case moved from a sentence to facts keeps the code the sentence had. `usage` is exit 64, the rest exit 2.
    package var jsonCode: String {
        switch self {
        case .io, .call, .file: return "io"
        case .changed: return "file-changed"
        case .folderLocked: return "locked"
        case .commandFailed: return "command-failed"
        case .library: return "library-failed"
        case .fileTooLarge, .manifest, .buildManifest, .http, .network, .refused, .ipa, .xcode, .thin, .upload,
            .inputRoot, .output, .buildFolder, .buildInput:
            return "unusable-input"
        case .unbuildable: return "unbuildable"
        case .usage: return "usage"
        }
    }

    /// The errno of a failed system call, for a caller that acts on it (a missing file, a full disk); nil for the
    /// kinds that have none.
    package var systemError: SystemError? {
        switch self {
        case .io(_, _, let error), .call(_, let error), .manifest(.currentFolderUnnamed(let error)):
            return error
        default: return nil
        }
    }

    /// The path a failed file-system call or read was about, when the error holds it apart as a `FilePath`.
    package var path: FilePath? {
        switch self {
        case .io(_, let path, _), .fileTooLarge(_, let path, _), .buildManifest(.missing(let path)),
            .buildManifest(.notABuildFolder(let path)):
            return path
        default: return nil
        }
    }
}
