import Foundation
import ODRPackFormats
import ODRPackPlatform

/// The temporary copy `ipa` works on (docs/store.md#ipa), so its inputs never change: an app folder copied into
/// `Payload/NAME.app/` of a new folder, or an `.ipa` unpacked there whole (with `SwiftSupport/`, `Symbols/`… beside
/// `Payload/`). Files keep their bytes and permission bits, symbolic links stay links.
enum AppCopy {
    /// Copies the app folder `app` to `root/Payload/<its name>`; returns the copy's path.
    static func copyFolder(_ app: String, into root: String) throws -> String {
        let name = FilePath(app).name
        let copy = root + "/Payload/" + name
        try OutputFolder.makeFolder(FilePath(root).joined("Payload"))
        try copyTree(app, to: copy)
        return copy
    }

    /// Copies the folder `source` to the new folder `destination`, links as links.
    static func copyTree(_ source: String, to destination: String) throws {
        try OutputFolder.makeFolder(FilePath(destination))
        var folders: [(String, FileMode)] = []
        let buffer = ReadBuffer(size: 1 << 20)
        // Each entry's paths are joined as text and made a `FilePath` once, at the call (docs/architecture.md#paths).
        try FolderWalk.walk(under: FilePath(source)) { entry in
            try Interrupt.checkpoint()
            let from = source.slashJoined(entry.path)
            let to = destination.slashJoined(entry.path)
            switch entry.status.kind {
            case .directory:
                try OutputFolder.makeFolder(FilePath(to))
                folders.append((to, entry.status.permissions))
            case .symbolicLink:
                try link(
                    to, target: try fileOperation { try FileManager.default.destinationOfSymbolicLink(atPath: from) })
            case .regular:
                try FileCopy.copy(
                    FilePath(from), to: FilePath(to), size: entry.status.stamp.size,
                    permissions: entry.status.permissions, buffer: buffer)
            case .other:
                throw ODRPackError.ipa(.unsupportedInApp(from))
            }
        }
        // Folders keep their modes, writable by their owner so that thinning can remove files in them.
        if let status = SystemCall.status(FilePath(source)) { folders.append((destination, status.permissions)) }
        for (folder, permissions) in folders.reversed() { try setPermissions(folder, permissions | 0o700) }
    }

    /// Unpacks the `.ipa` at `path` into `root` and returns the app's path (`root/Payload/NAME.app`).
    static func unpack(_ path: String, into root: String) throws -> String {
        do {
            try unpackZip(path, into: root)
        } catch let error as ZipFormatError {
            throw ODRPackError.ipa(.unreadable(path, reason: error.description))
        }
        let payload = FilePath(root).joined("Payload")
        let apps = try OutputFolder.names(in: payload).filter { $0.hasSuffix(".app") }.sorted()
        guard apps.count == 1, SystemCall.status(payload.joined(apps[0]), followingLinks: false)?.kind == .directory
        else {
            throw ODRPackError.ipa(.appCount(path, count: apps.count))
        }
        return root + "/Payload/" + apps[0]
    }

    /// Reads the zip through its central directory, which every zip tool writes whole: entries whose sizes follow
    /// their data (data descriptors, as `ditto` writes them) are read as well as the rest, and each entry's mode
    /// comes with it. Every entry's CRC-32 and size are checked.
    private static func unpackZip(_ path: String, into root: String) throws {
        let descriptor: Int32
        let file = FilePath(path)
        switch SystemCall.openForReading(file) {
        case .success(let opened): descriptor = opened
        case .failure(let error): throw ODRPackError.systemCall("cannot read '\(path)'", error)
        }
        defer { SystemCall.closeFile(descriptor) }
        let size = try SystemCall.requireStatus(file, "cannot read '\(path)'").stamp.size
        let directory = try ZipCentralDirectory(descriptor: descriptor, fileSize: UInt64(size))
        // Entries that share bytes, or that declare more than the work folder's file system has room for, are refused
        // before anything is written (docs/store.md#ipa): a small hostile IPA cannot fill the disk.
        if let entry = directory.overlappingEntry() {
            throw ODRPackError.ipa(.overlappingEntry(path, entry: entry.name))
        }
        let declared = directory.entries.reduce(UInt64(0)) { total, entry in
            let (sum, overflow) = total.addingReportingOverflow(entry.size)
            return overflow ? UInt64.max : sum
        }
        if let room = SystemCall.availableBytes(FilePath(root)), declared > room {
            throw ODRPackError.ipa(.moreThanFreeSpace(path, declared: declared, free: room, folder: root))
        }
        let buffer = ReadBuffer(size: 1 << 20)
        var seen = Set<PathKey>()
        var links: [(path: String, target: [UInt8])] = []
        var folders: [(String, FileMode)] = []
        for entry in directory.entries {
            try Interrupt.checkpoint()
            let name = try checkedName(entry.name, in: path)
            guard seen.insert(PathKey(name)).inserted else {
                throw ODRPackError.ipa(.duplicateEntry(path, entry: name))
            }
            let target = root.slashJoined(name)
            let unixMode = entry.versionMadeBy >> 8 == 3 ? entry.mode : 0
            try OutputFolder.makeFolder(FilePath(target).parent)
            if entry.name.hasSuffix("/") || unixMode & 0o170000 == 0o040000 {
                try OutputFolder.makeFolder(FilePath(target))
                folders.append((target, unixMode == 0 ? 0o755 : FileMode(unixMode & 0o777) | 0o700))
                continue
            }
            guard SystemCall.status(FilePath(target), followingLinks: false) == nil else {
                throw ODRPackError.ipa(.entryInsideFile(path, entry: name))
            }
            if unixMode & 0o170000 == 0o120000 {
                // A link's data is its target: a path, never more than `linkTargetLimit` bytes, held as it is read.
                guard entry.size <= UInt64(linkTargetLimit) else {
                    throw ODRPackError.ipa(
                        .linkTargetTooLong(path, entry: name, bytes: entry.size, limit: linkTargetLimit))
                }
                var bytes: [UInt8] = []
                try readData(of: entry, from: descriptor, path: path, buffer: buffer) { bytes.append(contentsOf: $0) }
                links.append((target, bytes))
                continue
            }
            let output = try OutputFile(path: FilePath(target))
            defer { output.close() }
            try readData(of: entry, from: descriptor, path: path, buffer: buffer) { try output.write($0) }
            try setPermissions(target, unixMode == 0 ? 0o644 : FileMode(unixMode & 0o777))
        }
        // Links are made once every file is out, so that nothing is written through one.
        for (target, bytes) in links {
            try link(target, target: String(decoding: bytes, as: UTF8.self))
        }
        for (folder, permissions) in folders.sorted(by: { $0.0.utf8.count > $1.0.utf8.count }) {
            try setPermissions(folder, permissions)
        }
    }

