import Foundation

/// What resolving a manifest needs to know of the disk. Resolution is a pure function of the manifest and this
/// view (plus the scan it hands out), so tests can inject a file system that fails where a real one rarely does.
/// Its paths are text, as the manifest and the scan give them (docs/architecture.md#paths): a resolution asks about
/// a million of them, and a `FilePath` would cost each an allocation.
package protocol ResourceFileSystem: Sendable {
    /// The path with every symbolic link resolved.
    func resolvedPath(_ path: String) -> Result<String, SystemError>
    /// Metadata of what the path leads to (links followed), or of the entry itself.
    func status(_ path: String, followingLinks: Bool) -> Result<FileStatus, SystemError>
    /// Everything under a folder, metadata only.
    func scan(_ path: String) -> FileTree
    /// Everything under a folder in the subfolders `descending` accepts (given their paths relative to `path`).
    func scan(_ path: String, descending: @escaping @Sendable ([UInt8]) -> Bool) -> FileTree
    /// The names in a folder as the file system stores them; nil when it cannot be listed.
    func names(in folder: String) -> [String]?
    /// Up to `count` bytes at `offset` of a file: the few bytes the executable-content check reads.
    func read(_ path: String, count: Int, at offset: Int64) -> Result<[UInt8], SystemError>
    /// The first `count` bytes of each named file of one folder, in order: the executable-content check's reads.
    func readHeads(of names: [String], inFolder folder: String, count: Int) -> [Result<[UInt8], SystemError>]
}

extension ResourceFileSystem {
    package func names(in folder: String) -> [String]? { try? FileManager.default.contentsOfDirectory(atPath: folder) }

    package func scan(_ path: String, descending: @escaping @Sendable ([UInt8]) -> Bool) -> FileTree { scan(path) }

    package func readHeads(of names: [String], inFolder folder: String, count: Int) -> [Result<[UInt8], SystemError>] {
        names.map { read(folder.slashJoined($0), count: count, at: 0) }
    }
}
