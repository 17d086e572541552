import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file beside its final name and renames it into place: a reader sees the old file or the whole new one.
package enum AtomicFile {
    static func temporaryPath(for path: String) -> String { TemporaryName.path(beside: path) }

    /// - Parameter unlinkingFirst: remove the old file just before the rename, which is then not atomic but spares
    ///   a large file ext4's flush on replacing rename. The temporary never outlives a failure. A device or pipe at `path`
    ///   is written in place; a symbolic link is kept and its target replaced, or with `replacingLinks` replaced itself
    ///   (for files inside a folder that must not reach out of it, such as an app).
    /// - Parameter durable: the bytes reach stable storage before the rename, and the rename before the return
    ///   (fsync of the file, then of its folder): for a build's manifests, which must never name what a power cut lost.
    package static func write(
        _ data: some ContiguousBytes, to givenPath: String, unlinkingFirst: Bool = false, replacingLinks: Bool = false,
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
        _ data: some ContiguousBytes, for givenPath: String, replacingLinks: Bool = false,
        replacingAnything: Bool = false, durable: Bool = false
    ) throws -> StagedFile {
        let path: String
        switch try destination(givenPath, replacingLinks: replacingLinks, replacingAnything: replacingAnything) {
        case .inPlace(let device):
            return StagedFile(path: device, place: .inPlace(data.withUnsafeBytes { Data($0) }), durable: durable)
        case .file(let file): path = file
        }
        let temporary = temporaryPath(for: path)
        let descriptor = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ODRPackError.system("cannot write '\(path)'") }
        let failure = writeAll(data, to: descriptor, sync: durable)
        guard failure == 0 else {
            unlink(temporary)
            throw ODRPackError.system("cannot write '\(path)'", failure)
        }
        return StagedFile(path: path, place: .temporary(temporary), durable: durable)
    }

    /// `stage` of a document written as it is made, a chunk at a time (docs/build-output.md#bounded): a document of any
    /// size costs one chunk of memory. A failure to write (a full disk) or to make the document removes the temporary
    /// and throws; nothing is ever renamed into place half-written.
    package static func stage(
        _ document: StreamedDocument, for givenPath: String, replacingLinks: Bool = false,
        replacingAnything: Bool = false, durable: Bool = false
    ) throws -> StagedFile {
        let path: String
        switch try destination(givenPath, replacingLinks: replacingLinks, replacingAnything: replacingAnything) {
        case .inPlace(let device):
            return StagedFile(path: device, place: .inPlace(Data(try document.bytes())), durable: durable)
        case .file(let file): path = file
        }
        let temporary = temporaryPath(for: path)
        let descriptor = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ODRPackError.system("cannot write '\(path)'") }
        var sink = DocumentSink { chunk in
            let failure = SystemCall.writeAll(descriptor, chunk)
            if failure != 0 { throw ODRPackError.system("cannot write '\(path)'", failure) }
        }
        do {
            try document.write(&sink)
            try sink.flush()
        } catch {
            SystemCall.closeFile(descriptor)
            unlink(temporary)
            throw error
        }
        let failure = writeAll([UInt8](), to: descriptor, sync: durable)
        guard failure == 0 else {
            unlink(temporary)
            throw ODRPackError.system("cannot write '\(path)'", failure)
        }
        return StagedFile(path: path, place: .temporary(temporary), durable: durable)
    }

    /// Where `stage` writes for `givenPath`: the regular file at the end of a live link (unless told otherwise), or a
    /// device or pipe, written in place.
    private enum Destination {
        case file(String)
        case inPlace(String)
    }

    private static func destination(_ givenPath: String, replacingLinks: Bool, replacingAnything: Bool) throws
        -> Destination
    {
        var path = givenPath
        var info = stat()
        var exists = !replacingAnything && lstat(givenPath, &info) == 0
        if exists && (info.st_mode & S_IFMT) == S_IFLNK {
            // A live link stays a link unless told otherwise: what it leads to is written. A dangling one is replaced.
            exists = !replacingLinks && stat(givenPath, &info) == 0
            if exists, case .success(let target) = LocalFileSystem().resolvedPath(givenPath) { path = target }
        }
        guard exists else { return .file(path) }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return .file(path)
        case S_IFDIR:
            throw ODRPackError.system("cannot write '\(givenPath)'", EISDIR)
        default:
            // A device, pipe or terminal (/dev/stdout, a FIFO) is written in place, as a shell's '>' writes it:
            // renaming over it would replace the device with a file.
            return .inPlace(path)
        }
    }

    /// A file `AtomicFile.stage` wrote beside its final name, waiting to be renamed into place.
    package struct StagedFile: Sendable {
        enum Place: Sendable {
            case temporary(String)
            /// A device or pipe, written when the file would be moved into place.
            case inPlace(Data)
        }

        /// The final path, links resolved.
        let path: String
        let place: Place
        let durable: Bool

        /// - Parameter syncingFolder: with `durable`, flush the rename too; false for a caller that flushes the folder
        ///   itself after more renames in it (one flush for all).
        package func moveIntoPlace(unlinkingFirst: Bool = false, syncingFolder: Bool = true) throws {
            switch place {
            case .inPlace(let data):
                try writeInPlace(data, to: path)
            case .temporary(let temporary):
                if unlinkingFirst { unlink(path) }
                guard rename(temporary, path) == 0 else {
                    let code = errno
                    unlink(temporary)
                    throw ODRPackError.system("cannot move '\(temporary)' to '\(path)'", code)
                }
                if durable && syncingFolder {
                    let folder = (path as NSString).deletingLastPathComponent
                    try SystemCall.syncFolder(folder.isEmpty ? "." : folder)
                }
            }
        }

        /// Removes the temporary, for a build that fails before it moves the file into place.
        package func discard() {
            if case .temporary(let temporary) = place { unlink(temporary) }
        }
    }

    private static func writeInPlace(_ data: some ContiguousBytes, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ODRPackError.system("cannot write '\(path)'") }
        let failure = writeAll(data, to: descriptor)
        guard failure == 0 else { throw ODRPackError.system("cannot write '\(path)'", failure) }
    }

    /// Writes all of `data` (then fsyncs it when `sync`) and closes the descriptor; the errno of the first failure, or 0.
    private static func writeAll(_ data: some ContiguousBytes, to descriptor: Int32, sync: Bool = false) -> Int32 {
        var failure = data.withUnsafeBytes { SystemCall.writeAll(descriptor, $0) }
        if sync && failure == 0 && fsync(descriptor) != 0 { failure = errno }
        if SystemCall.closeFile(descriptor) != 0 && failure == 0 { failure = errno }
        return failure
    }
}
