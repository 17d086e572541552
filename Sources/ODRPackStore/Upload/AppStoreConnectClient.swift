import Foundation
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// The App Store Connect API as `upload` speaks it (docs/store.md#upload): JSON:API requests with the bearer token,
/// and the presigned part uploads without it, each retried as docs/store.md#failures says. Every failure it gives up on is
/// exit 2 naming the pack, the method and the path (never a presigned URL's query) and App Store Connect's
/// `errors[].code` and `detail`.
final class AppStoreConnectClient: Sendable {
    let base: APIBaseURL
    let timing: UploadTiming
    private let token: APIToken
    private let transport: any HTTPTransport
    /// `--jobs`: requests in flight at once, API calls and parts together.
    private let slots: DispatchSemaphore
    /// A dry run sends GET requests only; anything else is refused here, before it leaves.
    private let readOnly: Bool
    /// `--verbose`: each request as sent and as answered (docs/store.md#output), never a header value.
    private let verbose: (@Sendable (String) -> Void)?
    let userAgent = "odrpack/\(ToolVersion.current)"

    init(
        base: APIBaseURL, token: APIToken, timing: UploadTiming, jobs: Int, readOnly: Bool,
        transport: any HTTPTransport, verbose: (@Sendable (String) -> Void)? = nil
    ) {
        self.base = base
        self.token = token
        self.timing = timing
        self.readOnly = readOnly
        self.transport = transport
        self.verbose = verbose
        slots = DispatchSemaphore(value: max(1, jobs))
    }

    /// What a failed request was, for messages: `pack 'x': POST /v1/backgroundAssetVersions`.
    static func describe(pack: String?, method: String, url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var address = components?.path ?? ""
        if let scheme = components?.scheme, let host = components?.host, pack == nil || !address.hasPrefix("/v1/") {
            address = "\(scheme)://\(host)\(components?.port.map { ":\($0)" } ?? "")\(address)"
        }
        return (pack.map { "pack '\($0)': " } ?? "") + method + " " + address
    }

    // MARK: API requests

