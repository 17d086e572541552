/// A request of the store commands as their messages name it (docs/store.md#failures): the pack it was for, its
/// method, and its address: the path below the API (`pack 'x': POST /v1/backgroundAssetVersions`), or
/// `scheme://host[:port]/path` for a request without a pack or to another host; never a presigned URL's query.
/// A fact of `ODRPackError.http` and `.network`, so that a caller or a test reads the request rather than parse it.
package struct StoreRequest: Sendable, Equatable, CustomStringConvertible {
    package var pack: String?
    package var method: String
    package var address: String

    package init(pack: String? = nil, method: String, address: String) {
        self.pack = pack
        self.method = method
        self.address = address
    }

    package var description: String { (pack.map { "pack '\($0)': " } ?? "") + method + " " + address }
}

/// One item of App Store Connect's `errors[]` (docs/store.md#failures): its `code`, and its `detail` (or its `title`
/// when there is no detail); each is nil where the answer had none or had no string.
package struct AppleAPIError: Sendable, Equatable, CustomStringConvertible {
    package var code: String?
    package var detail: String?

    package init(code: String?, detail: String?) {
        self.code = code
        self.detail = detail
    }

    /// `code: detail`, or the code alone; `?` for a missing code.
    package var description: String {
        let text = detail ?? ""
        return text.isEmpty ? (code ?? "?") : "\(code ?? "?"): \(text)"
    }
}

/// Why a store request got no answer the client can judge (`ODRPackError.network`).
package enum NetworkFailure: Sendable, Equatable {
    /// The retry policy gave up after `attempts` sends; `lastCause` is the last one's status or the transport's
    /// words (`503`, `timed out`, `redirected (307), not followed`).
    case gaveUp(attempts: Int, lastCause: String)
    /// An API request was answered with a redirect, which odrpack never follows: the token goes to `base` only.
    case redirected(status: Int, base: String)
    /// A success whose body is not a JSON object.
    case notJSON(status: Int)
    /// The body passed this many bytes, and the transfer was stopped.
    case answerTooLarge(limit: Int)
    /// The header block passed this many bytes, and the transfer was stopped.
    case headersTooLarge(limit: Int)
    /// A part's bytes could not be read from the archive: the reader's words.
    case unreadablePart(String)
    /// Another failure of the transport, in its words.
    case failed(String)
}

/// A request the store client refuses to send, or an answer it refuses to follow (docs/store.md#trust-boundaries).
package enum StoreRefusal: Sendable, Equatable {
    /// A `links.next` outside the API's base URL: the token would go there.
    case nextPageOutside(base: String)
    /// A request for the token outside the API's base URL (`AuthenticationMiddleware`).
    case tokenOutside(StoreRequest, base: String)
    /// A presigned part URL that is not https (nor http to loopback).
    case partURLNotHTTPS(pack: String)
    /// A presigned part header holding a control character.
    case partHeaderControlCharacter(pack: String)
    /// A dry run asked for a request other than GET.
    case dryRunWrite(method: String, path: String)
}
