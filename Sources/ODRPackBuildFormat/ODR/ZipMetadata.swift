import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// `META-INF/com.apple.ZipMetadata.plist`, the second entry of every archived pack (docs/build-output.md): how many entries
/// follow the two META-INF ones and their total uncompressed bytes, so a device can size the unpacking up front.
package struct ZipMetadata: Equatable {
    package static let folderName = "META-INF/"
    package static let fileName = "META-INF/com.apple.ZipMetadata.plist"
    /// 040755 and 0100644 as the signed 16-bit numbers Apple's packs hold.
    static let standardDirectoryPerms: Int64 = 16877
    static let standardFilePerms: Int64 = -32348

    package let recordCount: Int64
    package let totalUncompressedBytes: Int64

    package init(recordCount: Int64, totalUncompressedBytes: Int64) {
        self.recordCount = recordCount
        self.totalUncompressedBytes = totalUncompressedBytes
    }

    /// The counts for a pack's content entries.
    /// - Throws: `ODRPackError.buildInput` when their sizes add up past Int64.max (`plan` reports that as
    ///   `size-overflow` before a build starts; this keeps any other caller from trapping).
    package init(entries: [PackEntry]) throws {
        try self.init(count: entries.count, sizes: entries.lazy.map(\.size))
    }

    /// The counts for `count` content entries of these uncompressed sizes (`PackEntries.sizes`).
    package init(count: Int, sizes: some Sequence<Int64>) throws {
        guard let total = sizes.checkedSum else {
            throw ODRPackError.buildInput(.sizeOverflow)
        }
        self.init(recordCount: Int64(count), totalUncompressedBytes: total)
    }

    package var propertyList: PropertyListValue {
        .dictionary([
            "Version": .int(2),
            "RecordCount": .int(recordCount),
            "TotalUncompressedBytes": .int(totalUncompressedBytes),
            "StandardDirectoryPerms": .int(Self.standardDirectoryPerms),
            "StandardFilePerms": .int(Self.standardFilePerms),
        ])
    }
}
