/// The first bytes of a file Apple's `ba-package` writes: an Apple Archive (`AA01`, `YAA1`), an encrypted one
/// (`AEA1`), or a compressed one (`pbz` and its algorithm: `-` none, `4` lz4, `b` lzbitmap, `e` lzfse, `f` lzvn,
/// `x` lzma, `z` zlib). `upload` refuses any other file before it changes anything in App Store Connect, and `verify`
/// reports it as `verify-ba-archive-format` (docs/store.md#trust-boundaries): App Store Connect would take the bytes
/// and fail the version hours later.
package enum AppleArchiveSignature {
    /// Bytes enough to decide.
    package static let length = 4

    /// What `upload` and `verify` say of another file, after the pack's name.
    package static let problem = "not an Apple Archive: was it made by Apple's ba-package?"

    /// Whether `prefix`, a file's first bytes (fewer when the file is shorter), starts an Apple Archive.
    package static func matches(_ prefix: some Collection<UInt8>) -> Bool {
        let head = Array(prefix.prefix(length))
        guard head.count == length else { return false }
        if [Array("AA01".utf8), Array("YAA1".utf8), Array("AEA1".utf8)].contains(head) { return true }
        return head[0..<3] == Array("pbz".utf8)[...] && Array("-4befxz".utf8).contains(head[3])
    }
}
