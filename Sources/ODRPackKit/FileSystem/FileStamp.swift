/// Metadata that identifies a file's content without reading it: if all of it is equal, the bytes are too.
public struct FileStamp: Equatable, Hashable, Sendable, Codable {
    public var size: Int64
    public var modificationNanoseconds: Int64
    public var changeNanoseconds: Int64
    public var inode: UInt64
    public var device: UInt64

    public init(size: Int64, modificationNanoseconds: Int64, changeNanoseconds: Int64, inode: UInt64, device: UInt64) {
        self.size = size
        self.modificationNanoseconds = modificationNanoseconds
        self.changeNanoseconds = changeNanoseconds
        self.inode = inode
        self.device = device
    }
}
