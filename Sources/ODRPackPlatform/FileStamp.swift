/// Metadata that identifies a file's content without reading it: if all of it is equal, the bytes are too.
package struct FileStamp: Equatable, Hashable, Sendable, Codable {
    package var size: Int64
    package let modificationNanoseconds: Int64
    package let changeNanoseconds: Int64
    package let inode: UInt64
    package let device: UInt64

    package init(size: Int64, modificationNanoseconds: Int64, changeNanoseconds: Int64, inode: UInt64, device: UInt64) {
        self.size = size
        self.modificationNanoseconds = modificationNanoseconds
        self.changeNanoseconds = changeNanoseconds
        self.inode = inode
        self.device = device
    }
}
