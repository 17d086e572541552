import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file beside its final name and renames it into place: a reader sees the old file or the whole new one.
package enum AtomicFile {
    static func temporaryPath(for path: FilePath) -> FilePath { TemporaryName.path(beside: path) }

    /// - Parameter unlinkingFirst: remove the old file just before the rename, which is then not atomic but spares
    ///   a large file ext4's flush on replacing rename. The temporary never outlives a failure. A device or pipe at `path`
    ///   is written in place; a symbolic link is kept and its target replaced, or with `replacingLinks` replaced itself
    ///   (for files inside a folder that must not reach out of it, such as an app).
    /// - Parameter durable: the bytes reach stable storage before the rename, and the rename before the return
    ///   (fsync of the file, then of its folder): for a build's manifests, which must never name what a power cut lost.
    package static func write(
        _ data: some ContiguousBytes, to givenPath: FilePath, unlinkingFirst: Bool = false,
        replacingLinks: Bool = false,
        durable: Bool = false
    ) throws {
        try stage(data, for: givenPath, replacingLinks: replacingLinks, durable: durable).moveIntoPlace(
            unlinkingFirst: unlinkingFirst)
    }

    /// `write` up to the rename: the temporary is written (and with `durable` flushed) now, and renamed into place
    /// by `moveIntoPlace`, so that a build can write its manifest while its packs reach the disk.
    /// - Parameter replacingAnything: whatever is at `path` (a link, a device too) is replaced, as if it had been
    ///   removed first: for a build's manifest, which the build removes meanwhile, so the outcome cannot depend on when.
    package static func stage(
        _ data: some ContiguousBytes, for givenPath: FilePath, replacingLinks: Bool = false,
        replacingAnything: Bool = false, durable: Bool = false
    ) throws -> StagedFile {
        let path: FilePath
        switch try destination(givenPath, replacingLinks: replacingLinks, replacingAnything: replacingAnything) {
        case .inPlace(let device):
            return StagedFile(path: device, place: .inPlace(data.withUnsafeBytes { Data($0) }), durable: durable)
        case .file(let file): path = file
        }
        let temporary = temporaryPath(for: path)
        let descriptor = try createTemporary(temporary, for: path)
        let failure = writeAll(data, to: descriptor, sync: durable)
        guard failure == 0 else {
            _ = SystemCall.removeFile(temporary)
            throw ODRPackError.system(.write, path, failure)
        }
        return StagedFile(path: path, place: .temporary(temporary), durable: durable)
    }

    /// `stage` of a document written as it is made, a chunk at a time (docs/build-output.md#bounded): a document of any
    /// size costs one chunk of memory. A failure to write (a full disk) or to make the document removes the temporary
    /// and throws; nothing is ever renamed into place half-written.
    /// - Parameter keepingMode: the new file gets the permission bits of the file it replaces (a 0600 report stays
    ///   0600: docs/commands.md#scripts); a new file is 0644 before the umask.
    package static func stage(
        _ document: StreamedDocument, for givenPath: FilePath, replacingLinks: Bool = false,
        replacingAnything: Bool = false, durable: Bool = false, keepingMode: Bool = false
    ) throws -> StagedFile {
        let path: FilePath
        switch try destination(givenPath, replacingLinks: replacingLinks, replacingAnything: replacingAnything) {
        case .inPlace(let device):
            return StagedFile(path: device, place: .inPlace(Data(try document.bytes())), durable: durable)
        case .file(let file): path = file
        }
        let temporary = temporaryPath(for: path)
        let descriptor = try createTemporary(temporary, for: path)
        if keepingMode, let replaced = SystemCall.status(path, followingLinks: false), replaced.kind == .regular,
            fchmod(descriptor, mode_t(replaced.permissions & 0o777)) != 0
        {
            let failure = errno
            SystemCall.closeFile(descriptor)
            _ = SystemCall.removeFile(temporary)
            throw ODRPackError.system(.setMode, path, failure)
        }
        var sink = DocumentSink { chunk in
            let failure = SystemCall.writeAll(descriptor, chunk)
            if failure != 0 { throw ODRPackError.system(.write, path, failure) }
        }
        do {
            try document.write(&sink)
            try sink.flush()
        } catch {
            SystemCall.closeFile(descriptor)
            _ = SystemCall.removeFile(temporary)
            throw error
        }
        let failure = writeAll([UInt8](), to: descriptor, sync: durable)
        guard failure == 0 else {
            _ = SystemCall.removeFile(temporary)
            throw ODRPackError.system(.write, path, failure)
        }
        return StagedFile(path: path, place: .temporary(temporary), durable: durable)
    }

    /// Creates the temporary `stage` writes (0644 before the umask); the error names the final `path`.
    private static func createTemporary(_ temporary: FilePath, for path: FilePath) throws -> Int32 {
        let descriptor = temporary.withPlatformString { open($0, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { throw ODRPackError.system(.write, path) }
        return descriptor
    }

    /// Where `stage` writes for `givenPath`: the regular file at the end of a live link (unless told otherwise), or a
    /// device or pipe, written in place.
    private enum Destination {
        case file(FilePath)
        case inPlace(FilePath)
    }

    private static func destination(_ givenPath: FilePath, replacingLinks: Bool, replacingAnything: Bool) throws
        -> Destination
    {
        var path = givenPath
        let fileSystem = LocalFileSystem()
        var status = replacingAnything ? nil : try? fileSystem.status(givenPath, followingLinks: false).get()
        if status?.kind == .symbolicLink {
            // A live link stays a link unless told otherwise: what it leads to is written. A dangling one is replaced.
            status = replacingLinks ? nil : try? fileSystem.status(givenPath, followingLinks: true).get()
            if status != nil, case .success(let target) = fileSystem.resolved(givenPath) { path = target }
        }
        guard let status else { return .file(path) }
        switch status.kind {
        case .regular:
            return .file(path)
        case .directory:
            throw ODRPackError.system(.write, givenPath, EISDIR)
        case .symbolicLink, .other:
            // A device, pipe or terminal (/dev/stdout, a FIFO) is written in place, as a shell's '>' writes it:
            // renaming over it would replace the device with a file.
            return .inPlace(path)
        }
    }

    /// A file `AtomicFile.stage` wrote beside its final name, waiting to be renamed into place.
    package struct StagedFile: Sendable {
        enum Place: Sendable {
            case temporary(FilePath)
            /// A device or pipe, written when the file would be moved into place.
            case inPlace(Data)
        }

        /// The final path, links resolved.
        let path: FilePath
        let place: Place
        let durable: Bool

        /// - Parameter syncingFolder: with `durable`, flush the rename too; false for a caller that flushes the folder
        ///   itself after more renames in it (one flush for all).
        package func moveIntoPlace(unlinkingFirst: Bool = false, syncingFolder: Bool = true) throws {
            switch place {
            case .inPlace(let data):
                try writeInPlace(data, to: path)
            case .temporary(let temporary):
                if unlinkingFirst { _ = SystemCall.removeFile(path) }
                if let error = SystemCall.rename(temporary, to: path) {
                    _ = SystemCall.removeFile(temporary)
                    throw ODRPackError.io(.move(to: path), path: temporary, error)
                }
                if durable && syncingFolder { try SystemCall.syncFolder(path.parent) }
            }
        }

        /// Removes the temporary, for a build that fails before it moves the file into place.
        package func discard() {
            if case .temporary(let temporary) = place { _ = SystemCall.removeFile(temporary) }
        }
    }

    private static func writeInPlace(_ data: some ContiguousBytes, to path: FilePath) throws {
        let descriptor = path.withPlatformString { open($0, O_WRONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw ODRPackError.system(.write, path) }
        let failure = writeAll(data, to: descriptor)
        guard failure == 0 else { throw ODRPackError.system(.write, path, failure) }
    }

    /// Writes all of `data` (then fsyncs it when `sync`) and closes the descriptor; the errno of the first failure, or 0.
    private static func writeAll(_ data: some ContiguousBytes, to descriptor: Int32, sync: Bool = false) -> Int32 {
        var failure = data.withUnsafeBytes { SystemCall.writeAll(descriptor, $0) }
        if sync && failure == 0 && fsync(descriptor) != 0 { failure = errno }
        if SystemCall.closeFile(descriptor) != 0 && failure == 0 { failure = errno }
        return failure
    }
}
