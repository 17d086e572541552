import Foundation
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// The App Store Connect API as `upload` speaks it (SPEC 13.2): JSON:API requests with the bearer token, and the
/// presigned part uploads without it, each retried as docs/store.md#failures says. Every failure it gives up on is
/// exit 2 naming the pack, the method and the path (never a presigned URL's query) and App Store Connect's
/// `errors[].code` and `detail`.
final class AppStoreConnectClient: Sendable {
    let base: APIBaseURL
    let timing: UploadTiming
    private let token: APIToken
    private let transport: HTTPTransport
    /// `--jobs`: requests in flight at once, API calls and parts together.
    private let slots: DispatchSemaphore
    /// A dry run sends GET requests only; anything else is refused here, before it leaves.
    private let readOnly: Bool
    let userAgent = "odrpack/\(ToolVersion.current)"

    init(base: APIBaseURL, token: APIToken, timing: UploadTiming, jobs: Int, readOnly: Bool) {
        self.base = base
        self.token = token
        self.timing = timing
        self.readOnly = readOnly
        transport = HTTPTransport(timeout: timing.requestTimeout)
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
            let result = send(method: method, url: url, headers: headers, body: bodyData)
            switch result {
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
                try retry(&retries, what: what, cause: Self.describe(failure), waiting: nil)
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

    /// One item of `uploadOperations`: its method, URL and headers, the bytes as body, no `Authorization`.
    func sendPart(_ operation: UploadOperation, body: Data, pack: String) throws -> PartOutcome {
        guard let url = URL(string: operation.url), let scheme = url.scheme?.lowercased(),
            scheme == "https" || (scheme == "http" && url.host.map(APIBaseURL.isLoopback) == true)
        else {
            throw ODRPackError.unusableInput(
                "pack '\(pack)': App Store Connect gave an upload URL that is not https: refusing to send the archive")
        }
        let what = Self.describe(pack: pack, method: operation.method, url: url)
        var headers = operation.headers.filter { $0.name.lowercased() != "authorization" }
        if !headers.contains(where: { $0.name.lowercased() == "user-agent" }) {
            headers.append(("User-Agent", userAgent))
        }
        var retries = 0
        while true {
            if operation.hasExpired() { return .expired }
            switch send(method: operation.method, url: url, headers: headers, body: body) {
            case .success(let response) where (200..<300).contains(response.status):
                return .sent
            case .success(let response) where response.status == 403 && operation.hasExpired(margin: -5):
                return .expired
            case .success(let response) where Self.isRetryable(response.status):
                try retry(&retries, what: what, cause: "\(response.status)", waiting: retryAfter(response))
            case .success(let response):
                throw ODRPackError.unusableInput(Self.failureMessage(what: what, response: response))
            case .failure(let failure):
                try retry(&retries, what: what, cause: Self.describe(failure), waiting: nil)
            }
        }
    }

    // MARK: Retries

    private func send(method: String, url: URL, headers: [(name: String, value: String)], body: Data?) -> Result<
        HTTPTransport.Response, HTTPTransport.Failure
    > {
        slots.wait()
        defer { slots.signal() }
        return transport.send(method: method, url: url, headers: headers, body: body)
    }

    static func isRetryable(_ status: Int) -> Bool { [429, 500, 502, 503, 504].contains(status) }

    private func retryAfter(_ response: HTTPTransport.Response) -> Double? {
        response.status == 429 ? UploadTiming.retryAfter(response.headers["retry-after"]) : nil
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

    private static func describe(_ failure: HTTPTransport.Failure) -> String {
        switch failure {
        case .timedOut: return "timed out"
        case .dropped(let reason): return "connection lost: \(reason)"
        }
    }

    /// `<what> answered 409: ENTITY_ERROR.ATTRIBUTE.INVALID: detail` for each of `errors[]`.
    static func failureMessage(what: String, response: HTTPTransport.Response) -> String {
        let document = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
        let errors = (document?["errors"] as? [[String: Any]] ?? []).map { error -> String in
            let code = error["code"] as? String ?? "?"
            let detail = error["detail"] as? String ?? error["title"] as? String ?? ""
            return detail.isEmpty ? code : "\(code): \(detail)"
        }
        var message = "\(what) answered \(response.status)"
        if !errors.isEmpty { message += ": " + errors.joined(separator: "; ") }
        if response.status == 401 {
            message += " (the API key was refused twice: check --key-id, --issuer-id and the private key)"
        } else if response.status == 403 {
            message += " (the API key's role may not be allowed to manage background assets)"
        }
        return message
    }

    /// RFC 3986 unreserved characters and `,` (App Store Connect's list separator) stay; the rest is encoded.
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~,")
        allowed.remove(charactersIn: "")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
