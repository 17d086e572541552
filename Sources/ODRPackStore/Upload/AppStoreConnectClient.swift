import Foundation
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// The App Store Connect API as `upload` speaks it (docs/store.md#upload): JSON:API requests with the bearer token,
/// and the presigned part uploads without it. What happens to each request on its way is a middleware's
/// (HTTPPipeline): the dry run's GET-only rule, the one retry policy (docs/store.md#failures), the token, `--jobs`'
/// limit and `--verbose`; the transport only carries bytes. What is left here is making the request and judging the
/// answer: every failure it gives up on is exit 2 naming the pack, the method and the path (never a presigned URL's
/// query) and App Store Connect's `errors[].code` and `detail`.
final class AppStoreConnectClient: Sendable {
    let base: APIBaseURL
    /// Every wait (retries, `--wait`) and every expiry check reads this clock.
    let clock: any UploadClock
    private let api: HTTPPipeline
    /// The layers a part shares with the API's requests; its own rules (PresignedPartMiddleware) go between.
    private let retry: RetryMiddleware
    private let sharedLayers: [any HTTPMiddleware]
    private let transport: any HTTPTransport
    let userAgent = "odrpack/\(ToolVersion.current)"

    /// - Parameters:
    ///   - readOnly: a dry run: GET requests only (ReadOnlyMiddleware).
    ///   - verbose: `--verbose`'s lines (RequestLogMiddleware).
    init(
        base: APIBaseURL, token: APIToken, clock: any UploadClock, jobs: Int, readOnly: Bool,
        transport: any HTTPTransport, verbose: (@Sendable (String) -> Void)? = nil
    ) {
        self.base = base
        self.clock = clock
        self.transport = transport
        retry = RetryMiddleware(clock: clock)
        var shared: [any HTTPMiddleware] = [ConcurrencyLimitMiddleware(jobs: jobs)]
        if let verbose { shared.append(RequestLogMiddleware(base: base, note: verbose)) }
        sharedLayers = shared
        let guardLayers: [any HTTPMiddleware] = readOnly ? [ReadOnlyMiddleware()] : []
        api = HTTPPipeline(
            middlewares: guardLayers + [retry, AuthenticationMiddleware(base: base, token: token)] + shared,
            transport: transport)
    }

    /// What a failed request was, as its error carries it: `pack 'x': POST /v1/backgroundAssetVersions`.
    static func describe(pack: String?, method: String, url: URL) -> StoreRequest {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var address = components?.path ?? ""
        if let scheme = components?.scheme, let host = components?.host, pack == nil || !address.hasPrefix("/v1/") {
            address = "\(scheme)://\(host)\(components?.port.map { ":\($0)" } ?? "")\(address)"
        }
        return StoreRequest(pack: pack, method: method, address: address)
    }

    // MARK: API requests

    /// An API request: `path` below the base URL (or an absolute `links.next` of this API), `query` percent-encoded
    /// here, `body` as JSON with `Content-Type: application/json`. Returns the response document, its `data` decoded
    /// as `Resource` (nil for an empty body).
    func request<Resource: Decodable>(
        _ method: String, _ path: String, query: [(String, String)] = [], body: JSONValue? = nil, pack: String?,
        returning: Resource.Type
    ) throws -> APIDocument<Resource> {
        let url = try url(path, query: query)
        let what = Self.describe(pack: pack, method: method, url: url)
        let bodyData = body.map { Data($0.serializedBytes()) }
        var headers: [(name: String, value: String)] = [("User-Agent", userAgent), ("Accept", "application/json")]
        if bodyData != nil { headers.append(("Content-Type", "application/json")) }
        let request = HTTPRequest(method: method, url: url, headers: headers, body: bodyData.map { .bytes($0) })
        let response = try Self.answer(api.send(request, what: what), what: what)
        if (300..<400).contains(response.status) {
            throw ODRPackError.network(what, .redirected(status: response.status, base: base.text))
        }
        guard (200..<300).contains(response.status) else {
            throw Self.failure(what, response)
        }
        if response.body.isEmpty { return APIDocument() }
        guard let document = try? JSONDecoder().decode(APIDocument<Resource>.self, from: response.body) else {
            throw ODRPackError.network(what, .notJSON(status: response.status))
        }
        return document
    }

