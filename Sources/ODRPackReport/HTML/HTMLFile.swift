import Foundation
import ODRPackPlatform

/// Writes a report page beside its final name and renames it into place (a pipe or device is written in place).
package enum HTMLFile {
    package static func write(_ html: String, to path: String) throws {
        try AtomicFile.write(Data(html.utf8), to: path)
    }

    /// A page written as it is made, a chunk at a time (SPEC 7, Bounded), renamed into place once complete.
    package static func write(_ page: StreamedDocument, to path: String) throws {
        try AtomicFile.stage(page, for: path).moveIntoPlace(unlinkingFirst: false)
    }
}