    /// An API request: `path` below the base URL (or an absolute `links.next` of this API), `query` percent-encoded
    /// here, `body` as JSON with `Content-Type: application/json`. Returns the response document.
    func request(
        _ method: String, _ path: String, query: [(String, String)] = [], body: JSONValue? = nil, pack: String?
    ) throws -> [String: Any] {
        let url: URL
        if path.hasPrefix("/") {
            var components = URLComponents(string: base.text + path)
            if !query.isEmpty {
                components?.percentEncodedQuery = query.map { Self.encode($0.0) + "=" + Self.encode($0.1) }
                    .joined(separator: "&")
            }
            guard let made = components?.url else {
                throw ODRPackError.unusableInput("cannot make a URL of '\(base.text)\(path)'")
            }
            url = made
        } else {
            guard let next = URL(string: path), base.owns(next) else {
                throw ODRPackError.unusableInput(
                    "App Store Connect answered with a next page outside \(base.text): refusing to send the token there"
                )
            }
            url = next
        }
        guard !readOnly || method == "GET" else {
            throw ODRPackError.unusableInput("a dry run sends GET requests only, not \(method) \(url.path)")
        }
        let what = Self.describe(pack: pack, method: method, url: url)
        // The token goes to the API's own origin only (docs/store.md#trust-boundaries), whatever made this URL.
        guard base.owns(url) else {
            throw ODRPackError.unusableInput("\(what) is outside \(base.text): refusing to send the token there")
        }
        let bodyData = body.map { Data($0.serializedBytes()) }
        var rejectedToken: String?
        var renewed = false
        var retries = 0
        while true {
            let bearer = token.current(replacing: rejectedToken)
            var headers: [(name: String, value: String)] = [
                ("Authorization", "Bearer " + bearer), ("User-Agent", userAgent), ("Accept", "application/json"),
            ]
            if bodyData != nil { headers.append(("Content-Type", "application/json")) }
            let result = send(
                HTTPRequest(method: method, url: url, headers: headers, body: bodyData.map { .bytes($0) }))
            switch result {
            case .success(let response) where (300..<400).contains(response.status):
                throw ODRPackError.unusableInput(
                    """
                    \(what) answered \(response.status), a redirect: odrpack follows none, so that the API key's token \
                    goes to \(base.text) only; check --api (or ODRPACK_ASC_API)
                    """
                )
            case .success(let response) where (200..<300).contains(response.status):
                if response.body.isEmpty { return [:] }
                guard let document = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] else {
                    throw ODRPackError.unusableInput(
                        "\(what) answered \(response.status) with a body that is not a JSON object")
                }
                return document
            case .success(let response) where response.status == 401 && !renewed:
                renewed = true
                rejectedToken = bearer
                continue
            case .success(let response) where Self.isRetryable(response.status):
                try retry(&retries, what: what, cause: "\(response.status)", waiting: retryAfter(response))
            case .success(let response):
                throw ODRPackError.unusableInput(Self.failureMessage(what: what, response: response))
            case .failure(let failure):
                try retry(&retries, what: what, failure: failure)
            }
        }
    }

    /// Every resource of a collection, following `links.next` (App Store Connect pages at most 200 a time).
    func collection(_ path: String, query: [(String, String)], pack: String?) throws -> [[String: Any]] {
        var resources: [[String: Any]] = []
        var document = try request("GET", path, query: query, pack: pack)
        var pages = 1
        while true {
            resources += document["data"] as? [[String: Any]] ?? []
            guard let next = (document["links"] as? [String: Any])?["next"] as? String, !next.isEmpty, pages < 1000
            else { return resources }
            document = try request("GET", next, pack: pack)
            pages += 1
        }
    }

    // MARK: Presigned part uploads

    enum PartOutcome {
        case sent
        /// The URL's `expiration` has passed (by this clock, or the server said 403 after it): reserve again.
        case expired
    }

    /// One item of `uploadOperations`: its method, URL and headers, no `Authorization`, and as body `length` bytes of
    /// the open archive `descriptor` from `offset`, streamed (docs/store.md#trust-boundaries). A redirect is a failed
    /// part, retried as any other failure and never counted as sent.
    func sendPart(_ operation: UploadOperation, descriptor: Int32, pack: String) throws -> PartOutcome {
        guard let url = URL(string: operation.url), let scheme = url.scheme?.lowercased(),
            scheme == "https" || (scheme == "http" && url.host.map(APIBaseURL.isLoopback) == true)
        else {
            throw ODRPackError.unusableInput(
                "pack '\(pack)': App Store Connect gave an upload URL that is not https: refusing to send the archive")
        }
        let what = Self.describe(pack: pack, method: operation.method, url: url)
        // A line break or NUL in a header would let the server's answer write more headers (or cut one short).
        guard
            !operation.headers.contains(where: { header in
                (header.name + header.value).unicodeScalars.contains {
                    $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F
                }
            })
        else {
            throw ODRPackError.unusableInput(
                "pack '\(pack)': App Store Connect gave an upload header holding a control character: refusing to send it"
            )
        }
        var headers = operation.headers.filter { $0.name.lowercased() != "authorization" }
        if !headers.contains(where: { $0.name.lowercased() == "user-agent" }) {
            headers.append(("User-Agent", userAgent))
        }
        let request = HTTPRequest(
            method: operation.method, url: url, headers: headers,
            body: .file(descriptor: descriptor, offset: operation.offset, length: operation.length))
        var retries = 0
        while true {
            if operation.hasExpired() { return .expired }
            switch send(request) {
            case .success(let response) where (300..<400).contains(response.status):
                try retry(&retries, what: what, cause: "redirected (\(response.status)), not followed", waiting: nil)
            case .success(let response) where (200..<300).contains(response.status):
                return .sent
            case .success(let response) where response.status == 403 && operation.hasExpired(margin: -5):
                return .expired
            case .success(let response) where Self.isRetryable(response.status):
                try retry(&retries, what: what, cause: "\(response.status)", waiting: retryAfter(response))
            case .success(let response):
                throw ODRPackError.unusableInput(Self.failureMessage(what: what, response: response))
            case .failure(let failure):
                try retry(&retries, what: what, failure: failure)
            }
        }
    }

    // MARK: Retries

    private func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPFailure> {
        slots.wait()
        defer { slots.signal() }
        // The API's requests by path, a part by origin and path: never a query (a presigned URL's is a credential).
        let what =
            base.owns(request.url)
            ? "\(request.method) \(request.url.path)"
            : Self.describe(pack: nil, method: request.method, url: request.url)
        verbose?("> \(what)")
        let start = DispatchTime.now().uptimeNanoseconds
        let result = transport.send(request)
        if let verbose {
            let seconds = Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9
            let time = String(format: "%.3f s", seconds)
            switch result {
            case .success(let response):
                let errors = response.status >= 400 ? Self.errors(in: response.body) : []
                verbose(
                    "< \(response.status) \(what) (\(time))"
                        + (errors.isEmpty ? "" : ": " + errors.joined(separator: "; ")))
            case .failure(let failure):
                verbose("< \(Self.describe(failure)) \(what) (\(time))")
            }
        }
        return result
    }

    static func isRetryable(_ status: Int) -> Bool { [429, 500, 502, 503, 504].contains(status) }

    private func retryAfter(_ response: HTTPResponse) -> Double? {
        response.status == 429 ? UploadTiming.retryAfter(response.headers["retry-after"]) : nil
    }

    /// A failure with no response: a time-out or a dropped connection is retried; an answer over the limit, an
    /// archive that cannot be read, or no libcurl ends the run.
    private func retry(_ retries: inout Int, what: String, failure: HTTPFailure) throws {
        switch failure {
        case .timedOut, .dropped:
            try retry(&retries, what: what, cause: Self.describe(failure), waiting: nil)
        case .tooLarge:
            throw ODRPackError.unusableInput(
                """
                \(what) answered with more than \(HTTPResponse.bodyLimit >> 20) MiB, which no App Store Connect answer \
                holds: the transfer was stopped; check --api (or ODRPACK_ASC_API) and the network between
                """
            )
        case .unreadable(let reason):
            throw ODRPackError.unusableInput("\(what): \(reason): check the build folder, and run upload again")
        case .unavailable:
            throw ODRPackError.unusableInput(CurlLibrary.missingMessage)
        }
    }

    /// Waits before the next retry, or gives up after the fifth.
    private func retry(_ retries: inout Int, what: String, cause: String, waiting: Double?) throws {
        retries += 1
        guard retries <= UploadTiming.maximumRetries else {
            throw ODRPackError.unusableInput(
                """
                \(what) failed \(retries) times (last: \(cause)): App Store Connect or the network is not answering; \
                run upload again later, it continues where this run stopped
                """
            )
        }
        timing.sleep(waiting ?? timing.backoff(retry: retries))
    }

    private static func describe(_ failure: HTTPFailure) -> String {
        switch failure {
        case .timedOut: return "timed out"
        case .dropped(let reason): return "connection lost: \(reason)"
        case .tooLarge: return "an answer over \(HTTPResponse.bodyLimit >> 20) MiB"
        case .unreadable(let reason): return reason
        case .unavailable: return CurlLibrary.missingMessage
        }
    }

    /// `<what> answered 409: ENTITY_ERROR.ATTRIBUTE.INVALID: detail` for each of `errors[]`.
    static func failureMessage(what: String, response: HTTPResponse) -> String {
        let errors = errors(in: response.body)
        var message = "\(what) answered \(response.status)"
        if !errors.isEmpty { message += ": " + errors.joined(separator: "; ") }
        if response.status == 401 {
            message += " (the API key was refused twice: check --key-id, --issuer-id and the private key)"
        } else if response.status == 403 {
            message += " (the API key's role may not be allowed to manage background assets)"
        }
        return message
    }

    /// App Store Connect's `errors[]` in a response body, each `code: detail`; none when the body is not its JSON.
    static func errors(in body: Data) -> [String] {
        let document = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        return (document?["errors"] as? [[String: Any]] ?? []).map { error -> String in
            let code = error["code"] as? String ?? "?"
            let detail = error["detail"] as? String ?? error["title"] as? String ?? ""
            return detail.isEmpty ? code : "\(code): \(detail)"
        }
    }

    /// RFC 3986 unreserved characters and `,` (App Store Connect's list separator) stay; the rest is encoded.
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~,")
        allowed.remove(charactersIn: "")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
