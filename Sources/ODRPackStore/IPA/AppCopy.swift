import Foundation
import ODRPackFormats
import ODRPackPlatform

/// The temporary copy `ipa` works on (docs/store.md#ipa), so its inputs never change: an app folder copied into
/// `Payload/NAME.app/` of a new folder, or an `.ipa` unpacked there whole (with `SwiftSupport/`, `Symbols/`… beside
/// `Payload/`). Files keep their bytes and permission bits, symbolic links stay links.
enum AppCopy {
    /// Copies the app folder `app` to `root/Payload/<its name>`; returns the copy's path. Paths and names are bytes
    /// throughout: an app in a folder whose name is not UTF-8, or holding such a file, is copied as it is
    /// (docs/architecture.md#paths).
    static func copyFolder(_ app: FilePath, into root: FilePath) throws -> FilePath {
        let app = app.normalized
        guard let name = app.lastComponent, name.kind == .regular else {
            throw ODRPackError.ipa(.notAnAppFolder(app))
        }
        let payload = root.joined("Payload")
        try OutputFolder.makeFolder(payload)
        let copy = payload.appending(name)
        try copyTree(app, to: copy)
        return copy
    }

    /// Copies the folder `source` to the new folder `destination`, links as links.
    static func copyTree(_ source: FilePath, to destination: FilePath) throws {
        try OutputFolder.makeFolder(destination)
        var folders: [(FilePath, FileMode)] = []
        let buffer = ReadBuffer(size: 1 << 20)
        // Each entry is reached by its name's bytes (`FolderWalk.Entry.file(under:)`), in the app and in the copy.
        try FolderWalk.walk(under: source) { entry in
            try Interrupt.checkpoint()
            let from = entry.file(under: source)
            let to = entry.file(under: destination)
            switch entry.status.kind {
            case .directory:
                try OutputFolder.makeFolder(to)
                folders.append((to, entry.status.permissions))
            case .symbolicLink:
                try link(to, target: try SystemCall.linkTarget(from))
            case .regular:
                try FileCopy.copy(
                    from, to: to, size: entry.status.stamp.size, permissions: entry.status.permissions, buffer: buffer)
            case .other:
                throw ODRPackError.ipa(.unsupportedInApp(from.text))
            }
        }
        // Folders keep their modes, writable by their owner so that thinning can remove files in them.
        if let status = SystemCall.status(source) { folders.append((destination, status.permissions)) }
        for (folder, permissions) in folders.reversed() { try setPermissions(folder, permissions | 0o700) }
    }

    /// Unpacks the `.ipa` at `path` into `root` and returns the app's path (`root/Payload/NAME.app`).
    static func unpack(_ path: FilePath, into root: FilePath) throws -> FilePath {
        do {
            try unpackZip(path, into: root)
        } catch let error as ZipFormatError {
            throw ODRPackError.ipa(.unreadable(path.text, reason: error.description))
        }
        let payload = root.joined("Payload")
        let apps = try OutputFolder.names(in: payload).filter { $0.hasSuffix(".app") }.sorted()
        guard apps.count == 1, SystemCall.status(payload.joined(apps[0]), followingLinks: false)?.kind == .directory
        else {
            throw ODRPackError.ipa(.appCount(path.text, count: apps.count))
        }
        return payload.joined(apps[0])
    }

    /// Reads the zip through its central directory, which every zip tool writes whole: entries whose sizes follow
    /// their data (data descriptors, as `ditto` writes them) are read as well as the rest, and each entry's mode
    /// comes with it. Every entry's CRC-32 and size are checked.
    private static func unpackZip(_ file: FilePath, into root: FilePath) throws {
        let descriptor: Int32
        let path = file.text
        switch SystemCall.openForReading(file) {
        case .success(let opened): descriptor = opened
        case .failure(let error): throw ODRPackError.io(.read, path: file, error)
        }
        defer { SystemCall.closeFile(descriptor) }
        let size = try SystemCall.requireStatus(file, .read).stamp.size
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
        if let room = SystemCall.availableBytes(root), declared > room {
            throw ODRPackError.ipa(.moreThanFreeSpace(path, declared: declared, free: room, folder: root.text))
        }
        let buffer = ReadBuffer(size: 1 << 20)
        var seen = Set<FilePath>()
        var links: [(path: FilePath, target: [UInt8])] = []
        var folders: [(FilePath, FileMode)] = []
        for entry in directory.entries {
            try Interrupt.checkpoint()
            // The name's bytes: one that is not UTF-8 (`caf\xE9.txt`, without the UTF-8 flag) is unpacked as itself.
            let (target, name) = try checkedName(entry, in: path, root: root)
            guard seen.insert(target).inserted else {
                throw ODRPackError.ipa(.duplicateEntry(path, entry: name))
            }
            let unixMode = entry.versionMadeBy >> 8 == 3 ? entry.mode : 0
            try OutputFolder.makeFolder(target.parent)
            if entry.nameBytes.last == UInt8(ascii: "/") || unixMode & 0o170000 == 0o040000 {
                try OutputFolder.makeFolder(target)
                folders.append((target, unixMode == 0 ? 0o755 : FileMode(unixMode & 0o777) | 0o700))
                continue
            }
            guard SystemCall.status(target, followingLinks: false) == nil else {
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
            let output = try OutputFile(path: target)
            defer { output.close() }
            try readData(of: entry, from: descriptor, path: path, buffer: buffer) { try output.write($0) }
            try setPermissions(target, unixMode == 0 ? 0o644 : FileMode(unixMode & 0o777))
        }
        // Links are made once every file is out, so that nothing is written through one.
        for (target, bytes) in links {
            try link(target, target: bytes)
        }
        for (folder, permissions) in folders.sorted(by: { $0.0.length > $1.0.length }) {
            try setPermissions(folder, permissions)
        }
    }

    /// Where the entry goes under `root`, from its name's bytes without a final "/", and the name for messages;
    /// refused when it could leave the folder it is unpacked into.
    private static func checkedName(_ entry: ZipCentralDirectory.Entry, in path: String, root: FilePath) throws
        -> (FilePath, String)
    {
        var bytes = entry.nameBytes
        if bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        let parts = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        var target = root
        for part in parts {
            guard let next = target.joined(name: part) else {
                // Empty, ".", "..", or holding a NUL: a name that could lead out of the archive's folder.
                throw ODRPackError.ipa(.entryLeavesArchive(path, entry: entry.name))
            }
            target = next
        }
        guard !bytes.isEmpty else { throw ODRPackError.ipa(.entryLeavesArchive(path, entry: entry.name)) }
        return (target, FilePath.shownText(of: bytes))
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

    private static func link(_ path: FilePath, target: [UInt8]) throws {
        if let failure = SystemCall.makeLink(path, target: target) {
            throw ODRPackError.io(.makeLink, path: path, failure)
        }
    }

    private static func setPermissions(_ path: FilePath, _ permissions: FileMode) throws {
        if let failure = SystemCall.setPermissions(path, permissions) {
            throw ODRPackError.io(.setMode, path: path, failure)
        }
    }
}
