import Crypto
import Foundation
import ODRPackFormats
import ODRPackPlatform

/// The bearer token every API request carries (docs/store.md#credentials): a JWT signed ES256 with the API key, made
/// once and reused until a minute before it expires, or made anew when App Store Connect answers 401.
package final class APIToken: Sendable {
    /// Apple refuses tokens that live longer than 20 minutes; 19 leaves room for a clock a little ahead of Apple's.
    static let lifetime: Int64 = 19 * 60
    /// A token is not sent in its last minute: a request may wait in a queue or a retry before Apple reads it.
    static let renewalMargin: Int64 = 60

    private let key: APIKey
    private let now: @Sendable () -> Int64
    private let cache = Locked<(token: String, expires: Int64)?>(nil)

    package init(key: APIKey, now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) {
        self.key = key
        self.now = now
    }

    /// The current token; with `replacing` (what a 401 was answered to), a new one unless another thread renewed it.
    func current(replacing rejected: String? = nil) -> String {
        cache.withLock { cached in
            let time = now()
            if let cached = cached, cached.token != rejected, time < cached.expires - Self.renewalMargin {
                return cached.token
            }
            let token = Self.make(key: key, issuedAt: time)
            cached = (token, time + Self.lifetime)
            return token
        }
    }

    /// header `{"alg":"ES256","kid":KEY_ID,"typ":"JWT"}`, claims `{"iss","iat","exp","aud"}` (an individual key:
    /// `"sub":"user"` and no `iss`), the signature as raw r‖s, each part base64url without padding.
    static func make(key: APIKey, issuedAt: Int64) -> String {
        let header = "{\"alg\":\"ES256\",\"kid\":\(quoted(key.keyID)),\"typ\":\"JWT\"}"
        let subject = key.issuerID.map { "\"iss\":\(quoted($0))," } ?? "\"sub\":\"user\","
        let claims =
            "{\(subject)\"iat\":\(issuedAt),\"exp\":\(issuedAt + lifetime),\"aud\":\"appstoreconnect-v1\"}"
        let signingInput = base64URL(Data(header.utf8)) + "." + base64URL(Data(claims.utf8))
        // P256 signing cannot fail for a valid key and in-memory data; should it ever, the token is refused with 401
        // and the request fails with App Store Connect's message, never a crash.
        let signature = (try? key.privateKey?.signature(for: Data(signingInput.utf8)).rawRepresentation) ?? Data()
        return signingInput + "." + base64URL(signature)
    }

    static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONValue.writeString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