    /// Every resource of a collection that decodes as `Resource`, following `links.next` (App Store Connect pages
    /// at most 200 a time; at most 1000 pages).
    func collection<Resource: Decodable>(
        _ path: String, query: [(String, String)], pack: String?, of: Resource.Type
    ) throws -> [Resource] {
        var resources: [Resource] = []
        var document = try request("GET", path, query: query, pack: pack, returning: LossyList<Resource>.self)
        var pages = 1
        while true {
            resources += document.data?.elements ?? []
            guard let next = document.next, !next.isEmpty, pages < 1000 else { return resources }
            document = try request("GET", next, pack: pack, returning: LossyList<Resource>.self)
            pages += 1
        }
    }

    /// `path` below the base URL with `query`, or an absolute `links.next`, which must be this API's: the token
    /// goes nowhere else (docs/store.md#trust-boundaries).
    private func url(_ path: String, query: [(String, String)]) throws -> URL {
        guard path.hasPrefix("/") else {
            guard let next = URL(string: path), base.owns(next) else {
                throw ODRPackError.refused(.nextPageOutside(base: base.text))
            }
            return next
        }
        var components = URLComponents(string: base.text + path)
        if !query.isEmpty {
            components?.percentEncodedQuery = query.map { Self.encode($0.0) + "=" + Self.encode($0.1) }
                .joined(separator: "&")
        }
        guard let made = components?.url else {
            throw ODRPackError.upload(.unmakeableURL(base: base.text, path: path))
        }
        return made
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
            throw ODRPackError.refused(.partURLNotHTTPS(pack: pack))
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
            throw ODRPackError.refused(.partHeaderControlCharacter(pack: pack))
        }
        var headers = operation.headers.filter { $0.name.lowercased() != "authorization" }
        if !headers.contains(where: { $0.name.lowercased() == "user-agent" }) {
            headers.append(("User-Agent", userAgent))
        }
        let request = HTTPRequest(
            method: operation.method, url: url, headers: headers,
            body: .file(descriptor: descriptor, offset: operation.offset, length: operation.length))
        let part = HTTPPipeline(
            middlewares: [retry, PresignedPartMiddleware(operation: operation, clock: clock)] + sharedLayers,
            transport: transport)
        let response: HTTPResponse
        do {
            response = try Self.answer(part.send(request, what: what), what: what)
        } catch is UploadURLExpired {
            return .expired
        }
        guard (200..<300).contains(response.status) else {
            throw Self.failure(what, response)
        }
        return .sent
    }

    // MARK: Answers

    /// The response, or exit 2 for a failure the retry policy does not retry (or one left after it gave up): an
    /// answer over the limit, an archive that cannot be read, no libcurl.
    private static func answer(_ result: HTTPResult, what: StoreRequest) throws -> HTTPResponse {
        switch result {
        case .success(let response):
            return response
        case .failure(.tooLarge):
            throw ODRPackError.network(what, .answerTooLarge(limit: HTTPResponse.bodyLimit))
        case .failure(.headersTooLarge(let limit)):
            throw ODRPackError.network(what, .headersTooLarge(limit: limit))
        case .failure(.unreadable(let reason)):
            throw ODRPackError.network(what, .unreadablePart(reason))
        case .failure(.unavailable):
            throw ODRPackError.upload(.curlMissing)
        case .failure(let failure):
            throw ODRPackError.network(what, .failed(failure.reason))
        }
    }

    /// A failure status the client gives up on: the request, the status, and App Store Connect's `errors[]`.
    static func failure(_ what: StoreRequest, _ response: HTTPResponse) -> ODRPackError {
        .http(what, status: response.status, appleErrors: APIErrors.items(in: response.body))
    }

    /// RFC 3986 unreserved characters and `,` (App Store Connect's list separator) stay; the rest is encoded.
    static func encode(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~,")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
