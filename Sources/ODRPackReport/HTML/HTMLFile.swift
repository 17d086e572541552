import Foundation
import ODRPackPlatform

/// Writes a report page beside its final name and renames it into place (a pipe or device is written in place).
package enum HTMLFile {
    package static func write(_ html: String, to path: String) throws {
        try AtomicFile.write(Data(html.utf8), to: path)
    }
}
