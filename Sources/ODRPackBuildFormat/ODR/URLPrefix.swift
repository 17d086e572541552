import Foundation
import ODRPackCore
import ODRPackPlatform

/// `--url-prefix`: where the packs will be served from (docs/build-output.md; docs/background-assets.md for
/// self-hosted Background Assets). Pure, so both formats and every front end check it the same way.
package enum URLPrefix {
    /// What is wrong with `prefix` as a URL prefix, or nil when it is an absolute `http://` or `https://` URL (only
    /// `https://` when `requireHTTPS`) with a host, a valid port if any, and no user name, password, query or
    /// fragment: everything after it is a pack's file name, which a query or fragment would swallow.
    package static func problem(_ prefix: String, requireHTTPS: Bool = false) -> String? {
        URLPrefixRule.problem(prefix, requireHTTPS: requireHTTPS, name: "--url-prefix")
    }

    /// The URL of a pack file: the prefix, one "/" unless it ends with one, then the percent-encoded name.
    package static func join(_ prefix: String, _ encodedName: String) -> String {
        prefix.hasSuffix("/") ? prefix + encodedName : prefix.slashJoined(encodedName)
    }
}
