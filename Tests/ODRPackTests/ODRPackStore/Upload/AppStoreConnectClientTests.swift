import Foundation
import ODRPackPlatform
import Testing

@testable import ODRPackStore

/// The client's rules with a scripted transport, in-process (docs/store.md#failures, #trust-boundaries): retries and
/// their waits, `Retry-After`, the 401 renewal, redirects, expiry, and where the token goes. The stand-in tests
/// (UploadFailureTests, UploadTrustTests) run the same rules end to end over libcurl.
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

    /// The seconds the client waited, in order.
    final class Waits: @unchecked Sendable {
        private let lock = NSLock()
        private var seconds: [Double] = []
        func add(_ value: Double) {
            lock.lock()
            seconds.append(value)
            lock.unlock()
        }
        var all: [Double] {
            lock.lock()
            defer { lock.unlock() }
            return seconds
        }
    }

    static func client(_ transport: ScriptedTransport, waits: Waits, readOnly: Bool = false) throws
        -> AppStoreConnectClient
    {
        let (key, _) = UploadRulesTests.key()
        var timing = UploadTiming(environment: [:])
        timing.sleeper = { waits.add($0) }
        return AppStoreConnectClient(
            base: try APIBaseURL("http://127.0.0.1:8080"), token: APIToken(key: key), timing: timing, jobs: 2,
            readOnly: readOnly, transport: transport)
    }

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
        let expiration = ISO8601DateFormatter().string(from: Date().addingTimeInterval(expiresIn))
        return UploadOperation([
            "method": "PUT", "url": url, "offset": 0, "length": 4, "expiration": expiration,
            "requestHeaders": [["name": "Content-Type", "value": "application/octet-stream"]],
        ])!
    }

    static func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as ODRPackError {
            if case .usage = error { return "exit 64: \(error)" }
            return "exit 2: \(error)"
        } catch {
            return "other: \(error)"
        }
    }

    @Test func transientFailuresBackOff1248And16ThenExit2() throws {
        let transport = ScriptedTransport([Self.answer(503)])
        let waits = Waits()
        let client = try Self.client(transport, waits: waits)
        let message = Self.message { _ = try client.request("GET", "/v1/apps", pack: nil) }
        #expect(
            message
                == "exit 2: GET http://127.0.0.1:8080/v1/apps failed 6 times (last: 503): App Store Connect or the network is not answering; run upload again later, it continues where this run stopped"
        )
        #expect(transport.requests.count == 6)
        #expect(waits.all == [1, 2, 4, 8, 16])
    }

    @Test func everyRetryableFailureIsRetriedOnceEach() throws {
        for failure: Result<HTTPResponse, HTTPFailure> in [
            Self.answer(429), Self.answer(500), Self.answer(502), Self.answer(503), Self.answer(504),
            .failure(.timedOut), .failure(.dropped("reset")),
        ] {
            let transport = ScriptedTransport([failure, Self.ok])
            let waits = Waits()
            _ = try Self.client(transport, waits: waits).request("GET", "/v1/apps", pack: nil)
            #expect(transport.requests.count == 2, "\(failure)")
            #expect(waits.all == [1], "\(failure)")
        }
    }

    @Test func retryAfterIsObeyedOn429Only() throws {
        let transport = ScriptedTransport([
            Self.answer(429, headers: ["retry-after": "7"]), Self.answer(503, headers: ["retry-after": "9"]), Self.ok,
        ])
        let waits = Waits()
        _ = try Self.client(transport, waits: waits).request("GET", "/v1/apps", pack: nil)
        #expect(waits.all == [7, 2])
    }

    @Test func a401IsRetriedOnceWithANewToken() throws {
        let transport = ScriptedTransport([Self.answer(401), Self.ok])
        let waits = Waits()
        _ = try Self.client(transport, waits: waits).request("GET", "/v1/apps", pack: nil)
        let tokens = transport.requests.map { $0.headers.first { $0.name == "Authorization" }?.value }
        #expect(tokens.count == 2 && tokens[0] != nil && tokens[1] != nil)
        #expect(waits.all.isEmpty)

        let refused = ScriptedTransport([Self.answer(401)])
        let message = Self.message { _ = try Self.client(refused, waits: waits).request("GET", "/v1/apps", pack: "p") }
        #expect(
            message
                == "exit 2: pack 'p': GET /v1/apps answered 401 (the API key was refused twice: check --key-id, --issuer-id and the private key)"
        )
        #expect(refused.requests.count == 2)
    }

    @Test func aRedirectAnsweringAnAPIRequestIsExit2AndNeverFollowed() throws {
        for status in [301, 302, 303, 307, 308] {
            for method in ["GET", "POST", "PATCH"] {
                let transport = ScriptedTransport([
                    Self.answer(status, headers: ["location": "http://127.0.0.1:9/v1/apps"]), Self.ok,
                ])
                let waits = Waits()
                let client = try Self.client(transport, waits: waits)
                let message = Self.message {
                    _ = try client.request(
                        method, "/v1/backgroundAssets", body: method == "GET" ? nil : .object([]), pack: "p")
                }
                #expect(
                    message
                        == "exit 2: pack 'p': \(method) /v1/backgroundAssets answered \(status), a redirect: odrpack follows none, so that the API key's token goes to http://127.0.0.1:8080 only; check --api (or ODRPACK_ASC_API)"
                )
                #expect(transport.requests.map(\.url.absoluteString) == ["http://127.0.0.1:8080/v1/backgroundAssets"])
                #expect(waits.all.isEmpty)
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
            let message = Self.message {
                _ = try Self.client(transport, waits: Waits()).collection("/v1/apps", query: [], pack: nil)
            }
            #expect(
                message
                    == "exit 2: App Store Connect answered with a next page outside http://127.0.0.1:8080: refusing to send the token there"
            )
            #expect(transport.requests.count == 1)
        }
        // The same origin in another case is the same origin (RFC 3986).
        let same = ScriptedTransport([
            Self.answer(
                200, body: #"{"data": [{"id": "1"}], "links": {"next": "HTTP://127.0.0.1:8080/v1/apps?cursor=1"}}"#),
            Self.answer(200, body: #"{"data": [{"id": "2"}]}"#),
        ])
        let all = try Self.client(same, waits: Waits()).collection("/v1/apps", query: [], pack: nil)
        #expect(all.map { $0["id"] as? String } == ["1", "2"])
        #expect(same.requests.allSatisfy { $0.headers.contains { $0.name == "Authorization" } })
    }

    @Test func aRedirectedPartIsAFailedPartSentAgainToItsOwnURL() throws {
        for status in [301, 302, 303, 307, 308] {
            let transport = ScriptedTransport([
                Self.answer(status, headers: ["location": "http://127.0.0.1:9/elsewhere"]), Self.answer(200),
            ])
            let waits = Waits()
            let outcome = try Self.client(transport, waits: waits).sendPart(Self.operation(), descriptor: 3, pack: "p")
            #expect(outcome == .sent)
            #expect(
                transport.requests.map(\.url.absoluteString)
                    == Array(
                        repeating: "https://bucket.example/part/1?X-Amz-Signature=secret", count: 2))
            #expect(transport.requests.allSatisfy { !$0.headers.contains { $0.name.lowercased() == "authorization" } })
            #expect(waits.all == [1])
        }
        let always = ScriptedTransport([Self.answer(307)])
        let message = Self.message {
            _ = try Self.client(always, waits: Waits()).sendPart(Self.operation(), descriptor: 3, pack: "p")
        }
        #expect(
            message
                == "exit 2: pack 'p': PUT https://bucket.example/part/1 failed 6 times (last: redirected (307), not followed): App Store Connect or the network is not answering; run upload again later, it continues where this run stopped"
        )
    }

    @Test func aPartIsStreamedFromTheOpenFileAtItsRange() throws {
        let transport = ScriptedTransport([.failure(.dropped("reset")), Self.answer(200)])
        var operation = Self.operation()
        operation.offset = 100
        operation.length = 50
        _ = try Self.client(transport, waits: Waits()).sendPart(operation, descriptor: 7, pack: "p")
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
        let outcome = try Self.client(transport, waits: Waits()).sendPart(
            Self.operation(expiresIn: -60), descriptor: 3, pack: "p")
        #expect(outcome == .expired)
        #expect(transport.requests.isEmpty)
    }

    @Test func aPartGoesOnlyToHTTPSOrLoopbackHTTP() throws {
        let transport = ScriptedTransport([Self.answer(200)])
        let message = Self.message {
            _ = try Self.client(transport, waits: Waits()).sendPart(
                Self.operation(url: "http://bucket.example/part/1"), descriptor: 3, pack: "p")
        }
        #expect(
            message
                == "exit 2: pack 'p': App Store Connect gave an upload URL that is not https: refusing to send the archive"
        )
        #expect(transport.requests.isEmpty)
        #expect(
            try Self.client(transport, waits: Waits()).sendPart(
                Self.operation(url: "http://127.0.0.1:9/part/1"), descriptor: 3, pack: "p") == .sent)
    }

    @Test func anUploadHeaderWithALineBreakIsNotSent() throws {
        for value in ["a\r\nX-Injected: 1", "a\nb", "a\u{0}b"] {
            var operation = Self.operation()
            operation.headers.append(("X-Amz-Meta", value))
            let transport = ScriptedTransport([Self.answer(200)])
            let message = Self.message {
                _ = try Self.client(transport, waits: Waits()).sendPart(operation, descriptor: 3, pack: "p")
            }
            #expect(
                message
                    == "exit 2: pack 'p': App Store Connect gave an upload header holding a control character: refusing to send it"
            )
            #expect(transport.requests.isEmpty)
        }
    }

    @Test func anAnswerOver16MiBOrAMissingLibcurlIsExit2WithoutRetry() throws {
        let large = ScriptedTransport([.failure(.tooLarge)])
        let waits = Waits()
        let message = Self.message { _ = try Self.client(large, waits: waits).request("GET", "/v1/apps", pack: nil) }
        #expect(
            message
                == "exit 2: GET http://127.0.0.1:8080/v1/apps answered with more than 16 MiB, which no App Store Connect answer holds: the transfer was stopped; check --api (or ODRPACK_ASC_API) and the network between"
        )
        #expect(large.requests.count == 1 && waits.all.isEmpty)
        let missing = ScriptedTransport([.failure(.unavailable("gone"))])
        #expect(
            Self.message { _ = try Self.client(missing, waits: waits).request("GET", "/v1/apps", pack: nil) }
                == "exit 2: upload needs libcurl: install libcurl4 (Debian, Ubuntu) or curl (Fedora, Alpine)")
    }

    @Test func aDryRunSendsNothingButGET() throws {
        let transport = ScriptedTransport([Self.ok])
        let message = Self.message {
            _ = try Self.client(transport, waits: Waits(), readOnly: true).request(
                "POST", "/v1/backgroundAssets", body: .object([]), pack: nil)
        }
        #expect(message == "exit 2: a dry run sends GET requests only, not POST /v1/backgroundAssets")
        #expect(transport.requests.isEmpty)
    }

    @Test func responseHeadersAreParsedCaseInsensitively() {
        let headers = HTTPResponse.parseHeaders("HTTP/1.1 429 Too Many\r\nRetry-After: 12\r\nX-Thing:  a: b \r\n\r\n")
        #expect(headers == ["retry-after": "12", "x-thing": "a: b"])
    }
}
