import Foundation
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// What a pack must hold by its manifest entry, checked file by file whatever the layout. Each problem is a `verify-…`
/// diagnostic whose subject is the pack's file (docs/diagnostics.md).
package struct PackContentCheck {
    let pack: BuildManifest.Pack
    /// By path bytes: NFC and NFD spellings of one name are two files (docs/manifest.md#tags).
    var expected: [PathKey: BuildManifest.File]
    package var diagnostics: [Diagnostic] = []
    var sawInfo = false

    package init(pack: BuildManifest.Pack) {
        self.pack = pack
        expected = Dictionary(pack.files.map { (PathKey($0.path), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// An error about this pack: "<pack file>: <text>", the pack's file as its subject.
    package mutating func problem(_ code: DiagnosticCode, _ text: String) {
        diagnostics.append(.error(code, "\(pack.file): \(text)", subject: pack.file))
    }

    package mutating func compareArchive(size: Int64, sha256: String) {
        if let recorded = pack.archiveSize, recorded != size {
            problem(.verifyArchiveMismatch, "the pack is \(size) bytes, the manifest says \(recorded)")
        }
        if let recorded = pack.archiveSha256, recorded != sha256 {
            problem(.verifyArchiveMismatch, "the pack has sha256 \(sha256), the manifest says \(recorded)")
        }
    }

    /// One file of the pack; `bytes` holds Info.plist's.
    package mutating func file(_ name: String, size: Int64, sha256: String, bytes: [UInt8]) {
        if name == PackEntry.infoPlistName {
            sawInfo = true
            let wanted = [UInt8](
                AppleManifests.infoPlist(id: pack.id, tags: pack.tags, priority: pack.priority).binaryData())
            if bytes != wanted {
                problem(
                    .verifyEntryMismatch,
                    """
                    Info.plist does not hold exactly CFBundleIdentifier '\(pack.id)', the \
                    tags\(pack.priority == nil ? "" : " and the priority")
                    """
                )
            }
        } else if let file = expected.removeValue(forKey: PathKey(name)) {
            if size != file.size {
                problem(.verifyEntryMismatch, "'\(name)' is \(size) bytes, the manifest says \(file.size)")
            } else if let recorded = file.sha256, recorded != sha256 {
                problem(.verifyEntryMismatch, "'\(name)' does not match its sha256")
            }
        } else if !name.hasPrefix(PackEntry.signatureFolder) {
            problem(.verifyEntryMismatch, "'\(name)' is not in the manifest")
        }
    }

    package mutating func finish() {
        if !sawInfo { problem(.verifyEntryMismatch, "the pack has no Info.plist") }
        for path in expected.keys.map(\.path).sorted(by: { $0.precedesByCodePoint($1) }) {
            problem(.verifyEntryMismatch, "'\(path)' is missing from the pack")
        }
    }
}
