import Foundation
import ODRPackPlatform

/// `--url-prefix`: where the packs will be served from (docs/build-output.md; docs/background-assets.md for
/// self-hosted Background Assets). Pure, so both formats and every front end check it the same way.
package enum URLPrefix {
    /// What is wrong with `prefix` as a URL prefix, or nil when it is an absolute `http://` or `https://` URL (only
    /// `https://` when `requireHTTPS`) with a host, a valid port if any, and no user name, password, query or
    /// fragment: everything after it is a pack's file name, which a query or fragment would swallow.
    package static func problem(_ prefix: String, requireHTTPS: Bool = false) -> String? {
        let example = "e.g. https://cdn.example.com/odr/"
        let schemes = requireHTTPS ? ["https://"] : ["https://", "http://"]
        guard let scheme = schemes.first(where: { prefix.hasPrefix($0) }) else {
            let wanted = requireHTTPS ? "an https:// URL" : "an absolute http:// or https:// URL"
            let reason =
                requireHTTPS && prefix.hasPrefix("http://")
                ? "the system fetches Background Assets only over HTTPS (an http BAManifestURL stops the app)"
                : "the packs' URLs start with it"
            return "--url-prefix '\(prefix)' is not \(wanted): \(reason); use \(example)"
        }
        if prefix.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return "--url-prefix '\(prefix)' holds a space or a control character: percent-encode it (%20)"
        }
        if prefix.contains("?") || prefix.contains("#") {
            return """
                --url-prefix '\(prefix)' has a query or a fragment ('?' or '#'), which would swallow the pack file \
                name that follows it: leave it out (\(example))
                """
        }
        let rest = prefix.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" }
        if authority.contains("@") {
            return """
                --url-prefix '\(prefix)' holds a user name or password: devices cannot send them and the manifests \
                would carry them; serve the packs without credentials in the URL
                """
        }
        var host = Substring(authority)
        var port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else {
                return "--url-prefix '\(prefix)' has an IPv6 host without its closing ']'"
            }
            let after = host[host.index(after: close)...]
            host = host[...close]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return "--url-prefix '\(prefix)' has a malformed host" }
                port = after.dropFirst()
            }
        } else if let colon = host.firstIndex(of: ":") {
            port = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        if host.isEmpty || host == "[]" {
            return "--url-prefix '\(prefix)' names no host: use \(example)"
        }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(port), (1...65535).contains(number)
            else {
                return "--url-prefix '\(prefix)' has port '\(port)', which is not a port (1 to 65535)"
            }
        }
        guard URLComponents(string: prefix)?.host != nil else {
            return "--url-prefix '\(prefix)' is not a valid URL: percent-encode what it holds (\(example))"
        }
        return nil
    }

    /// The URL of a pack file: the prefix, one "/" unless it ends with one, then the percent-encoded name.
    package static func join(_ prefix: String, _ encodedName: String) -> String {
        prefix.hasSuffix("/") ? prefix + encodedName : prefix.slashJoined(encodedName)
    }
}
