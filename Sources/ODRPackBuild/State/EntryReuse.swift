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
        var path: String
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
    ///   - fileDigests: each pack's files' digests where the cache vouches for them (`PackReuse`).
    ///   - settings: the archive-key prefix of the pack settings (`BuildOptions.archiveSettingsPrefix`).
    init(
        plan: PackPlan, toWrite: [Int], fileDigests: [[FileDigest?]], previous: BuildState, settings: String,
        packsPath: String
    ) {
        guard !toWrite.isEmpty, !previous.files.isEmpty else { return }
        // The pack each recorded file was archived in, among the archives that may be copied from.
        var usable: [(record: BuildState.PackRecord, path: String)] = []
        for (_, record) in previous.packs.sorted(by: { $0.key < $1.key }) {
            let path = packsPath + "/" + record.fileName
            guard record.archiveKey.hasPrefix(settings), record.archiveStamp.hasPrefix("f"),
                BuildState.packStamp(atPath: path) == record.archiveStamp
            else { continue }
            usable.append((record, path))
        }
        var holder = [Int32](repeating: -1, count: previous.files.count)
        for (number, archive) in usable.enumerated() {
            for file in archive.record.files { holder[Int(file)] = Int32(number) }
        }
        // Which recorded file each file to write is, when its content is what was archived.
        var wanted: [(pack: Int, file: Int, record: Int)] = []
        for pack in toWrite {
            for (position, file) in plan.packs[pack].files.enumerated() {
                guard position < fileDigests[pack].count, let digest = fileDigests[pack][position],
                    let record = previous.index(ofFileAtPath: file.path),
                    holder[record] >= 0, previous.files.digest(at: record) == digest
                else { continue }
                wanted.append((pack, position, record))
            }
        }
        guard !wanted.isEmpty else { return }
        // Each archive's directory, read only when one of its entries is wanted.
        var directories: [Int: [PathKey: ZipCentralDirectory.Entry]] = [:]
        var archiveNumbers: [Int: Int] = [:]
        for (pack, position, record) in wanted {
            let number = Int(holder[record])
            if directories[number] == nil {
                directories[number] = Self.directory(atPath: usable[number].path) ?? [:]
            }
            let file = plan.packs[pack].files[position]
            guard let entry = directories[number]?[PathKey(file.path)], entry.size == UInt64(file.size),
                entry.crc == previous.files.digest(at: record).crc32,
                entry.method == ZipFormat.deflated
                    || (entry.method == ZipFormat.stored && entry.compressedSize == entry.size)
            else { continue }
            let archive = archiveNumbers[number] ?? archives.count
            if archive == archives.count {
                archiveNumbers[number] = archive
                archives.append(Archive(path: usable[number].path, stamp: usable[number].record.archiveStamp))
            }
            bytes += file.size
            entries[pack, default: Array(repeating: nil, count: plan.packs[pack].files.count)][position] =
                Entry(
                    archive: archive, headerOffset: entry.headerOffset, compressedSize: Int64(entry.compressedSize),
                    deflated: entry.method == ZipFormat.deflated)
        }
    }

    /// An archive's file entries by name; nil when it cannot be read as the zip this project writes.
    private static func directory(atPath path: String) -> [PathKey: ZipCentralDirectory.Entry]? {
        guard case .success(let descriptor) = SystemCall.openForReading(path) else { return nil }
        defer { _ = SystemCall.closeFile(descriptor) }
        guard let status = SystemCall.status(path),
            let directory = try? ZipCentralDirectory(descriptor: descriptor, fileSize: UInt64(status.stamp.size))
        else { return nil }
        var byName: [PathKey: ZipCentralDirectory.Entry] = [:]
        byName.reserveCapacity(directory.entries.count)
        for entry in directory.entries where !entry.name.hasSuffix("/") { byName[PathKey(entry.name)] = entry }
        return byName
    }
}
