import Foundation
import ODRPackPlatform
import Testing

@testable import ODRPackStore

/// The client's rules with a scripted transport and a fake clock, in-process (docs/store.md#failures,
/// #trust-boundaries): retries and their exact waits, `Retry-After`, the 401 renewal, redirects, expiry, and where the
/// token goes. The stand-in tests (UploadFailureTests, UploadTrustTests) run the same rules end to end over libcurl.
@Suite struct AppStoreConnectClientTests {
    /// Answers each request with the next item of its script (the last one again when the script runs out) and
    /// records every request.
    final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var script: [Result<HTTPResponse, HTTPFailure>]
        private(set) var sent: [HTTPRequest] = []

        init(_ script: [Result<HTTPResponse, HTTPFailure>]) { self.script = script }

        func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPFailure> {
            lock.lock()
            defer { lock.unlock() }
            sent.append(request)
            return script.count > 1 ? script.removeFirst() : script[0]
        }

        var requests: [HTTPRequest] {
            lock.lock()
            defer { lock.unlock() }
            return sent
        }
    }

    static func client(_ transport: ScriptedTransport, clock: FakeUploadClock, readOnly: Bool = false) throws
        -> AppStoreConnectClient
    {
        let (key, _) = UploadRulesTests.key()
        return AppStoreConnectClient(
            base: try APIBaseURL("http://127.0.0.1:8080"), token: APIToken(key: key), clock: clock, jobs: 2,
            readOnly: readOnly, transport: transport)
    }

    /// `GET /v1/apps`, its answer not read.
    static func get(_ client: AppStoreConnectClient, pack: String? = nil) throws {
        _ = try client.request("GET", "/v1/apps", pack: pack, returning: IgnoredResource.self)
    }

    static func seconds(_ values: Int...) -> [Duration] { values.map { .seconds($0) } }

    static func answer(_ status: Int, headers: [String: String] = [:], body: String = "") -> Result<
        HTTPResponse, HTTPFailure
    > {
        .success(HTTPResponse(status: status, headers: headers, body: Data(body.utf8)))
    }

    static let ok = answer(200, body: #"{"data": []}"#)

    static func operation(
        url: String = "https://bucket.example/part/1?X-Amz-Signature=secret", expiresIn: Double = 3600
    )
        -> UploadOperation
    {
        UploadOperation(
            method: "PUT", url: url, offset: 0, length: 4, headers: [("Content-Type", "application/octet-stream")],
            expiration: Date().addingTimeInterval(expiresIn))
    }

    static let apps = StoreRequest(method: "GET", address: "http://127.0.0.1:8080/v1/apps")
    static let part = StoreRequest(pack: "p", method: "PUT", address: "https://bucket.example/part/1")

    @Test func transientFailuresBackOff1248And16ThenExit2() throws {
        let transport = ScriptedTransport([Self.answer(503)])
        let clock = FakeUploadClock()
        let client = try Self.client(transport, clock: clock)
        #expect(
            ODRPackError.thrown { try Self.get(client) } == .network(Self.apps, .gaveUp(attempts: 6, lastCause: "503")))
        #expect(transport.requests.count == 6)
        #expect(clock.sleeps == Self.seconds(1, 2, 4, 8, 16))
    }

    @Test func everyRetryableFailureIsRetriedOnceEach() throws {
        for failure: Result<HTTPResponse, HTTPFailure> in [
            Self.answer(429), Self.answer(500), Self.answer(502), Self.answer(503), Self.answer(504),
            .failure(.timedOut), .failure(.dropped("reset")),
        ] {
            let transport = ScriptedTransport([failure, Self.ok])
            let clock = FakeUploadClock()
            try Self.get(Self.client(transport, clock: clock))
            #expect(transport.requests.count == 2, "\(failure)")
            #expect(clock.sleeps == Self.seconds(1), "\(failure)")
        }
    }

    @Test func retryAfterIsObeyedOn429Only() throws {
        let transport = ScriptedTransport([
            Self.answer(429, headers: ["retry-after": "7"]), Self.answer(503, headers: ["retry-after": "9"]), Self.ok,
        ])
        let clock = FakeUploadClock()
        try Self.get(Self.client(transport, clock: clock))
        #expect(clock.sleeps == Self.seconds(7, 2))
    }

    @Test func a401IsRetriedOnceWithANewToken() throws {
        let transport = ScriptedTransport([Self.answer(401), Self.ok])
        let clock = FakeUploadClock()
        try Self.get(Self.client(transport, clock: clock))
        let tokens = transport.requests.map { $0.headers.first { $0.name == "Authorization" }?.value }
        #expect(tokens.count == 2 && tokens[0] != nil && tokens[1] != nil)
        #expect(clock.sleeps.isEmpty)

        let refused = ScriptedTransport([Self.answer(401)])
        #expect(
            ODRPackError.thrown { try Self.get(Self.client(refused, clock: clock), pack: "p") }
                == .http(StoreRequest(pack: "p", method: "GET", address: "/v1/apps"), status: 401, appleErrors: []))
        #expect(refused.requests.count == 2)
    }

    @Test func aRedirectAnsweringAnAPIRequestIsExit2AndNeverFollowed() throws {
        for status in [301, 302, 303, 307, 308] {
            for method in ["GET", "POST", "PATCH"] {
                let transport = ScriptedTransport([
                    Self.answer(status, headers: ["location": "http://127.0.0.1:9/v1/apps"]), Self.ok,
                ])
                let clock = FakeUploadClock()
                let client = try Self.client(transport, clock: clock)
                let failure = ODRPackError.thrown {
                    _ = try client.request(
                        method, "/v1/backgroundAssets", body: method == "GET" ? nil : .object([]), pack: "p",
                        returning: IgnoredResource.self)
                }
                #expect(
                    failure
                        == .network(
                            StoreRequest(pack: "p", method: method, address: "/v1/backgroundAssets"),
                            .redirected(status: status, base: "http://127.0.0.1:8080")))
                #expect(transport.requests.map(\.url.absoluteString) == ["http://127.0.0.1:8080/v1/backgroundAssets"])
                #expect(clock.sleeps.isEmpty)
            }
        }
    }

    @Test func theTokenGoesToTheAPIOriginOnly() throws {
        // A next page on another port, another host, another scheme: refused before any request.
        for next in [
            "http://127.0.0.1:8081/v1/apps?cursor=1", "http://127.0.0.2:8080/v1/apps?cursor=1",
            "https://127.0.0.1:8080/v1/apps?cursor=1",
        ] {
            let transport = ScriptedTransport([
                Self.answer(200, body: #"{"data": [], "links": {"next": "\#(next)"}}"#)
            ])
            let failure = ODRPackError.thrown {
                _ = try Self.client(transport, clock: FakeUploadClock()).collection(
                    "/v1/apps", query: [], pack: nil, of: AppResource.self)
            }
            #expect(failure == .refused(.nextPageOutside(base: "http://127.0.0.1:8080")))
            #expect(transport.requests.count == 1)
        }
        // The same origin in another case is the same origin (RFC 3986).
        let same = ScriptedTransport([
            Self.answer(
                200,
                body:
                    #"{"data": [{"type": "apps", "id": "1"}], "links": {"next": "HTTP://127.0.0.1:8080/v1/apps?cursor=1"}}"#
            ),
            Self.answer(200, body: #"{"data": [{"type": "apps", "id": "2"}]}"#),
        ])
        let all = try Self.client(same, clock: FakeUploadClock()).collection(
            "/v1/apps", query: [], pack: nil, of: AppResource.self)
        #expect(all.map(\.id) == ["1", "2"])
        #expect(same.requests.allSatisfy { $0.headers.contains { $0.name == "Authorization" } })
    }

    @Test func aRedirectedPartIsAFailedPartSentAgainToItsOwnURL() throws {
        for status in [301, 302, 303, 307, 308] {
            let transport = ScriptedTransport([
                Self.answer(status, headers: ["location": "http://127.0.0.1:9/elsewhere"]), Self.answer(200),
            ])
            let clock = FakeUploadClock()
            let outcome = try Self.client(transport, clock: clock).sendPart(Self.operation(), descriptor: 3, pack: "p")
            #expect(outcome == .sent)
            #expect(
                transport.requests.map(\.url.absoluteString)
                    == Array(
                        repeating: "https://bucket.example/part/1?X-Amz-Signature=secret", count: 2))
            #expect(transport.requests.allSatisfy { !$0.headers.contains { $0.name.lowercased() == "authorization" } })
            #expect(clock.sleeps == Self.seconds(1))
        }
        let always = ScriptedTransport([Self.answer(307)])
        let failure = ODRPackError.thrown {
            _ = try Self.client(always, clock: FakeUploadClock()).sendPart(Self.operation(), descriptor: 3, pack: "p")
        }
        // The part's origin and path, never its query (a presigned URL's is a credential).
        #expect(failure == .network(Self.part, .gaveUp(attempts: 6, lastCause: "redirected (307), not followed")))
    }

    @Test func aPartIsStreamedFromTheOpenFileAtItsRange() throws {
        let transport = ScriptedTransport([.failure(.dropped("reset")), Self.answer(200)])
        var operation = Self.operation()
        operation.offset = 100
        operation.length = 50
        _ = try Self.client(transport, clock: FakeUploadClock()).sendPart(operation, descriptor: 7, pack: "p")
        // One failure, one resend: never three.
        #expect(transport.requests.count == 2)
        for request in transport.requests {
            guard case .file(let descriptor, let offset, let length) = request.body else {
                Issue.record("a part sent as \(String(describing: request.body))")
                continue
            }
            #expect(descriptor == 7 && offset == 100 && length == 50)
        }
    }

    @Test func anExpiredPartURLIsNotSent() throws {
        let transport = ScriptedTransport([Self.answer(200)])
        let outcome = try Self.client(transport, clock: FakeUploadClock()).sendPart(
            Self.operation(expiresIn: -60), descriptor: 3, pack: "p")
        #expect(outcome == .expired)
        #expect(transport.requests.isEmpty)
    }

    @Test func aPartGoesOnlyToHTTPSOrLoopbackHTTP() throws {
        let transport = ScriptedTransport([Self.answer(200)])
        let failure = ODRPackError.thrown {
            _ = try Self.client(transport, clock: FakeUploadClock()).sendPart(
                Self.operation(url: "http://bucket.example/part/1"), descriptor: 3, pack: "p")
        }
        #expect(failure == .refused(.partURLNotHTTPS(pack: "p")))
        #expect(transport.requests.isEmpty)
        #expect(
            try Self.client(transport, clock: FakeUploadClock()).sendPart(
                Self.operation(url: "http://127.0.0.1:9/part/1"), descriptor: 3, pack: "p") == .sent)
    }

    @Test func anUploadHeaderWithALineBreakIsNotSent() throws {
        for value in ["a\r\nX-Injected: 1", "a\nb", "a\u{0}b"] {
            var operation = Self.operation()
            operation.headers.append(("X-Amz-Meta", value))
            let transport = ScriptedTransport([Self.answer(200)])
            let failure = ODRPackError.thrown {
                _ = try Self.client(transport, clock: FakeUploadClock()).sendPart(operation, descriptor: 3, pack: "p")
            }
            #expect(failure == .refused(.partHeaderControlCharacter(pack: "p")))
            #expect(transport.requests.isEmpty)
        }
    }

    @Test func anAnswerOver16MiBOrAMissingLibcurlIsExit2WithoutRetry() throws {
        let large = ScriptedTransport([.failure(.tooLarge)])
        let clock = FakeUploadClock()
        #expect(
            ODRPackError.thrown { try Self.get(Self.client(large, clock: clock)) }
                == .network(Self.apps, .answerTooLarge(limit: 16 << 20)))
        #expect(large.requests.count == 1 && clock.sleeps.isEmpty)
        let missing = ScriptedTransport([.failure(.unavailable("gone"))])
        #expect(
            ODRPackError.thrown { try Self.get(Self.client(missing, clock: clock)) }
                == .upload(.curlMissing))
    }

    @Test func aDryRunSendsNothingButGET() throws {
        let transport = ScriptedTransport([Self.ok])
        let failure = ODRPackError.thrown {
            _ = try Self.client(transport, clock: FakeUploadClock(), readOnly: true).request(
                "POST", "/v1/backgroundAssets", body: .object([]), pack: nil, returning: IgnoredResource.self)
        }
        #expect(failure == .refused(.dryRunWrite(method: "POST", path: "/v1/backgroundAssets")))
        #expect(transport.requests.isEmpty)
    }

    @Test func a429sRetryAfterIsWaitedExactlyAndCapped() throws {
        let transport = ScriptedTransport([Self.answer(429, headers: ["retry-after": "7"]), Self.ok])
        let clock = FakeUploadClock()
        try Self.get(Self.client(transport, clock: clock))
        #expect(clock.sleeps == Self.seconds(7))
        #expect(transport.requests.count == 2)
        // An HTTP-date is read against the clock; more than an hour is an hour; none (or nonsense) is the back-off.
        let dated = FakeUploadClock(now: Date(timeIntervalSince1970: 1_800_000_000))
        try Self.get(
            Self.client(
                ScriptedTransport([
                    Self.answer(429, headers: ["retry-after": "Fri, 15 Jan 2027 08:00:30 GMT"]),
                    Self.answer(429, headers: ["retry-after": "99999"]),
                    Self.answer(429, headers: ["retry-after": "soon"]),
                    Self.answer(429), Self.ok,
                ]), clock: dated))
        #expect(dated.sleeps == Self.seconds(30, 3600, 4, 8))
    }

    @Test func theBackOffCountsEveryRetryOfARequestWhateverItsCause() throws {
        let transport = ScriptedTransport([
            Self.answer(503), .failure(.timedOut), Self.answer(429, headers: ["retry-after": "0"]),
            .failure(.dropped("reset")), Self.answer(504), Self.ok,
        ])
        let clock = FakeUploadClock()
        try Self.get(Self.client(transport, clock: clock))
        #expect(clock.sleeps == Self.seconds(1, 2, 0, 8, 16))
        #expect(transport.requests.count == 6)
        // A second request starts its count afresh.
        let again = ScriptedTransport([Self.answer(502), Self.ok, Self.answer(502), Self.ok])
        let fresh = FakeUploadClock()
        let client = try Self.client(again, clock: fresh)
        try Self.get(client)
        try Self.get(client)
        #expect(fresh.sleeps == Self.seconds(1, 1))
    }

    @Test func anotherClientErrorIsTheAnswerWithoutRetry() throws {
        for status in [400, 403, 404, 405, 409, 413, 422] {
            let transport = ScriptedTransport([
                Self.answer(status, body: #"{"errors": [{"code": "ENTITY_ERROR", "detail": "no"}]}"#), Self.ok,
            ])
            let clock = FakeUploadClock()
            #expect(
                ODRPackError.thrown { try Self.get(Self.client(transport, clock: clock), pack: "p") }
                    == .http(
                        StoreRequest(pack: "p", method: "GET", address: "/v1/apps"), status: status,
                        appleErrors: [AppleAPIError(code: "ENTITY_ERROR", detail: "no")]))
            #expect(transport.requests.count == 1, "\(status)")
            #expect(clock.sleeps.isEmpty, "\(status)")
        }
    }

    @Test func eachAttemptCarriesTheCurrentTokenAndOnlyToTheAPIOrigin() throws {
        let transport = ScriptedTransport([Self.answer(503), Self.ok])
        try Self.get(Self.client(transport, clock: FakeUploadClock()))
        #expect(
            transport.requests.map { $0.headers.map(\.name) }
                == Array(repeating: ["Authorization", "User-Agent", "Accept"], count: 2))
        // The middleware itself refuses another origin, whatever made the URL: nothing reaches the next layer.
        let (key, _) = UploadRulesTests.key()
        let authentication = AuthenticationMiddleware(
            base: try APIBaseURL("http://127.0.0.1:8080"), token: APIToken(key: key))
        let elsewhere = HTTPRequest(method: "GET", url: URL(string: "http://127.0.0.1:8081/v1/apps")!, headers: [])
        var reached = false
        let what = StoreRequest(method: "GET", address: "http://127.0.0.1:8081/v1/apps")
        let failure = ODRPackError.thrown {
            _ = try authentication.intercept(elsewhere, what: what) { _ in
                reached = true
                return Self.ok
            }
        }
        #expect(failure == .refused(.tokenOutside(what, base: "http://127.0.0.1:8080")))
        #expect(!reached)
    }

    @Test func theRetryPolicyAloneResendsOnceEachFailureAndGivesUpAfterFive() throws {
        let clock = FakeUploadClock()
        let retry = RetryMiddleware(clock: clock)
        var sent = 0
        let request = HTTPRequest(method: "PUT", url: URL(string: "https://bucket.example/p")!, headers: [])
        let what = StoreRequest(method: "PUT", address: "https://bucket.example/p")
        let result = try retry.intercept(request, what: what) { _ in
            sent += 1
            return sent == 1 ? .failure(.redirected(307)) : Self.answer(201)
        }
        #expect(sent == 2 && (try? result.get().status) == 201)
        #expect(clock.sleeps == Self.seconds(1))
        #expect(
            RetryMiddleware.cause(of: Self.answer(409)) == nil && RetryMiddleware.cause(of: .failure(.tooLarge)) == nil)
        var attempts = 0
        let failure = ODRPackError.thrown {
            _ = try retry.intercept(request, what: what) { _ in
                attempts += 1
                return .failure(.timedOut)
            }
        }
        #expect(failure == .network(what, .gaveUp(attempts: 6, lastCause: "timed out")))
        #expect(attempts == 6)
        #expect(clock.sleeps == Self.seconds(1, 1, 2, 4, 8, 16))
    }

    @Test func answersDecodeAsTheirResourceTypes() throws {
        let page = ScriptedTransport([
            Self.answer(
                200,
                body: #"""
                    {"data": [
                      {"type": "backgroundAssets", "id": "10", "attributes": {"assetPackIdentifier": "a", "archived": true, "usedBytes": 9223372036854775807}},
                      {"type": "backgroundAssetVersions", "id": "11"},
                      {"type": "backgroundAssets", "id": "12", "attributes": {"assetPackIdentifier": "b", "usedBytes": 1.5}},
                      {"type": "backgroundAssets"}
                    ]}
                    """#)
        ])
        let assets = try Self.client(page, clock: FakeUploadClock()).collection(
            "/v1/apps/1/backgroundAssets", query: [], pack: nil, of: BackgroundAssetResource.self)
        #expect(assets.map(\.id) == ["10", "12"])
        #expect(assets.map(\.archived) == [true, false] && assets.map(\.usedBytes) == [Int64.max, 1])
        let file = ScriptedTransport([
            Self.answer(
                201,
                body: #"""
                    {"data": {"type": "backgroundAssetUploadFiles", "id": "7", "attributes": {
                      "assetDeliveryState": {"state": "AWAITING_UPLOAD"},
                      "uploadOperations": [
                        {"method": "PUT", "url": "https://b.example/1", "offset": 0, "length": 5,
                         "expiration": "2027-01-15T08:00:00.000Z", "requestHeaders": [{"name": "Content-Type", "value": "x"}]},
                        {"method": "PUT", "url": "https://b.example/2", "offset": 5, "length": 0}
                      ]}}}
                    """#)
        ])
        let document = try Self.client(file, clock: FakeUploadClock()).request(
            "POST", "/v1/backgroundAssetUploadFiles", body: .object([]), pack: "p", returning: UploadFileResource.self)
        let reservation = try #require(document.data)
        #expect(reservation.id == "7" && reservation.deliveryState == "AWAITING_UPLOAD")
        #expect(reservation.operations.count == 1, "a length of 0 is no operation")
        #expect(reservation.operations.first?.headers.map(\.name) == ["Content-Type"])
        #expect(reservation.operations.first?.expiration == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(reservation.coversExactly(5))
        let version = ScriptedTransport([
            Self.answer(
                200,
                body: #"""
                    {"data": {"type": "backgroundAssetVersions", "id": "3", "attributes": {"version": "2", "state": "FAILED",
                      "stateDetails": {"errors": [{"code": "E1", "description": "bad"}, {"code": "E2"}]}}}}
                    """#)
        ])
        let seen = try #require(
            try Self.client(version, clock: FakeUploadClock()).request(
                "GET", "/v1/backgroundAssetVersions/3", pack: "p", returning: BackgroundAssetVersionResource.self
            ).data)
        #expect(seen.version == "2" && seen.state == .failed && seen.errors == ["E1: bad", "E2"])
        // Another resource type where a version is due is no version; a body that is not a JSON object is exit 2.
        let wrong = ScriptedTransport([Self.answer(200, body: #"{"data": {"type": "apps", "id": "3"}}"#)])
        #expect(
            try Self.client(wrong, clock: FakeUploadClock()).request(
                "GET", "/v1/backgroundAssetVersions/3", pack: "p", returning: BackgroundAssetVersionResource.self
            ).data == nil)
        let array = ScriptedTransport([Self.answer(200, body: "[1]")])
        #expect(
            ODRPackError.thrown { try Self.get(Self.client(array, clock: FakeUploadClock())) }
                == .network(Self.apps, .notJSON(status: 200)))
        #expect(
            APIErrors.items(in: Data(#"{"errors": [{"code": "A", "title": "t"}, {"code": 5, "detail": "d"}]}"#.utf8))
                == [AppleAPIError(code: "A", detail: "t"), AppleAPIError(code: nil, detail: "d")])
    }

    @Test func responseHeadersAreParsedCaseInsensitively() {
        let headers = HTTPResponse.parseHeaders("HTTP/1.1 429 Too Many\r\nRetry-After: 12\r\nX-Thing:  a: b \r\n\r\n")
        #expect(headers == ["retry-after": "12", "x-thing": "a: b"])
    }
}
