import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command's output FILE goes (`report --output`, `diff --html`, `import-xcode --output`): the one place that
/// decides how such a file is opened (docs/commands.md#scripts).
///
/// - `-` is standard output.
/// - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` are the descriptor the shell opened: written
///   through it, so `report --output /dev/stdout >> ci.log` appends to `ci.log`. Opening the link again would start a
///   new offset at 0, and renaming over what it leads to would replace `ci.log`, losing its earlier lines.
/// - Any other path that leads to what standard output or standard error is (the same device and inode:
///   `/dev/./stdout`, `/proc/thread-self/fd/1`, `/proc/<pid>/fd/1`, a link to `/dev/stdout`) is that descriptor too:
///   what a path is decides, not how it is spelt.
///
/// Descriptors 1 and 2 are the command's `CommandStreams`: the process's own when odrpack runs as itself, memory when
/// a test runs the command in-process; which file each stream is (its device and inode) is the stream's to say.
/// - Any other file that is not a regular one (a FIFO, a terminal, `/dev/null`) is opened and written in place.
/// - A regular file (or a link to one, or nothing yet) is written beside its name and renamed into place, so a reader
///   sees the old file or the whole new one; a missing parent folder is made first, as `build` makes its DIR's.
package struct OutputTarget: Sendable {
    package enum Kind: Sendable, Equatable {
        /// An open descriptor: 1 for `-` and `/dev/stdout`.
        case descriptor(Int32)
        /// A device, pipe or terminal at this path.
        case inPlace(FilePath)
        /// A regular file, written beside and renamed.
        case file(FilePath)
    }

    /// The path as the command line gave it, for messages.
    package let name: String
    package let kind: Kind
    /// The command's stdout and stderr, which descriptors 1 and 2 are.
    package let streams: CommandStreams

    /// The command line's text is where the path comes in (docs/architecture.md#paths): checked for a NUL here.
    /// - Throws: a folder given as the file, or a descriptor link whose descriptor is not open (exit 2).
    package init(_ path: String, streams: CommandStreams) throws { try self.init(path, file: nil, streams: streams) }

    /// The target a path given as bytes names (a command line's argument, docs/architecture.md#paths): `out\xE9.html`
    /// stays itself; `-` is standard output.
    package init(_ path: FilePath, streams: CommandStreams) throws {
        try self.init(path.text, file: path, streams: streams)
    }

    private init(_ path: String, file given: FilePath?, streams: CommandStreams) throws {
        name = path
        self.streams = streams
        if path == "-" {
            kind = .descriptor(StandardStream.output)
            return
        }
        if let descriptor = Self.descriptorNamed(path) {
            guard streams.stream(descriptor) != nil || fcntl(descriptor, F_GETFD) != -1 else {
                throw ODRPackError.call(.descriptorNotOpen(path, descriptor: descriptor), SystemError(EBADF))
            }
            kind = .descriptor(descriptor)
            return
        }
        guard let file = given ?? FilePath(checking: path) else {
            throw ODRPackError.call(.named(.write, path), SystemError(EINVAL))
        }
        let status = SystemCall.status(file, followingLinks: true)
        if let status, let descriptor = Self.standardDescriptor(sameAs: status, streams: streams) {
            kind = .descriptor(descriptor)
            return
        }
        switch status?.kind {
        case nil, .regular?: kind = .file(file)
        case .directory?:
            throw ODRPackError.call(.outputIsFolder(path), SystemError(EISDIR))
        case .symbolicLink?, .other?: kind = .inPlace(file)
        }
    }

    /// The descriptor a path names: `/dev/stdout` (1), `/dev/stderr` (2), `/dev/stdin` (0), `/dev/fd/N`,
    /// `/proc/self/fd/N`; nil for any other path. Repeated and trailing slashes do not hide one.
    static func descriptorNamed(_ path: String) -> Int32? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard path.hasPrefix("/") else { return nil }
        switch parts.count {
        case 2 where parts[0] == "dev":
            switch parts[1] {
            case "stdin": return 0
            case "stdout": return 1
            case "stderr": return 2
            default: return nil
            }
        case 3 where parts[0] == "dev" && parts[1] == "fd":
            return Int32(parts[2]).flatMap { $0 >= 0 ? $0 : nil }
        case 4
        where parts[0] == "proc" && parts[2] == "fd"
            && (parts[1] == "self" || parts[1] == "thread-self" || parts[1] == "\(getpid())"):
            return Int32(parts[3]).flatMap { $0 >= 0 ? $0 : nil }
        default: return nil
        }
    }

    /// Standard output (1) or standard error (2) when `status` is what that stream is open on (device and inode),
    /// else nil: how a path leads there does not matter.
    static func standardDescriptor(sameAs status: FileStatus, streams: CommandStreams) -> Int32? {
        [StandardStream.output, StandardStream.error].first { descriptor in
            guard let identity = streams.stream(descriptor)?.identity else { return false }
            return identity.device == status.stamp.device && identity.inode == status.stamp.inode
        }
    }

    /// Whether `path` leads to standard output, as `OutputTarget(path)` decides it (`-`, `/dev/stdout`, or any path to
    /// what the command's stdout is): for a command that must not print a second document on the same stream.
    package static func isStandardOutput(_ path: String, streams: CommandStreams) -> Bool {
        (try? OutputTarget(path, streams: streams))?.isStandardOutput ?? false
    }

    /// Refuses (exit 2, before anything is written) a regular-file target that is one of the command's `inputs`
    /// (`report`'s manifest, `diff`'s build manifests): the same file by device and inode, however either path is
    /// spelt (docs/commands.md#scripts). Writing it would destroy what the command read.
    /// - Parameter command: the command, for the message ("report").
    package func refuse(inputs: [FilePath], command: String) throws {
        guard case .file(let path) = kind, let target = SystemCall.status(path, followingLinks: true) else { return }
        for input in inputs {
            guard let status = SystemCall.status(input, followingLinks: true),
                status.kind == .regular, status.stamp.device == target.stamp.device,
                status.stamp.inode == target.stamp.inode
            else { continue }
            throw ODRPackError.output(.outputIsInput(output: name, input: input, command: command))
        }
    }

    /// The regular-file target's absolute path with every link resolved, for one not made yet that of its nearest
    /// existing folder followed by the rest as given; nil for a descriptor or a device. What a caller compares with
    /// folders it knows (a build folder's own files), whatever the spelling.
    package var resolvedFile: FilePath? {
        guard case .file(let given) = kind, case .success(let path) = LocalFileSystem().absolute(given) else {
            return nil
        }
        var rest: [FilePath.Component] = []
        var folder = path
        while true {
            if case .success(let real) = LocalFileSystem().resolved(folder) {
                return rest.reversed().reduce(real) { $0.appending($1) }
            }
            guard let last = folder.lastComponent, folder.removingLastComponent() != folder else { return nil }
            rest.append(last)
            folder = folder.removingLastComponent()
        }
    }

    /// The document goes to standard output: a `Wrote FILE` line then goes to stderr, so as not to mix into it.
    package var isStandardOutput: Bool { kind == .descriptor(StandardStream.output) }

    /// Not a regular file: written in place, never needs `--force`, and a relative path written into it is relative
    /// to the current folder (where the shell that opened it runs), not to the folder of `/dev/stdout`.
    package var isInPlace: Bool {
        if case .file = kind { return false }
        return true
    }

    /// The regular file's path, when the target is one.
    package var file: FilePath? {
        if case .file(let path) = kind { return path }
        return nil
    }

    package func write(_ text: String) throws {
        try write(StreamedDocument(bytes: Array(text.utf8)))
    }

    /// Writes the document a chunk at a time (docs/build-output.md#bounded).
    package func write(_ document: StreamedDocument) throws {
        switch kind {
        case .descriptor(let descriptor):
            let streams = streams
            var sink = DocumentSink { chunk in try Self.write(chunk, to: descriptor, name: name, streams: streams) }
            try document.write(&sink)
            try sink.flush()
        case .inPlace(let path):
            let descriptor = path.withPlatformString { open($0, O_WRONLY | O_CLOEXEC) }
            guard descriptor >= 0 else { throw ODRPackError.system(.write, path) }
            defer { SystemCall.closeFile(descriptor) }
            var sink = DocumentSink { chunk in
                let failure = SystemCall.writeAll(descriptor, chunk)
                guard failure == 0 else { throw ODRPackError.system(.write, path, failure) }
            }
            try document.write(&sink)
            try sink.flush()
        case .file(let path):
            // The mode of a file replaced is kept; parent folders made here go again when nothing is written.
            let folder = path.removingLastComponent()
            var made: FilePath?
            if !folder.isEmpty, SystemCall.status(folder, followingLinks: true) == nil {
                made = try OutputFolder.makeFolders(folder)
            }
            do {
                try AtomicFile.stage(document, for: path, keepingMode: true).moveIntoPlace()
            } catch {
                if let made { try? OutputFolder.remove(made) }
                throw error
            }
        }
    }

    /// Stdout and stderr go through the command's streams (a closed pipe is no failure on the process's stdout); any
    /// other descriptor fails with its name.
    private static func write(
        _ chunk: UnsafeRawBufferPointer, to descriptor: Int32, name: String, streams: CommandStreams
    ) throws {
        if let stream = streams.stream(descriptor) {
            try stream.write(bytes: chunk)
            return
        }
        let failure = SystemCall.writeAll(descriptor, chunk)
        guard failure == 0 else { throw ODRPackError.system(.named(.write, name), failure) }
    }
}
