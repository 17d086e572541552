import Foundation

/// What a URL prefix must be (`--url-prefix`, and `url-prefix` in a manifest's background-assets section): one rule for
/// the command line and the manifest (docs/build-output.md, docs/background-assets.md).
package enum URLPrefixRule {
    /// What is wrong with `prefix` (called `name` in the message) as a URL prefix, or nil when it is an absolute `http://` or `https://` URL (only
    /// `https://` when `requireHTTPS`) with a host, a valid port if any, and no user name, password, query or
    /// fragment: everything after it is a pack's file name, which a query or fragment would swallow.
    package static func problem(_ prefix: String, requireHTTPS: Bool = false, name: String) -> String? {
        let example = "e.g. https://cdn.example.com/odr/"
        let schemes = requireHTTPS ? ["https://"] : ["https://", "http://"]
        guard let scheme = schemes.first(where: { prefix.hasPrefix($0) }) else {
            let wanted = requireHTTPS ? "an https:// URL" : "an absolute http:// or https:// URL"
            let reason =
                requireHTTPS && prefix.hasPrefix("http://")
                ? "the system fetches Background Assets only over HTTPS (an http BAManifestURL stops the app)"
                : "the packs' URLs start with it"
            return "\(name) '\(prefix)' is not \(wanted): \(reason); use \(example)"
        }
        if prefix.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return "\(name) '\(prefix)' holds a space or a control character: percent-encode it (%20)"
        }
        if prefix.contains("?") || prefix.contains("#") {
            return """
                \(name) '\(prefix)' has a query or a fragment ('?' or '#'), which would swallow the pack file \
                name that follows it: leave it out (\(example))
                """
        }
        let rest = prefix.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" }
        if authority.contains("@") {
            return """
                \(name) '\(prefix)' holds a user name or password: devices cannot send them and the manifests \
                would carry them; serve the packs without credentials in the URL
                """
        }
        var host = Substring(authority)
        var port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else {
                return "\(name) '\(prefix)' has an IPv6 host without its closing ']'"
            }
            let after = host[host.index(after: close)...]
            host = host[...close]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return "\(name) '\(prefix)' has a malformed host" }
                port = after.dropFirst()
            }
        } else if let colon = host.firstIndex(of: ":") {
            port = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        if host.isEmpty || host == "[]" {
            return "\(name) '\(prefix)' names no host: use \(example)"
        }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(port), (1...65535).contains(number)
            else {
                return "\(name) '\(prefix)' has port '\(port)', which is not a port (1 to 65535)"
            }
        }
        guard URLComponents(string: prefix)?.host != nil else {
            return "\(name) '\(prefix)' is not a valid URL: percent-encode what it holds (\(example))"
        }
        return nil
    }

}
