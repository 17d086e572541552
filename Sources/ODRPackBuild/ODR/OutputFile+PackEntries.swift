import ODRPackBuildFormat
import ODRPackPlatform

extension OutputFile {
    /// Gives the folders of `entries` under `root`, and `root` itself, mode 0755 and `time`: deepest first, since
    /// writing inside a folder changes its time. Each folder's path is joined as text and made a `FilePath` once.
    static func setFolderAttributes(
        of entries: some BidirectionalCollection<PackEntry>, under root: FilePath, time: Int64
    ) throws {
        for entry in entries.reversed() where entry.isFolder {
            try setFolderAttributes(root.joined(String(entry.name.dropLast())), time: time)
        }
        try setFolderAttributes(root, time: time)
    }
}
