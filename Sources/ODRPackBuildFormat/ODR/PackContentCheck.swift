import Foundation
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// What a pack must hold by its manifest entry, checked file by file whatever the layout. Each problem is a `verify-…`
/// diagnostic whose subject is the pack's file (docs/diagnostics.md).
package struct PackContentCheck {
    let pack: BuildManifest.Pack
    /// The pack's files by path bytes: NFC and NFD spellings of one name are two files (docs/manifest.md#tags).
    var expected: PathTable
    package var diagnostics: [Diagnostic] = []
    var sawInfo = false

    package init(pack: BuildManifest.Pack) {
        self.pack = pack
        expected = PathTable(pack.files)
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
        } else if let index = expected.take(name) {
            let file = pack.files[index]
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
        for path in expected.untaken.map(pack.files.path(at:)).sorted(by: { $0.precedesByCodePoint($1) }) {
            problem(.verifyEntryMismatch, "'\(path)' is missing from the pack")
        }
    }
}

extension PackContentCheck {
    /// A pack's files found by path bytes: an open-addressing table of file indices over the manifest's compact file
    /// list, 4 bytes a slot, where a map of paths took a `String` and a `File` a file (docs/build-output.md#bounded).
    /// A path listed twice is found once, at its first index.
    struct PathTable {
        let files: BuildManifest.Files
        /// File index + 1 in each slot, 0 for an empty one; a power of two at least twice the file count.
        private var slots: [UInt32]
        /// Whether each file was taken (or is a repeat of an earlier path, never to be taken).
        private var taken: [Bool]

        init(_ files: BuildManifest.Files) {
            self.files = files
            var capacity = 16
            while capacity < files.count * 2 { capacity *= 2 }
            slots = Array(repeating: 0, count: capacity)
            taken = Array(repeating: false, count: files.count)
            for index in files.indices {
                let found = files.withPath(at: index) { find($0) }
                if case .free(let slot) = found {
                    slots[slot] = UInt32(index + 1)
                } else {
                    taken[index] = true
                }
            }
        }

        private enum Probe {
            case found(Int)
            case free(Int)
        }

        private func find(_ path: UnsafeBufferPointer<UInt8>) -> Probe {
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(path))
            let mask = slots.count - 1
            var slot = hasher.finalize() & mask
            while true {
                let entry = Int(slots[slot])
                if entry == 0 { return .free(slot) }
                let same = files.withPath(at: entry - 1) {
                    $0.count == path.count
                        && (path.isEmpty || memcmp($0.baseAddress!, path.baseAddress!, path.count) == 0)
                }
                if same { return .found(entry - 1) }
                slot = (slot + 1) & mask
            }
        }

        /// The index of the file at `path`, the first time it is asked for; nil when the pack lists no such file or
        /// it was taken already.
        mutating func take(_ path: String) -> Int? {
            var path = path
            guard case .found(let index) = path.withUTF8({ find($0) }), !taken[index] else { return nil }
            taken[index] = true
            return index
        }

        /// The files never taken, in list order.
        var untaken: [Int] { taken.indices.filter { !taken[$0] } }
    }
}
