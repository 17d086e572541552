/// Why `upload`, `submit` or `status` cannot go on (docs/store.md#upload, #submit, #status), as a fact of
/// `ODRPackError.upload`: the build's packs and archives, the upload record, and what App Store Connect answered or
/// lacks, apart from a failed request (`http`, `network`, `refused`). Each is exit 2 and `unusable-input`, the code
/// these failures had as sentences.
package enum UploadFailure: Sendable, Equatable, CustomStringConvertible {
    /// libcurl could not be opened: `upload` says what to install (docs/store.md#libcurl).
    case curlMissing
    /// The upload record (`path`) could not be read: the errno the system gave.
    case recordUnreadable(FilePath, SystemError)
    /// The upload record (`path`) is not one odrpack wrote: trusting it could send a pack twice or skip one.
    case recordDamaged(FilePath)
    /// App Store Connect has no app with the build's bundle id that the API key can see.
    case noApp(bundleID: String)
    /// An asset pack id holds characters App Store Connect rejects (an odrpack older than its rule built it).
    case assetPackIDCharacters(String)
    /// A pack's archive is not the one the build manifest records: its size or SHA-256 differs.
    case archiveNotBuilt(FilePath)
    /// A pack's archive is empty, which App Store Connect does not take.
    case archiveEmpty(FilePath)
    /// A pack's archive does not start as an Apple Archive (`AppleArchiveSignature`).
    case notAppleArchive(pack: String, path: FilePath)
    /// No URL can be made of the API's base and a request's path.
    case unmakeableURL(base: String, path: String)
    /// App Store Connect answered a request without the resource it returns: which (`version`, `review submission`),
    /// and the pack the request was for, nil for none.
    case missingResource(String, pack: String?)
    /// A pack's upload URLs expired `times` times before its parts were sent.
    case uploadURLsExpired(pack: String, times: Int)
    /// App Store Connect's upload operations for a pack do not cover its archive's `bytes` exactly once.
    case operationsUncovered(pack: String, bytes: Int64)
    /// App Store Connect has this asset pack id archived, for good.
    case assetPackIDArchived(String)
    /// `submit`: these pack versions are not COMPLETE, so nothing was submitted.
    case notComplete([UnfinishedVersion])

    /// A pack version `submit` found not COMPLETE: its pack, its version and its state as App Store Connect gave
    /// them (nil where it gave none).
    package struct UnfinishedVersion: Sendable, Equatable {
        package var pack: String
        package var version: String?
        package var state: String?

        package init(pack: String, version: String?, state: String?) {
            self.pack = pack
            self.version = version
            self.state = state
        }
    }

    package var description: String {
        switch self {
        case .curlMissing: return "upload needs libcurl: install libcurl4 (Debian, Ubuntu) or curl (Fedora, Alpine)"
        case .recordUnreadable(let path, let error): return "cannot read '\(path.text)': \(error.reason)"
        case .recordDamaged(let path):
            return """
                '\(path.text)' is not an odrpack upload record: move it away, and run upload again (it asks App Store \
                Connect)
                """
        case .noApp(let bundleID):
            return """
                App Store Connect has no app with bundle id '\(bundleID)' that this API key can see: \
                pass --app APPLE_ID (the app's Apple ID, App Information in App Store Connect)
                """
        case .assetPackIDCharacters(let id):
            return """
                asset pack id '\(id)' holds characters other than A-Z a-z 0-9 -, which App Store Connect rejects: \
                build again with this odrpack, which makes ids of those characters only
                """
        case .archiveNotBuilt(let path):
            return """
                '\(path.text)' is not the archive the build wrote (its size or SHA-256 differs): run odrpack verify, \
                and build again
                """
        case .archiveEmpty(let path):
            return "'\(path.text)' is empty: App Store Connect takes no empty archive; build again"
        case .notAppleArchive(let pack, let path):
            return "pack '\(pack)': '\(path.text)' is not an Apple Archive: was it made by Apple's ba-package?"
        case .unmakeableURL(let base, let path): return "cannot make a URL of '\(base)\(path)'"
        case .missingResource(let what, let pack):
            return (pack.map { "pack '\($0)': " } ?? "")
                + "App Store Connect answered without the \(what) it should return"
        case .uploadURLsExpired(let pack, let times):
            return """
                pack '\(pack)': App Store Connect's upload URLs expired \(times) times before the parts were sent: \
                check this machine's clock, and run upload again
                """
        case .operationsUncovered(let pack, let bytes):
            return
                "pack '\(pack)': App Store Connect's upload operations do not cover the archive's \(bytes) bytes once"
        case .assetPackIDArchived(let id):
            return """
                pack '\(id)': App Store Connect has this asset pack id archived, and archiving is permanent: rename one \
                of the pack's tags to get a new id, then build and upload again
                """
        case .notComplete(let versions):
            let list = versions.map {
                "pack '\($0.pack)': version \($0.version ?? "?") is \($0.state ?? "in no state")"
            }
            return """
                \(list.joined(separator: "; ")), not COMPLETE: App Review takes processed versions only, and \
                nothing was submitted; wait for processing (odrpack status BUILD_DIR --until complete), then submit again
                """
        }
    }
}
