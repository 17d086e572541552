#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An entry's kind and metadata.
package struct FileStatus: Sendable, Equatable {
    package enum Kind: Sendable {
        case regular, directory, symbolicLink, other

        /// The kind an `st_mode` names.
        package init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .regular
            case S_IFDIR: self = .directory
            case S_IFLNK: self = .symbolicLink
            default: self = .other
            }
        }
    }

    package let kind: Kind
    package let stamp: FileStamp
    /// The whole `st_mode`: type and permission bits.
    package var mode: FileMode = 0
    /// The owner's user id: a cache folder another user owns is not trusted (docs/build-output.md#incremental).
    package var owner: UInt32 = 0
    /// The group's id: a manifest its user's own group may write is still the user's (docs/commands.md#scripts).
    package var group: UInt32 = 0

    package init(kind: Kind, stamp: FileStamp) {
        self.kind = kind
        self.stamp = stamp
    }

    init(_ info: stat) {
        self.init(kind: Kind(mode: info.st_mode), stamp: FileStamp(info))
        mode = info.st_mode
        owner = UInt32(info.st_uid)
        group = UInt32(info.st_gid)
    }

    /// The permission bits alone (`0o755`).
    package var permissions: FileMode { mode & 0o7777 }
}