    /// The entry's name without a final "/", refused when it could leave the folder it is unpacked into.
    private static func checkedName(_ entryName: String, in path: String) throws -> String {
        let name = entryName.hasSuffix("/") ? String(entryName.dropLast()) : entryName
        let parts = name.slashSeparated(omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !name.utf8.contains(0),
            !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
        else {
            throw ODRPackError.ipa(.entryLeavesArchive(path, entry: entryName))
        }
        return name
    }

    /// Streams one entry's uncompressed bytes: its data starts after its local header's name and extra field.
    private static func readData(
        of entry: ZipCentralDirectory.Entry, from descriptor: Int32, path: String, buffer: ReadBuffer,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var header = [UInt8](repeating: 0, count: 30)
        let got = header.withUnsafeMutableBytes {
            SystemCall.readFully(descriptor, into: $0.baseAddress!, count: 30, at: Int64(entry.headerOffset))
        }
        guard got == 30, header[0] == 0x50, header[1] == 0x4B, header[2] == 3, header[3] == 4 else {
            throw unreadable(path, "no local header for '\(entry.name)' at \(entry.headerOffset)")
        }
        let nameLength = UInt64(header[26]) | UInt64(header[27]) << 8
        let extraLength = UInt64(header[28]) | UInt64(header[29]) << 8
        var offset = entry.headerOffset + 30 + nameLength + extraLength
        var left = entry.compressedSize
        var crc: UInt32 = 0
        var produced: UInt64 = 0
        func emit(_ bytes: UnsafeRawBufferPointer) throws {
            crc = CRC32.update(crc, bytes)
            produced += UInt64(bytes.count)
            // Stopped as soon as the entry holds more than it declares: a small IPA cannot make ipa write or hold
            // more than the IPA says it holds (docs/store.md#ipa).
            guard produced <= entry.size else { throw sizeMismatch(entry, path, produced: nil) }
            try body(bytes)
        }
        let inflater: Inflater?
        switch entry.method {
        case ZipFormat.stored: inflater = nil
        case ZipFormat.deflated: inflater = try Inflater()
        default:
            throw unreadable(
                path, "'\(entry.name)' uses compression method \(entry.method), not stored (0) or deflate (8)")
        }
        var ended = false
        while left > 0 {
            let count = SystemCall.readFully(
                descriptor, into: buffer.bytes.baseAddress!, count: Int(min(UInt64(buffer.bytes.count), left)),
                at: Int64(offset))
            guard count > 0 else { throw unreadable(path, "'\(entry.name)' ends before its data") }
            let piece = UnsafeRawBufferPointer(rebasing: buffer.bytes[..<count])
            if let inflater {
                guard !ended else { throw unreadable(path, "'\(entry.name)': data after its deflate stream") }
                ended = try inflater.inflate(piece, emit)
            } else {
                try emit(piece)
            }
            offset += UInt64(count)
            left -= UInt64(count)
        }
        if let inflater, !ended, entry.compressedSize == 0 {
            ended = try inflater.inflate(UnsafeRawBufferPointer(start: nil, count: 0), emit)
        }
        if inflater == nil || ended, produced != entry.size { throw sizeMismatch(entry, path, produced: produced) }
        guard inflater == nil || ended, crc == entry.crc, produced == entry.size else {
            throw ODRPackError.ipa(.damagedEntry(path, entry: entry.name))
        }
    }

    /// The longest symbolic link target an input IPA may hold: PATH_MAX.
    static let linkTargetLimit = 4096

    /// An entry whose data is not the size its header declares (`produced`: what it held, nil when more).
    private static func sizeMismatch(_ entry: ZipCentralDirectory.Entry, _ path: String, produced: UInt64?)
        -> ODRPackError
    {
        .ipa(.entrySizeMismatch(path, entry: entry.name, declared: entry.size, holds: produced))
    }

    private static func unreadable(_ path: String, _ why: String) -> ODRPackError {
        .ipa(.unreadable(path, reason: why))
    }

    private static func link(_ path: String, target: String) throws {
        try fileOperation { try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target) }
    }

    private static func setPermissions(_ path: String, _ permissions: FileMode) throws {
        try fileOperation {
            try FileManager.default.setAttributes([.posixPermissions: Int(permissions)], ofItemAtPath: path)
        }
    }

    private static func fileOperation<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ODRPackError {
            throw error
        } catch {
            throw ODRPackError.fileOperation(error.localizedDescription)
        }
    }
}
