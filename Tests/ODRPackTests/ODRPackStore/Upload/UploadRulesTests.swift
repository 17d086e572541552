import Crypto
import Foundation
import ODRPackPlatform
import Testing

@testable import ODRPackStore

/// The rules that need no service: the token, the API URL, the credentials' sources, and the command line's exits.
@Suite struct UploadRulesTests {
    static func key(issuer: String? = "issuer-1") -> (APIKey, P256.Signing.PrivateKey) {
        let privateKey = P256.Signing.PrivateKey()
        return (APIKey(keyID: "ABC123", issuerID: issuer, privateKeyBytes: privateKey.rawRepresentation), privateKey)
    }

    static func decode(_ part: Substring) -> [String: Any] {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return (try? JSONSerialization.jsonObject(with: Data(base64Encoded: text) ?? Data())) as? [String: Any] ?? [:]
    }

    @Test func theTokenIsAnES256JWTAsAppleSpecifies() throws {
        let (key, privateKey) = Self.key()
        let token = APIToken.make(key: key, issuedAt: 1_800_000_000)
        let parts = token.split(separator: ".")
        #expect(parts.count == 3)
        let header = Self.decode(parts[0])
        #expect(header.count == 3 && header["alg"] as? String == "ES256" && header["kid"] as? String == "ABC123")
        #expect(header["typ"] as? String == "JWT")
        let claims = Self.decode(parts[1])
        #expect(Set(claims.keys) == ["iss", "iat", "exp", "aud"])
        #expect(claims["iss"] as? String == "issuer-1" && claims["aud"] as? String == "appstoreconnect-v1")
        let issued = claims["iat"] as? Int ?? 0
        let expires = claims["exp"] as? Int ?? 0
        #expect(issued == 1_800_000_000 && expires > issued && expires - issued <= 1200)
        // The signature is raw r‖s (64 bytes) over "header.claims", and verifies with the key's public half.
        var signatureText = String(parts[2]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(
            of: "_", with: "/")
        while signatureText.count % 4 != 0 { signatureText += "=" }
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Data(base64Encoded: signatureText) ?? Data())
        #expect(privateKey.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
        #expect(!token.contains("=") && !token.contains("+") && !token.contains("/"))

        let individual = APIToken.make(key: Self.key(issuer: nil).0, issuedAt: 1_800_000_000)
        let individualClaims = Self.decode(individual.split(separator: ".")[1])
        #expect(
            Set(individualClaims.keys) == ["sub", "iat", "exp", "aud"] && individualClaims["sub"] as? String == "user")
    }

    @Test func aTokenIsReusedUntilAMinuteBeforeItExpiresOrRefused() {
        let clock = Locked(Int64(1_800_000_000))
        let token = APIToken(key: Self.key().0, now: { clock.withLock { $0 } })
        let first = token.current()
        clock.withLock { $0 += APIToken.lifetime - 61 }
        #expect(token.current() == first)
        clock.withLock { $0 += 1 }
        let second = token.current()
        #expect(second != first)
        #expect(token.current() == second)
        let renewed = token.current(replacing: second)
        #expect(renewed != second)
        #expect(token.current(replacing: second) == renewed, "another thread's renewal is not renewed again")
    }

    @Test func waitsBackOffFromOneSecondAndPollFromFiveToSixty() {
        #expect((1...5).map { RetryMiddleware.backoff(retry: $0) } == [1, 2, 4, 8, 16].map { Duration.seconds($0) })
        #expect(RetryMiddleware.maximumRetries == 5)
        #expect(
            (1...7).map { UploadTiming.pollInterval($0) } == [5, 10, 20, 40, 60, 60, 60].map { Duration.seconds($0) })
        #expect(UploadTiming(environment: [:]).requestTimeout == 120)
        #expect(UploadTiming(environment: ["ODRPACK_ASC_TIMEOUT": "0.5"]).requestTimeout == 1)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(RetryMiddleware.retryAfter("7", now: now) == .seconds(7))
        #expect(RetryMiddleware.retryAfter("99999", now: now) == .seconds(3600))
        #expect(RetryMiddleware.retryAfter("Fri, 15 Jan 2027 08:00:30 GMT", now: now) == .seconds(30))
        #expect(RetryMiddleware.retryAfter("Fri, 15 Jan 2027 07:00:00 GMT", now: now) == .zero)
        #expect(RetryMiddleware.retryAfter("soon", now: now) == nil && RetryMiddleware.retryAfter(nil, now: now) == nil)
    }

    @Test func theAPIURLIsHTTPSOrLoopback() throws {
        for good in [
            "https://api.appstoreconnect.apple.com", "https://example.com:8443/", "http://127.0.0.1:8080",
            "http://127.1.2.3", "http://localhost:9", "http://[::1]:8080",
        ] {
            #expect(throws: Never.self, "\(good)") { try APIBaseURL(good) }
        }
        for bad in [
            "http://example.com", "http://128.0.0.1", "http://127.0.0.1.example.com", "ftp://127.0.0.1",
            "https://", "example.com", "https://example.com/v1", "https://user:pw@example.com", "http://10.0.0.1",
        ] {
            #expect(throws: (any Error).self, "\(bad)") { try APIBaseURL(bad) }
        }
    }

    @Test func credentialsComeFromFlagsEnvironmentOrAltoolsFolders() throws {
        let project = try TemporaryProject()
        let privateKey = P256.Signing.PrivateKey()
        try project.file("home/.appstoreconnect/private_keys/AuthKey_K1.p8", privateKey.pemRepresentation)
        var options = UploadOptions(buildPath: "out", selection: .all, environment: ["HOME": project.path("home")])
        options.keyID = "K1"
        let found = try APIKey.resolve(options, currentFolder: project.path("cwd"))
        #expect(found.privateKeyBytes == privateKey.rawRepresentation && found.issuerID == nil)
        // ./private_keys comes first.
        let other = P256.Signing.PrivateKey()
        try project.file("cwd/private_keys/AuthKey_K1.p8", other.pemRepresentation)
        #expect(
            try APIKey.resolve(options, currentFolder: project.path("cwd")).privateKeyBytes == other.rawRepresentation)
        // The PEM text itself, as a CI secret with escaped line breaks.
        let pem = P256.Signing.PrivateKey()
        options.environment = [
            "ASC_KEY_ID": "K2", "ASC_ISSUER_ID": "I",
            "ASC_PRIVATE_KEY": pem.pemRepresentation.replacingOccurrences(of: "\n", with: "\\n"),
        ]
        options.keyID = nil
        let fromText = try APIKey.resolve(options, currentFolder: project.path("nowhere"))
        #expect(fromText.keyID == "K2" && fromText.issuerID == "I" && fromText.privateKeyBytes == pem.rawRepresentation)
        // Missing pieces are exit 64 saying which, never quoting a key.
        options.environment = ["HOME": project.path("empty")]
        #expect(throws: ODRPackError.self) { try APIKey.resolve(options) }
        options.keyID = "K9"
        do {
            _ = try APIKey.resolve(options, currentFolder: project.path("nowhere"))
            Issue.record("no key, no error")
        } catch let ODRPackError.usage(message) {
            #expect(message.contains("no private key for API key K9") && message.contains("AuthKey_K9.p8"))
        }
        options.environment = [
            "ASC_PRIVATE_KEY": "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LXZhbHVl\n-----END PRIVATE KEY-----"
        ]
        do {
            _ = try APIKey.resolve(options)
            Issue.record("a bad key, no error")
        } catch let ODRPackError.usage(message) {
            #expect(message.contains("ASC_PRIVATE_KEY") && !message.contains("c2VjcmV0"))
        }
    }

    @Test func commandLineMistakesAreExit64() throws {
        let build = try UploadFixture()
        let noKey = [
            "ASC_KEY_ID": "", "ASC_ISSUER_ID": "", "ASC_PRIVATE_KEY_PATH": "", "ASC_PRIVATE_KEY": "",
            "HOME": build.fixture.project.path("home"), "ASC_APP_ID": "1",
        ]
        let neither = try build.upload([build.out], nil, environment: noKey)
        #expect(neither.status == 64 && neither.stderr.contains("--since OLD"))
        let both = try build.upload([build.out, "--all", "--since", build.out], nil, environment: noKey)
        #expect(both.status == 64)
        let noKeyID = try build.upload([build.out, "--all"], nil, environment: noKey)
        #expect(noKeyID.status == 64 && noKeyID.stderr.contains("no API key id"))
        let noPrivateKey = try build.upload([build.out, "--all", "--key-id", "K1"], nil, environment: noKey)
        #expect(noPrivateKey.status == 64 && noPrivateKey.stderr.contains("no private key for API key K1"))
        let plainHTTP = try build.upload([build.out, "--all", "--api", "http://example.com"], nil, environment: noKey)
        #expect(plainHTTP.status == 64 && plainHTTP.stderr.contains("not loopback"))
        let environmentHTTP = try build.upload(
            [build.out, "--all"], nil, environment: noKey.merging(["ODRPACK_ASC_API": "http://10.1.1.1"]) { $1 })
        #expect(environmentHTTP.status == 64)
        let jobs = try build.upload([build.out, "--all", "--jobs", "0"], nil, environment: noKey)
        #expect(jobs.status == 64)

        // An ODR build and a self-hosted one are not uploaded.
        let odr = try build.fixture.run(["build", "-o", "odr"])
        #expect(odr.status == 0, "\(odr.stderr)")
        let odrUpload = try build.upload(["odr", "--all"], nil, environment: noKey)
        #expect(odrUpload.status == 64 && odrUpload.stderr.contains("odrpack ipa"))
        let hosted = try BackgroundAssetsFixture(background: "background-assets: {hosting: self}")
        let site = try hosted.build(["--url-prefix", "https://cdn.example.com/packs"], output: "site-build")
        #expect(site.status == 0, "\(site.stderr)")
        let selfHosted = try hosted.run(["upload", "site-build", "--all"], environment: noKey)
        #expect(selfHosted.status == 64 && selfHosted.stderr.contains("upload BackgroundAssets/site/ to your server"))
    }

    @Test func anIDOutsideTheAlphabetIsRefusedBeforeAnyRequest() throws {
        let build = try UploadFixture()
        let id = try build.packs()[0].id
        let manifest = build.fixture.project.path("out/odrpack-manifest.json")
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "\"assetPackId\": \"\(id)\"", with: "\"assetPackId\": \"level_1\"").utf8)
            .write(to: URL(fileURLWithPath: manifest))
        let port = "http://127.0.0.1:9"  // nothing listens: any request would be a connection failure, not this error
        let run = try build.upload(
            [build.out, "--all", "--api", port], nil,
            environment: [
                "ASC_KEY_ID": "K1", "ASC_PRIVATE_KEY": P256.Signing.PrivateKey().pemRepresentation, "ASC_APP_ID": "1",
            ])
        #expect(run.status == 2)
        #expect(run.stderr.contains("asset pack id 'level_1' holds characters other than A-Z a-z 0-9 -"))
    }
}
