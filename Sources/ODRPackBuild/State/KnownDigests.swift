import ODRPackBuildFormat
import ODRPackCore

/// What a build knows of each pack's files' content before writing (docs/build-output.md#incremental): a file's
/// digest where the last build's state vouches for it (its stamp is as recorded) or the build read the file again,
/// and, for a file whose content is the recorded one, the recorded pack whose archive holds it (`EntryReuse`). 40
/// bytes a file, only for packs with a file known or being read again: none on a clean build, and a reused pack's
/// digests become its facts, moved, not copied (`take`).
struct KnownDigests: Sendable {
    /// By pack, each file's digest where `origins` says there is one.
    private var digests: [[FileDigest]]
    /// By pack, each file's flags and, in the low bits, its recorded pack's position among the state's packs plus one
    /// (0: none).
    private var origins: [[UInt32]]

    /// The digest is the file's content.
    private static let known: UInt32 = 1 << 31
    /// The digest is the one the state recorded for the file.
    private static let recorded: UInt32 = 1 << 30
    private static let holderBits: UInt32 = recorded - 1
    private static let none = [UInt8](repeating: 0, count: 32).withUnsafeBytes { FileDigest(sha256Bytes: $0, crc32: 0) }

    init(packs: Int) {
        digests = Array(repeating: [], count: packs)
        origins = Array(repeating: [], count: packs)
    }

    /// Whether anything is known of the pack's files.
    func isEmpty(pack: Int) -> Bool { origins[pack].isEmpty }

    private mutating func make(pack: Int, files: Int) {
        guard origins[pack].isEmpty, files > 0 else { return }
        digests[pack] = Array(repeating: Self.none, count: files)
        origins[pack] = Array(repeating: 0, count: files)
    }

    /// The state recorded `digest` for file `index` of `pack` (of `files`), archived in recorded pack `holder`;
    /// `vouched`: its stamp is as recorded, so that is its content. Otherwise `learned` must say what it is.
    mutating func record(pack: Int, index: Int, files: Int, digest: FileDigest, holder: Int, vouched: Bool) {
        make(pack: pack, files: files)
        digests[pack][index] = digest
        origins[pack][index] =
            (vouched ? Self.known : 0) | Self.recorded | (UInt32(truncatingIfNeeded: holder + 1) & Self.holderBits)
    }

    /// The file was read again: `digest` is its content, and still the recorded content only if it equals it.
    mutating func learned(pack: Int, index: Int, files: Int, digest: FileDigest) {
        make(pack: pack, files: files)
        let origin = origins[pack][index]
        let same = origin & Self.recorded != 0 && digests[pack][index] == digest
        digests[pack][index] = digest
        origins[pack][index] = Self.known | (same ? origin & ~Self.known : 0)
    }

    /// The file's digest, when its content is known.
    func digest(pack: Int, index: Int) -> FileDigest? {
        guard index < origins[pack].count, origins[pack][index] & Self.known != 0 else { return nil }
        return digests[pack][index]
    }

    /// The recorded pack (its position among the state's packs) whose archive holds the file's known content.
    func holder(pack: Int, index: Int) -> Int? {
        guard index < origins[pack].count else { return nil }
        let origin = origins[pack][index]
        guard origin & Self.known != 0, origin & Self.recorded != 0, origin & Self.holderBits != 0 else { return nil }
        return Int(origin & Self.holderBits) - 1
    }

    /// Positions of the pack's files (of `files`) whose content is not known.
    func unknown(pack: Int, files: Int) -> [Int] {
        guard !origins[pack].isEmpty else { return Array(0..<files) }
        return origins[pack].indices.filter { origins[pack][$0] & Self.known == 0 }
    }

    /// Every file's digest, when each one is known (of `files`).
    func all(pack: Int, files: Int) -> [FileDigest]? {
        guard files > 0 else { return [] }
        guard origins[pack].allSatisfy({ $0 & Self.known != 0 }), origins[pack].count == files else { return nil }
        return digests[pack]
    }

    /// The pack's digests for its writer: nil where unknown, and empty when none is.
    func forWriter(pack: Int) -> [FileDigest?] {
        guard !origins[pack].isEmpty else { return [] }
        return origins[pack].indices.map { origins[pack][$0] & Self.known != 0 ? digests[pack][$0] : nil }
    }

    /// Hands the pack's digests over (to its facts), keeping nothing of it.
    mutating func take(pack: Int) -> [FileDigest] {
        origins[pack] = []
        var taken: [FileDigest] = []
        swap(&taken, &digests[pack])
        return taken
    }
}
