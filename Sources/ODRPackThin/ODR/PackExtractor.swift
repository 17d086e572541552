import Foundation
import ODRPackBuildFormat
import ODRPackFormats
import ODRPackPlatform

/// Lays out a built pack (a zip or a folder) as a pack folder: what an app embeds and an IPA holds. Files get
/// mode 0644, folders 0755, and the times the pack holds, so the copy is as reproducible as the build.
package enum PackExtractor {
    /// The bytes `extract` writes for a pack of a build that verifies: its files and its Info.plist (progress totals).
    package static func writtenBytes(of pack: BuildManifest.Pack) -> Int64 {
        [
            pack.size,
            Int64(AppleManifests.infoPlist(id: pack.id, tags: pack.tags, priority: pack.priority).binaryData().count),
        ].saturatingSum
    }

    /// Files from this size on start their write-back when written; for a smaller one the call costs more than it saves
    /// (thousands of levels of a few KB: the kernel writes them back in batches anyway).
    static let writebackSize: Int64 = 1 << 20

    /// Writes the pack at `source` into the new folder `destination`; returns the bytes of its files.
    /// - Parameter written: shown the byte count of each piece of a file as it is written (progress).
    package static func extract(
        _ source: FilePath, to destination: FilePath, written: (Int64) -> Void = { _ in }
    ) throws -> Int64 {
        let pack = source.text  // as messages name it
        let status = try SystemCall.requireStatus(source, followingLinks: false, .readKind("the pack"))
        guard status.kind == .directory || status.kind == .regular else {
            throw ODRPackError.thin(.packNotFileOrFolder(source))
        }
        try OutputFolder.makeFolder(destination)
        var folders: [(FilePath, Int64)] = []
        var total: Int64 = 0
        let buffer = ReadBuffer(size: 1 << 20)
        if status.kind == .directory {
            for entry in try PackEntry.entries(ofFolder: source) {
                let item = try SystemCall.requireStatus(
                    source.joined(entry.name), followingLinks: false, .named(.stat, "\(pack)/\(entry.name)"))
                let time = item.stamp.modificationNanoseconds / 1_000_000_000
                // The entry's path is joined as text and made a `FilePath` once, at the call that makes it.
                let path = destination.string.slashJoined(entry.name)
                guard case .file(let location, let size, _, _) = entry.content else {
                    let folder = FilePath(String(path.dropLast()))
                    try OutputFolder.makeFolder(folder)
                    folders.append((folder, time))
                    continue
                }
                let input = try SourceFile(path: location.file, name: entry.name, expected: nil, size: size)
                defer { input.close() }
                let output = try OutputFile(path: FilePath(path))
                defer { output.close() }
                try input.stream(into: buffer.bytes) {
                    try output.write($0)
                    written(Int64($0.count))
                }
                try output.finish(time: time, startingWriteback: size >= writebackSize)
                total += size
            }
            folders.append((destination, status.stamp.modificationNanoseconds / 1_000_000_000))
        } else {
            do {
                try extractZip(source, to: destination, folders: &folders, total: &total, written: written)
            } catch let error as StreamingZipReader.FormatError {
                throw ODRPackError.thin(.unreadablePack(source, reason: error.description))
            }
        }
        for (folder, time) in folders.reversed() { try OutputFile.setFolderAttributes(folder, time: time) }
        return total
    }

    private static func extractZip(
        _ source: FilePath, to destination: FilePath, folders: inout [(FilePath, Int64)], total: inout Int64,
        written: (Int64) -> Void
    ) throws {
        let reader = try StreamingZipReader(path: source)
        var time = Int64(0)
        while let entry = try reader.nextEntry() {
            time = ZipFormat.seconds(dosTime: entry.dosTime, dosDate: entry.dosDate)
            if entry.name.hasPrefix(ZipMetadata.folderName) { continue }
            guard !entry.name.slashSeparated().contains(where: { $0 == ".." || $0 == "." }),
                !entry.name.hasPrefix("/")
            else {
                throw ODRPackError.thin(.packEntryLeavesPack(source, entry: entry.name))
            }
            // A NUL ends a path for the file system: "a\0b" would be written as "a".
            guard !entry.name.utf8.contains(0) else {
                throw ODRPackError.thin(.packEntryHoldsNUL(source, entry: entry.name))
            }
            // Joined to the destination's own bytes (its text would repair a name that is not UTF-8); a folder entry's
            // trailing "/" is dropped by FilePath.
            let path = destination.joined(entry.name)
            if entry.name.hasSuffix("/") {
                try OutputFolder.makeFolder(path)
                folders.append((path, time))
                continue
            }
            let output = try OutputFile(path: path)
            defer { output.close() }
            let (crc, size) = try reader.readData {
                try output.write($0)
                written(Int64($0.count))
            }
            guard crc == entry.crc, size == entry.size else {
                throw ODRPackError.thin(.damagedPackEntry(source, entry: entry.name))
            }
            try output.finish(time: time, startingWriteback: Int64(size) >= writebackSize)
            total += Int64(size)
        }
        folders.append((destination, time))
    }
}
