import Foundation
import ODRPackPlatform

/// The App Store Connect API's base URL: Apple's, or `--api URL` / `ODRPACK_ASC_API` for a local stand-in. A bearer
/// token must never travel in clear over a network, so `http://` is accepted only to a loopback address.
package struct APIBaseURL: Sendable, Equatable {
    package static let apple = "https://api.appstoreconnect.apple.com"

    /// Scheme, host and port, without a trailing `/`.
    package let text: String
    let scheme: String
    let host: String
    let port: Int?

    /// - Throws: `ODRPackError.usage` (exit 64) for anything but `https://` with a host, or `http://` to 127.0.0.0/8,
    ///   `[::1]` or `localhost`.
    package init(_ given: String) throws {
        var trimmed = given
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, components.user == nil, components.password == nil,
            components.query == nil, components.fragment == nil, components.path.isEmpty
        else {
            throw ODRPackError.usage(
                "--api '\(given)' is not a base URL: give scheme and host only, e.g. https://api.appstoreconnect.apple.com"
            )
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw ODRPackError.usage("--api '\(given)' has port \(port), outside 1-65535: give the server's port")
        }
        switch scheme {
        case "https":
            break
        case "http":
            guard Self.isLoopback(host) else {
                throw ODRPackError.usage(
                    """
                    --api '\(given)' uses http:// to a host that is not loopback: the API key's token would cross the \
                    network in clear; use https://, or http:// only to 127.0.0.1, [::1] or localhost
                    """
                )
            }
        default:
            throw ODRPackError.usage("--api '\(given)' must start with https:// (or http:// to a loopback address)")
        }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = components.port
        // Scheme and host compare without regard to case (RFC 3986); the rest is empty.
        text = trimmed.lowercased()
    }

    /// 127.0.0.0/8 in dotted form, `::1` (URLComponents gives IPv6 hosts without brackets, or with them on some
    /// platforms), `localhost`.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if bare == "localhost" || bare == "::1" || bare == "0:0:0:0:0:0:0:1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit) && Int(part)! <= 255
        }
    }

    /// Whether `url` (a `links.next` the API returned) points at this API, so the token goes nowhere else.
    func owns(_ url: URL) -> Bool {
        guard let other = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return false }
        return other.scheme?.lowercased() == scheme && other.host?.lowercased() == host
            && Self.effectivePort(other.port, scheme: scheme) == Self.effectivePort(port, scheme: scheme)
    }

    /// The port a URL without one uses: `https://h` and `https://h:443` are one origin.
    private static func effectivePort(_ port: Int?, scheme: String) -> Int {
        port ?? (scheme == "https" ? 443 : 80)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
