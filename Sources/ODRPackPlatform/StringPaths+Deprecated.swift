// The file-system calls' old `String` forms, kept while the modules that still pass text move to `FilePath`
// (docs/architecture.md#paths; issue #47). Each forwards to the `FilePath` form; a call that refused a NUL before (EINVAL)
// still does, through `FilePath(checking:)`. This whole file goes once no caller uses it.

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SystemCall {
    @available(*, deprecated, message: "pass a FilePath")
    package static func status(_ path: String, followingLinks: Bool = true) -> FileStatus? {
        FilePath(checking: path).flatMap { status($0, followingLinks: followingLinks) }
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func requireStatus(_ path: String, followingLinks: Bool = true, _ what: @autoclosure () -> String)
        throws -> FileStatus
    {
        guard let checked = FilePath(checking: path) else { throw ODRPackError.systemCall(what(), SystemError(EINVAL)) }
        return try requireStatus(checked, followingLinks: followingLinks, what())
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func exists(_ path: String) -> Bool { FilePath(checking: path).map { exists($0) } ?? false }

    @available(*, deprecated, message: "pass a FilePath")
    package static func removeFolderIfEmpty(_ path: String) {
        if let checked = FilePath(checking: path) { removeFolderIfEmpty(checked) }
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func createFile(_ path: String) throws -> Int32 {
        guard let checked = FilePath(checking: path) else {
            throw ODRPackError.systemCall("cannot create '\(path)'", SystemError(EINVAL))
        }
        return try createFile(checked)
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func openForReading(_ path: String) -> Result<Int32, SystemError> {
        guard let checked = FilePath(checking: path) else { return .failure(SystemError(EINVAL)) }
        return openForReading(checked)
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func setPermissions(_ path: String, _ permissions: FileMode) -> SystemError? {
        guard let checked = FilePath(checking: path) else { return SystemError(EINVAL) }
        return setPermissions(checked, permissions)
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func rename(_ from: String, to: String) -> SystemError? {
        guard let from = FilePath(checking: from), let to = FilePath(checking: to) else { return SystemError(EINVAL) }
        return rename(from, to: to)
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func removeFile(_ path: String) -> SystemError? {
        guard let checked = FilePath(checking: path) else { return SystemError(EINVAL) }
        return removeFile(checked)
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func makeDurable(folder: String, written: [String]) throws {
        try makeDurable(folder: FilePath(folder), written: written.map { FilePath($0) })
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func isRemoteFileSystem(_ path: String) -> Bool? {
        FilePath(checking: path).flatMap { isRemoteFileSystem($0) }
    }

    @available(*, deprecated, message: "use `executable`, a FilePath")
    package static var executablePath: String { executable.string }

    @available(*, deprecated, message: "use `userHome`, a FilePath")
    package static var userHomeFolder: String? { userHome?.string }
}

extension LocalFileSystem {
    @available(*, deprecated, message: "pass a FilePath")
    package func contents(of path: String) -> Result<[UInt8], SystemError> {
        guard let checked = FilePath(checking: path) else { return .failure(SystemError(EINVAL)) }
        return contents(of: checked)
    }
}

extension FileCopy {
    @available(*, deprecated, message: "pass a FilePath")
    package static func copy(
        _ source: String, to destination: String, size: Int64? = nil, permissions: FileMode? = nil,
        buffer: ReadBuffer? = nil
    ) throws {
        try copy(FilePath(source), to: FilePath(destination), size: size, permissions: permissions, buffer: buffer)
    }
}

extension AtomicFile {
    @available(*, deprecated, message: "pass a FilePath")
    package static func write(
        _ data: some ContiguousBytes, to givenPath: String, unlinkingFirst: Bool = false, replacingLinks: Bool = false,
        durable: Bool = false
    ) throws {
        try write(
            data, to: FilePath(givenPath), unlinkingFirst: unlinkingFirst, replacingLinks: replacingLinks,
            durable: durable)
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func stage(
        _ data: some ContiguousBytes, for givenPath: String, replacingLinks: Bool = false,
        replacingAnything: Bool = false, durable: Bool = false
    ) throws -> StagedFile {
        try stage(
            data, for: FilePath(givenPath), replacingLinks: replacingLinks, replacingAnything: replacingAnything,
            durable: durable)
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func stage(
        _ document: StreamedDocument, for givenPath: String, replacingLinks: Bool = false,
        replacingAnything: Bool = false, durable: Bool = false
    ) throws -> StagedFile {
        try stage(
            document, for: FilePath(givenPath), replacingLinks: replacingLinks, replacingAnything: replacingAnything,
            durable: durable)
    }
}

extension OutputFile {
    @available(*, deprecated, message: "pass a FilePath")
    package init(path: String) throws { try self.init(path: FilePath(path)) }

    @available(*, deprecated, message: "pass a FilePath")
    package static func setFileAttributes(_ path: String, time: Int64) throws {
        try setFileAttributes(FilePath(path), time: time)
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func setFolderAttributes(_ path: String, time: Int64) throws {
        try setFolderAttributes(FilePath(path), time: time)
    }
}

extension OutputFolder {
    @available(*, deprecated, message: "pass a FilePath")
    package static func makeFolder(_ path: String) throws { try makeFolder(FilePath(path)) }

    @available(*, deprecated, message: "pass a FilePath")
    package static func syncFolder(_ path: String) throws { try syncFolder(FilePath(path)) }

    @available(*, deprecated, message: "pass a FilePath")
    package static func moveIntoPlace(_ from: String, to: String) throws {
        try moveIntoPlace(FilePath(from), to: FilePath(to))
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func moveAside(_ path: String) throws -> String? { try moveAside(FilePath(path))?.string }

    @available(*, deprecated, message: "pass a FilePath")
    package static func remove(_ path: String) throws { try remove(FilePath(path)) }

    @available(*, deprecated, message: "pass a FilePath")
    package static func removeTemporaries(
        in folder: String, prefix: String = TemporaryName.marker, except kept: [String] = []
    ) throws {
        try removeTemporaries(in: FilePath(folder), prefix: prefix, except: kept)
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func names(in folder: String) throws -> [String] { try names(in: FilePath(folder)) }
}

extension OutputLock {
    @available(*, deprecated, message: "pass a FilePath")
    package convenience init(folder: String, fileName: String, wait: Bool, onWait: () -> Void) throws {
        try self.init(folder: FilePath(folder), fileName: fileName, wait: wait, onWait: onWait)
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func shared(folder: String, fileName: String, onWait: () -> Void) throws -> OutputLock? {
        try shared(folder: FilePath(folder), fileName: fileName, onWait: onWait)
    }
}

extension OutputTarget {
    @available(*, deprecated, message: "use `file`, a FilePath")
    package var filePath: String? { file?.string }
}

extension SourceFile {
    @available(*, deprecated, message: "pass a FilePath")
    package init(path: String, name: String, expected: FileStamp?, size: Int64) throws {
        try self.init(path: FilePath(path), name: name, expected: expected, size: size)
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func sha256(
        of path: String, name: String? = nil, expected: FileStamp? = nil, size: Int64? = nil,
        buffer: ReadBuffer? = nil, _ body: (UnsafeRawBufferPointer) throws -> Void = { _ in }
    ) throws -> (size: Int64, sha256: String) {
        try sha256(of: FilePath(path), name: name ?? path, expected: expected, size: size, buffer: buffer, body)
    }
}

extension FolderWalk {
    @available(*, deprecated, message: "pass a FilePath")
    package static func entries(
        under root: String, slashedFolders: Bool = false, skipping: (String) -> Bool = { _ in false },
        entering: (Entry) -> Bool = { _ in true }
    ) throws -> [Entry] {
        try entries(under: FilePath(root), slashedFolders: slashedFolders, skipping: skipping, entering: entering)
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func walk(
        under root: String, slashedFolders: Bool = false, skipping: (String) -> Bool = { _ in false },
        entering: (Entry) -> Bool = { _ in true }, _ visit: (Entry) throws -> Void
    ) throws {
        try walk(under: FilePath(root), slashedFolders: slashedFolders, skipping: skipping, entering: entering, visit)
    }
}

extension FolderNames {
    @available(*, deprecated, message: "pass a FilePath")
    package static func list(_ folder: String) throws -> [Name] { try list(FilePath(folder)) }
}

extension TemporaryName {
    /// Not yet deprecated: SpillFile.swift (the performance work's) still calls it; deprecate it once that moves.
    package static func path(beside path: String) -> String { self.path(beside: FilePath(path)).string }

    @available(*, deprecated, message: "pass a FilePath")
    package static func abandoned(in folder: String, matching matches: (Substring) -> Bool) throws -> [String] {
        try abandoned(in: FilePath(folder), matching: matches)
    }
}

extension StandardStream {
    @available(*, deprecated, message: "pass a FilePath")
    package static func append(_ text: String, toFileAt path: String, name: String) throws {
        try append(text, toFileAt: FilePath(path), name: name)
    }
}

extension ShellCommand {
    @available(*, deprecated, message: "pass a FilePath")
    package static func run(_ command: String, in directory: String, what: String, on subject: String) throws {
        try run(command, in: FilePath(directory), what: what, on: subject)
    }
}

extension StreamedDocument {
    @available(*, deprecated, message: "pass a FilePath")
    package func compare(withFileAt path: String) -> Comparison { compare(withFileAt: FilePath(path)) }
}
