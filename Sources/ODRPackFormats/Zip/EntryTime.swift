import Foundation
import ODRPackPlatform

/// The one time odrpack writes into what it packs (docs/build-output.md#deterministic): every zip entry's time (a
/// pack's, an IPA's) and every file's time in a pack folder. `SOURCE_DATE_EPOCH` when it is set, else 2000-01-01, so
/// the same inputs give the same bytes whenever they are built. Build and ipa both read it here.
package enum EntryTime {
    /// 2000-01-01T00:00:00Z, the time without `SOURCE_DATE_EPOCH`.
    package static let standard: Int64 = 946_684_800
    /// 2100-01-01T00:00:00Z: `SOURCE_DATE_EPOCH` must be before it (the zip format's dates end in 2107).
    static let end: Int64 = 4_102_444_800

    /// Reads `SOURCE_DATE_EPOCH`: a whole number of seconds; anything else is a bad invocation (exit 64).
    package static func read(environment: [String: String]) throws -> Int64 {
        guard let text = environment["SOURCE_DATE_EPOCH"] else { return standard }
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)), value >= 0, value < end else {
            throw ODRPackError.usage(
                """
                SOURCE_DATE_EPOCH='\(text)' is not a valid time: set it to whole seconds since 1970 (before 2100), or \
                unset it
                """
            )
        }
        return value
    }
}
