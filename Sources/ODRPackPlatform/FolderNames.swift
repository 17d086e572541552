#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder's names as the file system holds them, bytes and all: a name that is not valid UTF-8 has no `String` that
/// opens it again (Foundation's listing repairs it into another name, whose `stat` then fails with a false "No such
/// file or directory"), so a caller that must go on past such a name gets it as bytes, to report and skip.
package enum FolderNames {
    package struct Name: Sendable {
        /// The name, or nil when its bytes are not valid UTF-8.
        package let text: String?
        package let bytes: [UInt8]

        /// The entry's path in `folder`, from the name's bytes: it reaches the entry even when the name is not UTF-8.
        package func path(in folder: FilePath) -> FilePath {
            // A listed name is one name: never empty, ".", "..", nor holding "/" or NUL (which `list` never gives).
            folder.joined(name: bytes)!
        }

        /// The name for a message or a comment: valid UTF-8 as is, every other byte, and every control character (C0,
        /// DEL, C1), as `\xNN`, so a name can neither break a line nor drive a terminal.
        package var escaped: String { FilePath.shownText(of: bytes, escapingControls: true) }
    }

    /// The names in `folder` (not `.` and `..`), in the order the file system gives them.
    /// - Throws: `ODRPackError` when the folder cannot be opened or read to its end.
    package static func list(_ folder: FilePath) throws -> [Name] {
        guard let handle = folder.withPlatformString({ opendir($0) }) else {
            throw ODRPackError.system(.list, folder)
        }
        defer { closedir(handle) }
        var names: [Name] = []
        while true {
            errno = 0
            guard let entry = readdir(handle) else {
                if errno != 0 { throw ODRPackError.system(.list, folder) }
                break
            }
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw -> [UInt8] in
                let all = raw.bindMemory(to: UInt8.self)
                return Array(all.prefix(while: { $0 != 0 }))
            }
            if bytes == [UInt8(ascii: ".")] || bytes == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            names.append(Name(text: String(validating: bytes, as: UTF8.self), bytes: bytes))
        }
        return names
    }
}
