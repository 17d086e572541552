#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An entry's kind and metadata.
public struct FileStatus: Sendable, Equatable {
    public enum Kind: Sendable {
        case regular, directory, symbolicLink, other

        /// The kind an `st_mode` names.
        init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .regular
            case S_IFDIR: self = .directory
            case S_IFLNK: self = .symbolicLink
            default: self = .other
            }
        }
    }

    public var kind: Kind
    public var stamp: FileStamp
    /// The whole `st_mode`: type and permission bits.
    var mode: FileMode = 0

    public init(kind: Kind, stamp: FileStamp) {
        self.kind = kind
        self.stamp = stamp
    }

    init(_ info: stat) {
        self.init(kind: Kind(mode: info.st_mode), stamp: FileStamp(info))
        mode = info.st_mode
    }

    /// The permission bits alone (`0o755`).
    var permissions: FileMode { mode & 0o7777 }
}
