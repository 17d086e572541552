/// Why `build` cannot go on with what it was given (docs/background-assets.md, docs/build-output.md), as a fact of
/// `ODRPackError.buildInput`: the published download manifest (`--published`), a pack's version or sizes. Each is
/// exit 2 and `unusable-input`, the code these failures had as sentences.
package enum BuildInputFailure: Sendable, Equatable, CustomStringConvertible {
    /// The published download manifest cannot be read: the errno the system gave.
    case publishedUnreadable(FilePath, SystemError)
    /// The published download manifest is not JSON.
    case publishedNotJSON(FilePath)
    /// The published download manifest is JSON but not a download manifest: the reader's words for what is wrong.
    case publishedNotADownloadManifest(FilePath, problem: String)
    /// A pack (its asset pack id) is at the largest version there is and needs a newer one.
    case versionExhausted(pack: String, version: Int64)
    /// The files of a pack add up to more bytes than Int64 holds.
    case sizeOverflow

    package var description: String {
        switch self {
        case .publishedUnreadable(let path, let error):
            return "cannot read the published download manifest '\(path.text)': \(error.reason)"
        case .publishedNotJSON(let path):
            return """
                '\(path.text)' is not valid JSON: pass the download-manifest.json that is live on the server \
                (--published)
                """
        case .publishedNotADownloadManifest(let path, let problem):
            return """
                '\(path.text)' is not a Background Assets download manifest: \(problem); pass the \
                download-manifest.json that is live on the server
                """
        case .versionExhausted(let pack, let version):
            return """
                pack '\(pack)' is at version \(version), the largest there is: it cannot get a newer one; use new \
                tags for new content
                """
        case .sizeOverflow:
            return "the files of a pack add up to more than \(Int64.max) bytes [size-overflow]: check for sparse files"
        }
    }
}
