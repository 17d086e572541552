import CCurl
import ODRPackPlatform

/// libcurl, opened when `upload` first needs it and never before (docs/store.md#libcurl): the release binary links
/// only the C library, so a system without libcurl runs every other command, and `upload` says what to install.
enum CurlLibrary {
    /// Loads libcurl (once per process) or throws exit 2, `upload(.curlMissing)`. `ODRPACK_LIBCURL` in `environment`
    /// names the library to open instead of the system's: a test hook, to see the message where libcurl is installed.
    static func load(environment: [String: String]) throws {
        var reason = [CChar](repeating: 0, count: 512)
        let loaded: Int32
        if let path = environment["ODRPACK_LIBCURL"], !path.isEmpty {
            loaded = path.withCString { odrpack_curl_load($0, &reason, reason.count) }
        } else {
            loaded = odrpack_curl_load(nil, &reason, reason.count)
        }
        guard loaded == 1 else { throw ODRPackError.upload(.curlMissing) }
    }
}
