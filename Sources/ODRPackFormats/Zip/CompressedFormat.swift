/// File formats that are compressed already, recognised by their first bytes: deflating them again saves nothing
/// worth the time, so `--compression auto` stores them without a trial (the choice still depends only on the bytes).
package enum CompressedFormat {
    /// How many leading bytes `matches` needs at most.
    package static let prefixLength = 12

    /// Whether `prefix` (a file's first bytes) starts a compressed image, audio, video, font or archive format.
    package static func matches(_ prefix: UnsafeRawBufferPointer) -> Bool {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            prefix.count >= offset + magic.count && magic.indices.allSatisfy { prefix[offset + $0] == magic[$0] }
        }
        let ascii = { (text: String) in Array(text.utf8) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return true }  // PNG
        if starts([0xFF, 0xD8, 0xFF]) { return true }  // JPEG
        if starts(ascii("GIF87a")) || starts(ascii("GIF89a")) { return true }
        if starts(ascii("RIFF")) && starts(ascii("WEBP"), at: 8) { return true }
        if starts(ascii("ftyp"), at: 4) { return true }  // ISO media: MP4, M4A, MOV, HEIC, AVIF, 3GP
        if starts(ascii("OggS")) || starts(ascii("fLaC")) || starts(ascii("ID3")) { return true }  // Ogg (Vorbis, Opus), FLAC, MP3
        if prefix.count >= 2 && prefix[0] == 0xFF && [0xF1, 0xF9, 0xF2, 0xF3, 0xFA, 0xFB].contains(prefix[1]) {
            return true
        }  // MPEG audio, ADTS AAC
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x1F, 0x8B]) || starts([0x28, 0xB5, 0x2F, 0xFD]) {
            return true
        }  // zip, gzip, zstd
        if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) || starts(ascii("BZh"))
            || starts([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C])
        {
            return true
        }  // xz, bzip2, 7z
        if starts(ascii("wOF2")) { return true }  // WOFF2 font
        return false
    }
}
