#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileStamp {
    init(_ info: stat) {
        let (modified, changed) = SystemCall.modificationAndChange(info)
        self.init(
            size: Int64(info.st_size), modificationNanoseconds: modified, changeNanoseconds: changed,
            inode: UInt64(info.st_ino), device: SystemCall.device(info))
    }
}
