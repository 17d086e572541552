import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// Which files of the packs being rewritten the last build's archives already hold as this build would write them,
/// so their archived bytes are copied instead of read and compressed again (docs/build-output.md#incremental). An entry's bytes
/// depend only on its content and the pack settings (`PackWriter`), so one qualifies when its content is the one that
/// build archived (same SHA-256 and CRC-32), its archive was written with the same settings and is exactly as that
/// build left it (`BuildState.packStamp`), and the archive's own directory agrees. A file that moved to another pack
/// is copied from the archive it was in.
struct EntryReuse: Sendable {
    /// An archive entries are copied from, and the stamp that says it is as the last build left it.
    struct Archive: Sendable {
        var path: FilePath
        var stamp: String
    }

    /// One reusable entry: where its local header is and how its bytes are stored.
    struct Entry: Sendable, Equatable {
        var archive: Int
        var headerOffset: UInt64
        var compressedSize: Int64
        var deflated: Bool
    }

    private(set) var archives: [Archive] = []
    /// By plan index of a pack to write: each of its files' reusable entry, nil where it must be read.
    private(set) var entries: [Int: [Entry?]] = [:]
    /// The uncompressed bytes of all reusable entries: what the build need not read.
    private(set) var bytes: Int64 = 0

    init() {}

    /// - Parameters:
    ///   - known: what is known of each pack's files, and which recorded archive holds each one (`PackReuse`).
    ///   - settings: the archive-key prefix of the pack settings (`BuildOptions.archiveSettingsPrefix`).
    init(
        plan: PackPlan, toWrite: [Int], known: KnownDigests, previous: BuildState, settings: String,
        packsFolder: FilePath
    ) {
        guard !toWrite.isEmpty, !previous.files.isEmpty else { return }
        // The archives that may be copied from, by their pack's position among the recorded packs.
        var usable: [Int: (record: BuildState.PackRecord, path: FilePath)] = [:]
        for (number, id) in previous.packs.keys.sorted().enumerated() {
            let record = previous.packs[id]!
            let path = packsFolder.joined(record.fileName)
            guard record.archiveKey.hasPrefix(settings), record.archiveStamp.hasPrefix("f"),
                BuildState.packStamp(at: path) == record.archiveStamp
            else { continue }
            usable[number] = (record, path)
        }
        // Each file to write whose content is what a usable archive holds.
        var wanted: [(pack: Int, file: Int, holder: Int)] = []
        for pack in toWrite {
            for position in plan.packs[pack].files.indices {
                guard let holder = known.holder(pack: pack, index: position), usable[holder] != nil else { continue }
                wanted.append((pack, position, holder))
            }
        }
        guard !wanted.isEmpty else { return }
        // Each archive's directory, read only when one of its entries is wanted.
        var directories: [Int: [PathKey: ZipCentralDirectory.Entry]] = [:]
        var archiveNumbers: [Int: Int] = [:]
        for (pack, position, number) in wanted {
            guard let holder = usable[number] else { continue }
            if directories[number] == nil {
                directories[number] = Self.directory(at: holder.path) ?? [:]
            }
            let file = plan.packs[pack].files[position]
            guard let entry = directories[number]?[PathKey(file.path)], entry.size == UInt64(file.size),
                let digest = known.digest(pack: pack, index: position), entry.crc == digest.crc32,
                entry.method == ZipFormat.deflated
                    || (entry.method == ZipFormat.stored && entry.compressedSize == entry.size)
            else { continue }
            let archive = archiveNumbers[number] ?? archives.count
            if archive == archives.count {
                archiveNumbers[number] = archive
                archives.append(Archive(path: holder.path, stamp: holder.record.archiveStamp))
            }
            bytes += file.size
            entries[pack, default: Array(repeating: nil, count: plan.packs[pack].files.count)][position] =
                Entry(
                    archive: archive, headerOffset: entry.headerOffset, compressedSize: Int64(entry.compressedSize),
                    deflated: entry.method == ZipFormat.deflated)
        }
    }

    /// An archive's file entries by name; nil when it cannot be read as the zip this project writes.
    private static func directory(at file: FilePath) -> [PathKey: ZipCentralDirectory.Entry]? {
        guard case .success(let descriptor) = SystemCall.openForReading(file) else { return nil }
        defer { _ = SystemCall.closeFile(descriptor) }
        guard let status = SystemCall.status(file),
            let directory = try? ZipCentralDirectory(descriptor: descriptor, fileSize: UInt64(status.stamp.size))
        else { return nil }
        var byName: [PathKey: ZipCentralDirectory.Entry] = [:]
        byName.reserveCapacity(directory.entries.count)
        for entry in directory.entries where !entry.name.hasSuffix("/") { byName[PathKey(entry.name)] = entry }
        return byName
    }
}
