import Foundation
import ODRPackPlatform

/// Writes a report page where its output FILE says (docs/commands.md#scripts): a regular file beside its final name and
/// renamed into place, `-` and `/dev/stdout` through standard output, a pipe or device in place.
package enum HTMLFile {
    package static func write(_ html: String, to target: OutputTarget) throws {
        try target.write(html)
    }

    /// A page written as it is made, a chunk at a time (docs/build-output.md#bounded), renamed into place once
    /// complete.
    package static func write(_ page: StreamedDocument, to target: OutputTarget) throws {
        try target.write(page)
    }
}
